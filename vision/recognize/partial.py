"""A card partly under a book or a board, read from the part of it in view (stills).

Why: the detector outlines what it sees, so a card half under a book comes back as
the part in view (its quad as big as the visible share, often with a card-like
aspect), and its corner indices are cut from that wrong quad: the one index in view
is cut at the wrong size and often sideways, and the card goes unread (rendered
phone-like photos, training decks seed 7: 20 of the 77 cards missed; the real
photos show the same, a card under a book or a cribbage board).

What is done: an outline left unread is taken as a card's part in view, cut by one
of its sides (`grown_cards`). Across that side the card is grown to card
proportions at the photo's squeeze (partsqueeze.read_squeezes: as the cards read
tell it; none read, both 1 and as the outlines tell it): the side opposite the cut
is the card's short side (grown to CARD_ASPECT times it) or its long side (grown to
it over CARD_ASPECT). Each of the grown card's index corners lying in the part in
view is cut and read at the single-corner bars.

What keeps this from inventing cards (a wrong card is far worse than none):

- the cut side must end at something that is not the table (`object_edges`): the
  band beyond it looks unlike the table beyond the card's end in view (a whole
  card unread on the table has no such side and is not grown);
- the grown card's length is a guess, so it is read at three lengths (SIZE_TRIES)
  which must agree surely (indexfind.agree: no try naming another card, two
  passing the bars at 0.995); the ways an outline may be grown must not name two
  cards (which is right is not told);
- its index region lies in the part in view, off every card read and the index
  corners read; the grown card lies where no card read lies, repeats no card read
  (a deck holds each card once), and two outlines reading one card give none
  unless their grown cards overlap (one card outlined twice: the surest kept);
- an outline whose own corners read a card the reading rule refused (onecorner.py:
  shorter than a card) is grown too, and must read that card again.

A card read so replaces its outline, as a candidate with the grown quad and the
one corner read (`index_visible`), and `visible` the share in view. Stills only
(`cardtable recognize`, evaluation), like unions.py and strips.py: one network call
of up to 24 patches per unread outline; the live pipeline keeps its frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.recognize.indexfind import agree
from vision.recognize.objectedge import (
    OBJECT_CONTRAST,
    contrast,
    inside,
    lab_of,
    object_edges,
    table_bands,
)
from vision.recognize.offframe import on_photo_edge
from vision.recognize.onecorner import SHORTER_THAN_A_CARD
from vision.recognize.overlap import covered_share, quad_iou
from vision.recognize.patch import extract_index_patches, index_quads, normalize_quad
from vision.recognize.readings import combine
from vision.recognize.strips import face_up_candidate

#: A card's long side over its short one (poker 88/63).
CARD_ASPECT = 1.4
#: The grown card must be at least this much longer across the cut than the part
#: in view (else the outline is the card, or nearly: nothing to grow) ... Set so
#: that every outline the reading rule finds too short for a card
#: (onecorner.SHORTER_THAN_A_CARD, 1.25: 1.4 / 1.25 = 1.12) may be grown: at 1.2,
#: outlines of 1.17-1.25 fell between the two rules, read surely at their index
#: corner yet given no card (rendered training photos seed 31, photo 43: a JH
#: whose far end lies under a book, its outline 1.22 long over wide).
MIN_GROW = CARD_ASPECT / SHORTER_THAN_A_CARD
#: ... and at most this much (a sliver of a card shows no whole index).
MAX_GROW = 3.2
#: Lengths the grown card is read at, as shares of the guessed one (the guess first).
SIZE_TRIES = (1.0, 0.9, 1.1)
#: Share of the grown card's index region that must lie in the part in view.
INDEX_IN_VIEW = 0.9
#: Share of a grown card's index region that may lie on a card read.
ON_READ = 0.05
#: A grown card overlapping a card read by this IoU is that card, or a clash.
SAME_CARD = 0.3


@dataclass(frozen=True, slots=True)
class Grown:
    """One way to grow a part in view into a card: the grown quad (normalised), its
    index corner in view (0 or 2), the side of the part cut (0-3: from corner k to
    k + 1 of the normalised part) and the lengths tried (SIZE_TRIES)."""

    quad: np.ndarray
    corner: int
    cut: int
    tries: tuple[np.ndarray, ...]
    hidden: np.ndarray  # the part grown past the cut side: cut corners, far corners


def grow_across(part: np.ndarray, cut: int, length: float, squeeze: float) -> np.ndarray:
    """The card that keeps the side of the (normalised) `part` opposite side `cut`
    and runs `length` (at the squeeze undone) across it, past the cut side, its
    corners in the part's order (clockwise)."""
    un = part / np.array([1.0, squeeze], np.float32)
    i = cut
    a, b = un[(i + 2) % 4], un[(i + 3) % 4]  # the kept side (b -> cut corner i, a -> i+1)
    grown = un.copy()
    for keep, far in ((b, i), (a, (i + 1) % 4)):
        d = un[far] - keep
        grown[far] = keep + d / max(float(np.hypot(*d)), 1e-6) * length
    return (grown * np.array([1.0, squeeze], np.float32)).astype(np.float32)


