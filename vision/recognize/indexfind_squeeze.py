"""A corner index in a photo resized non-uniformly: its card cut at the photo's squeeze
(the geometry indexfind.py reads a mark at when its card does not read as it is).

Why: indexfind.py grows a card from its index mark (glyph over pip) by a card's
usual proportions, as if the photo kept its aspect. A phone photo stored at 80% of
its width (or height) squeezes every card and index alike: the card grown as it
is comes out too wide (or too long) for the real one, its index corner is cut
out of proportion, and the network, shown a squeezed index, reads it short of the
single-corner bars or at one size alone (real train photos at 0.8 x 1: IMG_2452's
9S, IMG_2477's QS read 0.987-0.999 at 1x1 sizes and at one size only, found at
1 x 1). A lone card on the table is what is lost so: no other card tells the
detector the photo's squeeze, so no outline is found and no second look made
(squeeze.py), and only its index shows it.

So a mark whose card does not read as it is, but whose index the network names
(indexfind.LOOSE), is cut again as the card of a photo squeezed by each of
GUESSES: the mark is taken into the unsqueezed photo (its middle, its axis and
the glyph-pip step there), the card grown there and squeezed back. The same
rules as for a mark as it is then judge it (indexfind.agree over its three
sizes), and one more: all its cuts, as it is and at every squeeze, must name
one card only (a wrong squeeze cuts the index askew; a mark whose cuts name two
cards is read for sure by none). Of the squeezes passing, the surest is kept.
One more network call a photo, only for marks that showed an index and did not
read as they are (a few a photo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.indexfind_marks import IndexMark, card_quad
from vision.recognize.patch import extract_index_patches
from vision.recognize.readings import combine

#: Squeezes (height scale over width scale) a mark's card is cut at when it does
#: not read as it is: a photo stored at 80% of its height, of its width (as
#: squeeze.GUESSES and unions.GUESSED_SQUEEZES).
GUESSES = (0.8, 1.25)


def unsqueezed_mark(mark: IndexMark, squeeze: float) -> IndexMark:
    """`mark` as it lies once the photo's height is divided by `squeeze`."""
    k = np.array([1.0, 1.0 / squeeze], np.float32)
    down = np.array(mark.down, np.float32) * k
    length = float(np.hypot(*down))
    middle = np.array(mark.middle, np.float32) * k
    return IndexMark((float(middle[0]), float(middle[1])),
                     (float(down[0] / length), float(down[1] / length)), mark.step * length)


def squeezed_card_quad(mark: IndexMark, size: float, squeeze: float) -> np.ndarray:
    """The card of `mark` (indexfind_marks.card_quad at `size`) in a photo squeezed
    by `squeeze`: grown where the squeeze is undone, then squeezed back."""
    quad = card_quad(unsqueezed_mark(mark, squeeze), size)
    return (quad * np.array([1.0, squeeze], np.float32)).astype(np.float32)


def squeezed_finds(clf: Any, image: np.ndarray, marks: Sequence[IndexMark],
                   named_as_is: Sequence[set[str]]) -> list[tuple[int, Any]]:
    """(mark number, indexfind.Find) for the `marks` whose card reads at one of
    GUESSES (see module); `named_as_is[m]`: the cards mark m's tries as it is named
    (over 0.5), which the squeezes must not contradict."""
    from vision.recognize.indexfind import SIZE_TRIES, Find, agree

    if not marks:
        return []
    quads = [squeezed_card_quad(m, size, k) for m in marks for k in GUESSES
             for size in SIZE_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    per, out = len(SIZE_TRIES), []
    for m in range(len(marks)):
        named = set(named_as_is[m])
        passing: list[tuple[float, int]] = []
        for g in range(len(GUESSES)):
            tries = range((m * len(GUESSES) + g) * per, (m * len(GUESSES) + g + 1) * per)
            named |= {f"{reads[t].rank}{reads[t].suit}" for t in tries
                      if reads[t].rank is not None and reads[t].confidence > NAMED}
            verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
            best = max(tries, key=lambda t: verdicts[t].confidence)
            if verdicts[best].card is not None and agree([reads[t] for t in tries],
                                                         clf.calibration):
                passing.append((verdicts[best].confidence, best))
        if len(named) == 1 and passing:
            _, best = max(passing)
            out.append((m, Find(quads[best], patches[best],
                                combine([reads[best]], clf.calibration))))
    return out


#: A try reading a card over this probability names it (partial.py alike).
NAMED = 0.5
