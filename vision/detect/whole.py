"""Card quads from outlines found whole: closed contours of the edge map and the
paper mask that simplify to four card-shaped sides, as they are, by their convex
hull, or by their four longest sides; each also refitted to the contour's straight
middles (fit_sides).

Why apart from the corner guesses (proposals.py): a lone card's outline is a clean
four-sided contour and gives the card itself; the detector reads every outline so
first, and only those that are plainly no card also corner by corner.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import kernels
from vision.detect.evidence import Evidence


def contours(ev: Evidence, min_area: float) -> list[np.ndarray]:
    """Closed outlines from the edge map and from the paper mask, large enough to be
    a card (or several). (The darkest channel's: vision.detect.darkest.)"""
    h, w = ev.shape
    max_area = 0.95 * h * w
    out: list[np.ndarray] = []
    k3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    closed = cv2.dilate(ev.edges, k3)
    cs, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out.extend(cs)
    paper = cv2.morphologyEx(ev.bright, cv2.MORPH_OPEN, k3)
    cs, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out.extend(cs)
    return [c for c in out if len(c) >= 4 and min_area <= cv2.contourArea(c) <= max_area]


def whole_quads(
    cs: Iterable[np.ndarray], *, hull: bool = True, coarse: bool = True
) -> list[np.ndarray]:
    """Contours that simplify to a card-shaped quad, as they are or by their convex
    hull (a card's outline that caught a few texture edges, or whose printed index
    touches its border, is still convex at heart)."""
    out = []
    for c in cs:
        shapes = [c]
        h = _convex_hull(c) if hull else None
        if h is not None:
            shapes.append(h)
        longest = four_longest_sides(c)
        if longest is not None:
            out.append(longest)
        for shape in shapes:
            out.extend(_simplified(c, shape, _EPS_COARSE if coarse else _EPS_FINE)[0])
    return out


def outline_quads(c: np.ndarray) -> tuple[list[np.ndarray], bool]:
    """`whole_quads` of one contour as it is, finely simplified (plain), and only if
    that gives nothing, also by its hull and coarser simplification; and whether
    the plain way gave a quad. The same as `whole_quads([c], hull=False,
    coarse=False) or whole_quads([c])`, without working the plain part out twice
    (the detector asks this of every outline in the frame)."""
    out = []
    # The finest simplification serves both ways of reading the outline.
    peri = cv2.arcLength(c, True)
    first = cv2.approxPolyDP(c, _EPS_FINE[0] * peri, True)
    longest = four_longest_sides(c, first)
    if longest is not None:
        out.append(longest)
    fine, stopped = _simplified(c, c, _EPS_FINE, peri, first)
    out.extend(fine)
    if out:
        return out, True
    if not stopped:
        out.extend(_simplified(c, c, _EPS_COARSE[len(_EPS_FINE):], peri)[0])
    h = _convex_hull(c)
    if h is not None:
        out.extend(_simplified(c, h, _EPS_COARSE)[0])
    return out, False


#: Polygon simplification tolerances tried, as shares of the outline's perimeter.
_EPS_FINE = (0.015, 0.03)
_EPS_COARSE = (0.015, 0.03, 0.05)


def _convex_hull(c: np.ndarray) -> np.ndarray | None:
    """The outline's convex hull if the outline is nearly convex, else None: two
    cards lying across each other are far from convex, and their hull is no card."""
    h = cv2.convexHull(c)
    return h if cv2.contourArea(c) >= 0.92 * cv2.contourArea(h) else None


def _simplified(
    c: np.ndarray, shape: np.ndarray, epss: tuple[float, ...],
    peri: float | None = None, first: np.ndarray | None = None,
) -> tuple[list[np.ndarray], bool]:
    """Card quads from simplifying `shape` (contour `c` or its hull) at each
    tolerance in turn, up to the first that gives four or fewer vertices; and
    whether one did (coarser tolerances then cannot help). `peri`: the shape's
    perimeter and `first`: its simplification at epss[0], if already worked out."""
    out: list[np.ndarray] = []
    if peri is None:
        peri = cv2.arcLength(shape, True)
    for k, eps in enumerate(epss):
        poly = first if k == 0 and first is not None else cv2.approxPolyDP(shape, eps * peri, True)
        if len(poly) < 4:
            return out, True
        if len(poly) == 4:
            q = poly.reshape(4, 2).astype(np.float32)
            if _card_shaped(q):
                out.append(_ordered(q))
                fitted = fit_sides(c, q)
                if fitted is not None and _card_shaped(fitted):
                    out.append(_ordered(fitted))
            return out, True
    return out, False


def four_longest_sides(c: np.ndarray, fine: np.ndarray | None = None) -> np.ndarray | None:
    """The quad on the four longest sides of the contour's fine simplification
    (`fine`: that simplification, if already worked out).

    Why: an outline whose corners are cut (the index printed close to a rounded
    corner, a corner bent by glare) simplifies to 5-8 vertices: four long sides, the
    card's, and a few short cuts; extending the long ones restores the corners.
    """
    if fine is None:
        fine = cv2.approxPolyDP(c, _EPS_FINE[0] * cv2.arcLength(c, True), True)
    poly = fine.reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if not 5 <= n <= 8:
        return None
    nxt = np.concatenate([poly[1:], poly[:1]])  # each vertex's successor
    lengths = np.linalg.norm(nxt - poly, axis=1)
    idx = sorted(np.argsort(-lengths)[:4].tolist())
    if lengths[idx].min() < 2.0 * np.sort(lengths)[:n - 4].max():
        return None  # no clear four long sides
    out = []
    for k in range(4):
        i, j = idx[k - 1], idx[k]
        p1, d1 = poly[i], nxt[i] - poly[i]
        p2, d2 = poly[j], nxt[j] - poly[j]
        det = d1[0] * -d2[1] + d2[0] * d1[1]
        if abs(det) < 1e-6:
            return None
        t = ((p2[0] - p1[0]) * -d2[1] + d2[0] * (p2[1] - p1[1])) / det
        out.append(p1 + d1 * t)
    q = np.array(out, dtype=np.float32)
    if not _card_shaped(q):
        return None
    return _ordered(q)


def _card_shaped(q: np.ndarray) -> bool:
    """geometry.is_card_shaped of a contiguous float32 (4, 2) quad, compiled
    (kernels.card_shaped: the same test without numpy's per-call cost; it runs on
    every simplified outline)."""
    return bool(kernels.card_shaped(q, 28.0, g.ASPECT_MIN, g.ASPECT_MAX))


def _ordered(q: np.ndarray) -> np.ndarray:
    """geometry.order_quad of a contiguous float32 (4, 2) quad, compiled
    (kernels.order_quad, the same corners)."""
    out = np.empty((4, 2), dtype=np.float32)
    kernels.order_quad(q, out)
    return out


def fit_sides(c: np.ndarray, q: np.ndarray, band: float = 4.0) -> np.ndarray | None:
    """Refit the four sides of `q` to the contour's own points along the middle of
    each side, and intersect them.

    Why: a printed index close to the border bends the outline around it near the
    corners, and the polygon simplification then cuts the corner off; the middle of
    each side is still straight and gives the true border line.
    """
    pts = c.reshape(-1, 2).astype(np.float32)
    d = q[[1, 2, 3, 0]] - q  # (4, 2) sides
    ln = np.hypot(d[:, 0], d[:, 1])
    if ln.min() < 8:
        return None
    # The points along each side's middle (compiled loop: kernels.select_side_points).
    sel = np.empty((4, len(pts), 2), dtype=np.float32)
    counts = np.empty(4, dtype=np.int64)
    qc = np.ascontiguousarray(q, dtype=np.float32)
    if kernels.select_side_points(pts, qc, np.float32(band), sel, counts) < 5:
        return None
    # (vx, vy, x0, y0) per side, single precision as fitLine gives them (compiled:
    # kernels.huber_lines, OpenCV's robust fit for all four sides, the same figures).
    if kernels.COMPILED:
        lines = np.empty((4, 4), dtype=np.float32)
        kernels.huber_lines(sel, counts, np.float32(0.01), np.float32(0.01), lines)
    else:
        lines = np.stack([cv2.fitLine(sel[i, :counts[i]].reshape(-1, 1, 2), cv2.DIST_HUBER,
                                      0, 0.01, 0.01).ravel() for i in range(4)])
    # Corner i where side i-1 meets side i.
    res = np.empty((4, 2), dtype=np.float32)
    if not kernels.cross_sides(lines, res):
        return None
    q_lo, q_hi = q.min(axis=0), q.max(axis=0)
    if np.abs(res - q).max() > 0.25 * max(float(q_hi[0] - q_lo[0]), float(q_hi[1] - q_lo[1])):
        return None
    return res