def grown_cards(part: Any, squeeze: float = 1.0) -> list[Grown]:
    """The ways the outline `part` may be a card's part in view, cut by one of its
    sides: per cut side, the kept (opposite) side as the card's short side or its
    long side, where that grows the part by MIN_GROW to MAX_GROW across the cut, and
    the grown card's index corner at the kept side has its index region in the part
    (INDEX_IN_VIEW)."""
    q = normalize_quad(part)
    un = q / np.array([1.0, squeeze], np.float32)
    area = float(cv2.contourArea(q))
    out = []
    for cut in range(4):
        a, b = un[(cut + 2) % 4], un[(cut + 3) % 4]
        kept = float(np.hypot(*(a - b)))
        across = 0.5 * (float(np.hypot(*(un[cut] - b))) + float(np.hypot(*(un[(cut + 1) % 4] - a))))
        for length in (kept * CARD_ASPECT, kept / CARD_ASPECT):
            if not MIN_GROW * across <= length <= MAX_GROW * across:
                continue
            tries = tuple(grow_across(q, cut, length * k, squeeze) for k in SIZE_TRIES)
            card = start_short(tries[0], squeeze)
            corners = _corners_in(card, q, area)
            if not corners:
                continue
            grown = grow_across(q, cut, length, squeeze)
            hidden = np.array([q[cut], q[(cut + 1) % 4], grown[(cut + 1) % 4], grown[cut]],
                              np.float32)
            tries = tuple(start_short(t, squeeze) for t in tries)
            out += [Grown(card, corner, cut, tries, hidden) for corner in corners]
    return out


def start_short(quad: np.ndarray, squeeze: float) -> np.ndarray:
    """`quad` (clockwise) normalised, starting at a short side of the card (at the
    squeeze undone): a card seen near square keeps the start it is given."""
    un = quad / np.array([1.0, squeeze], np.float32)
    e01 = float(np.hypot(*(un[1] - un[0])))
    e12 = float(np.hypot(*(un[2] - un[1])))
    start = quad if e01 <= e12 else quad[[1, 2, 3, 0]]
    return normalize_quad(start)


def _corners_in(card: np.ndarray, part: np.ndarray, area: float) -> list[int]:
    """The index corners (0, 2) of `card` whose index regions lie in `part`.

    Both may: an outline reaching over the card's hidden end to the object's far
    edge holds both its corners, and of the two only the one in view reads
    (rendered training photos, seed 31 photo 111: a 3S whose outline ran on under
    an AH and a board was read at its hidden corner, the first of the two)."""
    if area <= 0:
        return []
    return [k for k, region in zip((0, 2), index_quads(card))
            if float(cv2.intersectConvexConvex(region, part)[0])
            >= INDEX_IN_VIEW * float(cv2.contourArea(region))]


#: Shares of the way from the cut side to the grown card's far side whose samples
#: must look unlike the table too (`hidden_by_object`).
HIDDEN_FAR = (0.5, 0.9)


