"""Cards found by their index at the index's own size, with no paper asked for
(stills; a step of indexfind.py, after indexsize.py).

Why: session 13's tracer (scripts/trace_chain.py) of the rendered training decks
(seed 7, 60 scenes) found cards whose index indexfind saw as a mark but grew no card
from: the paper test (`indexfind_marks.on_paper`) refused the mark, its index column
running onto the cards beneath, and at the frame's card size (indexsize.py) its
three tries disagreed, the card being much smaller or larger than the frame's
others (a camera's slant: 0.72 and 0.83 of the frame's height, seed 7 scenes 38 and
51). Cut at the index's own size (`indexfind_marks.card_quad` at
indexfind.SIZE_TRIES) the same marks read their card at 1.00 three times over.

So a mark indexsize tried in vain is tried at its own size, and kept where its
tries agree surely (indexfind.agree) and the card so grown is OWN_BAND of the
frame's card height: decks printing big indices (kde/nicu-ornamental,
gnome/ornamental) grow cards twice too big from their index (2.0-2.2 of the
card's height on seed 7), and those agree too. A find naming a card the other
finds name is left out (the mark is another cut of a card found: `distinct` would
keep the surer of two and could change which). The finds then face indexfind's
every rule, as indexsize's do.

Also here (`marks_to_try`): which marks indexsize and this step try. A mark inside
a card read is that card's own pip or index and is not tried, except one lying at
an index corner of an unread outline and at no read card's index corner: a card
lying over two read cards, whose outlines the detector drew whole under it, has its
index corners on them (seed 7 scene 38: gnome/berlin's 7D over the 2D and AH, its
own outline read nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.recognize.indexfind_marks import IndexMark, card_quad
from vision.recognize.patch import extract_index_patches
from vision.recognize.readings import combine

#: A find at the mark's own size is kept when its height is this share of the
#: frame's card height (indexsize.frame_height): the training decks' cards found so
#: lay at 0.72-0.83 of it, big-index decks' wrong-size finds at 2.0-2.2; 1.4 is
#: indexfind.SIZE_SPREAD, the spread of sizes a frame's cards show.
OWN_BAND = (0.7, 1.4)


def own_size_finds(clf: Any, image: np.ndarray, marks: Sequence[IndexMark],
                   height: float | None, named: Sequence[str] = ()) -> list[Any]:
    """indexfind Finds for `marks` tried at their own size (see module), none
    naming a card in `named` (the other finds'); none when no height is told."""
    from vision.recognize.indexfind import SIZE_TRIES, Find, agree

    if height is None or not marks:
        return []
    quads = [card_quad(m, k) for m in marks for k in SIZE_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    per = len(SIZE_TRIES)
    out = []
    for m in range(len(marks)):
        tries = range(m * per, (m + 1) * per)
        verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
        best = max(tries, key=lambda t: verdicts[t].confidence)
        card = verdicts[best].card
        own = float(np.hypot(*(quads[best][3] - quads[best][0]))) / height
        if (card is not None and card not in named and OWN_BAND[0] <= own <= OWN_BAND[1]
                and agree([reads[t] for t in tries], clf.calibration)):
            out.append(Find(quads[best], patches[best], verdicts[best]))
    return out


def marks_to_try(marks: Sequence[IndexMark], read_quads: Sequence[np.ndarray],
                 read_corners: Sequence[np.ndarray],
                 unread_corners: Sequence[np.ndarray]) -> list[IndexMark]:
    """The marks in none of `read_quads` (cards read: their own pips and indices),
    or at one of `unread_corners` (index regions of unread outlines) and none of
    `read_corners` (see module)."""
    def inside(m: IndexMark, q: np.ndarray) -> bool:
        return cv2.pointPolygonTest(np.asarray(q, np.float32).reshape(-1, 1, 2),
                                    (float(m.middle[0]), float(m.middle[1])), False) >= 0

    return [m for m in marks if not any(inside(m, q) for q in read_quads)
            or (any(inside(m, q) for q in unread_corners)
                and not any(inside(m, q) for q in read_corners))]
