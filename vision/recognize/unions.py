"""Two cards taken for one: an outline round two cards lying side by side, each
partly over the other, split where their corner indices say; and an outline round
one card and bare table beside it, cut down to the card.

Why here and not in the detector: the seam between two white cards overlapping is
often a step of a few grey levels, in no edge map (IMG_2667, 2630, 2652 of the real
train photos), and a card-sized outline round both then passes every test of shape
and support. It cannot be read either: its two index corners show two different
cards. What does tell is the cards' own indices. A card in such a row shows its
index at the row's end, so each end of the outline is tried as a card of card
proportions, and the outline is split only when the two ends read two *different*
cards with the calibrated confidence. A single card seen nearly square (a squeezed
photo, a steep view) reads the same card at both ends and is left whole.

Photos resized non-uniformly (squeeze.py): every card of the photo shares one
squeeze, so the end cards are cut with card proportions *once unsqueezed*, for the
squeeze the frame's other cards show (frame_squeezes; guessed when there are none).
Squeezed, two upright cards side by side look like one card (their outline's aspect
falls in 1.2-1.35 at 80% of the width), so an outline of a card's shape is tried
too, when its own corners do not read as one card. The same squeeze makes the
detector give a card the nominal aspect it has not, its outline running onto the
table beside it (IMG_2472, 2615 at 1 x 0.8): no way's ends then read two cards, but
one end card, read by the one reading rule at its two index corners, reads as a
card, which the outline is cut down to (real train photos, 0.8 x 1 and 1 x 0.8:
3 and 8 cards more read; as they are, 1). Only an outline no longer than a card
(LOOKS_LIKE_A_CARD) is: a longer one is a row, and an end card read alone, cut
from its outline, missed its card (held-out decks: 4 cards reported where their
outlines, IoU under 0.5, were not). Where the other end of that way shows
another card's index (read or not), the outline holds two cards, not one and bare
table: the other end is given too, to be read at its two corners (alone, the end
card read reaches over that card, which nothing reported: IMG_2601 at 0.75 x 1).
And an outline of no card's shape at that squeeze, mostly seen but one index
corner under another card, holds two cards whose free corner may show the lower
one: it is not read (_half_of_two). An outline round two cards one half over the
other that the detector took for a back (a court picture beside pips looks like a
back's print) is tried too, and only split, never cut down (_back_of_two).

Stills only (`cardtable recognize`, evaluation): the outlines tried cost a network
call of 2 + 4 patches a way (2-12 ways); the live pipeline keeps its frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from vision.recognize.overlap import quad_iou
from vision.recognize.patch import extract_index_patches, normalize_quad
from vision.recognize.pipcheck import uncovered
from vision.recognize.readings import combine

#: A card's long side over its short one (poker 88/63, bridge 89/57 is 1.56).
CARD_ASPECT = 1.4
#: Outlines whose long/short ratio lies in this range look like one card: tried only
#: when their own corners do not read one card.
LOOKS_LIKE_A_CARD = (1.25, 1.6)
#: An end card must leave at least this share of the outline's length to the other.
MIN_REST = 0.15
#: ... and the two end cards must overlap (a gap: two cards the detector would see).
MAX_SPAN = 1.95
#: Share of the card that must be seen and both index corners clear (as turn.py).
MIN_VISIBLE = 0.97


def _side_lengths(q: np.ndarray) -> tuple[float, float]:
    """Mean lengths of sides 0-1/3-2 and of sides 0-3/1-2."""
    a = 0.5 * (np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[3])))
    b = 0.5 * (np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1])))
    return float(a), float(b)


def end_cards(quad: Any, squeeze: float = 1.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ways `quad` may hold two cards in a row: per way, the card at each end
    (float32 (4, 2) quads along the outline's sides, no perspective correction).

    Along each pair of sides, the cards may stand across the row (their long side the
    outline's other extent) or lie along it; a way counts when the end card leaves
    MIN_REST of the length to the other and the two overlap (MAX_SPAN). `squeeze`:
    the frame's (height scale over width scale, squeeze_estimate.frame_squeeze): the end
    cards have card proportions once the frame's height is divided by it (the
    cuts along the sides are affine, so they are found there and hold here)."""
    q = normalize_quad(quad)
    la, lb = _side_lengths(q / np.array([1.0, squeeze], np.float32))
    out = []
    # Along sides 0-1 (length la, other extent lb), then along sides 0-3 (lb, la).
    for length, other, along in ((la, lb, True), (lb, la, False)):
        for card in (other / CARD_ASPECT, other * CARD_ASPECT):
            if not (card * (1 + MIN_REST) <= length <= card * MAX_SPAN):
                continue
            t = card / length
            if along:
                a = np.array([q[0], q[0] + (q[1] - q[0]) * t, q[3] + (q[2] - q[3]) * t, q[3]])
                b = np.array([q[1] + (q[0] - q[1]) * t, q[1], q[2], q[2] + (q[3] - q[2]) * t])
            else:
                a = np.array([q[0], q[1], q[1] + (q[2] - q[1]) * t, q[0] + (q[3] - q[0]) * t])
                b = np.array([q[3] + (q[0] - q[3]) * t, q[2] + (q[1] - q[2]) * t, q[2], q[3]])
            out.append((a.astype(np.float32), b.astype(np.float32)))
    return out


