"""Dropping outlines that are not one card: two cards side by side, a frame
printed inside a card, a quad nested in a card, blobs far smaller than the cards.

Why apart from select.py: these are rules about the set of outlines (how cards
relate in size and position), not about one outline's edge support; select.py
applies them before and after its greedy choice.
"""

from __future__ import annotations

import math
from typing import Protocol, TypeVar

import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import Evidence, line_angle, on_edge
from vision.detect.perspective import SizeField, far_pair
from vision.detect.seams import SeamCache


class Outline(Protocol):
    """A scored quad (select.Scored)."""

    @property
    def quad(self) -> np.ndarray: ...

    @property
    def support(self) -> float: ...


class Pick(Outline, Protocol):
    """A chosen quad (select.Chosen)."""

    @property
    def visible_outline(self) -> float: ...


H = TypeVar("H", bound=Outline)
C = TypeVar("C", bound=Pick)


def drop_unions(ev: Evidence, hyps: list[H], strong: float = 0.88) -> list[H]:
    """Remove outlines that are two (or more) cards lying side by side.

    Two cards touching along a side make one outline of card-like shape (63+63 by
    88 mm is about as oblong as a card), and its border is fully supported by edges.
    What gives it away: two other strong outlines inside it that do not overlap and
    together nearly fill it, and a seam between them that runs out to the border.
    A court card's printed frame and the divide of its picture stop short of the
    white margin, which is what keeps a court card whole.
    """
    strong_h = [h for h in hyps if h.support >= strong]
    if len(strong_h) < 3:  # a union holds two others
        return list(hyps)
    areas = [g.quad_area(h.quad) for h in strong_h]
    # Which j may lie inside i (about half its size, boxes not apart), for all
    # pairs at once: the same float tests as pair by pair, the exact overlap
    # then only for these few.
    ar = np.array(areas, dtype=np.float64)
    bx = np.array(g.boxes([h.quad for h in strong_h]), dtype=np.float64)
    meets = ~((bx[:, None, 0] > bx[None, :, 2]) | (bx[None, :, 0] > bx[:, None, 2])
              | (bx[:, None, 1] > bx[None, :, 3]) | (bx[None, :, 1] > bx[:, None, 3]))
    maybe = ((0.3 * ar[:, None] <= ar[None, :]) & (ar[None, :] <= 0.7 * ar[:, None])
             & ((ar[None, :] <= 0) | meets))
    np.fill_diagonal(maybe, False)
    unions: set[int] = set()
    for i in np.flatnonzero(maybe.sum(axis=1) >= 2).tolist():
        a = strong_h[i]
        inner = [j for j in np.flatnonzero(maybe[i]).tolist()
                 if g.intersection_area(a.quad, strong_h[j].quad) >= 0.85 * areas[j]]
        pair = any(
            g.iou(strong_h[x].quad, strong_h[y].quad) <= 0.15
            and areas[x] + areas[y] >= 0.72 * areas[i]
            for k, x in enumerate(inner) for y in inner[k + 1:]
        )
        if pair and seam_to_border(ev, a.quad):
            unions.add(id(a))
    return [h for h in hyps if id(h) not in unions]


def seam_to_border(ev: Evidence, q: np.ndarray) -> bool:
    """Does an edge cross the border zone of `q` near the middle of opposite sides,
    at both ends (where two touching cards meet)?"""
    t = np.concatenate([np.linspace(0.01, 0.06, 4), np.linspace(0.94, 0.99, 4)])
    t = t.astype(np.float32)[None, :, None]
    fs = np.linspace(0.4, 0.6, 9, dtype=np.float32)[:, None]
    for a, b, c, d in ((0, 3, 1, 2), (0, 1, 3, 2)):
        start = q[a] * (1 - fs) + q[b] * fs
        end = q[c] * (1 - fs) + q[d] * fs
        pts = start[:, None, :] * (1 - t) + end[:, None, :] * t  # (9, 8, 2)
        for k in range(len(fs)):
            on = on_edge(ev, pts[k], line_angle(start[k], end[k]))
            if on[:4].mean() >= 0.5 and on[4:].mean() >= 0.5:
                return True
    return False


