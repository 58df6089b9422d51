"""The card lying whole on top at one end of an outline round two cards.

Why: two cards lying one on the other, shifted across their long sides (or along
them), make one outline whose shape is a card's or nearly square: the card on top
whole, and a strip of the card under it (rendered training decks seed 8, scene 46:
3H on 10C under a steep camera, the outline 1.23 long over short against the
cards' 2.1). The detector often takes it whole, for a face or, with a court
picture in the strip, for a back, and the seam between the two white faces is
often in no edge map (seed 7, scene 19: 8H on KD, a shadow a few grey levels
deep). Its corners then cut one card's index at one end and nothing or the other
card's at the other, and it reads nothing. unions.py splits such an outline only
where both of its end cards read, cut at a card's nominal proportions; here the
card on top is cut where it ends, whatever the camera's slant does to its shape.

How: an unread outline, seen whole (the detector's `visible`, both index corners
clear), is cut parallel to each pair of its sides at CUTS of its extent, from
either side, and each part's two index corners are read (one network call for the
whole photo). A part is the card on top when both its corners read the same card
with the calibrated confidence (the one reading rule's pair bars): a cut that
misses the card's end puts its inner corner on the seam or on the card below,
which reads no index or another card. The outline is replaced by that part when
all its parts that read agree on one card, which no other candidate of the photo
reads, and no other candidate lies there. An outline whose parts read two cards
is left as it is: which cut is right is not told. The card below is given too,
as big as the one on top and reaching from the outline's other side, to be read
at its one index corner that is a corner of the outline, by the one reading
rule's lone-corner bars (its other corner lies under the card on top): rendered
training decks seed 7 and 8 (60 scenes each, the chain without unsqueeze), the
top card alone 366 -> 370 and 362 -> 367 read right, with the card below 372 and
370; 0 wrong, 0 phantoms either way.

Stills only (reader.still_detector): up to 2 x 2 x len(CUTS) parts, two patches
each, per unread whole outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from vision.recognize.onecorner import lies_whole
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import (
    AMBIGUOUS_ASPECT,
    extract_index_patches,
    mean_aspect,
    normalize_quad,
)
from vision.recognize.readings import combine
from vision.recognize.turn import turned

#: Where the card on top may end across the outline (share of its extent from the
#: side it lies at): the card below shows a strip of 10-50% (the seeds' unions hold
#: their top card at 0.56-0.75 of their extent, areas 1.3-1.8 cards), steps under
#: a fifth of the index box's 24% width, so that one cut puts the inner corner's
#: box on the index.
CUTS = tuple(np.round(np.arange(0.50, 0.93, 0.04), 2))

#: A part overlapping another candidate by this IoU is that card, found already
#: (unions.SAME_CARD).
SAME_CARD = 0.5


def parts(outline: np.ndarray) -> list[list[tuple[float, np.ndarray]]]:
    """The quads cut from `outline` ((4, 2), normalised) at CUTS of its extent
    along each pair of its sides, from either end: four families (0 and 1 the two
    ends along sides 0-1, 2 and 3 along sides 0-3), each a list of (cut, quad) in
    the order of CUTS (float32 (4, 2), normalised; a near-square part also turned,
    its other diagonal's corners the index corners, as turn.py reads a near-square
    card)."""
    out: list[list[tuple[float, np.ndarray]]] = [[], [], [], []]
    for t in CUTS:
        for family, part in zip(out, _cut(outline, float(t))):
            family.append((float(t), part))
            if mean_aspect(part) < AMBIGUOUS_ASPECT:
                family.append((float(t), turned(part)))
    return out


def _cut(outline: np.ndarray, t: float) -> list[np.ndarray]:
    """The four parts of `outline` reaching `t` of its extent from each of its
    sides (normalised): along sides 0-1 / 3-2 from corner 0's end, then from
    corner 1's; along sides 0-3 / 1-2 from corner 0's end, then from corner 3's."""
    q = np.asarray(outline, np.float32).reshape(4, 2)
    cut = ([q[0], q[0] + (q[1] - q[0]) * t, q[3] + (q[2] - q[3]) * t, q[3]],
           [q[1] + (q[0] - q[1]) * t, q[1], q[2], q[2] + (q[3] - q[2]) * t],
           [q[0], q[1], q[1] + (q[2] - q[1]) * t, q[0] + (q[3] - q[0]) * t],
           [q[3] + (q[0] - q[3]) * t, q[2] + (q[1] - q[2]) * t, q[2], q[3]])
    return [normalize_quad(np.array(p, np.float32)) for p in cut]