#: The fields of a detector candidate that an end card gets anew.
_FIELDS = {"corners", "index_visible", "index_patches", "patch_corners"}


def _is_candidate(cand: Any) -> bool:
    """Is `cand` a detector candidate (a dataclass with the fields an end card gets)?"""
    return is_dataclass(cand) and _FIELDS <= {f.name for f in fields(cand)}


def _worth_trying(cand: Any) -> bool:
    """Is `cand` a whole face-up detector candidate, and either of no card's shape
    or carrying its own two corner patches (to tell whether it reads as one card)?
    A whole candidate taken for a back is tried too (`_back_of_two`)."""
    if not _is_candidate(cand):
        return False
    if _back_of_two(cand):
        return True
    if not uncovered(cand, MIN_VISIBLE):  # (no in-frame test: a row may run out of it)
        return False
    la, lb = _side_lengths(normalize_quad(cand.corners))
    ratio = max(la, lb) / max(min(la, lb), 1e-6)
    return len(cand.index_patches) == 2 or not (
        LOOKS_LIKE_A_CARD[0] <= ratio <= LOOKS_LIKE_A_CARD[1])


def _back_of_two(cand: Any) -> bool:
    """Is `cand` taken for a back by the detector, seen whole (MIN_VISIBLE, both
    index corners clear)?

    Why: two cards lying one half over the other, their outlines as one, show a
    court card's picture and a number card's pips side by side, which the detector's
    back test can take for a back's print (rendered training decks, seed 7 scene 19:
    an 8H over a KD; seed 8 scene 42: 2D over 8C, 6C over 4H; six cards unread, the
    ends of each outline reading the two cards at 0.99-1.00). Such an outline is
    split only into two different cards each read at its outer corner alone
    (`_verdict`), never cut down to one card: a back printing a face (the nicu
    backs fool the network) would need to show two cards at once."""
    return bool(getattr(cand, "face_down", False)) and uncovered(
        replace(cand, face_down=False), MIN_VISIBLE)


#: Squeezes tried where the other cards of the frame tell none: as it is, and a
#: photo resized to 80% of its width or of its height.
GUESSED_SQUEEZES = (1.0, 1.25, 0.8)


