"""vision.recognize.partgrow: an unread outline on part of a card lying in view, cut
through the card's print, is grown to the card and read at both index corners."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import card_on_cloth as helpers_card_on_cloth
from vision_helpers import stills_read, training_scene

from vision.detect import CardCandidate
from vision.evaluate import match_rendered
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.recognize.overlap import quad_iou
from vision.recognize.partgrow import find_grown_parts
from vision.recognize.reader import read_candidates

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")

#: A training deck (development data only).
DECK = "gnome/paris"


def card_on_cloth(card: str) -> tuple[np.ndarray, tuple, tuple]:
    """`card` upright on green cloth: the image, the card's quad and its top 60%
    (an outline cut across the card's print)."""
    img, quad = helpers_card_on_cloth(DECK, card)
    (x0, y0), (x1, _), (_, y1), _ = quad
    cut = y0 + int(0.6 * (y1 - y0 + 1))
    return img, quad, ((x0, y0), (x1, y0), (x1, cut), (x0, cut))


@needs_model
def test_a_part_cut_through_the_print_is_grown_to_the_card() -> None:
    """(A spade: its lone corner faces the highest bars, so the part reads nothing.)"""
    img, quad, part = card_on_cloth("KS")
    clf = IndexClassifier.load()
    cand = CardCandidate(part, visible=1.0)
    assert read_candidates(clf, img, [cand])[0].card is None
    got = read_candidates(clf, img, find_grown_parts(clf, img, [cand]))
    assert [s.card for s in got] == ["KS"]
    assert quad_iou(got[0].corners, quad) > 0.9


@needs_model
def test_a_card_read_already_is_not_grown_again() -> None:
    """A deck holds each card once: an unread part naming a card read elsewhere
    gives way to nothing."""
    img, quad, part = card_on_cloth("7D")
    clf = IndexClassifier.load()
    cands = [CardCandidate(quad, visible=1.0), CardCandidate(part, visible=1.0)]
    out = find_grown_parts(clf, img, cands)
    assert [s.card for s in read_candidates(clf, img, out)].count("7D") == 1


@needs_model
def test_a_part_of_a_calibration_scene_is_read() -> None:
    """Calibration decks seed 5, scene 32: plastic's 6S, its border faint on the
    wood, outlined on 0.39 of it (and taken for a back); not read before partgrow."""
    image, truth = training_scene(5, 32, calibration=True)
    read = stills_read(image)
    match = match_rendered(truth, read)
    got = {t.card: read[j].card for t, j in zip(truth, match) if j is not None}
    assert got.get("6S") == "6S"
    assert all(v is None or v == k for k, v in got.items()), got
    assert sum(1 for j, s in enumerate(read) if s.card and j not in match) == 0
