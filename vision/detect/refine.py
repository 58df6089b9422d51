"""Snapping card hypotheses onto the card's true border.

Why a module of its own: guesses made from corners ignore perspective and outlines
from contours cut the rounded corners, so every quad the detector keeps is moved
side by side onto the strongest brightness step across it and the sides are
re-intersected. It runs on dozens of quads per frame, at work scale and once more at
full resolution, so it is vectorised over quads.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from vision.detect import kernels
from vision.detect.geometry import add_points, lengths, lerp_points


class Gradients(Protocol):
    """Anything with x and y gradient images (vision.detect.evidence.Evidence)."""

    @property
    def gx(self) -> np.ndarray: ...

    @property
    def gy(self) -> np.ndarray: ...


def refine_many(
    ev: Gradients, quads: np.ndarray, reach: float = 4.0, span: tuple[float, float] = (0.12, 0.88),
    step: float = 1.0, origin: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """Move each side onto the strongest gradient across it within `reach` pixels
    (brighter inwards: the paper's own border, not the outer rim of its shadow),
    fit a line to those points, and intersect neighbouring sides. Sides with too
    little evidence (hidden under another card) stay where they are. Vectorised over
    quads (H, 4, 2): the detector polishes dozens of guesses per frame. `origin`: the
    image pixel (even x, even y) at which the gradient arrays start, when they
    cover only part of the image. `span`: the
    stretch of each side sampled (narrower keeps clear of indices printed near the
    corners, wider helps sides partly hidden under another card)."""
    q = np.asarray(quads, dtype=np.float32)
    h = len(q)
    if h == 0:
        return q
    n = 24
    t = np.linspace(span[0], span[1], n, dtype=np.float32)
    nxt = q[:, [1, 2, 3, 0]]
    pts = lerp_points(q, nxt, t)  # (H, 4, n, 2)
    d = nxt - q
    # Normals point into the card (clockwise quad, y down).
    normals = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    normals /= lengths(normals)[..., None] + 1e-9  # (H, 4, 2)
    # Whole-pixel steps at work scale (the full-resolution pass adds the precision).
    offs = np.linspace(-reach, reach, round(2 * reach / step) + 1, dtype=np.float32)
    cand = add_points(pts[:, :, :, None, :], offs[None, None, None, :, None] * normals[:, :, None, None, :])
    flat = np.ascontiguousarray(cand.reshape(h * 4, -1, 2), dtype=np.float32)
    if origin != (0, 0):
        # Exact shift (whole pixels); even, so remap's rounding of halves agrees.
        flat = np.stack([flat[..., 0] - np.float32(origin[0]), flat[..., 1] - np.float32(origin[1])], axis=-1)
    # cv2.remap as a fast nearest-pixel lookup; outside the image the gradient is 0.
    gxs = cv2.remap(ev.gx, flat, None, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0).reshape(cand.shape[:4]).astype(np.float32, copy=False)
    gys = cv2.remap(ev.gy, flat, None, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0).reshape(cand.shape[:4]).astype(np.float32, copy=False)
    # The strongest step across each side, two line fits and the corners
    # re-intersected: one compiled loop (kernels.polish_sides; numpy's per-call
    # overhead on these small arrays was most of the time).
    return kernels.polish_sides(gxs, gys, np.ascontiguousarray(normals, dtype=np.float32),
                                np.ascontiguousarray(cand, dtype=np.float32),
                                np.ascontiguousarray(q, dtype=np.float32), float(reach))



#: A quad squarer than this (long / short) is no card seen from above: on the
#: real photos it is a card of a fan with a strip of the card under it (that
#: card's outer border is the stronger edge, so the side snapped onto it).
SQUARE = 1.2
#: The aspect (long / short) a side moved inward must give: a card's 1.39-1.56,
#: with room for perspective.
TRIM_ASPECT = (1.3, 1.62)
#: The least strip worth trimming (share of the quad across the side): a fanned
#: card's strip is a fifth of the quad or more; a few pixels are the card's own
#: border drawn twice (edge and shadow).
TRIM_LEAST = 0.12
#: Step (px) of the offsets tried: whole pixels (the strips trimmed are tens of
#: pixels; half-pixel steps doubled the cost for the same cards).
TRIM_STEP = 1.0
#: The edge the side is moved onto must be as strong (along the side's middle,
#: brighter inwards) as this share of the side's own, and this strong in
#: 3x3 Sobel units of the blurred grey image (a 15 grey-level step).
TRIM_REL, TRIM_ABS = 0.1, 60.0
#: Share of the samples along the side (percent) that must reach that.
TRIM_PCT = 65.0
#: The margin band: its width (share of the card across the side), how much
#: darker (grey levels) than the opposite margin it may be, and how busy (grey
#: std: 1.5 times the opposite margin's, within these bounds; a court card's
#: picture inside its frame was 50-72 on the train photos, fanned cards' margins
#: 15-45).
TRIM_BAND, TRIM_GREY = 0.05, 25.0
TRIM_STD = (15.0, 46.0)


class GradientsAndGrey(Gradients, Protocol):
    """Gradients and the blurred grey image they were taken from (same origin)."""

    @property
    def grey(self) -> np.ndarray: ...


def trim_overhang(ev: GradientsAndGrey, quads: np.ndarray, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Quads (N, 4, 2, clockwise) too square for a card, with one side moved
    inward onto a straight edge parallel to it where that makes them card-shaped.

    Why: where cards lie fanned, a quad may take in the strip of the card under
    it (both white, the top card's border only a faint shadow line): the quad is
    then too square and its index corners fall on the lower card's pips or on the
    art, and the card is not read. The top card's own border runs straight across
    the quad where the card's shape says it should; moving the side there puts
    the index crop back on the index. Other quads are returned as they are."""
    q = np.asarray(quads, dtype=np.float32).copy()
    if len(q) == 0:
        return q
    sl = _short_long(q)
    for i in np.flatnonzero(sl[:, 1] < SQUARE * sl[:, 0]).tolist():
        moved = _trim_one(ev, q[i], origin)
        if moved is not None:
            q[i] = moved
    return q


def _short_long(q: np.ndarray) -> np.ndarray:
    e = lengths(q[:, [1, 2, 3, 0]] - q)
    return np.sort(np.stack([(e[:, 0] + e[:, 2]) / 2, (e[:, 1] + e[:, 3]) / 2], axis=1), axis=1)


def _trim_one(ev: GradientsAndGrey, q: np.ndarray, origin: tuple[int, int]) -> np.ndarray | None:
    """`q` with its best side moved inward (see trim_overhang), or None. All four
    sides' candidate lines are sampled in one lookup (this runs in the frame)."""
    e = lengths(q[[1, 2, 3, 0]] - q)
    across = np.array([(e[1] + e[3]) / 2, (e[0] + e[2]) / 2, (e[1] + e[3]) / 2, (e[0] + e[2]) / 2])
    d = q[[1, 2, 3, 0]] - q
    # Inward normals (clockwise quad, y down).
    normals = np.stack([-d[:, 1], d[:, 0]], axis=1) / (lengths(d)[:, None] + 1e-9)
    t = _ALONG
    sides, offsets, rows = [], [], []
    for k in (0, 1):  # opposite sides share their lengths, hence their offsets
        along = (e[k] + e[k + 2]) / 2  # this side's length
        # Moving side k inward by s makes the card across - s wide: side k then
        # is the long side (aspect along / (across - s)) or the short one.
        ranges = [(across[k] - along / TRIM_ASPECT[0], across[k] - along / TRIM_ASPECT[1]),
                  (across[k] - TRIM_ASPECT[1] * along, across[k] - TRIM_ASPECT[0] * along)]
        least = max(2.0, TRIM_LEAST * float(across[k]))
        offs = [np.arange(max(r0, least), r1 + 1e-6, TRIM_STEP, dtype=np.float32)
                for r0, r1 in ranges if r1 >= max(r0, least)]
        if not offs:
            continue
        o = np.concatenate([np.zeros(1, np.float32), *offs])  # 0: the side itself
        ks = [k, k + 2]
        pts = (q[ks][:, None, None] + t[None, None, :, None] * d[ks][:, None, None]
               + o[None, :, None, None] * normals[ks][:, None, None])  # (2, O, T, 2)
        sides += ks
        offsets += [o, o]
        rows.append(pts.reshape(-1, 2))
    if not sides:
        return None
    flat = np.concatenate(rows)
    proj = _inward_gradient(ev, flat, np.repeat(
        normals[sides], [len(o) * len(t) for o in offsets], axis=0), origin).reshape(-1, len(t))
    # Strong at TRIM_PCT of the samples along the side: a row of pips is strong
    # only where the pips are (the median let a blurred row of big pips through
    # on a rendered 10 of clubs); asking 80% lost most fanned cards: the top
    # card's border there is a shadow line broken by the lower card's print.
    level = _percentile_rows(proj, 100.0 - TRIM_PCT)
    found = []
    start = 0
    for k, o in zip(sides, offsets):
        lv = level[start:start + len(o)]
        start += len(o)
        j = 1 + int(np.argmax(lv[1:]))
        own = max(float(lv[0]), 1.0)
        if lv[j] >= TRIM_ABS and lv[j] >= TRIM_REL * own:
            found.append((float(lv[j]) / own, k, float(o[j])))
    # The strongest edge (relative to its side) with a plain margin inside.
    for _, k, s in sorted(found, key=lambda f: -f[0]):
        if _margin_inside(ev, q, k, s, float(across[k]), origin):
            return _moved(q, k, s, normals[k])
    return None


#: Where along each side (its middle 70%) the edge is sampled.
_ALONG = np.linspace(0.15, 0.85, 16, dtype=np.float32)


def _percentile_rows(x: np.ndarray, pct: float) -> np.ndarray:
    """np.percentile(x, pct, axis=1) (linear), from one sort: cheaper per call."""
    srt = np.sort(x, axis=1)
    pos = pct / 100.0 * (x.shape[1] - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, x.shape[1] - 1)
    return srt[:, lo] + (srt[:, hi] - srt[:, lo]) * np.float32(pos - lo)


def _moved(q: np.ndarray, k: int, s: float, n: np.ndarray) -> np.ndarray:
    """`q` with side k moved `s` px inward (normal `n`): its two corners slide
    along their neighbouring sides."""
    out = q.copy()
    for c, other in ((k, (k + 3) % 4), ((k + 1) % 4, (k + 2) % 4)):
        v = q[other] - q[c]
        norm = float(np.hypot(v[0], v[1])) + 1e-9
        cos = float(np.dot(v, n)) / norm
        out[c] = q[c] + v / norm * (s / max(cos, 0.3))
    return out


def _margin_inside(ev: GradientsAndGrey, q: np.ndarray, k: int, s: float, across: float,
                   origin: tuple[int, int]) -> bool:
    """Whether just inside a border moved `s` px in lies plain paper like the
    card's own margin inside the opposite side: a card's border has its white
    margin inside, a court card's picture frame has the picture. Grey levels in
    a band TRIM_BAND of the card wide along each side's middle 70%, one lookup."""
    width = max(2.0, TRIM_BAND * across)
    t = np.linspace(0.15, 0.85, 24, dtype=np.float32)
    depth = np.linspace(1.5, 1.5 + width, 4, dtype=np.float32)
    rows = []
    for side, at in ((k, s), ((k + 2) % 4, 0.0)):
        a, d = q[side], q[(side + 1) % 4] - q[side]
        n = np.array([-d[1], d[0]], dtype=np.float32) / (float(np.hypot(d[0], d[1])) + 1e-9)
        rows.append((a[None, None] + t[None, :, None] * d[None, None]
                     + (at + depth)[:, None, None] * n[None, None]).reshape(-1, 2))
    flat = np.ascontiguousarray((np.concatenate(rows) - np.asarray(origin, np.float32))[None], dtype=np.float32)
    grey = cv2.remap(ev.grey, flat, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    new, own = grey.reshape(2, -1).astype(np.float32)
    busy = min(TRIM_STD[1], max(TRIM_STD[0], 1.5 * float(np.std(own))))
    return bool(np.median(new) >= np.median(own) - TRIM_GREY and np.std(new) <= busy)


def _inward_gradient(ev: Gradients, pts: np.ndarray, n: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """Gradient at image points `pts` (P, 2) projected on inward normals `n` (P, 2)."""
    flat = np.ascontiguousarray((pts - np.asarray(origin, np.float32)).reshape(1, -1, 2), dtype=np.float32)
    gx = cv2.remap(ev.gx, flat, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    gy = cv2.remap(ev.gy, flat, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return gx.reshape(-1).astype(np.float32) * n[:, 0] + gy.reshape(-1).astype(np.float32) * n[:, 1]