def drop_inner(
    ev: Evidence, hyps: list[H], strong: float = 0.88, seams: SeamCache | None = None
) -> list[H]:
    """Drop well-supported outlines lying inside a clearly bigger well-supported one:
    the frame of a court card or of a back's pattern, not a card. (Runs after
    drop_unions, so a pair of touching cards is already split; an outline crossed
    by a seam, two cards, holds cards, not frames.) `seams`: a SeamCache of the
    quads of `hyps` (in order) to work seams out in, for the caller to reuse."""
    at = [i for i, h in enumerate(hyps) if h.support >= strong]
    st = [hyps[i] for i in at]
    if len(st) < 2:
        return hyps
    quads = np.stack([h.quad for h in st])
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    areas = np.array([g.quad_area(q) for q in quads])
    inner: set[int] = set()
    # box[i, j]: i's bounding box inside j's (with a little slack), i clearly smaller.
    box = ((lo[None, :, 0] <= lo[:, None, 0] + 2) & (lo[None, :, 1] <= lo[:, None, 1] + 2)
           & (hi[None, :, 0] >= hi[:, None, 0] - 2) & (hi[None, :, 1] >= hi[:, None, 1] - 2)
           & (areas[:, None] < 0.85 * areas[None, :]))
    if not box.any():
        return hyps
    if seams is None:
        whole = ~SeamCache(ev, quads).crossed(box.any(axis=0))
    else:
        holders = np.zeros(len(hyps), dtype=bool)
        holders[np.array(at)[box.any(axis=0)]] = True
        whole = ~seams.crossed(holders)[at]
    for i in np.flatnonzero(box.any(axis=1)):
        for j in np.flatnonzero(box[i] & whole):
            # A printed frame keeps a margin all round; a card sharing a side
            # with a bigger outline is a card in a group of cards.
            if (g.intersection_area(quads[i], quads[j]) >= 0.9 * areas[i]
                    and _margin(quads[i], quads[j]) >= 0.03):
                inner.add(id(st[i]))
                break
    return [h for h in hyps if id(h) not in inner]


def split_groups(hyps: list[H], strong: float = 0.88, frame: tuple[int, int] | None = None
                 ) -> tuple[list[H], list[tuple[H, H]]]:
    """Take out outlines that are a group of cards: ones holding a card-shaped
    strong outline that runs along three of their sides (the top card of a fan or
    of a sloppy stack, or of two cards lying nearly aligned, one mostly on the
    other: see `_runs_along`), when the cards seen elsewhere are the inner
    outline's size rather than theirs (see `_sized_like_outer`). A printed
    frame keeps a margin all round, so it does not count.

    `frame` (width, height): lets the vote allow for perspective (see
    `_sized_like_outer`).

    Returns the other outlines, and (group, card inside it) pairs.
    """
    st = [h for h in hyps if h.support >= strong]
    if len(st) < 2:
        return hyps, []
    # Which pairs could hold one in the other, from areas, shapes and bounding
    # boxes at once; exact overlaps only for those (most pairs lie apart).
    qs = np.array([h.quad for h in st], dtype=np.float32)
    ar = g.quad_areas(qs)
    lo, hi = qs.min(axis=1).astype(np.float64), qs.max(axis=1).astype(np.float64)
    bx = np.concatenate([lo, hi], axis=1)
    sl = g.short_long(qs)
    asp = sl[:, 1] / np.maximum(sl[:, 0], 1e-9)
    # [i, j]: j could lie in i (the overlap of their boxes bounds that of the quads).
    maybe = ((ar[None, :] >= 0.3 * ar[:, None]) & (ar[None, :] <= 0.85 * ar[:, None])
             & ((asp >= 1.2) & (asp <= 1.8))[None, :]
             & (_box_overlaps(bx) >= 0.9 * ar[None, :]))
    np.fill_diagonal(maybe, False)
    pi, pj = np.nonzero(maybe)
    if len(pi):  # _runs_along of every such pair at once
        runs = np.zeros_like(maybe)
        runs[pi, pj] = _runs_along_many(qs[pj], qs[pi], asp[pj], asp[pi])
        maybe &= runs
    groups: list[tuple[H, H]] = []
    for i in np.flatnonzero(maybe.any(axis=1)).tolist():
        a = st[i]
        for j in np.flatnonzero(maybe[i]).tolist():
            b, area_b = st[j], float(ar[j])
            if g.intersection_area(a.quad, b.quad) >= 0.9 * area_b:
                if not _sized_like_outer(i, area_b, st, ar, bx, frame):
                    groups.append((a, b))
                break
    out = {id(a) for a, _ in groups}
    return [h for h in hyps if id(h) not in out], groups


