"""indexfind_print: a card found by its index on a picture printed on a back is not
given, told by the find's own margin (not its index's paper), where it lies inside
an unread outline; a card of the deck lying on a back keeps its paper margin and
stays. kde/nicu-white's back shows a fan of aces, and indexfind read its AH
(training decks seed 40 scenes 1 and 69)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recognize.indexfind_print import margin_paper, printed_on_back
from vision.recognize.patch import extract_index_patches

from .vision_helpers import card_on_cloth, deck_or_skip, stills_read, training_scene

# Training decks seed 40 scene 1: the detector's outline of the face-down card, and
# the quad indexfind grew from the AH printed in its fan (index corner first).
BACK = np.float32([[909, 449], [995, 376], [1091, 481], [1006, 551]])
PRINTED = np.float32([[967, 451], [1026, 404], [1091, 487], [1032, 533]])
#: The scene's card size (square root of a card's area, indexfind.frame_card_size).
SIZE = 131.0


def test_the_printed_ace_lies_on_the_backs_print_not_on_paper() -> None:
    deck_or_skip("kde/nicu-white")
    image, _ = training_scene(40, 1)
    patch = extract_index_patches(image, PRINTED)[0]
    assert margin_paper(image, PRINTED, patch) < 0.5
    assert printed_on_back(image, PRINTED, patch, [BACK], SIZE)
    assert not printed_on_back(image, PRINTED, patch, [], SIZE)  # no outline round it
    # an outline 1.6 times the frame's card holds two cards, not a back's picture
    # (training decks seed 7 scene 33: a 10S under a back, its margin table and back)
    assert not printed_on_back(image, PRINTED, patch, [BACK], SIZE / 1.6)
    assert not printed_on_back(image, PRINTED, patch, [BACK], None)


def test_a_card_inside_an_unread_outline_keeps_its_paper_margin() -> None:
    """A card of the deck inside a bigger unread outline (a back it lies on, an
    outline round two cards) shows its own paper round its edges: kept."""
    image, quad = card_on_cloth("kde/nicu-white", "AH", 240)
    q = np.float32(quad)
    patch = extract_index_patches(image, q)[0]
    assert margin_paper(image, q, patch) > 0.9
    around = q + np.float32([[-30, -30], [30, -30], [30, 30], [-30, 30]])
    assert not printed_on_back(image, q, patch, [around], float(np.sqrt(cv2.contourArea(q))))


@pytest.mark.parametrize("scene,right", [(1, 7), (69, 7)])
def test_the_stills_chain_reads_no_ace_off_nicu_whites_back(scene: int, right: int) -> None:
    """Training decks seed 40: scene 1's printed AH lies wholly inside the back;
    scene 69's runs off it onto the table, its AH index inside the 8H's find under
    the back, which must still be given (the printed index is no card on it)."""
    deck_or_skip("kde/nicu-white")
    from vision.evaluate import match_rendered

    image, truth = training_scene(40, scene)
    read = stills_read(image)
    match = match_rendered(truth, read)
    assert [s.card for j, s in enumerate(read) if s.card and j not in match] == []
    got = {t.card: read[j].card for t, j in zip(truth, match) if j is not None}
    assert all(v is None or v == k for k, v in got.items()), got
    assert sum(1 for t in truth if not t.face_down and got.get(t.card) == t.card) == right