def frame_squeezes(cands: Sequence[Any], skip: int) -> tuple[float, ...]:
    """The squeezes end cards of cands[skip] are cut for: none (1.0) and the one
    the frame's other cards show, when that lies outside squeeze.SQUEEZE_BAND;
    GUESSED_SQUEEZES when there are no other cards (the outline tried, two cards
    taken for one, would tell a wrong one)."""
    from vision.detect.squeeze_estimate import SQUEEZE_BAND, told_squeeze

    others = [c for j, c in enumerate(cands) if j != skip and not getattr(c, "face_down", False)]
    k, _ = told_squeeze([np.asarray(c.corners, np.float32).reshape(4, 2) for c in others],
                        [getattr(c, "score", 0.0) for c in others])
    if k is None:
        return GUESSED_SQUEEZES
    if SQUEEZE_BAND[0] <= k <= SQUEEZE_BAND[1]:
        return (1.0,)
    return (1.0, k)


class End(NamedTuple):
    """An end card of a way an outline may hold two cards in a row."""

    quad: np.ndarray  # normalised
    outer: int  # its index corner (0 or 2) at a corner of the outline
    patch: np.ndarray  # that corner's patch
    inner: np.ndarray  # the other index corner's


def row_ends(image: np.ndarray, outline: np.ndarray, squeezes: Sequence[float]
             ) -> list[tuple[End, End]]:
    """The ways the (normalised) `outline` may hold two cards in a row, at each of
    `squeezes` (end_cards), whose two end cards each have an index corner at one of
    its corners: per way, the two end cards."""
    ways = []
    for k in squeezes:
        for pair in end_cards(outline, k):
            ends = []
            for sub in pair:
                quad, outer = _outer(sub, outline)
                if outer is None:
                    break
                cut = extract_index_patches(image, quad)
                ends.append(End(quad, outer, cut[outer // 2], cut[1 - outer // 2]))
            else:
                ways.append((ends[0], ends[1]))
    return ways


def split_unions(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` with each outline that does not read as one card, tried at the
    frame's squeezes (frame_squeezes), replaced by the two cards its two ends read
    (see module), or else by the one card an end reads (`_one_end`); and outlines
    holding two cards that show one corner not read (`_half_of_two`). `clf`: an
    IndexClassifier (its `classify` and `calibration`); candidates are detector
    CardCandidates. All patches go in one network call.

    Each end card of a split is read from its outer index corner alone, the one at
    the outline's corner: in a row of two, one card covers the other's inner corner,
    and a guessed end card's inner corner is cut where the card only roughly is.
    Only where that corner alone falls short are both read (the one reading rule:
    an inner corner reading the same card is seen; IMG_2601 at 0.8 x 1)."""
    if getattr(clf, "deck", None) is not None:
        return list(cands)
    tries: list[tuple[int, np.ndarray, int, list[tuple[End, End]]]] = []
    patches: list[np.ndarray] = []
    for i, c in enumerate(cands):
        if not _worth_trying(c):
            continue
        corners = normalize_quad(c.corners)
        ways = row_ends(image, corners, frame_squeezes(cands, i))
        if ways:  # (candidate, outline, how many patches of its own, ways)
            tries.append((i, corners, len(c.index_patches), ways))
            patches.extend(c.index_patches)
            patches.extend(p for ends in ways for end in ends for p in (end.patch, end.inner))
    replaced: dict[int, list[Any]] = {i: [_unread(c)] for i, c in enumerate(cands)
                                      if _half_of_two(c, cands, i, image.shape)}
    reads = iter(clf.classify(patches) if patches else [])
    for i, outline, n_own, ways in tries:
        own = [next(reads) for _ in range(n_own)]
        ends_read = [[(next(reads), next(reads)) for _ in ends] for ends in ways]
        if combine(own, clf.calibration).card is None:  # (else it is one card)
            new = _verdict(clf.calibration, cands, i, outline, ways, ends_read,
                           back=_back_of_two(cands[i]))
            if new is not None:
                replaced[i] = new
    return [c for i, c0 in enumerate(cands) for c in replaced.get(i, [c0])]


def _verdict(calibration: Any, cands: Sequence[Any], i: int, outline: np.ndarray,
             ways: list[tuple[End, End]], reads: list[list[tuple[Any, Any]]],
             back: bool = False) -> list[Any] | None:
    """What the outline cands[i] is, by its ways' end cards' readings ((outer,
    inner) per end card): the two cards of the one split its ways agree on, else
    the one card its end cards read when it is no longer than a card, else None
    (left as it is). `back`: an outline taken for a back (`_back_of_two`), split
    only where both end cards read at their outer corner alone."""
    splits: list[tuple[list[Any], frozenset[tuple[int, int, str]], bool]] = []
    whole: list[tuple[End, str, End | None]] = []  # (end, card, other end if it shows one)
    same = False
    for ends, pairs in zip(ways, reads):
        alone = [combine([outer], calibration).card for outer, _ in pairs]
        pooled = [combine(list(pair), calibration).card for pair in pairs]
        # (an end card's outer corner alone, else with its inner one: then both
        # are seen, the inner one not under the other card)
        cards = [a or b for a, b in zip(alone, pooled)]
        same = same or (cards[0] is not None and cards[0] == cards[1])
        found = [_found_already(end.quad, cands, i) for end in ends]
        if back and None in alone:
            continue
        if cards[0] is not None and cards[1] is not None and cards[0] != cards[1] \
                and not any(found):
            new = [_as_card(cands[i], end) if a else _one_end(cands[i], end)
                   for end, a in zip(ends, alone)]
            splits.append((new, *_what(ends, (cards[0], cards[1]), outline)))
        shown = _other_index(pairs, cards)
        whole += [(end, card, ends[1 - k] if shown[k] else None)
                  for k, (end, card, apart) in enumerate(zip(ends, pooled, found))
                  if card is not None and not apart]
    if back:
        return splits[0][0] if splits and len({way[1:] for way in splits}) == 1 else None
    if splits:
        # (two ways that split differently: which one is true is not told; the
        # same cards at the same corners, cut for another squeeze: the first way's)
        return splits[0][0] if len({way[1:] for way in splits}) == 1 else None
    la, lb = _side_lengths(outline)
    if (whole and not same and len({card for _, card, _ in whole}) == 1
            and max(la, lb) <= LOOKS_LIKE_A_CARD[1] * min(la, lb)):
        end, _, other = whole[0]
        # (the other end showing another card's index: that card, read by the one
        # reading rule at its two corners, the fallback's and a second look's)
        return [_one_end(cands[i], end)] + ([] if other is None else
                                            [_one_end(cands[i], other)])
    return None


#: An end card's outer corner reading an index this surely shows a card.
SHOWS_CARD = 0.5


def _other_index(pairs: list[tuple[Any, Any]], cards: list[str | None]) -> tuple[bool, bool]:
    """Per end card of a way: does it read a card while the other end's outer corner
    shows another card's index (SHOWS_CARD), short of the bars or not?

    Why: the outline then holds two cards, the one read and another, and is no
    card running onto bare table. Cut down to the card read alone, it is a whole
    card's quad reaching over the other card, which nothing reports, and takes its
    place (real train photos resized 0.75 x 1, IMG_2601: the queen under the ten,
    read at the outline's corner, reported over the ten, whose own corner read
    10D at 0.77). So the other end is reported too, as a card not read."""
    out = []
    for k in (0, 1):
        other = pairs[1 - k][0]
        out.append(cards[k] is not None and other.rank is not None
                   and other.confidence >= SHOWS_CARD
                   and f"{other.rank}{other.suit}" != cards[k])
    return out[0], out[1]


#: An end card overlapping another candidate by this IoU is that card, found
#: already (held-out seed 99: a KH found apart, unread, and again as a row's end).
SAME_CARD = 0.5


def _found_already(sub: np.ndarray, cands: Sequence[Any], skip: int) -> bool:
    """Does end card `sub` lie where another candidate than cands[skip] lies?"""
    return any(quad_iou(sub, c.corners) >= SAME_CARD
               for j, c in enumerate(cands) if j != skip)


def _what(ends: tuple[End, End], cards: tuple[str, str], outline: np.ndarray
          ) -> tuple[frozenset[tuple[int, int, str]], bool]:
    """A split by what it says, comparable across ways: which card lies at which
    corner of `outline` (its end card's outer corner), and whether the row runs
    along the outline's sides 0-1."""
    row = ends[0].quad.mean(axis=0) - ends[1].quad.mean(axis=0)
    side_a, side_b = outline[1] - outline[0], outline[3] - outline[0]
    along = (abs(float(np.dot(row, side_a))) / float(np.hypot(*side_a))
             > abs(float(np.dot(row, side_b))) / float(np.hypot(*side_b)))
    at = frozenset((round(float(end.quad[end.outer][0])), round(float(end.quad[end.outer][1])),
                    card) for end, card in zip(ends, cards))
    return at, along


def _outer(sub: np.ndarray, outline: np.ndarray) -> tuple[np.ndarray, int | None]:
    """`sub` normalised, and which of its index corners (0 or 2) is a corner of
    `outline` (None: neither)."""
    q = normalize_quad(sub)
    for k in (0, 2):
        if float(np.min(np.hypot(*(outline - q[k]).T))) < 1.0:
            return q, k
    return q, None


def _as_card(cand: Any, end: End) -> Any:
    """A candidate like `cand` for end card `end`, its index seen at its outer
    corner only, whose patch was cut already."""
    corners = tuple((float(x), float(y)) for x, y in end.quad)
    return replace(cand, corners=corners, index_visible=(end.outer == 0, end.outer == 2),
                   index_patches=(end.patch,), patch_corners=(end.outer,))


#: An outline this much seen (the detector's `visible`) shows its own shape, not
#: the card size the detector completes a covered card to.
MOSTLY_SEEN = 0.9


def _half_of_two(cand: Any, cands: Sequence[Any], i: int, shape: tuple[int, ...]) -> bool:
    """Is cands[i] (`cand`) an outline seen whole in the frame and mostly uncovered,
    one index corner under another card, whose shape at the squeeze the frame's other
    cards show is no card's (LOOKS_LIKE_A_CARD)?

    Such an outline holds two cards, the covered end one of them: IMG_2635 at
    0.8 x 1, one outline round the K (its index under the Q on it) and the ace
    the K lies on, whose index at the outline's free corner read AC for the K's
    place. The card that corner shows is not told; one it holds is unread."""
    if not _is_candidate(cand):
        return False
    if (getattr(cand, "face_down", False) or sum(cand.index_visible) != 1
            or float(getattr(cand, "visible", 1.0)) < MOSTLY_SEEN):
        return False
    q = normalize_quad(cand.corners)
    h, w = shape[:2]
    if q.min() < 1.0 or q[:, 0].max() > w - 2.0 or q[:, 1].max() > h - 2.0:
        return False  # (cut by the frame's edge: no card's shape, and no union)
    ks = frame_squeezes(cands, i)
    if ks == GUESSED_SQUEEZES:
        return False
    la, lb = _side_lengths(q / np.array([1.0, ks[-1]], np.float32))
    return max(la, lb) / max(min(la, lb), 1e-6) < LOOKS_LIKE_A_CARD[0]


def _unread(cand: Any) -> Any:
    """`cand` with no index corner to read."""
    return replace(cand, index_visible=(False, False), index_patches=(), patch_corners=())


def _one_end(cand: Any, end: End) -> Any:
    """A candidate like `cand` for end card `end`, both its index corners seen
    (their patches, cut already, in corner order)."""
    corners = tuple((float(x), float(y)) for x, y in end.quad)
    both = (end.patch, end.inner) if end.outer == 0 else (end.inner, end.patch)
    return replace(cand, corners=corners, index_visible=(True, True), index_patches=both,
                   patch_corners=(0, 2))
