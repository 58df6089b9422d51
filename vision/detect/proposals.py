"""Card hypotheses from corners: guesses for cards that overlap, each completed from
one right-angled corner of a merged outline or of straight border segments. (The
quads of outlines found whole: whole.py.)

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
