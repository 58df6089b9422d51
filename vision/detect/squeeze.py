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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import select
from vision.detect.evidence import WORK_LONG_SIDE, Evidence, gather

#: Squeezes (height scale / width scale) tried when estimating a frame's.
_SQUEEZES = np.exp(np.linspace(np.log(0.6), np.log(1 / 0.6), 81)).astype(np.float32)
#: Frames whose estimated squeeze lies in this range get no second look (real
#: photos as they are mostly estimate 0.88-1.14: the camera's slant foreshortens
#: the table a little; a photo squeezed to 80% estimates 0.77 or 1.21).
SQUEEZE_BAND = (0.88, 1.14)
#: The squeeze is told by the cards with this much edge support, when there are
#: any (weakly supported ones are often no card, or two as one, and mislead it;
#: real train photos squeezed: 2-3 more cards found than with all of them).
TELLING_SUPPORT = 0.85
#: Cards of the second look longer than this (long/short, in the unsqueezed
#: frame) are not added: the strip of a covered card showing past the one on it,
#: taken for a narrow card (2.9 on a rendered scene, read as its card but no
#: card's outline), while cards on steep real photos reach 2.1.
MAX_ASPECT = 2.2
#: A card of the second look is new when it overlaps every card of the first
#: look's under this IoU.
NEW_IOU = 0.3
#: A card of the second look may replace the card of the first whose box it
#: overlaps by this IoU or more, when that is the only one it overlaps by
#: NEW_IOU (the same card: see merge_looks),
SAME_IOU = 0.5
#: together with the first look's cards lying this share of their area or more
#: on it (pieces the first look cut out of a squeezed card),
INSIDE = 0.8
#: when its edge support beats theirs by this much (at equal support, the
#: second look's quad, found in a frame shrunk to unsqueeze it, is the less
#: exact: real train photos, 1 x 0.8: 2 cards more read, 2 fewer)
SUPPORT_GAIN = 0.02
#: and its overlap with the other cards differs from the replaced quad's by
#: under this share of that quad's area.
SPILL = 0.03


def frame_squeeze(quads: list[np.ndarray]) -> float | None:
    """The frame's squeeze (height scale over width scale) that best turns the
    cards `quads` into rectangles of the nominal aspect, or None without cards.

    Each card is judged by its mean side vectors: once the frame's height is
    divided by the squeeze, they should be at right angles (a cosine of 0) and
    in the ratio geometry.ASPECT_NOMINAL; squared errors in log aspect and
    cosine, summed over cards, pick the squeeze among a fine grid (0.6-1.67)."""
    if not quads:
        return None
    q = np.stack(quads).astype(np.float32)
    e0 = ((q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])) / 2  # (n, 2)
    e1 = ((q[:, 2] - q[:, 1]) + (q[:, 3] - q[:, 0])) / 2
    inv = 1.0 / _SQUEEZES[:, None]  # (K, 1)
    ax, ay = e0[None, :, 0], e0[None, :, 1] * inv  # (K, n)
    bx, by = e1[None, :, 0], e1[None, :, 1] * inv
    la = np.hypot(ax, ay) + 1e-6
    lb = np.hypot(bx, by) + 1e-6
    log_aspect = np.abs(np.log(la / lb))
    cos = (ax * bx + ay * by) / (la * lb)
    err = (log_aspect - np.log(g.ASPECT_NOMINAL)) ** 2 + cos**2
    return float(_SQUEEZES[int(np.argmin(err.sum(axis=1)))])


def told_squeeze(quads: list[np.ndarray], support: list[float]) -> tuple[float | None, bool]:
    """The frame's squeeze as its sure cards (edge `support` >= TELLING_SUPPORT)
    tell it, else as all its cards do (None without cards); and whether sure cards
    told it. The detector's second look and unions.py's end cards ask the same."""
    telling = [q for q, s in zip(quads, support) if s >= TELLING_SUPPORT]
    return frame_squeeze(telling or quads), bool(telling)


def unsqueeze_factors(squeeze: float, shape: tuple[int, ...],
                      long_side: int = WORK_LONG_SIDE) -> tuple[float, float]:
    """(fx, fy) resizing a frame of `shape` so that its squeeze is undone and its
    long side is at most `long_side`: the stretched axis shrinks (see the module
    docstring)."""
    h, w = shape[:2]
    fx, fy = (squeeze, 1.0) if squeeze < 1.0 else (1.0, 1.0 / squeeze)
    s = min(1.0, long_side / max(w * fx, h * fy))
    return fx * s, fy * s


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
    at_end = k <= float(_SQUEEZES[0]) * 1.001 or k >= float(_SQUEEZES[-1]) * 0.999
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


