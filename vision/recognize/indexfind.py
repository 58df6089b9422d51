"""Cards found by their corner index where the detector found no outline (stills).

Why: a card in a fan or a row shows a strip of itself, whose outline runs into its
neighbours' (white on white, no edge), and a single card on paper, cloth or a busy
table may have no outline the detector trusts. What such a card still shows is a
corner index. indexfind_marks.py finds those (a glyph over a pip on white paper)
and the card each stands at the corner of; here each is read and judged:

- each mark is tried as a card at three sizes, its index corner cut and read by
  the network (one call for all), and kept only where the tries agree on one card,
  two of them passing the calibrated single-corner bars (readings.combine) surely
  (`agree`): the size is a guess, the bars were set on the detector's outlines;
- of finds of one card, the surest; finds of two cards at one index, neither
  (`distinct`);
- a find read off a picture printed on a back (inside an unread outline, its
  margin not its index's paper: indexfind_print.py) is dropped;
- a find is dropped when its card is read already (one deck: reader.one_of_each),
  when its index lies at a read candidate's index corner or overlaps a read
  candidate (that card, or a clash), and when a card nobody read lies on it
  (`_over_unfound`: another card's index inside its quad; not the far index of a
  card read or found already); an unread outline of the found card gives way.

Each find is reported as a detector candidate: the whole card's quad (from the
index corner, which is its corner 0), that corner's patch, `visible` VISIBLE.
Stills only (`cardtable recognize`, evaluation), as unions.py: one more network
call a photo (some 30 ms a real photo); the live pipeline keeps its frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.recognize.indexfind_blocked import on_paper_blocked
from vision.recognize.indexfind_marks import IndexMark, card_quad, index_marks, on_paper
from vision.recognize.indexfind_print import printed_on_back
from vision.recognize.indexfind_squeeze import squeezed_finds
from vision.recognize.indexown import marks_to_try, own_size_finds
from vision.recognize.indexsize import frame_height, frame_size_finds
from vision.recognize.offframe import on_paper_cut
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import extract_index_patches, index_quads
from vision.recognize.readings import Calibration, CardReading, Reading, combine

#: The sizes a mark is tried at, as shares of its usual card (the usual size first:
#: it wins ties).
SIZE_TRIES = (1.0, 0.9, 1.1)
#: The `visible` a find is reported with (a strip seen beside others, or a card alone).
VISIBLE = 0.5


@dataclass(frozen=True, slots=True)
class Find:
    """A card found by its index: its quad (from the index corner), the patch read
    and the reading."""

    quad: np.ndarray
    patch: np.ndarray
    reading: CardReading


def find_cards(clf: Any, image: np.ndarray) -> tuple[list[Find], list[Loose]]:
    """Every mark tried as a card (SIZE_TRIES) where it runs on as paper (on_paper,
    which also sets its tilt), read from its index corner alone: per mark the
    best-reading try, where the tries agree (`agree`), or, read at no size as it is,
    at a squeezed photo's shape (indexfind_squeeze.py); and every mark whose best
    try shows an index at all (LOOSE), found or not, as a Loose."""
    found, loose, _ = _find_cards(clf, image)
    return found, loose


def _find_cards(clf: Any, image: np.ndarray
                ) -> tuple[list[Find], list[Loose], list[IndexMark]]:
    """`find_cards`, and the marks that found no card (indexsize.py tries them at
    the frame's card size), as on_paper turned them where it took them."""
    raw = index_marks(image)
    papered = [on_paper(image, m) or on_paper_blocked(image, m) or on_paper_cut(image, m)
               for m in raw]
    marks = [m for m in papered if m is not None]
    if not marks:
        return [], [], raw
    quads = [card_quad(m, k) for m in marks for k in SIZE_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    out, loose = [], []
    taken: set[int] = set()
    per = len(SIZE_TRIES)
    unread: list[tuple[int, set[str]]] = []  # (marks showing an index, read at no size)
    for m in range(len(marks)):
        tries = range(m * per, (m + 1) * per)
        verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
        best = max(tries, key=lambda t: verdicts[t].confidence)
        found = verdicts[best].card is not None and agree([reads[t] for t in tries],
                                                          clf.calibration)
        if found:
            out.append(Find(quads[best], patches[best], verdicts[best]))
            taken.add(m)
        seen = max((reads[t] for t in tries), key=lambda r: r.confidence)
        if seen.rank is not None and seen.confidence >= LOOSE:
            loose.append(Loose(index_quads(quads[best])[0].mean(axis=0),
                               f"{seen.rank}{seen.suit}"))
            if not found:
                unread.append((m, {f"{reads[t].rank}{reads[t].suit}" for t in tries
                                   if reads[t].rank is not None
                                   and reads[t].confidence > LOOSE}))
    # A mark read at no size as it is: its card cut at a squeezed photo's shape.
    again = squeezed_finds(clf, image, [marks[m] for m, _ in unread],
                           [named for _, named in unread])
    taken |= {unread[k][0] for k, _ in again}
    left = iter(range(len(marks)))
    unfound = [p if p is not None else r for r, p in zip(raw, papered)
               if p is None or next(left) not in taken]
    return out + [f for _, f in again], loose, unfound


@dataclass(frozen=True, slots=True)
class Loose:
    """An index seen (the middle of its region) and the card it seems to show."""

    at: np.ndarray
    card: str


#: A mark whose best try reads an index this surely shows a card's index.
LOOSE = 0.5


#: Of a mark's tries, this many must pass the bars (readings.combine) and read
#: their card this surely.
MIN_PASSING = 2
SURE = 0.995


def agree(reads: Sequence[Reading], calib: Calibration) -> bool:
    """Do a mark's tries agree on one card: none reading another (rank or suit) and
    MIN_PASSING of them reading it?

    Why: a find's size is a guess, a detector's outline is not; the bars were set on
    detector outlines. A card whose index reads the same cut a tenth larger or
    smaller is read from its index, not from where the cut happened to fall
    (rendered training decks: an orell two of spades read 2D at 0.98 from one cut)."""
    named = {(r.rank, r.suit) for r in reads if r.rank is not None}
    passing = sum(combine([r], calib).card is not None and r.confidence >= SURE
                  for r in reads)
    return len(named) == 1 and passing >= MIN_PASSING




def _inside(p: np.ndarray, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(p[0]), float(p[1])),
                                False) >= 0


#: Two finds whose quads overlap this much and read one card are one find; two whose
#: index regions overlap this much and read two cards clash.
SAME = 0.3


def distinct(finds: list[Find]) -> list[Find]:
    """One find per card: of overlapping finds reading one card the surest; where
    two finds' index regions overlap reading different cards, neither (which is right
    is not told). Whole quads of different cards may overlap: a fan's cards do."""
    order = sorted(finds, key=lambda f: -f.reading.confidence)
    regions = {id(f): index_quads(f.quad)[0] for f in order}
    kept: list[Find] = []
    dropped: set[int] = set()
    for f in order:
        same = [k for k, g in enumerate(kept) if g.reading.card == f.reading.card
                and quad_iou(f.quad, g.quad) > SAME]
        clash = [k for k, g in enumerate(kept) if g.reading.card != f.reading.card
                 and quad_iou(regions[id(f)], regions[id(g)]) > SAME]
        dropped.update(clash)
        if not same and not clash:
            kept.append(f)
    return [f for k, f in enumerate(kept) if k not in dropped]


def find_by_index(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` and, after them, a candidate for each card found by its index alone
    (see module). `clf`: an IndexClassifier; an enrolled deck is left alone."""
    if getattr(clf, "deck", None) is not None or image.ndim != 3:
        return list(cands)
    found, loose, unfound = _find_cards(clf, image)
    if not found and not unfound:
        return list(cands)
    from vision.detect.candidate import CardCandidate
    from vision.recognize.reader import read_candidates

    sightings = read_candidates(clf, image, cands)
    read = {s.card for s in sightings if s.card}
    regions = [(r, bool(s.card)) for c, s in zip(cands, sightings)
               for r in index_quads(c.corners)]  # (candidate k // 2's corners)
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    size = frame_card_size([q for q, c, s in zip(quads, cands, sightings) if s.card
                            and all(getattr(c, "index_visible", (True, True)))])
    # Marks no card was grown from by the deck's usual proportions: at the frame's
    # card size (indexsize.py), off the cards read (but at an unread outline's
    # index corner: indexown.marks_to_try); with no card read at both corners, the
    # size of the cards grown from their index on paper. Those left: at their own
    # size, within the frame's (indexown.py).
    height = frame_height(size if size is not None
                          else frame_card_size([f.quad for f in distinct(found)]))
    at_frame, left = frame_size_finds(clf, image, marks_to_try(
        unfound, [q for q, s in zip(quads, sightings) if s.card],
        [r for r, ok in regions if ok], [r for r, ok in regions if not ok]), height)
    found = found + at_frame
    found = found + own_size_finds(clf, image, left, height,
                                   [f.reading.card for f in found if f.reading.card])
    finds = distinct(found)
    if not finds:
        return list(cands)
    added: list[tuple[Find, set[int]]] = []
    unread = [q for q, s in zip(quads, sightings) if not s.card]
    printed: list[np.ndarray] = []  # finds on a back's picture: their index is no card
    for f in finds:
        if f.reading.card in read or not of_card_size(f.quad, size):
            continue
        if printed_on_back(image, f.quad, f.patch, unread, size):  # (indexfind_print)
            printed.append(f.quad)
            continue
        centre = index_quads(f.quad)[0].mean(axis=0)
        holds = {k // 2 for k, (r, _) in enumerate(regions) if _inside(centre, r)}
        if any(sightings[j].card or not _as_long(f.quad, quads[j]) for j in holds):
            continue
        same = {j for j, q in enumerate(quads)
                if iou_in_view(f.quad, q, image.shape) > SAME_CARD}
        if any(sightings[j].card for j in same):
            continue
        # An unread outline of this card's size there is this card, found better (an
        # outline round two, IMG_2601, is kept: it may stand for the other card).
        added.append((f, {j for j in same | holds if _not_bigger(f.quad, quads[j])}))
    # (a printed find's index, lying on a card found, is not a card lying on it:
    # training decks seed 40 scene 69's 8H under nicu-white's printed AH)
    kept = ([q for q, s in zip(quads, sightings) if s.card] + [f.quad for f, _ in added]
            + printed)
    dropped: set[int] = set()
    new = []
    known = read | {c for c in (g.reading.card for g, _ in added) if c is not None}
    for f, same in added:
        if not _over_unfound(f, loose, kept, known):
            dropped |= same
            (a, b), (c, d), (e, g), (h, k) = (map(float, p) for p in f.quad)
            new.append(CardCandidate(((a, b), (c, d), (e, g), (h, k)), visible=VISIBLE,
                                     index_visible=(True, False), index_patches=(f.patch,),
                                     patch_corners=(0,)))
    return [c for j, c in enumerate(cands) if j not in dropped] + new


#: A find's size (square root of its area) may exceed the frame's cards' by this
#: factor (the camera's slant makes near cards larger; a find's size is a guess
#: from its index, SIZE_TRIES). Smaller is not refused: real test photos' finds
#: of 0.7 the size of the frame's cards were right (cam_image2's KH).
SIZE_SPREAD = 1.4


def frame_card_size(quads: Sequence[np.ndarray]) -> float | None:
    """The size of the frame's cards (median square root of the area) as the
    `quads` of cards read at both corners show it; None without any."""
    if not quads:
        return None
    return float(np.median([np.sqrt(max(float(cv2.contourArea(q)), 0.0)) for q in quads]))


def of_card_size(quad: np.ndarray, size: float | None) -> bool:
    """Is the find's `quad` no bigger than the frame's card `size` allows
    (SIZE_SPREAD), or is no size told?

    Why: the card a find reports is grown from its index by the deck's usual
    proportions of index to card, which a deck printing big or small indices
    breaks: its eight of diamonds found twice the size of the frame's cards, read
    right but reported where no card lies (rendered training decks, kde/
    nicu-ornamental). One deck is played: its cards show one size."""
    if size is None:
        return True
    own = float(np.sqrt(max(float(cv2.contourArea(quad)), 0.0)))
    return own <= size * SIZE_SPREAD


def _not_bigger(quad: np.ndarray, other: np.ndarray) -> bool:
    """Is `other` at most NOT_BIGGER times the area of the find's `quad`? (Smaller
    it may well be: a card seen slanted is shorter than a find's card proportions
    make it, rendered training decks' gnome/anglo_bitmap.)"""
    return float(cv2.contourArea(other)) <= NOT_BIGGER * float(cv2.contourArea(quad))


#: Largest area of an outline of the found card itself, as a share of the find's.
NOT_BIGGER = 1.3


def _over_unfound(f: Find, loose: Sequence[Loose], kept: Sequence[np.ndarray],
                  found: frozenset[str] | set[str] = frozenset()) -> bool:
    """Does the find's card lie under a card read by no one: another card's index
    seen inside its quad (that card lies on it) where no `kept` quad (candidates
    read, other finds) is, showing a card not `found` (read or found already)?

    Why: a find reports the whole card, also where another lies on it. A card on it
    that nothing found would be taken for this find by whoever looks for a card
    there (real train photos resized 0.8 x 1: IMG_2685's ten of spades, its index
    read short of the bars and its outline taken for one round it and the king,
    unread, under the king's quad).

    An index showing a card read or found already is that card's other index (a
    deck holds each card once), found: a card's far index often lies outside the
    quad it was read in, cut a little short (real train photos resized 1 x 0.8,
    IMG_2650: the jack's find was dropped for the ace's far index, and the queen's
    find beside it, alone, took the jack's place)."""
    own = index_quads(f.quad)[0]
    for lo in loose:
        if lo.card == f.reading.card or lo.card in found or not _inside(lo.at, f.quad) \
                or _inside(lo.at, own):
            continue
        if not any(_inside(lo.at, q) for q in kept if q is not f.quad):
            return True
    return False


def _as_long(quad: np.ndarray, other: np.ndarray) -> bool:
    """Does `other` reach as far along the card `quad`'s long side as it does
    (LENGTH_AGREES)?

    Why: a candidate whose index corner holds a find's index was read there. When
    read, the find is that card or a clash; unread, it may be an outline round two
    cards in a row, as long as the card (IMG_2601: a queen's strip beside a ten),
    or the card itself, whose index the network could not read at the right size,
    and then a find twice as long is a deck printing big indices misjudged
    (rendered training decks: nicu-white, ornamental)."""
    down = quad[3] - quad[0]
    length = float(np.hypot(*down))
    along = other @ (down / max(length, 1e-6))
    return abs(float(along.max() - along.min()) / max(length, 1e-6) - 1.0) <= LENGTH_AGREES


def iou_in_view(quad: np.ndarray, other: np.ndarray, shape: tuple[int, ...]) -> float:
    """IoU of `other` with the part of the find's `quad` inside the image.

    Why: a card found by its index may run off the photo (offframe.on_paper_cut);
    its outline stops at the photo's edge and is the same card, found better. With
    the whole quad it overlapped by 0.48 and stayed beside the find as an unread
    card (real train IMG_2611's ace of diamonds, found at the frame's card size)."""
    h, w = shape[:2]
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    own = np.asarray(quad, np.float32).reshape(4, 2)
    shown, part = cv2.intersectConvexConvex(own, frame)
    if part is None or shown <= 0:
        return 0.0
    if shown >= float(cv2.contourArea(own)) - 1e-3:
        return quad_iou(own, other)
    theirs = np.asarray(other, np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(part.reshape(-1, 2), theirs)
    union = shown + float(cv2.contourArea(theirs)) - inter
    return float(inter / union) if union > 0 else 0.0


#: ... within this share of the find's length.
LENGTH_AGREES = 0.25
#: A find overlapping a candidate by this IoU is that candidate's card.
SAME_CARD = 0.5
