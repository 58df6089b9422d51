"""vision.recognize.indexown: a card whose index mark neither the paper test nor the
frame's card size let indexfind grow is found at its index's own size, within the
frame's size; a mark at an unread outline's index corner is tried though it lies on
a card read."""

from __future__ import annotations

import numpy as np
from vision_helpers import stills_read_right

from vision.recognize.indexfind_marks import IndexMark
from vision.recognize.indexown import marks_to_try


def test_a_card_smaller_than_the_frames_is_found_at_its_index_size() -> None:
    """Rendered training decks seed 7, scene 51: gnome/anglo_modern's 6D, 0.83 of
    the frame's card height, its index mark refused by the paper test and its
    tries at the frame's size disagreeing; at its own size it reads 6D three times
    surely, and is read where it lies."""
    stills_read_right(7, 51, ("6D",))


def test_a_card_over_two_read_cards_is_found_at_its_outlines_index_corner() -> None:
    """Rendered training decks seed 7, scene 38: gnome/berlin's 7D lies over the 2D
    and AH, whose outlines the detector drew whole under it; its index marks lie
    inside those read cards' quads but at its own unread outline's index corners,
    so they are tried (at the frame's size they disagree, the 7D 0.72 of it; at
    their own size they read 7D)."""
    stills_read_right(7, 38, ("7D",))


def test_marks_inside_a_read_card_are_tried_only_at_an_unread_index_corner() -> None:
    read = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    read_corner = np.array([[0, 0], [24, 0], [24, 50], [0, 50]], np.float32)
    unread_corner = np.array([[60, 60], [90, 60], [90, 100], [60, 100]], np.float32)
    on_pips = IndexMark((50.0, 30.0), (0.0, 1.0), 10.0)  # the read card's own pips
    at_unread = IndexMark((75.0, 80.0), (0.0, 1.0), 10.0)
    at_both = IndexMark((10.0, 20.0), (0.0, 1.0), 10.0)
    off = IndexMark((300.0, 300.0), (0.0, 1.0), 10.0)
    both = np.array([[0, 0], [30, 0], [30, 40], [0, 40]], np.float32)
    kept = marks_to_try([on_pips, at_unread, at_both, off], [read], [read_corner],
                        [unread_corner, both])
    assert kept == [at_unread, off]