def merge_looks(first: list[np.ndarray], first_support: list[float],
                second: list[np.ndarray], second_support: list[float], swap: bool = True,
                add: bool = True, squeeze: float | None = None) -> list[np.ndarray]:
    """The first look's cards with the second look's merged in (`swap`: also
    replacing misshapen ones, see below; else only adding; `add=False`: neither,
    only splitting unions, see _split_unions, judged at the look's `squeeze`).

    A card of the second look where no card of the first (nor one added
    already) lies (overlapping each under NEW_IOU) is added: by the cards
    themselves, not their boxes, which for two tilted cards lying over each
    other overlap more than the cards do (a covered card of a squeezed real
    train photo, IMG_2628 at 1 x 0.8, was missed). One that the
    first look saw as a misshapen quad, or as that and pieces of the card, is
    the same card seen where the detector's shape tests and corner guesses hold
    (the frame unsqueezed): it replaces them when the edges back it better
    (SUPPORT_GAIN) and it covers no more nor less of the other cards (SPILL:
    a covered card's visible part, cut along the card on it, is backed by
    edges all round too)."""
    out: list[np.ndarray | None] = list(first)
    if not second:
        return list(first)
    fb, sb = g.boxes(first), g.boxes(second)
    n1, n2 = len(first), len(second)
    over = np.array([[g.box_iou(a, b) for b in sb] for a in fb]).reshape(n1, n2)
    area1 = [max(g.quad_area(q), 1.0) for q in first]
    # on[i, j]: the share of first[i] lying on second[j].
    on = np.zeros((n1, n2))
    for i in range(n1):
        for j in range(n2):
            if not g.apart(fb[i], sb[j]):
                on[i, j] = g.intersection_area(first[i], second[j]) / area1[i]
    added: list[np.ndarray] = []
    split = _split_unions(first, first_support, second, second_support, squeeze)
    for i, js in split.items():
        out[i] = None
        added.extend(second[j] for j in js)
    done = {j for js in split.values() for j in js}
    for j in range(n2):
        if j in done or not add:
            continue
        if all(g.iou(second[j], q) < NEW_IOU for q in first):
            if not swap and _inside_one(second[j], first, fb, sb[j]):
                continue
            taken = [q for q in out if q is not None] + added
            if all(g.iou(second[j], o) < NEW_IOU for o in taken):
                added.append(second[j])
            continue
        if (over[:, j] < NEW_IOU).all() or not swap:
            continue
        main = int(np.argmax(over[:, j]))
        members = set(np.flatnonzero(on[:, j] >= INSIDE).tolist()) | {main}
        if (over[main, j] < SAME_IOU or (over[main] >= NEW_IOU).sum() > 1
                or any(out[i] is None or (on[i] >= INSIDE).sum() > 1 for i in members)):
            continue
        if second_support[j] < max(first_support[i] for i in members) + SUPPORT_GAIN:
            continue
        others = [i for i in range(n1) if i not in members and out[i] is not None
                  and not g.apart(fb[i], sb[j])]
        now = sum(g.intersection_area(second[j], first[i]) for i in others)
        was = sum(g.intersection_area(first[main], first[i]) for i in others)
        if abs(now - was) > SPILL * area1[main]:
            continue
        for i in members:
            out[i] = None
        out[main] = second[j]
    return [q for q in out if q is not None] + added


def _inside_one(quad: np.ndarray, first: list[np.ndarray], first_boxes: Any,
                box: Any) -> bool:
    """Does `quad` lie (INSIDE of it) within a card of the first look? Then a look
    at a guessed squeeze found a piece of that card (a court card's picture
    frame on white paper: tests/vision/test_detect_court_frames.py), not a card."""
    area = max(g.quad_area(quad), 1.0)
    return any(not g.apart(b, box) and g.intersection_area(quad, q) >= INSIDE * area
               for q, b in zip(first, first_boxes))


#: A card of the first look is two or more cards of the second (see
#: _split_unions) when they lie on it (INSIDE of each), are not the same card
#: (IoU under SAME_IOU: cards of a fan overlap, IMG_2681's by 0.39), together
#: cover this share of it or more
UNION_COVER = 0.85
#: and edges back them by this much on the mean (a sure card's, TELLING_SUPPORT,
#: less a little) and each by UNION_MIN_SUPPORT (the card under another in a
#: fan is backed on three sides at most: IMG_2681's nine at 1 x 1.25, 0.69).
UNION_SUPPORT = 0.8
UNION_MIN_SUPPORT = 0.65
#: A card of the second look overlapping the first look's by this IoU or more
#: is that card, not a part of a union (a rendered training scene, seed 8 no. 59:
#: a whole seven found again, 0.99, with a piece of it, took its place).
UNION_SAME = 0.85


