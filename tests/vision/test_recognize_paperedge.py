"""vision.recognize.paperedge: an unread outline on a card's own printed frame is
grown out to the paper's edge and read; an outline on the card's edge stays."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import card_on_cloth as helpers_card_on_cloth
from vision_helpers import stills_read_right

from vision.detect import CardCandidate
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.recognize.overlap import quad_iou
from vision.recognize.paperedge import find_paper_edges, grown
from vision.recognize.patch import normalize_quad
from vision.recognize.reader import read_candidates
from vision.recognize.stripgeom import gradients

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")

#: A training deck (development data only) printing a frame of red corner
#: brackets round its pips, clear of the index.
DECK = "gnome/ornamental"
#: Where the frame lies on its 176 x 240 px 6C (measured by eye on the render).
FRAME = ((32, 22), (146, 22), (146, 216), (32, 216))


def card_on_cloth(card: str = "6C") -> tuple[np.ndarray, tuple, tuple]:
    """`card` upright on green cloth: the image, the card's quad and its printed
    frame's."""
    img, quad = helpers_card_on_cloth(DECK, card)
    frame = tuple((x + 80, y + 80) for x, y in FRAME)
    return img, quad, frame


def test_the_frame_is_grown_to_the_card() -> None:
    img, quad, frame = card_on_cloth()
    q = grown(img, *gradients(img), normalize_quad(frame))
    assert q is not None and quad_iou(q, quad) > 0.93


def test_an_outline_on_the_cards_edge_stays() -> None:
    """Beyond the card's own edge lies cloth, no band of paper: nothing moves."""
    img, quad, _ = card_on_cloth()
    assert grown(img, *gradients(img), normalize_quad(quad)) is None


@needs_model
def test_an_unread_frame_outline_is_read_as_the_card() -> None:
    img, quad, frame = card_on_cloth()
    clf = IndexClassifier.load()
    cand = CardCandidate(frame, visible=1.0)
    assert read_candidates(clf, img, [cand])[0].card is None
    out = find_paper_edges(clf, img, [cand])
    got = read_candidates(clf, img, out)
    assert [s.card for s in got] == ["6C"]
    assert quad_iou(got[0].corners, quad) > 0.93


@needs_model
@pytest.mark.parametrize(("scene", "card"), [(12, "KC"), (47, "9D")])
def test_printed_frames_of_a_training_scene_are_read(scene: int, card: str) -> None:
    """Training decks seed 7: the detector outlined gnome/gnomangelo's KC on its
    picture's frame, 10 degrees off the card's edge under the camera's slant, and
    gnome/ornamental's 9D on its red frame; neither read before paperedge."""
    stills_read_right(7, scene, (card,))
