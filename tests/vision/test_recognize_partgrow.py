"""vision.recognize.partgrow: an unread outline on part of a card lying in view, cut
through the card's print, is grown to the card and read at both index corners."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip, stills_read, training_scene

from vision.cardart import render_card
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
    """`card` upright on green cloth at (80, 80): the image, the card's quad and
    its top 60% (an outline cut across the card's print)."""
    art = render_card(deck_or_skip(DECK), card, 240)
    h, w = art.shape[:2]
    img = np.full((h + 160, w + 160, 3), (40, 90, 30), np.uint8)
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    roi = img[80:80 + h, 80:80 + w]
    roi[:] = (art[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
    x0, y0, x1, y1 = 80, 80, 80 + w - 1, 80 + h - 1
    cut = y0 + int(0.6 * h)
    return img, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), ((x0, y0), (x1, y0), (x1, cut), (x0, cut))


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
