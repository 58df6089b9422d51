"""oneplace.py, session 11: a stills' card read from a dondorf deck's third index
corner, laid over its neighbour, is refused with the card it lies on."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import stills_read_on_training_scene

from vision.recognize.oneplace import clashing

# Rendered training decks, seed 30, scene 65: two strip cards (strips.py) from one
# pass, the 5C's and a 10S read at its top-right index (dondorf prints four), laid
# in one place (IoU 0.61); the 10S lies over the 5C.
FIVE = np.float32([[392, 509], [468, 586], [327, 690], [256, 619]])
TEN = np.float32([[407, 536], [478, 618], [325, 705], [259, 629]])


def test_two_added_cards_of_two_identities_in_one_place_both_go() -> None:
    assert clashing([FIVE, TEN], ["5C", "10S"], [True, True]) == {0, 1}


def test_an_added_card_on_a_detected_card_read_otherwise_goes_alone() -> None:
    assert clashing([FIVE, TEN], ["5C", "10S"], [False, True]) == {1}


def test_one_card_twice_and_cards_apart_are_kept() -> None:
    apart = TEN + np.float32([200, 0])
    assert clashing([FIVE, TEN], ["5C", "5C"], [True, True]) == set()
    assert clashing([FIVE, apart], ["5C", "10S"], [True, True]) == set()
    assert clashing([FIVE, TEN], ["5C", None], [True, True]) == set()


@pytest.mark.slow
def test_rendered_scene_reports_no_card_where_another_lies() -> None:
    """The whole stills chain on the scene: every card read lies on its own truth
    more than on any other card's (before: the 10S lay on the 5C, IoU 0.59 against
    0.12 on its own)."""
    stills_read_on_training_scene(30, 65, 4)  # the 8S, 9H, AH and 10H
