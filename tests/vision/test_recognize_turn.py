"""vision.recognize.turn: a card seen nearly square (a photo squeezed to 80% of its
height, a steep camera) is read from whichever diagonal carries its indices, and only
when both of that diagonal's corners show the same index."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.recognize.patch import AMBIGUOUS_ASPECT, index_quads, mean_aspect, normalize_quad
from vision.recognize.reader import read_candidates
from vision.recognize.turn import worth_turning


@dataclass
class Cand:
    corners: np.ndarray
    face_down: bool = False
    visible: float = 1.0
    index_visible: tuple[bool, bool] = (True, True)
    index_patches: tuple = ()


def test_a_near_square_quad_keeps_the_start_it_is_given() -> None:
    q = np.array([[0, 0], [100, 0], [100, 88], [0, 88]], np.float32)  # long edge first
    assert mean_aspect(q) < AMBIGUOUS_ASPECT
    np.testing.assert_array_equal(normalize_quad(q), q)
    # An oblong card's long-edge start is still moved to the index corner.
    oblong = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float32)
    np.testing.assert_array_equal(normalize_quad(oblong), oblong[[1, 2, 3, 0]])


def squeezed_card(card: str = "7H", squeeze: float = 0.68) -> tuple[np.ndarray, np.ndarray]:
    """An upright card of a held-out deck on grey cloth, the photo then squeezed to
    68% of its height (80%, and the camera looking a little from the side: the card
    63 x 60 instead of 63 x 88); its quad clockwise from the top-RIGHT corner, the
    blank one, which starts on what now looks the card's short edge: a detector
    cannot tell the card's short edge from its shape."""
    from vision.cardart import render_card

    art = render_card(deck_or_skip("kde/standard"), card, 280)
    h, w = art.shape[:2]
    img = np.full((h + 120, w + 120, 3), 70, np.uint8)
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    roi = img[60:60 + h, 60:60 + w]
    roi[:] = (art[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
    out = cv2.resize(img, (img.shape[1], round(img.shape[0] * squeeze)),
                     interpolation=cv2.INTER_AREA)
    x0, x1, y0, y1 = 60, 60 + w, 60 * squeeze, (60 + h) * squeeze
    quad = np.array([[x1, y0], [x1, y1], [x0, y1], [x0, y0]], np.float32)
    return out, quad


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")
def test_a_squeezed_card_is_read_from_its_other_diagonal() -> None:
    img, quad = squeezed_card("7H")
    cand = Cand(quad)
    assert worth_turning(cand, img.shape)
    (s,) = read_candidates(IndexClassifier.load(), img, [cand])
    assert s.card == "7H"
    # Reported from the corner its index was read at (the printed top-left or its
    # opposite), so that whoever cuts the index again cuts the same one.
    start = np.asarray(s.corners[0])
    assert min(np.abs(start - quad[3]).max(), np.abs(start - quad[1]).max()) < 1e-3
    tl, br = index_quads(s.corners)
    assert {tuple(np.round(tl[0])), tuple(np.round(br[0]))} == {
        tuple(np.round(quad[3])), tuple(np.round(quad[1]))}


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")
def test_one_index_on_the_other_diagonal_is_not_enough() -> None:
    """An outline round two cards can be near-square with one card's index at one of
    its far corners: that must not be read (one corner of a turned card alone)."""
    img, quad = squeezed_card("7H")
    cover = img.copy()
    # Blank the bottom-left index region of the turned quad: one index left.
    _, br = index_quads(normalize_quad(quad)[[1, 2, 3, 0]])
    cv2.fillConvexPoly(cover, np.int32(br), (240, 240, 240))
    (s,) = read_candidates(IndexClassifier.load(), cover, [Cand(quad)])
    assert s.card is None


def test_covered_or_oblong_cards_are_not_turned() -> None:
    img, quad = squeezed_card("7H")
    assert not worth_turning(Cand(quad, visible=0.8), img.shape)
    assert not worth_turning(Cand(quad, index_visible=(True, False)), img.shape)
    oblong = np.array([[60, 60], [140, 60], [140, 180], [60, 180]], np.float32)
    assert not worth_turning(Cand(oblong), img.shape)
