"""A second look at frames resized non-uniformly (or seen at a slant): cards found
whole tell how squeezed the frame is; the frame is unsqueezed and searched again.

Why: a phone photo may reach us resized to another aspect (a 4:3 photo stored
at 80% of its height). Every card then shares one squeeze: a card lying upright
looks nearly square (1.45 x 0.8 = 1.16), one lying across looks long (1.8), and
a tilted one is a parallelogram. The detector's shape tests and its corner
guesses assume cards of about the nominal aspect with right-angled corners, so
whole outlines are refused and covered cards are completed at the wrong size.
Undoing the squeeze the cards found whole show and detecting again finds most of
them (real train photos squeezed 1 x 0.8 or 0.8 x 1, mostly 504 x 378 px: at
that size the lost resolution cannot be restored, so the frame is unsqueezed by
shrinking its stretched axis, not by enlarging the squeezed one).

The cards of the second look are added to those of the first where no card of
the first (nor one added already) lies (overlapping under 0.3 IoU). Where
the first look found a card misshapen (a quad of the nominal aspect and right
corners on a card the squeeze made a parallelogram of another aspect, or that
and pieces of it), its index corners are cut wrong and it is not read: the
second look's card replaces it when the edges back it better and it takes no
more nor less of the cards around it (merge_looks; real train photos: 1 x 0.8
373 -> 383 read right, 0.8 x 1 381 -> 385, as they are 421 -> 422). Otherwise
the first look, made on the frame as it came at full resolution, keeps its
cards.

A frame whose first look finds no card sure enough to tell a squeeze (none, or
only pips of a card the squeeze made it refuse, or weakly backed ones) is looked
at once more for each of GUESSES (80% of the height, of the width; or the guess on
the other side of what its weak cards tell), and what those looks find is only
added where no card lies: a guess is no estimate, and the first look's cards stay.
Real train photos, read right after unions.py: as they are 452 -> 453, 0.8 x 1
420 -> 424, 1 x 0.8 425 -> 430 (lone squeezed cards mostly); training decks
unchanged (their frames have sure cards). It costs up to two looks on such a
frame (~30 ms each); the live pipeline makes no second look.

Where the rest went (real train photos, 422 cards read as they are, 385 at
0.8 x 1, 383 at 1 x 0.8): not to recognition (the quads found as they are,
mapped into the squeezed photo, read 424 and 418); 48-49 cards lie under one
quad holding two (32 as they are): two cards side by side, one partly over
the other, look like one card once squeezed, and one such quad is all a frame
shows of its squeeze, so none is estimated (or a wrong one); and the second
look's frame, resampled, loses detail (the photos resized 0.8 and back read
410 and 402). unions.py now splits many of those quads (cut at the frame's
squeeze), the guessed looks find many lone cards.

Two causes of lost cards fixed since (sessions 10-11; real train photos read
right through the stills chain, session 11 before -> after: 1 x 1 492 -> 492,
0.8 x 1 463 -> 466, 1 x 0.8 484 -> 484, 0.75 x 1 444 -> 445, 1.25 x 1 485 -> 485,
1 x 1.25 460 -> 461; wrong unchanged (0, 0.75 x 1's one); detections up only
where a union gave its cards; tests/vision/test_squeeze11_*.py): a union of two cards the second look
found apart was kept, since the merge replaced cards one for one
(_split_unions; not a card found again with a piece of it, UNION_SAME, nor a
whole card backed better than its pieces, nor a card-shaped quad whose parts
lie on each other, _card_not_union); and one sure quad alone, two cards
squeezed into one card's shape, told a wrong squeeze and no other was looked
at (_doubtful: the guesses are looked at too, but may only split such a union;
adding their quads elsewhere added quads of no card on lone-card photos).
Tried and dropped: strips (quads longer than 2.5) telling no squeeze; it moved
the looks of fans at 1 x 1 and of lone cards elsewhere and added as many quads
of no card as it found cards. Left: cards the detector never finds squeezed
that the stills steps (indexfind, strips) found as they are; misshapen quads of
the nominal aspect whose sure support tells no squeeze (lone cards at 1 x 0.8).

The squeeze's estimate and the resize undoing it are in squeeze_estimate.py, the
merge of the two looks in squeeze_merge.py; this module holds the looks.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import select
from vision.detect.evidence import Evidence, gather
from vision.detect.squeeze_estimate import (
    SQUEEZE_BAND,
    SQUEEZES,
    TELLING_SUPPORT,
    told_squeeze,
    unsqueeze_factors,
)
from vision.detect.squeeze_merge import merge_looks

#: Cards of the second look longer than this (long/short, in the unsqueezed
#: frame) are not added: the strip of a covered card showing past the one on it,
#: taken for a narrow card (2.9 on a rendered scene, read as its card but no
#: card's outline), while cards on steep real photos reach 2.1.
MAX_ASPECT = 2.2


#: A squeeze told by fewer sure cards than this, when doubtful (_doubtful), is
#: looked at and guessed at too (GUESSES, those not within GUESS_NEAR of it in
#: log): one sure quad alone may be two cards side by side, squeezed into about
#: a card's shape, and tell the wrong squeeze (real train photos at 1 x 1.25:
#: IMG_2602's union of a jack and a ten, 2.03 long, told 0.76; IMG_2681's 1.67).
SURE_CARDS = 2
GUESS_NEAR = 0.1


def _doubtful(k: float | None, quads: list[np.ndarray], support: list[float]) -> bool:
    """Is squeeze `k`, told by fewer than SURE_CARDS sure cards, in doubt? When
    no squeeze of the grid fits the card (k at its end), or the card is longer
    than geometry.ASPECT_MAX (a card squeezed to 0.8 is 1.81 long; a quad longer
    is more often two cards). Guessing at every lone card's frame cost cards
    (the looks add quads of no card, which change the squeeze the reading cuts
    end cards for) and a wrong one (IMG_2635 at 0.75 x 1: K read as A)."""
    sure = [q for q, s in zip(quads, support) if s >= TELLING_SUPPORT]
    if k is None or len(sure) >= SURE_CARDS:
        return False
    at_end = k <= float(SQUEEZES[0]) * 1.001 or k >= float(SQUEEZES[-1]) * 0.999
    return at_end or any(g.aspect(q) > g.ASPECT_MAX for q in sure)


#: Squeezes looked at when no card of the first look is sure enough to tell one:
#: a photo stored at 80% of its height, or of its width. A squeezed photo whose
#: cards were all refused, or found as their pips only, tells none (single cards
#: at 0.8 x 1: cam_image12, 23, 34 of the real train photos).
GUESSES = (0.8, 1.25)


def second_look(
    image: np.ndarray, ev: Evidence, quads: list[np.ndarray], support: list[float],
    find: Callable[[Evidence], list[np.ndarray]],
) -> list[np.ndarray] | None:
    """The cards of a frame the first look's `quads` (at `ev`'s work scale;
    `support`: their edge support) show squeezed, merged with those `find` finds
    in it unsqueezed (same scale); None when the looks change nothing.

    When the first look has no card sure enough to tell the squeeze (none with
    TELLING_SUPPORT), the frame is looked at for each of GUESSES (for the one on
    the other side of a squeeze its weaker cards tell), and what those looks find
    only added where no card lies (merge_looks, `swap=False`): a card of the first
    look is not replaced by a quad found at a squeeze the frame was only guessed
    to have (real train photos as they are: replacing lost 10 cards read, to quads
    of a squeezed shape that the edges backed better), but a union of cards it
    finds apart is (_split_unions). Where sure cards tell no squeeze, none is
    guessed: a look at a wrong one finds cards misshapen, one of them round a
    card and the strip of the one under it, read as the card on top (held-out
    decks, seed 99 scene 173: KS read as JC). A squeeze told by one sure card
    alone and in doubt (_doubtful: two cards squeezed into one card's shape,
    mostly) is guessed at too, but those looks may only split a union of cards
    (`add=False`): the quads they added elsewhere were mostly no cards (session
    10: 9 more detections on 5 lone-card real test photos; real train photos, all
    stretches: 11 more quads for 3 more cards found)."""
    k, telling = told_squeeze(quads, support)
    lone = telling and _doubtful(k, quads, support)
    if k is not None and not SQUEEZE_BAND[0] <= k <= SQUEEZE_BAND[1]:
        # (told, which a mistaken quad may do: the guess on its other side too,
        # unless cards of the first look are sure; both guesses when one sure
        # card alone told it)
        looks = [(k, True, True)] + [
            (x, False, not lone) for x in GUESSES
            if ((x < 1.0) != (k < 1.0) and not telling)
            or (lone and abs(math.log(x / k)) > GUESS_NEAR)]
    else:
        looks = [] if telling else [(x, False, True) for x in GUESSES]
    merged, merged_support = list(quads), list(support)
    for squeeze, swap, add in looks:
        found = _look(image, ev, squeeze, find)
        if not found:
            continue
        merged = merge_looks(merged, merged_support, found,
                             [x.support for x in select.score_many(ev, found)],
                             swap=swap, add=add, squeeze=squeeze)
        merged_support = [x.support for x in select.score_many(ev, merged)]
    if len(merged) == len(quads) and all(a is b for a, b in zip(merged, quads)):
        return None  # nothing new
    return merged


def _look(image: np.ndarray, ev: Evidence, k: float,
          find: Callable[[Evidence], list[np.ndarray]]) -> list[np.ndarray] | None:
    """The cards `find` finds in `image` unsqueezed by `k`, at `ev`'s work scale."""
    h, w = image.shape[:2]
    fx, fy = unsqueeze_factors(k, image.shape)
    size = (max(1, round(w * fx)), max(1, round(h * fy)))
    if min(size) < 16:
        return None
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    ev2 = gather(small)
    # Back to the first look's work scale (via the frame's own pixels).
    back = np.array([ev.scale / (ev2.scale * size[0] / w), ev.scale / (ev2.scale * size[1] / h)],
                    dtype=np.float32)
    # Unsqueezed, a card has about the nominal aspect: a strip of a covered
    # card that the second look took for a long narrow card has not.
    seen = [q for q in find(ev2) if g.aspect(q) <= MAX_ASPECT]
    return [g.order_quad(q * back) for q in seen]
