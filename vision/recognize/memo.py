"""One photo's readings: each distinct corner patch goes through the network once
(stills only).

Why: a still is read in several steps (reader.still_detector: unions.py, strips.py,
indexfind.py, then reader.read_candidates), and each shows the network the patches
it needs. Some are the same patches again: strips._first_reads reads every
candidate's own corners to know which cards are read, indexfind.find_by_index reads
them once more through read_candidates when it found a card, and read_image reads
them a last time; the pair's second opinion (fallback.py) is asked about the cards
still unread at both of the last two. `ReadingMemo` stands in for the classifier
for one photo and remembers what each patch read, keyed by its pixels (shape, dtype
and bytes), so a patch shown twice is read once (`OpinionMemo`: a card asked about
twice is judged once): a candidate's own patches are the same arrays in every step,
and a near-square card's turned corners are cut again bit for bit.

Exact, not approximate: the network reads a patch the same whatever else is in its
batch (onnxruntime and cv2.dnn on one thread: 120 real-photo patches read alone and
in batches of 3 to 33 gave identical outputs, bit for bit), so every step gets the
Readings it got without the memo. Keyed by pixels rather than by a candidate's quad:
a step that cuts a patch differently (unions' end cards, strips' guesses) can never
be handed another cut's reading.

No global state: a memo is made per photo by reader.read_image (or per call of the
function reader.still_detector returns) and dropped with it. The live pipeline does
not use one: it reads each frame's patches once already.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from vision.recognize.readings import CardReading, Reading


def patch_key(patch: np.ndarray) -> Hashable:
    """What makes two patches read alike: their shape, dtype and pixels."""
    return patch.shape, patch.dtype.str, patch.tobytes()


class ReadingMemo:
    """A classifier (IndexClassifier or anything with its `classify`, `calibration`
    and `deck`) for one photo, reading each distinct patch once (see module).

    Everything but `classify` and `fallback` (the second opinion, remembered too:
    OpinionMemo) is the classifier's own (`calibration`, `deck`, the second look's
    `wants_second_look` and `look_again_many`, None where the classifier has none),
    so the reading steps cannot tell the two apart. `asked` counts the patches the steps asked about,
    `run` those the network was shown."""

    def __init__(self, clf: Any) -> None:
        self.clf = clf
        self.calibration: Any = clf.calibration
        self.deck: Any = getattr(clf, "deck", None)
        pair = getattr(clf, "fallback", None)
        self.fallback: OpinionMemo | None = None if pair is None else OpinionMemo(pair)
        self.wants_second_look: Callable[..., bool] | None = getattr(
            clf, "wants_second_look", None)
        self.look_again_many: Callable[..., list[Any]] | None = getattr(
            clf, "look_again_many", None)
        self._seen: dict[Hashable, Reading] = {}
        self.asked = 0
        self.run = 0

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        """One Reading per patch, as `clf.classify` gives it: the patches not seen
        before in one network call (each distinct one once), the others remembered."""
        keys = [patch_key(p) for p in patches]
        new: dict[Hashable, np.ndarray] = {}
        for k, p in zip(keys, patches):
            if k not in self._seen and k not in new:
                new[k] = p
        if new:
            self._seen.update(zip(new, self.clf.classify(list(new.values()))))
        self.asked += len(patches)
        self.run += len(new)
        return [self._seen[k] for k in keys]


class OpinionMemo:
    """The pair's second opinion (fallback.SecondOpinion) for one photo, giving each
    card (keyed by its corner patches' pixels) its verdict once: a card
    find_by_index's reading left unread is asked about again by read_image's."""

    def __init__(self, pair: Any) -> None:
        self.pair = pair
        self._seen: dict[Hashable, CardReading] = {}

    def read(self, cuts: Sequence[Sequence[np.ndarray]],
             firsts: Sequence[Sequence[Reading]]) -> list[CardReading]:
        """`pair.read(cuts, firsts)`: the cards not asked about before in one call."""
        keys = [tuple(patch_key(p) for p in ps) for ps in cuts]
        new: dict[Hashable, int] = {}
        for i, k in enumerate(keys):
            if k not in self._seen and k not in new:
                new[k] = i
        if new:
            self._seen.update(zip(new, self.pair.read([cuts[i] for i in new.values()],
                                                      [firsts[i] for i in new.values()])))
        return [self._seen[k] for k in keys]
