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
    # Step across the side (gradient along the inward normal), in place: these
    # are the biggest arrays of the detector's per-quad work.
    mags = np.multiply(gxs, normals[:, :, None, None, 0], out=gxs)
    mags += np.multiply(gys, normals[:, :, None, None, 1], out=gys)
    np.maximum(mags, 0.0, out=mags)
    best = mags.argmax(axis=3)  # (H, 4, n)
    peak = np.take_along_axis(mags, best[..., None], axis=3)[..., 0]
    found = np.stack([np.take_along_axis(cand[..., k], best[..., None], axis=3)[..., 0]
                      for k in (0, 1)], axis=-1)  # (H, 4, n, 2), x and y apart (see lerp_points)
    w = (peak > 20.0).astype(np.float64)  # (H, 4, n)
    ok_side = w.sum(axis=2) >= n * 0.5
    found64 = found.astype(np.float64)
    c, u = _fit_lines(found64, w)
    # Second pass without points far from the first line (a pip touching the border).
    res = np.abs((found[..., 0] - c[:, :, None, 0]) * -u[:, :, None, 1]
                 + (found[..., 1] - c[:, :, None, 1]) * u[:, :, None, 0])
    w2 = w * (res <= 1.5)
    ok2 = w2.sum(axis=2) >= n * 0.4
    c2, u2 = _fit_lines(found64, w2)
    c = np.where(ok2[..., None], c2, c)
    u = np.where(ok2[..., None], u2, u)
    # All four corners at once, rows (quad, corner): corner i joins side i-1 and
    # side i.
    prev = [3, 0, 1, 2]
    ok_p, ok_n = ok_side[:, prev].reshape(-1), ok_side.reshape(-1)
    cp, up = c[:, prev].reshape(-1, 2), u[:, prev].reshape(-1, 2)
    cn, un = c.reshape(-1, 2), u.reshape(-1, 2)
    corner = q.reshape(-1, 2)
    both = ok_p & ok_n
    p = _cross_many(cp, up, cn, un)
    only_prev = ok_p & ~ok_n
    only_next = ~ok_p & ok_n
    # One side known: slide the corner onto it along the other (unknown) side.
    along_next = (q[:, [1, 2, 3, 0]] - q).reshape(-1, 2)
    along_prev = (q - q[:, prev]).reshape(-1, 2)
    corner64 = corner.astype(np.float64)
    p_prev = _cross_many(cp, up, corner64, along_next)
    p_next = _cross_many(cn, un, corner64, along_prev)
    newp = np.where(both[:, None], p, np.where(only_prev[:, None], p_prev,
                    np.where(only_next[:, None], p_next, corner)))
    moved = np.abs(newp - corner).sum(axis=1)
    good = np.isfinite(newp).all(axis=1) & (moved <= reach * 3.0)
    out = corner.copy()
    out[good] = newp[good]
    return out.reshape(h, 4, 2)


def _fit_lines(pts: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted total-least-squares lines through points (H, 4, n, 2): centre and
    unit direction, each (H, 4, 2)."""
    sw = w.sum(axis=2, keepdims=True) + 1e-9
    c = (pts * w[..., None]).sum(axis=2) / sw
    r = pts - c[:, :, None, :]
    sxx = (w * r[..., 0] ** 2).sum(axis=2)
    syy = (w * r[..., 1] ** 2).sum(axis=2)
    sxy = (w * r[..., 0] * r[..., 1]).sum(axis=2)
    ang = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return c, np.stack([np.cos(ang), np.sin(ang)], axis=-1)


def _cross_many(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Intersections of lines p1 + s d1 and p2 + t d2, row by row (nan if parallel)."""
    det = d1[:, 0] * -d2[:, 1] + d2[:, 0] * d1[:, 1]
    rx, ry = p2[:, 0] - p1[:, 0], p2[:, 1] - p1[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (rx * -d2[:, 1] + d2[:, 0] * ry) / det
    t = np.where(np.abs(det) < 1e-6, np.nan, t)
    return np.stack([p1[:, 0] + d1[:, 0] * t, p1[:, 1] + d1[:, 1] * t], axis=1)