def _box_overlaps(bx: np.ndarray) -> np.ndarray:
    """[i, j]: the area shared by boxes bx[i] and bx[j] ((N, 4) x0, y0, x1, y1)."""
    ow = np.minimum(bx[:, None, 2], bx[None, :, 2]) - np.maximum(bx[:, None, 0], bx[None, :, 0])
    oh = np.minimum(bx[:, None, 3], bx[None, :, 3]) - np.maximum(bx[:, None, 1], bx[None, :, 1])
    return np.maximum(ow, 0) * np.maximum(oh, 0)


def _sized_like_outer(i: int, area_b: float, st: list[H], ar: np.ndarray, bx: np.ndarray,
                      frame: tuple[int, int] | None = None) -> bool:
    """Do the strong outlines `st` (areas `ar`, boxes `bx` (N, 4)) clear of
    st[i] (overlapping it by under a tenth, within 2x of its area) say that cards
    here are its size rather than its inner outline's (area `area_b`): at least
    one nearer its area (log scale), and at least as many as nearer `area_b`?
    Then st[i] is one card (the one under a Durak cross, say), whatever lies
    inside it.

    Each place votes once (outlines whose boxes overlap by IoU > 0.5 are one).
    Why a vote, not any one card-sized outline: two cards lying nearly aligned
    make an outline 1.2-1.8 times a card's area, and another such pair elsewhere,
    or a near card's perspective, made one outline "card-sized" for it and kept
    the pair whole on most tables with two small piles (the top card lost).
    With no outline clear of it, or an inner outline over 3/4 of its area (too
    close in size for a vote), the rule is the older one: any card-sized outline
    elsewhere, overlapping it or not (the other card of a Durak cross).

    With `frame` given and three voters or more, each votes with its area as it
    would look where st[i] lies (perspective.SizeField fitted to the voters). Why:
    a camera at a slant shows the near cards 1.2-1.4 times as big as a far one,
    and a far card lying nearly aligned on another made a pair only 1.4-1.7
    times its area, which the near cards voted card-sized (a twentieth of the
    whole cards lost on the training decks' rendered scenes).
    """
    a, area_a = st[i], float(ar[i])
    apart = ((bx[:, 0] > bx[i, 2]) | (bx[i, 0] > bx[:, 2])
             | (bx[:, 1] > bx[i, 3]) | (bx[i, 1] > bx[:, 3]))

    def any_card_sized() -> bool:  # (boxes apart: IoU 0)
        near = np.flatnonzero((ar >= 0.8 * area_a) & (ar <= 1.25 * area_a))
        return any(j != i and (apart[j] or g.iou(a.quad, st[j].quad) < 0.8) for j in near.tolist())

    if area_b > 0.75 * area_a:  # too close for a vote: perspective spreads cards by 20%
        return any_card_sized()
    cand = (ar >= 0.5 * area_a) & (ar <= 2.0 * area_a) & (ar > 0)
    cand[i] = False
    clear = [j for j in np.flatnonzero(cand).tolist()
             if apart[j] or g.intersection_area(a.quad, st[j].quad) < 0.1 * area_a]
    if not clear:  # no card clear of it (a Durak cross alone on the table)
        return any_card_sized()
    # One vote a place: the same card or pair outlined again does not count;
    # the best-backed outline there votes, of equals the smallest (a pair holds
    # its top card).
    clear.sort(key=lambda m: (-round(st[m].support, 2), float(ar[m])))
    cb = bx[clear]
    inter = _box_overlaps(cb)
    barea = (cb[:, 2] - cb[:, 0]) * (cb[:, 3] - cb[:, 1])
    same = inter > 0.5 * (barea[:, None] + barea[None, :] - inter)
    kept: list[int] = []
    for k in range(len(clear)):
        if not any(same[k, m] for m in kept):
            kept.append(k)
    voters = [clear[k] for k in kept]
    la = np.log(ar[voters])
    if frame is not None and len(voters) >= 3:
        centres = [tuple(st[m].quad.mean(axis=0).tolist()) for m in voters]
        field = SizeField(centres, ar[voters].tolist(), frame)
        if field.sloped:
            e = np.log(field.expected(np.array([a.quad.mean(axis=0)] + centres)))
            la = la + e[0] - e[1:]
    to_a = np.abs(la - math.log(area_a)) < np.abs(la - math.log(max(area_b, 1e-6)))
    near_a = int(to_a.sum())
    return near_a > 0 and near_a >= len(kept) - near_a


