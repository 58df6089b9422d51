"""The merge of the detector's two looks at a squeezed frame: the second look's
cards (found in the frame unsqueezed) added where no card of the first lies,
put in place of the first look's misshapen ones, or of a union of cards they
find apart (see squeeze.py, whose second_look calls merge_looks, for the why
and the figures).

Why its own module: the rules for which look keeps a card are a concern of their
own, tested on their own (tests/vision/test_detect_squeeze_merge.py,
test_squeeze11_merge.py), and apart from the looks they are half of squeeze.py.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from vision.detect import geometry as g

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