def hidden_by_object(lab: np.ndarray, part: Any, g: Grown) -> bool:
    """Does the far half of the part `g` grows past its cut side look unlike the
    table (OBJECT_CONTRAST), as a card hidden under an object must?

    Why: the band just beyond the cut side may be another card or a card's shadow
    while the grown card runs on over bare table, where it would be seen: an
    outline round two cards, unread, grown past each card's edge onto the table
    read each card for a quad half off it (rendered training decks, seeds 21 and
    24: two such pairs)."""
    q = normalize_quad(part)
    known = table_bands(lab, q, g.cut)
    far = inside(lab, g.hidden, HIDDEN_FAR)
    if far is None or not known:
        return True  # (beyond the photo's edge: not told)
    return min(contrast(far, b) for b in known) >= OBJECT_CONTRAST


def _first_read(clf: Any, cand: Any) -> str | None:
    """The card (else the rank) the candidate's own corner patches read at the bars,
    or None."""
    own = list(getattr(cand, "index_patches", ()))
    if not own:
        return None
    v = combine(clf.classify(own), clf.calibration)
    return v.card or v.rank


def _clear(g: Grown, read: Sequence[np.ndarray], indices: Sequence[np.ndarray]) -> bool:
    """Does grown card `g` lie off the cards read (`read`: their quads; SAME_CARD),
    its index region off them and off the index corners read (ON_READ)?"""
    region = index_quads(g.quad)[g.corner // 2]
    if covered_share(region, read) > ON_READ or covered_share(region, indices) > ON_READ:
        return False
    return not any(quad_iou(g.quad, r) >= SAME_CARD for r in read)


#: An outline (`_index_of_another`) lying this much inside a grown card, ...
OTHER_INSIDE = 0.9
#: ... at least this share of its area, ...
OTHER_AREA = 0.5
#: ... reaching past the part in view (at most this much of it inside the part), ...
OTHER_IN_PART = 0.8
#: ... and holding this much of the grown card's index region, is the index's card.
OTHER_HOLDS = 0.5


def _index_of_another(g: Grown, i: int, quads: Sequence[np.ndarray]) -> bool:
    """Does another outline, big (OTHER_AREA of the grown card) and inside grown
    card `g` (OTHER_INSIDE), reaching past its part in view `quads[i]` across the
    cut (OTHER_IN_PART), hold `g`'s index region (OTHER_HOLDS)?

    Why: the part grown past its cut side is said to lie under an object, yet an
    outline seen there round the index read is a card in view holding that index:
    the grown card straddles it and the card it lies on. Rendered training decks,
    seed 31 scene 26: an outline round the 9C's top and a KD beside it grown down
    over the KD read the 9C's index, its quad matched to the KD (IoU 0.58 to 0.54),
    while the 9C's own outline (0.96 inside the grown card, 0.70 inside the part)
    held that index."""
    region = index_quads(g.quad)[g.corner // 2]
    big = OTHER_AREA * float(cv2.contourArea(g.quad))
    for j, q in enumerate(quads):
        if j == i or float(cv2.contourArea(q)) < big:
            continue
        if covered_share(q, [g.quad]) >= OTHER_INSIDE and covered_share(q, [quads[i]]) <= OTHER_IN_PART \
                and covered_share(region, [q]) >= OTHER_HOLDS:
            return True
    return False


def find_partial(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` with each unread outline that reads as a card grown past an object's
    edge replaced by that card (see module). `clf`: an IndexClassifier (or the
    photo's ReadingMemo); an enrolled deck is left alone."""
    if getattr(clf, "deck", None) is not None or not cands or image.ndim != 3:
        return list(cands)
    from vision.recognize.partsqueeze import read_squeezes
    from vision.recognize.reader import read_candidates

    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    # (First the outlines with a side at an object's edge: most photos have none,
    # and are spared the whole reading rule.)
    lab = None
    edged: dict[int, list[bool]] = {}  # outline: per side, cut by an object or the photo
    for i, c in enumerate(cands):
        if not face_up_candidate(c):
            continue
        lab = lab_of(image) if lab is None else lab
        edges = object_edges(lab, quads[i])
        part = normalize_quad(quads[i])  # (the photo's own edge cuts a card too: offframe.py)
        cut = [e >= OBJECT_CONTRAST or on_photo_edge(part, k, image.shape)
               for k, e in enumerate(edges)]
        if any(cut):
            edged[i] = cut
    if lab is None or not edged:
        return list(cands)
    sightings = read_candidates(clf, image, cands)
    ways = [(i, g) for sq in read_squeezes(quads, cands, sightings)
            for i, cut in edged.items() for g in grown_cards(quads[i], sq)
            if cut[g.cut] and hidden_by_object(lab, quads[i], g)]
    if not ways:
        return list(cands)
    read = [q for q, s in zip(quads, sightings) if s.card]
    taken = {s.card for s in sightings if s.card}
    indices = [r for c, s in zip(cands, sightings) if s.card
               for r, v in zip(index_quads(c.corners), getattr(c, "index_visible", (1, 1)))
               if v]
    ways = [(i, g) for i, g in ways if not (sightings[i].card or sightings[i].rank)
            and _clear(g, read, indices) and not _index_of_another(g, i, quads)]
    if not ways:
        return list(cands)
    first = {i: _first_read(clf, cands[i]) for i, _ in ways}
    patches = [extract_index_patches(image, t)[g.corner // 2] for _, g in ways for t in g.tries]
    reads = clf.classify(patches)
    per = len(SIZE_TRIES)
    found: dict[int, list[tuple[Grown, str, float, np.ndarray]]] = {}
    named: dict[int, set[str]] = {}
    for n, (i, g) in enumerate(ways):
        mine = reads[n * per:(n + 1) * per]
        named.setdefault(i, set()).update(f"{r.rank}{r.suit}" for r in mine
                                          if r.rank is not None and r.confidence > 0.5)
        v = combine([mine[0]], clf.calibration)
        if v.card is not None and v.card not in taken and agree(mine, clf.calibration) \
                and _as_first(first[i], v.card):
            found.setdefault(i, []).append((g, v.card, v.confidence, patches[n * per]))
    sure = {i: max(xs, key=lambda x: x[2]) for i, xs in found.items() if len(named[i]) == 1}
    sure = _one_each(sure)
    return [_as_card(c, *sure[i]) if i in sure else c for i, c in enumerate(cands)]


def _as_first(first: str | None, card: str) -> bool:
    """Does a grown card's reading `card` agree with what its outline's own corners
    read (`first`: a card, a rank, or None for nothing)?

    Why: an outline whose corners read a card may still be given none by the
    reading rule: onecorner.py takes an outline shorter than a card, seen whole,
    for one round two cards, and a card's part left in view by a book is such an
    outline (rendered training decks, seed 7 photo 121: a 2S whose top half shows
    above a book, the book's outline telling the squeeze). Grown past the book's
    edge it is read again; the two cuts must name one card."""
    return first is None or first in (card, card[:-1])


def _one_each(sure: dict[int, tuple[Grown, str, float, np.ndarray]]
              ) -> dict[int, tuple[Grown, str, float, np.ndarray]]:
    """Of the outlines read as grown cards, those whose card no other outline reads;
    two outlines reading one card whose grown quads overlap (SAME_CARD) are one card
    found twice (a card's part in view outlined twice), the surest kept; apart, they
    clash and neither is kept (a deck holds each card once)."""
    out = {}
    for i, x in sure.items():
        same = [j for j, y in sure.items() if j != i and y[1] == x[1]]
        if all(quad_iou(x[0].quad, sure[j][0].quad) >= SAME_CARD
               and (x[2], -i) > (sure[j][2], -j) for j in same):
            out[i] = x
    return out


def _as_card(cand: Any, g: Grown, card: str, conf: float, patch: np.ndarray) -> Any:
    """`cand` (the part in view) as grown card `g`, read at its corner in view."""
    area = float(cv2.contourArea(np.asarray(cand.corners, np.float32).reshape(4, 2)))
    share = area / max(float(cv2.contourArea(g.quad)), 1e-6)
    return replace(cand, corners=tuple((float(x), float(y)) for x, y in g.quad),
                   index_visible=(g.corner == 0, g.corner == 2), index_patches=(patch,),
                   patch_corners=(g.corner,), visible=min(1.0, share))
