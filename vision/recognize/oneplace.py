"""One place, one card: stills' found cards that read two cards in one place are refused.

Why: strips.py and indexfind.py place a card from one index corner, guessing the
rest of it (which way the card runs, how long it is). A deck printing an index in
all four corners (dondorf) shows a third index at the card's top right; read from
there, the card is laid the wrong way, over its neighbour. Rendered training
decks, seed 30 scene 65: a 10S read at its top-right index laid over the 5C, where
the 5C's own strip card lies (IoU 0.61 between the two), and reported where no 10S
lies (a phantom). Neither step sees the other's card: strips.py refuses a card
over a card read before it, and the two were found in one pass.

What is done (`refuse_clashes`): of the cards the stills' steps added (strips,
indexfind), two reading different cards in one place (quad IoU SAME_PLACE or
more) are both dropped, since which is right is not told; one lying so on a card
the detector's outline reads as another card is dropped alone (the outline read at
both corners is the surer). It only takes cards away: a wrong place costs a card
that may have been right (the 5C above), never adds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.overlap import quad_iou

#: Two quads this alike (IoU) lie in one place: one card, not two.
SAME_PLACE = 0.5


def clashing(quads: Sequence[np.ndarray], cards: Sequence[str | None],
             made: Sequence[bool]) -> set[int]:
    """Indices of the added cards (`made`) to drop: an added card reading one card
    in the place (SAME_PLACE) of another card read (`cards`, None: unread) as a
    different card. Two added cards clash both ways, so both go."""
    out: set[int] = set()
    for i, (qi, ci, mi) in enumerate(zip(quads, cards, made)):
        if not mi or ci is None:
            continue
        for j, (qj, cj) in enumerate(zip(quads, cards)):
            if j != i and cj is not None and cj != ci and quad_iou(qi, qj) >= SAME_PLACE:
                out.add(i)
                break
    return out


def refuse_clashes(clf: Any, image: np.ndarray, cands: Sequence[Any],
                   before: Sequence[Any]) -> list[Any]:
    """`cands` without the cards added since `before` (the candidates strips.py and
    indexfind.py were given: any candidate not among them by identity was added)
    that read a card where another card is read as a different one (see module).
    `clf`: an IndexClassifier or the photo's ReadingMemo."""
    old = {id(c) for c in before}
    made = [id(c) not in old for c in cands]
    if not any(made):
        return list(cands)
    from vision.recognize.reader import read_candidates

    cards = [s.card for s in read_candidates(clf, image, cands)]
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    drop = clashing(quads, cards, made)
    return [c for k, c in enumerate(cands) if k not in drop]
