"""A court card seen only by the frame round its picture: grow the frame to the card.

Why: a king, queen or jack lying alone on white or cream paper (a tablecloth, a
placemat, a worktop) shows its picture frame as a crisp, edge-backed rectangle,
while its own border, white paper on white, gives Canny almost nothing.
printed.py rightly drops the frame (paper all round it, ink inside), and with no
card found round it the court card is lost (or a piece of its picture is found
instead). The border is still there in the gradient: faint, but straight,
parallel to the frame's sides, at about the same margin on opposite sides, with
white paper between the two and the indices in two opposite corners.

How: refit the frame's printed line side by side (the outline found often cuts a
corner through the index next to it); walk outward from each side past the line's
own gradient and take the first step that stands out from the paper before it,
all along the side and the same way (brighter inside or out: texture steps both
ways; the table beyond the card often has stronger steps than its border, so not
the strongest); pair opposite sides at similar margins, margins across and along
the card alike; keep the card only with paper in the margins and ink in two
opposite index corners, and not across a card found. Nothing is guessed where the
border does not show: such a frame stays dropped. Pieces of the picture found as
cards inside the grown card are replaced by it.

Real train photos: 421 -> 425 cards read right (queens of IMG_2484 and IMG_2526,
the jacks of IMG_2579), none wrong; rendered training scenes unchanged.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import Evidence, sample, sample_bgr
from vision.detect.select import Scored

#: Least edge support of a frame tried, and most frames tried per image.
FRAME_SUPPORT = 0.5
FRAMES_TRIED = 6
#: Margin between frame and card border searched, as shares of the frame's short
#: side (the real photos' queens and jacks: 0.14-0.2).
MARGIN_MIN = 0.03
MARGIN_MAX = 0.45
#: Long / short side of a court frame, and of the card grown round it.
FRAME_ASPECT = (1.3, 1.85)
CARD_ASPECT = (1.2, 1.7)
#: Share of ink in both index corners of the card (outside the frame).
INK_MIN = 0.06
#: Opposite margins may differ by this share of the larger (perspective, print).
MARGIN_SKEW = 0.35
#: Most the margins along and across the card may differ (ratio of their sums).
MARGIN_RATIO = 2.0
#: A border step must reach this gradient (Sobel of the blurred grey, work scale)
#: and this multiple of the margin paper's own median gradient.
STEP_MIN = 6.0
STEP_OVER_PAPER = 3.0
#: Share of a side's samples that must show the step, the same way.
SIGN_AGREE = 0.7
#: How far (px) the frame's printed line may lie from the outline found.
FRAME_REACH = 6
#: Pixels a border may stray from the line parallel to the frame's side.
TILT = 2
#: Points sampled along each side, between these fractions of it.
ALONG = np.linspace(0.12, 0.88, 25, dtype=np.float32)


def grow_frames(ev: Evidence, frames: list[Scored], cards: list[np.ndarray],
                white: tuple[float, float]) -> tuple[list[np.ndarray], list[int]]:
    """Cards (work scale quads) grown from `frames` (outlines printed.py dropped)
    that no card of `cards` holds, and the indices of the `cards` that lie inside
    a card grown (pieces of its picture: replaced by it); see the module docstring.

    Only frames shaped like a court frame and edge-backed (FRAME_SUPPORT) are
    tried, the best FRAMES_TRIED of them: a table of cards found whole drops
    dozens of pips and frames, all on a card found (a box test first).
    """
    box = g.boxes(cards)
    tried = 0
    out: list[np.ndarray] = []
    inner: set[int] = set()
    for s in sorted(frames, key=lambda s: -s.support):
        if tried >= FRAMES_TRIED or s.support < FRAME_SUPPORT:
            break
        f = s.quad
        if not FRAME_ASPECT[0] <= g.aspect(f) <= FRAME_ASPECT[1] or not g.is_card_shaped(f):
            continue
        fb = g.bounding_box(f)
        near = [i for i, b in enumerate(box) if not g.apart(fb, b)]
        if any(_holds(cards[i], f) for i in near):
            continue  # a card found round it: printed on it
        if any(_holds(c, f) for c in out):
            continue
        tried += 1
        card = grow(ev, f, white)
        if card is None or any(_crosses(card, c) for c in out):
            continue
        held = [i for i in near if _holds(card, cards[i])]
        if any(_crosses(card, cards[i]) for i in near if i not in held):
            continue
        out.append(card)
        inner.update(held)
    return out, sorted(inner)


def _holds(a: np.ndarray, b: np.ndarray) -> bool:
    """Quad `b` lies (mostly) inside the bigger quad `a`."""
    ab = g.quad_area(b)
    return g.quad_area(a) > ab and g.intersection_area(a, b) > 0.8 * ab


def _crosses(a: np.ndarray, b: np.ndarray) -> bool:
    """The quads overlap without one holding the other."""
    inter = g.intersection_area(a, b)
    return inter > 0.1 * min(g.quad_area(a), g.quad_area(b)) and not (_holds(a, b) or _holds(b, a))


def profiles(ev: Evidence, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per side of frame `q` (clockwise): offsets (K,) in px outward, the median
    outward gradient (4, K) and the signed gradient samples (4, K, T)."""
    q = g.as_array(q)
    nxt = q[[1, 2, 3, 0]]
    d = nxt - q
    ln = np.linalg.norm(d, axis=1)
    out = np.stack([d[:, 1], -d[:, 0]], axis=1) / (ln[:, None] + 1e-9)  # outward normals
    short = min(ln[0] + ln[2], ln[1] + ln[3]) / 2
    lo, hi = max(3.0, MARGIN_MIN * short), MARGIN_MAX * short
    offs = np.arange(lo, hi + 1.0, 1.0, dtype=np.float32)
    base = q[:, None, :] + ALONG[None, :, None] * d[:, None, :]  # (4, T, 2)
    pts = base[:, None, :, :] + offs[None, :, None, None] * out[:, None, None, :]  # (4, K, T, 2)
    flat = pts.reshape(-1, 2)
    gx, gy = sample(ev.gx, flat), sample(ev.gy, flat)
    gp = (gx.reshape(pts.shape[:3]) * out[:, None, None, 0]
          + gy.reshape(pts.shape[:3]) * out[:, None, None, 1])
    return offs, np.median(gp, axis=2), gp


