"""Card hypotheses from contours: whole outlines, and corner-based guesses for cards
that overlap.

Why two kinds: a lone card's outline is a clean four-sided contour, but two cards
lying across each other (Durak's beating card, a sloppy drop) merge into one blob
whose outline has six to eight corners. Each card still shows at least one of its own
right-angled corners on that outline, with two straight sides leaving it; knowing
roughly how big cards are in this frame, such a corner pins the whole card down. The
guesses are cheap and many; `select.py` keeps those the image edges support.
Cards fanned with their ends in line make an outline that is card-shaped itself;
the borders crossing it give the cards (splits.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import kernels
from vision.detect.evidence import Evidence

#: Corner angles accepted as the corner of a card seen at an angle (degrees from 90).
CORNER_TOLERANCE = 28.0
#: Merged outlines are read corner by corner simplified to within this share of
#: their perimeter,
CORNER_EPS = 0.012
#: and those so big that this is 2 x FINE_PX or more also to within FINE_PX pixels,
#: keeping the corners whose sides are MIN_FINE_SIDE px or more (shorter ones give
#: no direction to trust). Why: two big cards lying nearly edge to edge (a covered
#: card showing 10-15 px past the top one, on a phone photo) make a notch the
#: coarse reading smooths away; the top card's side then seems to run on over the
#: other card, longer than any card of its width, and no guess fits it.
FINE_PX = 4.0
MIN_FINE_SIDE = 15.0
#: `complete_corners(run_on=RUN_ON)`: a corner's visible side may then be up to
#: 1 / RUN_ON times as long as the side of a card found whole it is completed
#: with. Why: at a corner of a pair's outline (prune.split_groups: a card
#: lying across or half on another, Durak's pairs, a sloppy drop) the sides
#: are the pair's, longer than the covered card's; requiring the card to be
#: nearly as long (0.85, right for a card's own corner) left most covered cards
#: of rendered training-deck scenes with no full-card guess. (0.5 and less let
#: a real train photo's J be read as Q.)
RUN_ON = 0.6


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


def corners_of(
    c: np.ndarray, tol: float | None = None, min_side: float = 6.0
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """Convex, near-right-angled corners on the contour simplified to within `tol`
    pixels (default CORNER_EPS of its perimeter), with sides of `min_side` px or
    more, each as (point, direction to previous vertex, direction to next vertex,
    their lengths)."""
    if tol is None:
        tol = CORNER_EPS * cv2.arcLength(c, True)
    poly = cv2.approxPolyDP(c, tol, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if n < 4 or n > 24:
        return []
    orient = np.sign(g.signed_area(poly))
    # All vertices at once: sides to the previous and the next vertex.
    da = np.concatenate((poly[-1:], poly[:-1])) - poly
    db = np.concatenate((poly[1:], poly[:1])) - poly
    la = np.sqrt(np.einsum("ij,ij->i", da, da))
    lb = np.sqrt(np.einsum("ij,ij->i", db, db))
    cross = da[:, 0] * db[:, 1] - da[:, 1] * db[:, 0]
    # On a clockwise contour a convex corner turns one way; reflex corners (the
    # notch where two cards meet) turn the other and are not card corners.
    keep = np.flatnonzero((la >= min_side) & (lb >= min_side) & (np.sign(cross) != orient))
    if not len(keep):
        return []
    # The kept corners' figures at once, as the corner-by-corner loop had them:
    # the dot products in single precision (what np.dot of two float32 pairs
    # gives), unit sides in single precision, the angle in double.
    da, db, la, lb = da[keep], db[keep], la[keep], lb[keep]
    dots = (da[:, 0] * db[:, 0] + da[:, 1] * db[:, 1]).tolist()
    ua, ub = da / la[:, None], db / lb[:, None]
    out = []
    for k, (i, lai, lbi, dot) in enumerate(zip(keep.tolist(), la.tolist(), lb.tolist(), dots)):
        cos = dot / (lai * lbi)
        ang = math.degrees(math.acos(min(1.0, max(-1.0, cos))))
        if abs(ang - 90.0) <= CORNER_TOLERANCE:
            out.append((poly[i], ua[k], ub[k], lai, lbi))
    return out


Corner = tuple[np.ndarray, np.ndarray, np.ndarray, float, float]


def quad_corners(q: np.ndarray) -> list[Corner]:
    """The four corners of a quad, in the form `complete_corners` takes."""
    out: list[Corner] = []
    for i in range(4):
        p, a, b = q[i], q[i - 1], q[(i + 1) % 4]
        da, db = a - p, b - p
        la, lb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
        if la > 0 and lb > 0:
            out.append((p, da / la, db / lb, la, lb))
    return out


def corner_hypotheses(
    cs: Iterable[np.ndarray], sizes: list[tuple[float, float]], min_short: float,
    *, side_guesses: bool = False, fine: bool = True,
) -> list[np.ndarray]:
    """Card quads completed from single corners of (possibly merged) outlines;
    `fine`: big outlines read finely too (see FINE_PX).

    `sizes` are (short, long) side lengths believed likely in this frame (from cards
    found whole); without them, or with `side_guesses`, the visible side lengths at
    each corner add their own guesses.
    """
    corners: list[Corner] = []
    for c in cs:
        tol = CORNER_EPS * cv2.arcLength(c, True)
        coarse = corners_of(c, tol)
        corners += coarse
        if fine and tol >= 2 * FINE_PX:
            corners += [k for k in corners_of(c, FINE_PX, MIN_FINE_SIDE) if _new_corner(k, coarse)]
    return complete_corners(corners, sizes, min_short, side_guesses=side_guesses)


def _new_corner(k: Corner, seen: list[Corner], near: float = 4.0) -> bool:
    """Whether corner `k` tells more than the corners `seen`: none lies within
    `near` px of it, or the one that does has a side `k` finds shorter (cut at a
    notch), which gives other guesses. (A repeat costs its guesses' scoring.)"""
    for p, da, db, la, lb in seen:
        if abs(float(p[0] - k[0][0])) + abs(float(p[1] - k[0][1])) <= near:
            if (np.dot(da, k[1]) > 0.9 and k[3] < 0.85 * la) or (np.dot(db, k[2]) > 0.9 and k[4] < 0.85 * lb):
                continue
            return False
    return True


def complete_corners(
    corners: Iterable[Corner], sizes: list[tuple[float, float]], min_short: float,
    *, side_guesses: bool = False, run_on: float = 0.85,
) -> list[np.ndarray]:
    """Card quads from corners given as (point, unit direction of one side, of the
    other, visible length of each). A card of `sizes` may be shorter than a
    visible side by `run_on` (see RUN_ON), others by 0.85."""
    rows: list[tuple[float, ...]] = []
    r = g.ASPECT_NOMINAL
    sized = {(s, l) for s, l in sizes} | {(l, s) for s, l in sizes}
    for p, da, db, la, lb in corners:
        # The corner's point and directions as plain floats, once per corner (the
        # same float32 figures in the array below, without 6 numpy scalars a guess).
        at = (*p[:2].tolist(), *da[:2].tolist(), *db[:2].tolist())
        guesses = set()
        # Both sides leaving the corner may be whole sides (the card's next
        # corners show too): the card is then the parallelogram they span.
        if min(la, lb) >= min_short:
            guesses.add((la, lb))
        guesses |= sized
        for length, which in ((la, 0), (lb, 1)):
            if (sizes and not side_guesses) or length < min_short:
                continue  # cards found whole tell the size better than a side
            for other in (length * r, length / r):
                guesses.add((length, other) if which == 0 else (other, length))
        for l1, l2 in guesses:
            # A visible straight side cannot be longer than the card (unless
            # it is a pair's, RUN_ON).
            f = run_on if (l1, l2) in sized else 0.85
            if l1 < f * la or l2 < f * lb:
                continue
            if min(l1, l2) < min_short:
                continue
            rows.append((*at, l1, l2))
    if not rows:
        return []
    m = np.array(rows, dtype=np.float32)
    p0, d1, d2 = m[:, 0:2], m[:, 2:4], m[:, 4:6]
    a, b = m[:, 6:7], m[:, 7:8]
    quads = np.stack([p0, p0 + d1 * a, p0 + d1 * a + d2 * b, p0 + d2 * b], axis=1)
    return list(g.order_quads(quads))


def segment_corners(
    edges: np.ndarray, min_len: float, skip: np.ndarray | None = None, max_segments: int = 160
) -> list[Corner]:
    """Right-angled corners where two straight edge segments meet end to end.

    Why: where cards overlap in a fan or a heap, their outlines merge with each
    other and with the pictures printed up to their borders, so no contour shows a
    clean corner; the straight borders still come out as line segments, and two of
    them meeting at a right angle make a card corner. `skip` (uint8 mask) hides
    regions already explained (cards found whole).
    """
    e = edges if skip is None else cv2.bitwise_and(edges, cv2.bitwise_not(skip))
    segs = cv2.HoughLinesP(e, 1, np.pi / 180, threshold=int(min_len * 0.6),
                           minLineLength=min_len, maxLineGap=3)
    if segs is None:
        return []
    s = segs.reshape(-1, 4).astype(np.float32)
    if len(s) > max_segments:
        ln = np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1])
        s = s[np.argsort(-ln)[:max_segments]]
    a, b = s[:, :2], s[:, 2:]
    d = b - a
    ln = np.linalg.norm(d, axis=1) + 1e-9
    u = d / ln[:, None]
    # Every pair of segments, each end to each end: ends within `gap` px.
    gap = 7.0
    ends = np.concatenate([a, b])  # (2n, 2); index k < n is a start, else an end
    n = len(s)
    dist = np.linalg.norm(ends[:, None, :] - ends[None, :, :], axis=2)
    out: list[Corner] = []
    ii, jj = np.nonzero(dist < gap)
    si_all, sj_all = ii % n, jj % n
    # Ends of two different segments, at a right angle give or take 27 degrees
    # (about 63..117): all pairs tested at once, the few left one by one.
    keep = si_all < sj_all
    ii, jj, si_all, sj_all = ii[keep], jj[keep], si_all[keep], sj_all[keep]
    cos = np.abs(u[si_all, 0] * u[sj_all, 0] + u[si_all, 1] * u[sj_all, 1])
    keep = cos <= 0.45
    for i, j in zip(ii[keep].tolist(), jj[keep].tolist()):
        si, sj = i % n, j % n
        p = _line_cross(a[si], u[si], a[sj], u[sj])
        if p is None:
            continue
        # Directions leaving the corner toward each segment's far end.
        fi = b[si] if i < n else a[si]
        fj = b[sj] if j < n else a[sj]
        di, dj = fi - p, fj - p
        li, lj = float(np.linalg.norm(di)), float(np.linalg.norm(dj))
        if li < min_len * 0.8 or lj < min_len * 0.8:
            continue
        out.append((p, di / li, dj / lj, li, lj))
    return out


def _line_cross(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    det = float(d1[0] * -d2[1] + d2[0] * d1[1])
    if abs(det) < 1e-6:
        return None
    rx, ry = float(p2[0] - p1[0]), float(p2[1] - p1[1])
    t = (rx * -d2[1] + d2[0] * ry) / det
    return np.array([p1[0] + d1[0] * t, p1[1] + d1[1] * t], dtype=np.float32)
