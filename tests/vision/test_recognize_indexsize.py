"""vision.recognize.indexsize: a card whose index mark indexfind could not grow a
card from (a deck printing big indices, a card half under another) is found at
the frame's card size, and only where its index reads the same at three sizes."""

from __future__ import annotations

import numpy as np
from vision_helpers import stills_read_right

from vision.recognize.indexfind_marks import IndexMark
from vision.recognize.indexsize import STEP_CAP, frame_height, frame_quad
from vision.recognize.patch import CARD_ASPECT


def test_frame_quad_is_the_frames_card_size_with_a_capped_corner_step() -> None:
    """A big index (a step of a fifth of the card) places the card by the frame's
    height, its corner no farther from the index than a usual step allows."""
    mark = IndexMark((100.0, 100.0), (0.0, 1.0), 40.0)
    q = frame_quad(mark, 200.0)
    assert np.allclose(np.linalg.norm(q[3] - q[0]), 200.0)
    assert np.allclose(np.linalg.norm(q[1] - q[0]), 200.0 * CARD_ASPECT)
    # the corner offset uses the capped step (200 / STEP_CAP = 25), not the mark's 40
    assert np.allclose(q[0], (100.0 - 0.64 * 25.0, 100.0 - 1.5 * 25.0))
    assert STEP_CAP == 8.0
    assert frame_height(None) is None
    assert np.isclose(frame_height(100.0) ** 2 * CARD_ASPECT, 100.0 ** 2)


def test_with_no_card_read_the_size_comes_from_cards_found_on_paper() -> None:
    """Rendered training decks seed 8, scene 16: kde/dondorf on a blue check cloth,
    its checks outlined as cards, no card read from an outline; the JC, 8H and QH
    are found by their index on paper, and their size lets the 10S and AC, whose
    marks failed the paper test, be read at the frame's size."""
    stills_read_right(8, 16, ("10S", "AC"))


def test_big_index_cards_on_a_light_cloth_are_read_at_the_frame_size() -> None:
    """Rendered training decks seed 7, scene 25: kde/nicu-ornamental's 9S, 8S and
    10S lie whole on a pale striped cloth, no outline found; their indices' glyph
    and pip stand a fifth of the card apart, so indexfind grew cards twice too big
    and refused them. At the frame's size (the KH and KS read) all three are read,
    each where its own card lies, nothing else wrong."""
    stills_read_right(7, 25, ("9S", "8S", "10S"))