def _runs_along(inner: np.ndarray, outer: np.ndarray, tol: float = 0.05, step: float = 0.15,
                widen: float = 1.25) -> bool:
    """Does `inner` run along three sides of `outer`: two corners on each (within
    `tol` of `outer`'s short side), or two corners within `step` of each and two
    of its corners on `outer`'s sides, `outer` being squarer than `inner` by
    `widen` (long/short over long/short)?

    Why the step: when a card lies on another nearly aligned with it, shifted
    sideways, their outline is about square (passes for a tilted card) and each
    of its long sides runs along one card's border and then the other's. Where
    the border changes hands the side steps by the few degrees or millimetres
    the cards are out of line, and the outline's side is a compromise between
    the two: the top card's corners lie just off it.
    Why `widen`: such an outline is the card plus a strip of the other card
    beside it, as long but clearly wider. A card's court picture makes inner
    outlines of the card's own shape, and its printed frames keep a margin of
    10% or more (a strip cut off one side changes the shape by 1.2 at most).
    """
    a_in, a_out = np.float32(g.aspect(inner)), np.float32(g.aspect(outer))
    return bool(_runs_along_many(np.asarray(inner, np.float32)[None],
                                 np.asarray(outer, np.float32)[None], a_in[None], a_out[None],
                                 tol, step, widen)[0])


def _runs_along_many(inner: np.ndarray, outer: np.ndarray, asp_inner: np.ndarray,
                     asp_outer: np.ndarray, tol: float = 0.05, step: float = 0.15,
                     widen: float = 1.25) -> np.ndarray:
    """`_runs_along` of many pairs at once (inner, outer (P, 4, 2) float32, their
    aspects (P,)): one pass instead of numpy's per-call cost on each 4x4 pair."""
    a = outer
    d = outer[:, [1, 2, 3, 0]] - a  # (P, 4, 2)
    ln = np.linalg.norm(d, axis=2) + 1e-9  # (P, 4)
    rel = inner[:, :, None, :] - a[:, None, :, :]  # (P, corner, side, 2)
    dist = np.abs(d[:, None, :, 0] * rel[..., 1] - d[:, None, :, 1] * rel[..., 0]) / ln[:, None, :]
    short = (np.minimum(ln[:, 0] + ln[:, 2], ln[:, 1] + ln[:, 3]) / 2)[:, None, None]
    on = dist <= tol * short
    full = (on.sum(axis=1) >= 2).sum(axis=1)  # sides with two corners on them
    corners_on = on.any(axis=2).sum(axis=1)
    near = ((dist <= step * short).sum(axis=1) >= 2).sum(axis=1)
    return (full >= 3) | ((corners_on >= 2) & (near >= 3) & (asp_inner >= widen * asp_outer))


def _margin(inner: np.ndarray, outer: np.ndarray) -> float:
    """Smallest distance of `inner`'s corners inside `outer`'s sides (clockwise
    quads), as a share of `outer`'s short side (negative: a corner outside)."""
    a = outer
    b = outer[[1, 2, 3, 0]]
    d = b - a
    ln = np.linalg.norm(d, axis=1) + 1e-9
    rel = inner[:, None, :] - a[None, :, :]  # (4 corners, 4 sides, 2)
    inside = (d[None, :, 0] * rel[..., 1] - d[None, :, 1] * rel[..., 0]) / ln[None, :]
    short = min(ln[0] + ln[2], ln[1] + ln[3]) / 2
    return float(inside.min() / short)


#: `lone_card`: a crisp outline at least this share of the reference's area (a
#: card beside an envelope was 0.19 of it; pips are a few hundredths of a card).
LONE_SHARE = 0.12
#: `crisp`: edge support all round and on the weakest side.
CRISP_SUPPORT, CRISP_SIDE = 0.95, 0.85