def card_below(image: np.ndarray, cand: Any, outline: np.ndarray, family: int, t: float
               ) -> Any | None:
    """The card under the one on top (cut `t` of the outline from family
    `family`'s side): as big, reaching from the other side of the outline, read
    at its one index corner that is a corner of the outline (the other lies under
    the card on top); None when neither is. Its `visible` is the strip's share of
    it."""
    q = _cut(outline, t)[family ^ 1]
    for quad in (q, turned(q)) if mean_aspect(q) < AMBIGUOUS_ASPECT else (q,):
        for k in (0, 2):
            if float(np.min(np.hypot(*(outline - quad[k]).T))) < 1.0:
                patch = extract_index_patches(image, quad)[k // 2]
                return replace(cand, corners=tuple((float(x), float(y)) for x, y in quad),
                               face_down=False, visible=max(0.0, (1.0 - t) / t),
                               index_visible=(k == 0, k == 2), index_patches=(patch,),
                               patch_corners=(k,))
    return None


def worth_cutting(cand: Any, shape: tuple[int, ...]) -> bool:
    """Is `cand` an outline seen whole (onecorner.MIN_VISIBLE, both index corners
    clear), lying in the frame? A face or a back: the detector takes an outline
    with a court picture's strip in it for one."""
    return lies_whole(cand, shape)


def both_read(readings: Sequence[Any], calibration: Any) -> str | None:
    """The card both corners of a part read alike, with the pair bars' confidence,
    else None."""
    if len(readings) != 2 or any(r.rank is None or r.suit is None for r in readings):
        return None
    if (readings[0].rank, readings[0].suit) != (readings[1].rank, readings[1].suit):
        return None
    return combine(list(readings), calibration).card


def _names(reading: Any, card: str) -> bool:
    """Does a corner's reading name `card` (however unsure)?

    Why: the card below must name no card read already (the one on top
    included), else one_of_each unreads both: an outline a little longer than the
    one card it holds reads nothing at its own corners, its parts read the card,
    and the "card below" cut from its other side is the card again (calibration
    decks seed 5, scene 15: 10C); a card below that another outline holds and
    reads (scene 32: 6H under QH)."""
    return reading.rank is not None and f"{reading.rank}{reading.suit}" == card


def find_top_ends(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` with each unread outline seen whole replaced by the card lying on top
    at one of its ends, where its parts say (see module). `clf`: the photo's
    ReadingMemo (or an IndexClassifier); candidates are detector CardCandidates."""
    from vision.recognize.reader import read_candidates

    if getattr(clf, "deck", None) is not None or not cands:
        return list(cands)
    sights = read_candidates(clf, image, cands)
    read = {s.card for s in sights if s.card is not None}
    tries: list[tuple[int, np.ndarray, list[list[tuple[float, np.ndarray]]]]] = []
    patches: list[np.ndarray] = []
    for i, (c, s) in enumerate(zip(cands, sights)):
        if s.card is not None or not worth_cutting(c, image.shape):
            continue
        outline = normalize_quad(c.corners)
        cut = parts(outline)
        tries.append((i, outline, cut))
        patches += [p for family in cut for _, quad in family
                    for p in extract_index_patches(image, quad)]
    if not tries:
        return list(cands)
    reads = iter(clf.classify(patches))
    replaced: dict[int, list[Any]] = {}
    for i, outline, cut in tries:
        found = [[(t, quad, both_read([next(reads), next(reads)], clf.calibration))
                  for t, quad in family] for family in cut]
        cards = {card for family in found for _, _, card in family if card is not None}
        if len(cards) != 1 or cards & read:
            continue
        card = cards.pop()
        # The family that reads it most, the middle one of its cuts that do.
        f = max(range(4), key=lambda k: sum(got == card for _, _, got in found[k]))
        t, quad, _ = [x for x in found[f] if x[2] == card][
            sum(got == card for _, _, got in found[f]) // 2]
        if any(quad_iou(quad, o.corners) >= SAME_CARD for j, o in enumerate(cands) if j != i):
            continue
        read.add(card)
        top = replace(
            cands[i], corners=tuple((float(x), float(y)) for x, y in quad), face_down=False,
            index_visible=(True, True), index_patches=tuple(extract_index_patches(image, quad)),
            patch_corners=(0, 2))
        below = card_below(image, cands[i], outline, f, t)
        if below is not None and (
                any(_names(clf.classify(list(below.index_patches))[0], c) for c in read)
                or any(quad_iou(below.corners, o.corners) >= SAME_CARD
                       for j, o in enumerate(cands) if j != i)):
            below = None  # (a card found or read already; see _names)
        replaced[i] = [top] + ([] if below is None else [below])
    return [c for i, c0 in enumerate(cands) for c in replaced.get(i, [c0])]
