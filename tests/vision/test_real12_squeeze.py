"""Real train photos resized non-uniformly: a lone card no outline was found for is
found by its index cut at the photo's squeeze (indexfind_squeeze.py)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import read_right_on_real_train, real_train_photo

from vision.recognize.classifier import IndexClassifier
from vision.recognize.indexfind_marks import IndexMark, card_quad
from vision.recognize.indexfind_squeeze import squeezed_card_quad, unsqueezed_mark


def test_a_squeeze_of_one_cuts_the_card_as_it_is() -> None:
    mark = IndexMark((120.0, 80.0), (0.6, 0.8), 14.0)
    assert np.allclose(squeezed_card_quad(mark, 1.1, 1.0), card_quad(mark, 1.1), atol=1e-3)


def test_the_card_of_a_squeezed_mark_is_the_unsqueezed_card_squeezed() -> None:
    # an upright card's index in a photo stored at 80% of its height: the glyph-pip
    # step is 0.8 of the card's, the card grown from it 0.8 as long, as wide as it is
    mark = IndexMark((100.0, 100.0), (0.0, 1.0), 8.0)
    un = unsqueezed_mark(mark, 0.8)
    assert un.step == pytest.approx(10.0) and un.down == pytest.approx((0.0, 1.0))
    quad = squeezed_card_quad(mark, 1.0, 0.8)
    whole = card_quad(IndexMark((100.0, 125.0), (0.0, 1.0), 10.0))
    assert np.allclose(quad, whole * np.array([1.0, 0.8], np.float32), atol=1e-3)


def test_a_lone_card_of_a_photo_resized_to_80pc_of_its_width_is_found_by_its_index() -> None:
    # IMG_2452's nine of spades, alone on a certificate: no outline at 0.8 x 1, its
    # index cut as it is read 0.988 / 0.997 / 0.939 (one size passing surely)
    from vision.recognize.indexfind import find_cards

    image = real_train_photo("IMG_2452.JPG", 0.8, 1.0)
    finds, _ = find_cards(IndexClassifier.load(), image)
    assert "9S" in {f.reading.card for f in finds}
    assert read_right_on_real_train("IMG_2452.JPG", 0.8, 1.0) == {0: "9S"}