def crisp(support: float, side_min: float) -> bool:
    """An outline backed by edges all round: a card lying whole, not a speck of
    texture (whose outlines break up)."""
    return support >= CRISP_SUPPORT and side_min >= CRISP_SIDE


def lone_card(quad: np.ndarray, area: float, ref_area: float, refs: list[np.ndarray]) -> bool:
    """May a crisp outline of `area` be a card although under the size rules for
    `ref_area`? Only at LONE_SHARE of it or more and lying clear of every quad of
    `refs` (the outlines that set the size): a piece of a card, or a picture
    printed on one, lies inside it. Why: an envelope, a notebook or a printed
    page has a crisp card-shaped outline too, and as the largest it set the size
    that dropped the card beside it (see sizes.py)."""
    return area >= LONE_SHARE * ref_area and apart(quad, refs)


def drop_small(chosen: list[C], ratio: float = 0.3, frame: tuple[int, int] | None = None
               ) -> list[C]:
    """Cards in one frame are of a size: drop quads under `ratio` times the area of
    the largest card seen whole and well outlined (blobs of carpet pile, pips of a
    card not itself found). With three such cards or more not in a line and the
    `frame` size (w, h) given, a smaller card lying apart is kept where the cards'
    slant makes cards that small (perspective.SizeField.far): a slanted camera sees
    far cards a third of the near ones' area. Lying on such far cards of its own
    size (far_pair) counts as lying apart: a far pair keeps both its cards."""
    areas = [g.quad_area(c.quad) for c in chosen]
    whole = [i for i, c in enumerate(chosen) if c.visible_outline >= 0.97 and c.support >= 0.9]
    ref = max((areas[i] for i in whole), default=0.0)
    quads = [c.quad for c in chosen]
    # The one card of its size seen whole may be a sheet (lone_card): a crisp
    # card lying clear of it is kept.
    big = [i for i in whole if areas[i] >= ratio * ref]
    lone = [areas[i] < ratio * ref and len(big) == 1 and c.visible_outline >= 0.97 and c.support >= CRISP_SUPPORT
            and lone_card(c.quad, areas[i], ref, quads[:i] + quads[i + 1:])
            for i, c in enumerate(chosen)]
    if frame is None or len(whole) < 3:
        return [c for a, c, keep in zip(areas, chosen, lone) if a >= ratio * ref or keep]
    # (N, 4, 2) means over the corners: each quad's own mean, the same sums.
    centres = np.array([c.quad for c in chosen]).mean(axis=1).astype(np.float64)
    field = SizeField([tuple(centres[i]) for i in whole], [areas[i] for i in whole], frame)
    far = field.far(np.array(areas), centres)
    small = [a < ratio * ref for a in areas]
    # Kept by the slant alone: only a card lying apart (a piece of a card is no
    # far card), or on far cards of its own size (a pair: see far_pair).
    return [c for i, (a, c) in enumerate(zip(areas, chosen)) if a >= ratio * ref or lone[i] or (
        far[i] and apart(c.quad, [quads[j] for j in range(len(chosen)) if j != i and not (
            small[j] and far[j] and far_pair(areas[i], areas[j]))]))]


def apart(quad: np.ndarray, others: list[np.ndarray], share: float = 0.05) -> bool:
    """Does `quad` lie clear of every one of `others` (under `share` of its area
    shared with any)?"""
    area = g.quad_area(quad)
    box = g.boxes([quad] + list(others))
    return all(g.apart(box[0], box[k + 1]) or g.intersection_area(quad, o) < share * area
               for k, o in enumerate(others))


def drop_nested(chosen: list[C]) -> list[C]:
    """Cards are all one size: a quad lying inside another, clearly smaller, is a
    frame or picture printed on that card, not a card."""
    areas = [g.quad_area(c.quad) for c in chosen]
    box = g.boxes([c.quad for c in chosen])
    keep = []
    for i, c in enumerate(chosen):
        inside = any(
            j != i and areas[i] < 0.85 * areas[j]
            and (areas[i] <= 0 or not g.apart(box[i], box[j]))  # apart: no overlap
            and g.intersection_area(c.quad, o.quad) >= 0.85 * areas[i]
            for j, o in enumerate(chosen)
        )
        if not inside:
            keep.append(c)
    return keep
