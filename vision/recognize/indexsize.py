"""Cards found by their index at the frame's card size, where the index's own
proportions mislead (stills; a step of indexfind.py).

Why: indexfind.py grows a card from a glyph-over-pip mark by the usual deck's
proportions (the card 10 glyph-pip steps tall) and asks that the card run on as
paper where so grown. Decks printing big indices (kde/nicu-*, gnome/ornamental:
4.5-5 steps a card) are then guessed twice too big and refused, and so is a card
half under another card, whose index column runs into the other card's pips
(`on_paper`). Session 12's trace of the rendered training decks (seed 7, 60
scenes): of the 60 cards the true quads read but the stills chain did not, 49
had their index seen as a mark; 32 of those marks were refused by `on_paper`,
11 more read short of `agree` at the guessed size.

What such a card still has: one deck is played, so its cards are all of the
size of the frame's cards read at both corners (indexfind.frame_card_size). A
mark left without a find is tried as a card of that height (FRAME_TRIES, the
camera's slant makes near cards larger), its corner placed from the mark as
indexfind_marks.card_quad does but by a step no longer than the card's height
over STEP_CAP (a big index stands nearer its corner than its size says), and
kept only where the tries agree surely (indexfind.agree). No paper is asked
for: the network's agreement at three sizes is the witness, and the finds go
through indexfind's every other rule (a card read already, an index read there,
a card nobody read lying on it, clashes). On seed 7 with the true frame size
this read 18 of those 60 cards at IoU 0.6-0.9 with their truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.indexfind_marks import CORNER_DOWN, CORNER_RIGHT, IndexMark
from vision.recognize.patch import CARD_ASPECT, extract_index_patches
from vision.recognize.readings import combine

#: The heights a mark is tried at, as shares of the frame's card height (the
#: usual size first: it wins ties). The missed cards of training decks seed 7
#: lay at 0.75-1.26 of the frame's median size, most within 0.9-1.1.
FRAME_TRIES = (1.0, 0.9, 1.1)
#: The corner offset's step is at most the card's height over this: 10 steps a
#: card is the usual deck; 8 read 18 of seed 7's 60 missed cards with the true
#: frame size, 10 read 11 and no cap 10 (big-index decks' corners guessed too far
#: from their index).
STEP_CAP = 8.0


def frame_quad(mark: IndexMark, height: float) -> np.ndarray:
    """The card of `height` pixels whose top-left index is `mark`: a float32 (4, 2)
    quad clockwise from that corner (see module for the corner's step)."""
    down = np.array(mark.down, np.float32)
    right = np.array([down[1], -down[0]], np.float32)
    step = min(mark.step, height / STEP_CAP)
    corner = (np.array(mark.middle, np.float32) - CORNER_RIGHT * step * right
              - CORNER_DOWN * step * down)
    wid = height * CARD_ASPECT
    return np.array([corner, corner + wid * right, corner + wid * right + height * down,
                     corner + height * down], np.float32)


def frame_height(size: float | None) -> float | None:
    """A card's height from the frame's card size (square root of its area)."""
    return None if size is None else size / float(np.sqrt(CARD_ASPECT))


def frame_size_finds(clf: Any, image: np.ndarray, marks: Sequence[IndexMark],
                     height: float | None) -> tuple[list[Any], list[IndexMark]]:
    """indexfind Finds for the `marks` tried at the frame's card `height` (see
    module), none when no height is told; and the marks that found none (for
    indexown.py)."""
    from vision.recognize.indexfind import Find, agree

    if height is None or not marks:
        return [], list(marks)
    quads = [frame_quad(m, k * height) for m in marks for k in FRAME_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    per = len(FRAME_TRIES)
    out, left = [], []
    for m in range(len(marks)):
        tries = range(m * per, (m + 1) * per)
        verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
        best = max(tries, key=lambda t: verdicts[t].confidence)
        if verdicts[best].card is not None and agree([reads[t] for t in tries],
                                                     clf.calibration):
            out.append(Find(quads[best], patches[best], verdicts[best]))
        else:
            left.append(marks[m])
    return out, left