def grow(ev: Evidence, frame: np.ndarray, white: tuple[float, float],
         debug: dict[str, object] | None = None) -> np.ndarray | None:
    """The card round court frame `frame`, or None when the evidence does not agree.
    `debug`, when given, is filled with what was measured (for diagnosis scripts)."""
    q = _fit_frame(ev, g.as_array(frame))
    if q is None:
        return None
    if debug is not None:
        debug["frame"] = q
    if not FRAME_ASPECT[0] <= g.aspect(q) <= FRAME_ASPECT[1]:
        return None
    offs, prof, gp = profiles(ev, q)
    # Each side on its own sign: a card's rim may show as a step either way or as
    # a thin shadow line (both signs a pixel or two apart). Each sample may find
    # its step a pixel or two off the line (perspective tilts the border against
    # the frame a little): the strongest within TILT of each offset.
    pos, neg = _window_max(gp), _window_max(-gp)
    best = np.maximum(pos, neg)  # (4, K, T)
    sign = np.where(pos >= neg, 1, -1)  # (4, K, T): which way each sample steps
    strength = np.median(best, axis=2)
    start = _past_frame(strength)
    # The border is the first clear step past the paper margin (the table beyond
    # it may have stronger ones: leaves, print).
    flat = np.abs(prof)
    steps = [_steps(strength[i], best[i], sign[i], flat[i], int(start[i])) for i in range(4)]
    ks = [0, 0, 0, 0]
    for i in (0, 1):
        pair = _first_pair(steps[i], steps[i + 2], offs)
        if pair is None:
            if debug is not None:
                debug.update(why=f"no pair of steps on sides {i}, {i + 2}", steps=steps)
            return None
        ks[i], ks[i + 2] = pair
    margins = offs[ks]
    card = _card_quad(q, margins)
    if debug is not None:
        debug.update(offs=offs, prof=prof, ks=ks, margins=margins, steps=steps, card=card, start=start)
    # The margins across and along the card are alike (a court frame is centred).
    across = (margins[0] + margins[2]) / (margins[1] + margins[3])
    if card is None or not 1 / MARGIN_RATIO <= across <= MARGIN_RATIO:
        return None
    if not (g.is_card_shaped(card) and CARD_ASPECT[0] <= g.aspect(card) <= CARD_ASPECT[1]):
        if debug is not None:
            debug["why"] = "shape"
        return None
    paper, ink = _margin_paper_and_ink(ev, q, card, white)
    if debug is not None:
        debug.update(paper=paper, ink=ink)
    # Indices at two opposite corners (a card's), paper between them.
    if paper < 0.7 or max(min(ink[0], ink[2]), min(ink[1], ink[3])) < INK_MIN:
        return None
    return card


