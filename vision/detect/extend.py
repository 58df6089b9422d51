"""A part of a card found as the card: grown across the side that is no border;
two halves of a card both found: joined.

Why: a card lying on light paper (a placemat, a sheet on a desk) shows its border
faintly on one or two sides, so its whole outline is weakly edge-backed, while a
part of it is strongly so: three real border pieces closed by a line through the
card's own print (a row of pips, a line of its picture, the edge of the paper
under it continuing across the card). Such a part is card-shaped too: half a
card cut across its long sides is 1 : 0.7, that is again about 1.4. Chosen as
the card, its corner patches show blank paper or a big pip, never the index
(real train photos IMG_2478, cam_image25). A straight line lying across a card
(a cable: cam_image51) closes both halves, and both are chosen.

How: for each card chosen, its weakest side, when it is a long side with few
edges along it while the other three are well backed, is a candidate cut. Beyond
it, try the lengths across that make the cut the card's short side (long / short
1.25-1.6) and take the first whose far side and the two borders running on up to
it are edge-backed (the first: a card lying beyond shows stronger lines), both
borders grown alike. Keep the card grown only when the part added is mostly
paper (the card's face, not the table), it stays in the picture and runs over no
other card found (unless its print is very nearly point-symmetric: a card lying
on another, OVER_SYMMETRY), and its print is point-symmetric, clearly more so than the
part's: a card's face is printed the same turned half round, a card with a piece
of the one next to it is not (rendered scenes: a king and the nine beside it).
The far side, laid parallel to the cut, is snapped onto the edges where that
fits the print better (perspective).

Two halves both chosen (join_halves): facing long sides a narrow gap apart, the
two together card-shaped and point-symmetric, clearly more so than either.

Real train photos: 429 -> 431 read right (cam_image25's king, cam_image51's
jack), none wrong; rendered training scenes unchanged (two small cards grown,
read as before). IMG_2478 (a shadow across the card: its border shows too
little), IMG_2491 (no border at all on the paper under it) and IMG_2538 (a
strip along the card, not a half) stay as they were.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import outline, refine
from vision.detect.evidence import Evidence, line_angle, on_edge

#: A side with at most this share of edge samples may be a cut through the card;
#: the other three sides need at least OTHER_MIN.
CUT_MAX = 0.45
OTHER_MIN = 0.6
#: The cut must be a long side: at least this times the mean of the other two.
CUT_LONG = 1.2
#: Long / short of the card grown (a card is about 1.4).
ASPECT = (1.25, 1.6)
#: Least mean backing of far side and the two borders running on to it, of
#: each border alone (one side may lie on paper of the same tone) and of the
#: far side.
BACKED_MIN = 0.6
EACH_MIN = 0.3
FAR_MIN = 0.5
#: Least paper share in the part added.
PAPER_MIN = 0.5
#: Least correlation of the card grown with itself turned half round (a card's
#: face is printed point-symmetric; two cards side by side are not), and least
#: gain over the part's own (a whole card a little narrow is symmetric already).
SYMMETRY_MIN = 0.55
SYMMETRY_GAIN = 0.15
#: A card grown over another card found is kept only printed this point-symmetric:
#: a card lying on another is grown over it rightly (calibration 5 scene 52: a QD
#: found as its half, 0.37, grown to the card, 0.95, over the 9C under it), a part
#: grown into a card beside it is not that symmetric. (On 480 training and
#: calibration scenes this test was reached twice: that QD, and once in a second
#: look that changed nothing.)
OVER_SYMMETRY = 0.85
#: Size (w, h) the card grown is looked at for that, in pixels, and the most
#: shift (px) of the print against itself turned round.
SYMMETRY_SIZE = (32, 46)
SYMMETRY_SHIFT = 3
#: Two halves: facing sides' midpoints at most this share of the shorter side
#: apart, their lengths alike to this share.
JOIN_GAP = 0.12
JOIN_ALIKE = 0.15
#: How far (px) the grown card's sides are snapped onto the edges.
SNAP_REACH = 10.0
#: Step (px) between the lengths tried across.
STEP_PX = 2.0
#: Samples along the far side and along each border run on.
N_SIDE = 20


def extend_parts(ev: Evidence, cards: list[np.ndarray]) -> list[np.ndarray]:
    """`cards` (work-scale quads) with each part of a card grown to the card where
    the evidence shows one, and two halves of a card both chosen joined (see the
    module docstring); the others as they are."""
    cards = join_halves(ev, cards)
    if not cards:
        return cards
    qs = np.array(cards, dtype=np.float32)  # any winding: sides are taken in order
    on = outline.outline_flags(ev, qs, N_SIDE).reshape(len(qs), 4, N_SIDE).mean(axis=2)
    # The cut test for all cards at once (a frame of whole cards has none).
    e = g.lengths(qs[:, [1, 2, 3, 0]] - qs)
    k = np.argmin(on, axis=1)
    rows = np.arange(len(qs))
    two = np.sort(on, axis=1)
    across = (e[rows, (k + 1) % 4] + e[rows, (k + 3) % 4]) / 2
    cuts = (two[:, 0] <= CUT_MAX) & (two[:, 1] >= OTHER_MIN) & (e[rows, k] >= CUT_LONG * across)
    out = list(cards)
    for i in np.flatnonzero(cuts):
        q = qs[i]
        # A side under another card found is hidden, not a cut (a covered card).
        mid = (q[k[i]] + q[(k[i] + 1) % 4]) / 2
        if any(cv2.pointPolygonTest(qs[j].reshape(-1, 1, 2), (float(mid[0]), float(mid[1])), False) >= 0
               for j in range(len(qs)) if j != i):
            continue
        grown = _grow(ev, q, on[i])
        if grown is None:
            continue
        others = [qs[j] for j in range(len(qs)) if j != i]
        area = g.quad_area(grown)
        if any(g.intersection_area(grown, o) > 0.1 * min(area, g.quad_area(o)) for o in others
               if g.intersection_area(q, o) <= 0.1 * min(g.quad_area(q), g.quad_area(o))) and (
                symmetry(ev, grown) < OVER_SYMMETRY):
            continue
        out[i] = grown
    return out


def join_halves(ev: Evidence, cards: list[np.ndarray]) -> list[np.ndarray]:
    """`cards` with two of them that are the halves of one card replaced by it: a
    straight line across the card (a cable, a shadow's edge, a fold) closes
    both halves, so each is found and chosen (cam_image51).

    Halves: a long side of each facing the other's across a narrow gap, alike in
    length; the two together card-shaped with the shared side short, and printed
    point-symmetric, clearly more so than either part (two whole cards side by
    side are each symmetric already).
    """
    n = len(cards)
    if n < 2:
        return cards
    qs = np.array(cards, dtype=np.float32)
    nxt = qs[:, [1, 2, 3, 0]]
    turn = (qs[:, :, 0] * nxt[:, :, 1] - nxt[:, :, 0] * qs[:, :, 1]).sum(axis=1) < 0
    qs[turn] = qs[turn][:, [0, 3, 2, 1]]  # all one way round
    e = g.lengths(qs[:, [1, 2, 3, 0]] - qs)  # (N, 4)
    across = (e[:, [1, 2, 3, 0]] + e[:, [3, 0, 1, 2]]) / 2
    long = e >= CUT_LONG * across
    mids = (qs + qs[:, [1, 2, 3, 0]]) / 2  # (N, 4, 2) side midpoints
    gap = g.lengths(mids[:, :, None, None, :] - mids[None, None, :, :, :])  # (N, 4, N, 4)
    short = np.minimum(e[:, :, None, None], e[None, None, :, :])
    near = ((gap <= JOIN_GAP * short) & long[:, :, None, None] & long[None, None, :, :]
            & (np.abs(e[:, :, None, None] - e[None, None, :, :]) <= JOIN_ALIKE * short))
    a_, i_, b_, j_ = np.nonzero(near)
    pairs = [(int(a), int(i), int(b), int(j)) for a, i, b, j in zip(a_, i_, b_, j_) if a < b]
    if not pairs:
        return cards
    used: set[int] = set()
    joined = []
    for a, i, b, j in pairs:
        if a in used or b in used:
            continue
        qa, qb = qs[a], qs[b]
        # Facing sides run opposite ways (both one way round): their ends meet crosswise.
        ends = max(float(np.linalg.norm(qa[i] - qb[(j + 1) % 4])), float(np.linalg.norm(qa[(i + 1) % 4] - qb[j])))
        if ends > JOIN_GAP * 2 * float(short[a, i, b, j]):
            continue
        card = np.stack([qa[(i + 2) % 4], qa[(i + 3) % 4], qb[(j + 2) % 4], qb[(j + 3) % 4]]).astype(np.float32)
        if not (g.is_card_shaped(card) and ASPECT[0] <= g.aspect(card) <= ASPECT[1]):
            continue
        parts = max(symmetry(ev, qa), symmetry(ev, qb))
        if symmetry(ev, card) < max(SYMMETRY_MIN, parts + SYMMETRY_GAIN):
            continue
        used.update((a, b))
        joined.append(card)
    if not joined:
        return cards
    return [c for k, c in enumerate(cards) if k not in used] + joined


def _grow(ev: Evidence, q: np.ndarray, on: np.ndarray,
          debug: dict[str, object] | None = None) -> np.ndarray | None:
    """The card that quad `q` (side backing `on`, (4,)) is half of, or None. `debug`, when given, is filled with what was measured."""
    e = g.edge_lengths(q)
    k = int(np.argmin(on))
    if on[k] > CUT_MAX or np.delete(on, k).min() < OTHER_MIN:
        return None
    across = (e[(k + 1) % 4] + e[(k + 3) % 4]) / 2
    s = float(e[k])
    if s < CUT_LONG * across:
        return None
    # The cut side is the card's short side. (A strip cut along the card's long
    # sides was tried too, growing it to s / 1.4: the border of the card lying
    # next to a whole card found a little narrow was taken for its own, IMG_2616.)
    card = _first_backed(ev, q, k, across, np.arange(s * ASPECT[0], s * ASPECT[1], STEP_PX))
    if card is None or not _inside(card, ev.shape) or not g.is_card_shaped(card):
        return None
    added = np.stack([q[k], q[(k + 1) % 4], card[(k + 1) % 4], card[k]]).astype(np.float32)
    paper = _paper_share(ev, added)
    if paper < PAPER_MIN:
        return None
    # The far side is laid parallel to the cut, the card's is not quite
    # (perspective): snapped onto the edges too, the better fitting kept (the
    # print turned round matches itself best on the card's own outline).
    sym = symmetry(ev, card)
    snapped = g.order_quad(refine.refine_many(ev, card[None], reach=SNAP_REACH)[0]).astype(np.float32)
    if _inside(snapped, ev.shape) and g.is_card_shaped(snapped):
        sym_snapped = symmetry(ev, snapped)
        if sym_snapped > sym:
            card, sym = snapped, sym_snapped
    before = symmetry(ev, q)
    if debug is not None:
        debug.update(paper=paper, card=card, symmetry=sym, before=before)
    if sym < max(SYMMETRY_MIN, before + SYMMETRY_GAIN):
        return None
    return card


def _first_backed(ev: Evidence, q: np.ndarray, k: int, across: float,
                  lengths: np.ndarray) -> np.ndarray | None:
    """`q` grown across its side k to the first of `lengths` (ascending) where the
    far side and both borders running on to it are edge-backed, at the top of
    that backing; None if none is."""
    if len(lengths) == 0:
        return None
    a, b = q[k], q[(k + 1) % 4]  # the cut side
    pa, pb = q[(k + 3) % 4], q[(k + 2) % 4]  # the far ends of the borders ending at a, b
    ua = (a - pa) / (np.linalg.norm(a - pa) + 1e-9)
    ub = (b - pb) / (np.linalg.norm(b - pb) + 1e-9)
    t = np.linspace(0.06, 0.94, N_SIDE, dtype=np.float32)[:, None]
    # Both borders run on alike (a part cut askew has borders of unlike lengths;
    # grown in proportion its far side tilted, cam_image25).
    grow = (lengths - across).astype(np.float32)[:, None]
    na, nb = a + grow * ua, b + grow * ub  # (L, 2) the far corners
    far = (na[:, None, :] + t[None] * (nb - na)[:, None, :]).reshape(-1, 2)
    run_a = (a + t[None] * (na - a)[:, None, :]).reshape(-1, 2)
    run_b = (b + t[None] * (nb - b)[:, None, :]).reshape(-1, 2)
    fs = np.stack([on_edge(ev, far.astype(np.float32), line_angle(a, b)),
                   on_edge(ev, run_a.astype(np.float32), line_angle(pa, a)),
                   on_edge(ev, run_b.astype(np.float32), line_angle(pb, b))])
    fs = fs.reshape(3, len(lengths), N_SIDE).mean(axis=2)  # (3, L)
    score = fs.mean(axis=0)
    # The far side itself backed: the borders running on are backed all the way
    # to the card's end, so their share alone passes rows of pips before it.
    ok = (fs[0] >= FAR_MIN) & (fs.min(axis=0) >= EACH_MIN) & (score >= BACKED_MIN)
    if not ok.any():
        return None
    # The first border past the cut (the table beyond may hold stronger
    # lines: a card under it), at the top of its backing.
    i = int(np.argmax(ok))
    while i + 1 < len(lengths) and ok[i + 1] and score[i + 1] > score[i]:
        i += 1
    card = q.copy()
    card[k], card[(k + 1) % 4] = na[i], nb[i]
    return card


def _inside(q: np.ndarray, shape: tuple[int, int]) -> bool:
    """Quad `q` lies in the picture (work scale `shape`), to a pixel."""
    h, w = shape
    return bool(q[:, 0].min() >= -1 and q[:, 1].min() >= -1 and q[:, 0].max() <= w and q[:, 1].max() <= h)


def symmetry(ev: Evidence, q: np.ndarray) -> float:
    """Correlation of the print inside quad `q` with itself turned 180 degrees:
    high for one card's face, low for a card and a part of its neighbour.

    The grey image is high-passed (light falling off across the card is no
    print) and the best of small shifts taken (a border a few pixels off moves
    the print turned round against itself).
    """
    e = g.edge_lengths(q)
    k = 0 if e[0] + e[2] <= e[1] + e[3] else 1  # start at a short side
    src = np.roll(q, -k, axis=0).astype(np.float32)
    w, h = SYMMETRY_SIZE
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    a = cv2.warpPerspective(ev.grey, m, (w, h), flags=cv2.INTER_AREA).astype(np.float32)
    a -= cv2.GaussianBlur(a, (0, 0), w / 4)
    s = SYMMETRY_SHIFT
    turned = np.ascontiguousarray(a[::-1, ::-1][s:h - s, s:w - s])
    if float(turned.std()) < 1e-3 or float(a.std()) < 1e-3:
        return 0.0  # blank: nothing printed to match
    return float(cv2.matchTemplate(a, turned, cv2.TM_CCOEFF_NORMED).max())


def _paper_share(ev: Evidence, q: np.ndarray) -> float:
    """Share of paper pixels (Evidence.bright) on a grid inside quad `q`."""
    u = np.linspace(0.15, 0.85, 8, dtype=np.float32)
    a, b, d = q[0], q[1] - q[0], q[3] - q[0]
    pts = (a[None, None, :] + u[:, None, None] * b[None, None, :]
           + u[None, :, None] * d[None, None, :]).reshape(-1, 2)
    x = np.clip(np.rint(pts[:, 0]).astype(np.int64), 0, ev.shape[1] - 1)
    y = np.clip(np.rint(pts[:, 1]).astype(np.int64), 0, ev.shape[0] - 1)
    return float((ev.bright[y, x] > 0).mean())
