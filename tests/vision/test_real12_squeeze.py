"""Real train photos resized non-uniformly: a lone card no outline was found for is
found by its index cut at the photo's squeeze (indexfind_squeeze.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recognize.classifier import IndexClassifier
from vision.recognize.indexfind_marks import IndexMark, card_quad
from vision.recognize.indexfind_squeeze import squeezed_card_quad, unsqueezed_mark


def _photo(name: str, sx: float = 1.0, sy: float = 1.0) -> np.ndarray:
    from vision.evaluate import REAL_PHOTOS, stretched
    from vision.recognize.imagefile import load_image

    path = REAL_PHOTOS / "images" / "train" / name
    if not path.is_file():
        pytest.skip("real photos not here")
    return stretched(load_image(path), sx, sy)


def _read_right(name: str, sx: float = 1.0, sy: float = 1.0) -> dict[int, str]:
    """{label number: card} for the labelled cards of `name` (resized sx, sy) that
    `read_image` reads at their labelled rank (as evaluate_real matches)."""
    from vision.evaluate import REAL_PHOTOS, match_real, real_labels
    from vision.recognize.reader import read_image

    image = _photo(name, sx, sy)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # (as evaluation runs)
    try:
        sightings = read_image(IndexClassifier.load(), image)
    finally:
        cv2.setNumThreads(threads)
    labels = real_labels(REAL_PHOTOS, "train")[name]
    boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for _, (x0, y0, x1, y1) in labels]
    match = match_real(boxes, [s.corners for s in sightings])
    out = {}
    for k, ((rank, _), j) in enumerate(zip(labels, match)):
        card = sightings[j].card if j is not None else None
        if card and card[:-1] == rank:
            out[k] = card
    return out


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

    image = _photo("IMG_2452.JPG", 0.8, 1.0)
    finds, _ = find_cards(IndexClassifier.load(), image)
    assert "9S" in {f.reading.card for f in finds}
    assert _read_right("IMG_2452.JPG", 0.8, 1.0) == {0: "9S"}