def _past_frame(strength: np.ndarray) -> np.ndarray:
    """Per side, the first offset past the frame's own printed line (at offset
    0 once refitted): where the step strength has fallen to a fifth of what it is
    at the first offset, or stops falling (a narrow margin: the card's border
    follows the frame's line before that)."""
    out = np.zeros(len(strength), dtype=np.int64)
    for i, p in enumerate(strength):
        k = 0
        while k < len(p) - 1 and p[k] > max(STEP_MIN, 0.2 * p[0]) and p[k + 1] <= p[k]:
            k += 1
        out[i] = k
    return out


def _fit_frame(ev: Evidence, q: np.ndarray, reach: int = FRAME_REACH) -> np.ndarray | None:
    """The frame's printed line, side by side: the outline found often cuts a
    corner through the index printed next to it; fit each side to the strongest
    step across it within `reach` px (two passes, dropping the points off the line)
    and intersect the sides again."""
    nxt = q[[1, 2, 3, 0]]
    d = nxt - q
    ln = np.linalg.norm(d, axis=1)
    nrm = np.stack([d[:, 1], -d[:, 0]], axis=1) / (ln[:, None] + 1e-9)
    t = np.linspace(0.15, 0.85, 29, dtype=np.float32)
    offs = np.arange(-reach, reach + 1, dtype=np.float32)
    base = q[:, None, :] + t[None, :, None] * d[:, None, :]  # (4, T, 2)
    pts = base[:, :, None, :] + offs[None, None, :, None] * nrm[:, None, None, :]  # (4, T, O, 2)
    flat = pts.reshape(-1, 2)
    gp = np.abs(sample(ev.gx, flat) * np.repeat(nrm[:, 0], len(t) * len(offs))
                + sample(ev.gy, flat) * np.repeat(nrm[:, 1], len(t) * len(offs))).reshape(pts.shape[:3])
    k = np.argmax(gp, axis=2)  # (4, T)
    where = np.take_along_axis(pts, k[:, :, None, None], axis=2)[:, :, 0, :]  # (4, T, 2)
    strong = np.take_along_axis(gp, k[:, :, None], axis=2)[:, :, 0] >= 2 * STEP_MIN
    lines = []
    for i in range(4):
        p = where[i][strong[i]]
        if len(p) < len(t) // 2:
            return None
        for _ in range(2):
            c = p.mean(axis=0)
            _, _, vt = np.linalg.svd(p - c)
            dirn = vt[0]
            off = np.abs((p - c) @ np.array([-dirn[1], dirn[0]]))
            keep = off <= max(1.5, float(np.median(off)) * 2)
            if keep.sum() < len(t) // 2:
                return None
            p = p[keep]
        c = p.mean(axis=0)
        _, _, vt = np.linalg.svd(p - c)
        lines.append((c, vt[0]))
    corners = []
    for i in range(4):
        x = _intersect(lines[(i - 1) % 4][0], lines[(i - 1) % 4][1], lines[i][0], lines[i][1])
        if x is None:
            return None
        corners.append(x)
    out = np.array(corners, dtype=np.float32)
    if np.abs(out - q).max() > 2 * reach:
        return None
    return out


def _steps(strength: np.ndarray, best: np.ndarray, sign: np.ndarray, flat: np.ndarray,
           start: int) -> list[int]:
    """Offsets (indices) past `start` of the steps that stand out from the paper
    before them, all along the side and the same way (brighter inside or outside:
    texture steps both ways), the tops of such steps."""
    out = []
    for k in range(start, len(strength)):
        if k + 1 < len(strength) and strength[k + 1] > strength[k]:
            continue  # not the top yet
        if k > start and strength[k - 1] > strength[k]:
            continue  # past the top
        paper = float(np.median(flat[start: k - TILT])) if k - TILT > start else 0.0
        if strength[k] < max(STEP_MIN, STEP_OVER_PAPER * paper):
            continue
        there = best[k] >= max(STEP_MIN / 2, 0.3 * strength[k])
        if float(there.mean()) < SIGN_AGREE:
            continue
        way = sign[k][there]
        if max(float((way > 0).mean()), float((way < 0).mean())) * float(there.mean()) < SIGN_AGREE:
            continue
        out.append(k)
    return out


