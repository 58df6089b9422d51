"""One still image -> every card in it, read or not (for the CLI and evaluation).

The live path is vision.pipeline (with its change cache); this is the same
composition without state: detect every card, read each face-up one from its
visible corner indices, report backs as backs. Detection is passed in (`detect`) so
that evaluation can also feed ground-truth quads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from vision.recognize.classifier import IndexClassifier, combine
from vision.recognize.patch import extract_index_patches
from vision.types import CardSighting

Detect = Callable[[np.ndarray], list[Any]]


def default_detector() -> Detect:
    """The project's detector (vision.detect.detect_cards), imported when first needed."""
    from vision.detect import detect_cards

    return detect_cards


def read_candidate(clf: IndexClassifier, image: np.ndarray, cand: Any) -> CardSighting:
    """A CardSighting for one detector candidate.

    Uses the candidate's own `index_patches` (its visible corners only) when it carries
    them, else cuts both corners from `image`. A card whose corners agree but fall
    short of the bars gets a second look (`IndexClassifier.look_again`: the corners cut
    a little tighter and looser, calibrated bars of their own); only those cards pay
    for it. A candidate the detector took for a back is still shown to the classifier:
    if its corners read as one card with the calibrated confidence it is reported face
    up (the classifier is trained on backs as "not an index", so a real back does not
    pass), otherwise as a back.
    """
    corners = tuple((float(x), float(y)) for x, y in np.asarray(cand.corners).reshape(4, 2))
    visible = tuple(getattr(cand, "index_visible", (True, True)))
    patches = getattr(cand, "index_patches", None)
    if not patches:
        if not any(visible):
            if getattr(cand, "face_down", False):
                return CardSighting(corners, face_down=True)  # type: ignore[arg-type]
            return CardSighting(corners)  # type: ignore[arg-type]  # both indices covered
        cut = extract_index_patches(image, corners)
        patches = [p for p, v in zip(cut, visible) if v]
    readings = clf.classify(list(patches))
    verdict = combine(readings, clf.calibration, enrolled=clf.deck is not None)
    if verdict.card is None and clf.wants_second_look(readings):
        verdict = clf.look_again(image, np.asarray(corners, np.float32), visible,
                                 list(patches))
    if getattr(cand, "face_down", False) and verdict.card is None:
        return CardSighting(corners, face_down=True)  # type: ignore[arg-type]
    return CardSighting(corners, False, verdict.card, verdict.confidence,  # type: ignore
                        verdict.rank, verdict.suit)


def read_image(clf: IndexClassifier, image: np.ndarray, detect: Detect | None = None
               ) -> list[CardSighting]:
    """Every card found in `image`, read where the recogniser is sure."""
    det = detect or default_detector()
    return [read_candidate(clf, image, c) for c in det(image)]