def _split_unions(first: list[np.ndarray], first_support: list[float],
                  second: list[np.ndarray], second_support: list[float],
                  squeeze: float | None = None) -> dict[int, list[int]]:
    """{i: [j, ...]}: the first look's cards that are unions of the second look's.

    Squeezed, two cards of a fan or row side by side make one outline of about a
    card's shape (two cards at 0.8 x 1, each 1.45 / 0.8 long, side by side: 0.9);
    unsqueezed, the second look finds them apart. merge_looks replaces a card
    one for one, so such a union kept the two cards unread (real train photo
    IMG_2657 at 0.8 x 1: two kings under one quad). The union gives way to its
    cards when they cover it (UNION_COVER), each lying on it and on no other card
    of the first look, and edges back them (UNION_SUPPORT, UNION_MIN_SUPPORT)
    and the best of them better than the union (whose outline has a notch where
    one card leaves the other): a whole card backed all round is not cut into
    the halves of its picture (IMG_2489's queen at 0.75 x 1, support 1.0)."""
    out: dict[int, list[int]] = {}
    for i, q in enumerate(first):
        area = max(g.quad_area(q), 1.0)
        js = []
        for j, p in enumerate(second):
            pa = max(g.quad_area(p), 1.0)
            if (second_support[j] >= UNION_MIN_SUPPORT
                    and g.intersection_area(p, q) >= INSIDE * pa
                    and g.iou(p, q) < UNION_SAME
                    and all(g.iou(p, o) < NEW_IOU for k, o in enumerate(first) if k != i)):
                js.append(j)
        if (len(js) < 2 or np.mean([second_support[j] for j in js]) < UNION_SUPPORT
                or max(second_support[j] for j in js) <= first_support[i]
                or any(g.iou(second[a], second[b]) >= SAME_IOU
                       for a in js for b in js if a < b)):
            continue
        cover = sum(g.intersection_area(second[j], q) for j in js) - sum(
            g.intersection_area(second[a], second[b]) for a in js for b in js if a < b)
        if cover >= UNION_COVER * area and not _card_not_union(q, [second[j] for j in js], squeeze):
            out[i] = js
    return out


#: Unsqueezed, a quad this close to a card's shape (|log(aspect / ASPECT_NOMINAL)|
#: and |cosine| of its corners) is taken for a card (see _card_not_union),
CARD_SHAPE_LOG = 0.12
CARD_SHAPE_COS = 0.15
#: unless its parts lie apart: no part lies on another by this share of the
#: smaller one or more.
PARTS_APART = 0.3


def _card_not_union(quad: np.ndarray, parts: list[np.ndarray], squeeze: float | None) -> bool:
    """Is `quad` one card, not the union of `parts`? When unsqueezed (by the
    look's `squeeze`) it has a card's shape (CARD_SHAPE_LOG, CARD_SHAPE_COS) and
    its parts lie on one another (PARTS_APART). Why: the second look may find a
    card cut short and a piece of its corner (a queen's picture frame), together
    covering it, the piece backed weakly; they took a whole queen's place and
    added a quad of no card (real train photo IMG_2576 at 0.75 x 1 and 1.25 x 1).
    Two cards squeezed into one outline give a card's shape only when they lie
    side by side, apart (IMG_2657 at 0.8 x 1, three cards of a fan: 1.41, parts
    overlapping 0.03); cards of a fan one over the other make a squarer outline
    (IMG_2681 at 1 x 1.25: 1.02, parts overlapping 0.58)."""
    if squeeze is None:
        return False
    q = np.asarray(quad, np.float32)
    a = ((q[1] - q[0]) + (q[2] - q[3])) / 2
    b = ((q[2] - q[1]) + (q[3] - q[0])) / 2
    a, b = a / np.float32([1.0, squeeze]), b / np.float32([1.0, squeeze])
    la, lb = float(np.hypot(*a)) + 1e-6, float(np.hypot(*b)) + 1e-6
    shaped = (abs(abs(math.log(la / lb)) - math.log(g.ASPECT_NOMINAL)) < CARD_SHAPE_LOG
              and abs(float(a @ b)) / (la * lb) < CARD_SHAPE_COS)
    if not shaped:
        return False
    areas = [max(g.quad_area(p), 1.0) for p in parts]
    return any(g.intersection_area(parts[x], parts[y]) >= PARTS_APART * min(areas[x], areas[y])
               for x in range(len(parts)) for y in range(x + 1, len(parts)))