def _first_pair(a: list[int], b: list[int], offs: np.ndarray) -> tuple[int, int] | None:
    """The innermost steps on two opposite sides at similar margins (a card's
    border is the first step past its white margin: the table beyond it may
    show stronger ones)."""
    pairs = [(max(offs[i], offs[j]), i, j) for i in a for j in b
             if abs(offs[i] - offs[j]) <= MARGIN_SKEW * max(offs[i], offs[j]) + 2.0]
    if not pairs:
        return None
    _, i, j = min(pairs)
    return i, j


def _window_max(v: np.ndarray) -> np.ndarray:
    """Max over offsets k-TILT..k+TILT (axis 1) of (4, K, T) samples."""
    pad = np.pad(v, ((0, 0), (TILT, TILT), (0, 0)), constant_values=-np.inf)
    k = v.shape[1]
    return np.max(np.stack([pad[:, j:j + k] for j in range(2 * TILT + 1)]), axis=0)


def _card_quad(q: np.ndarray, margins: np.ndarray) -> np.ndarray | None:
    """The quad whose sides are those of `q` moved outward by `margins`."""
    nxt = q[[1, 2, 3, 0]]
    d = nxt - q
    ln = np.linalg.norm(d, axis=1)
    out = np.stack([d[:, 1], -d[:, 0]], axis=1) / (ln[:, None] + 1e-9)
    p = q + out * margins[:, None]  # a point on each moved side
    corners = []
    for i in range(4):
        j = (i - 1) % 4  # corner i joins side i-1 and side i
        x = _intersect(p[j], d[j], p[i], d[i])
        if x is None:
            return None
        corners.append(x)
    return np.array(corners, dtype=np.float32)


def _intersect(p: np.ndarray, u: np.ndarray, r: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    den = float(u[0] * v[1] - u[1] * v[0])
    if abs(den) < 1e-6:
        return None
    t = float((r[0] - p[0]) * v[1] - (r[1] - p[1]) * v[0]) / den
    return p + t * u


def _margin_paper_and_ink(ev: Evidence, frame: np.ndarray, card: np.ndarray,
                          white: tuple[float, float]) -> tuple[float, list[float]]:
    """Share of paper in the middle of the margins, and the ink share near each
    corner (where a court card prints its index)."""
    level, level_sat = white
    # Midway between frame and card: paper along the middle of each side.
    mid = (frame + card) / 2
    nxt = mid[[1, 2, 3, 0]]
    t = np.linspace(0.3, 0.7, 9, dtype=np.float32)
    side_pts = (mid[:, None, :] + t[None, :, None] * (nxt - mid)[:, None, :]).reshape(-1, 2)
    mn, sat = _min_sat(ev, side_pts)
    paper = float(((mn >= 0.55 * level) & (sat <= level_sat + 0.2 * level + 15)).mean())
    # Near each corner, where a card prints its index (patch.INDEX_BOX: a quarter
    # of the short side by a third of the long one), outside the frame.
    e = g.edge_lengths(card)
    long_first = e[0] + e[2] > e[1] + e[3]  # side 0 (corner 0 -> 1) is a long side
    u = np.linspace(0.1, 0.9, 7, dtype=np.float32)
    ink = []
    for i in range(4):
        a = card[i]
        b1 = card[(i + 1) % 4] - a  # along side i
        b2 = card[(i - 1) % 4] - a  # along side i-1
        along_long = long_first == (i % 2 == 0)  # side i is a long side
        f1, f2 = (0.36, 0.24) if along_long else (0.24, 0.36)
        grid = (a[None, None, :] + u[:, None, None] * f1 * b1[None, None, :]
                + u[None, :, None] * f2 * b2[None, None, :]).reshape(-1, 2)
        grid = grid[~_inside(frame, grid)]
        mn, sat = _min_sat(ev, grid)
        dark = (mn <= 0.6 * level) | (sat >= level_sat + 60)
        ink.append(float(dark.mean()) if len(dark) else 0.0)
    return paper, ink


def _inside(q: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points inside convex quad `q` (either winding)."""
    nxt = q[[1, 2, 3, 0]]
    d = nxt - q
    rel = pts[:, None, :] - q[None, :, :]
    cross = d[None, :, 0] * rel[..., 1] - d[None, :, 1] * rel[..., 0]
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1))


def _min_sat(ev: Evidence, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if len(pts) == 0:
        z = np.zeros(0, dtype=np.float32)
        return z, z
    bgr = sample_bgr(ev.color, pts)
    mn = bgr.min(axis=1)
    return mn, bgr.max(axis=1) - mn
