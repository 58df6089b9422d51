"""vision.recognize.topend: an unread outline round two cards, one lying on the other
shifted across their long sides, is cut to the card on top where both of its index
corners read it, and a back's outline is left a back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip, stills_read_right

from vision.cardart import render_back, render_card
from vision.detect import CardCandidate
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import normalize_quad
from vision.recognize.reader import read_candidates
from vision.recognize.topend import CUTS, find_top_ends, parts

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")

#: A training deck (development data only).
DECK = "gnome/paris"


def _paste(img: np.ndarray, art: np.ndarray, x: int, y: int) -> None:
    h, w = art.shape[:2]
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    roi = img[y:y + h, x:x + w]
    roi[:] = (art[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)


def two_cards(below: str, top: str, shift: int = 90) -> tuple[np.ndarray, tuple, tuple]:
    """`top` lying on `below` on green cloth, both landscape, shifted `shift` px
    down across their long sides; the image, the outline round both and the top
    card's quad."""
    deck = deck_or_skip(DECK)
    a = np.ascontiguousarray(np.rot90(render_card(deck, below, 240)))
    b = np.ascontiguousarray(np.rot90(render_card(deck, top, 240)))
    h, w = a.shape[:2]
    img = np.full((h + shift + 160, w + 160, 3), (40, 90, 30), np.uint8)
    _paste(img, a, 80, 80)
    _paste(img, b, 80, 80 + shift)
    x0, x1, y0, y1 = 80, 80 + w - 1, 80, 80 + shift + h - 1
    union = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    card = ((x0, y0 + shift), (x1, y0 + shift), (x1, y1), (x0, y1))
    return img, union, card


def test_the_parts_reach_their_cut_from_each_side() -> None:
    outline = normalize_quad(np.array([[0, 0], [100, 0], [100, 90], [0, 90]], np.float32))
    fams = parts(outline)
    assert len(fams) == 4
    for fam in fams:
        t, quad = fam[0]
        assert t == CUTS[0]
        assert cv2.contourArea(quad) == pytest.approx(t * 100 * 90, rel=1e-4)
    # The two ends of a way at a cut of a half tile the outline.
    for one, other in ((fams[0], fams[1]), (fams[2], fams[3])):
        (t, a), (_, b) = next(x for x in one if x[0] == 0.5), next(x for x in other if x[0] == 0.5)
        assert cv2.intersectConvexConvex(a, b)[0] == pytest.approx(0.0, abs=1.0)
        assert cv2.contourArea(a) + cv2.contourArea(b) == pytest.approx(9000.0, rel=1e-4)

@needs_model
@pytest.mark.parametrize("back", [True, False])
def test_the_card_on_top_is_cut_from_an_outline_round_two(back: bool) -> None:
    """The detector takes such an outline whole, for a face or (a court picture in
    the strip) a back; its corners show two cards and it reads nothing."""
    img, union, card = two_cards("KD", "8H")
    clf = IndexClassifier.load()
    cand = CardCandidate(union, face_down=back, visible=1.0)
    assert read_candidates(clf, img, [cand])[0].card is None
    out = find_top_ends(clf, img, [cand])
    got = read_candidates(clf, img, out)
    tops = [s for s in got if s.card == "8H"]
    assert len(tops) == 1 and quad_iou(tops[0].corners, card) > 0.8
    assert all(s.card in (None, "8H", "KD") for s in got)


@needs_model
def test_a_back_is_left_a_back() -> None:
    deck = deck_or_skip("kde/nicu-white")  # its back prints index-like cuts
    art = np.ascontiguousarray(np.rot90(render_back(deck, 240)))
    h, w = art.shape[:2]
    img = np.full((h + 160, w + 160, 3), (40, 90, 30), np.uint8)
    _paste(img, art, 80, 80)
    quad = ((80, 80), (80 + w - 1, 80), (80 + w - 1, 80 + h - 1), (80, 80 + h - 1))
    cand = CardCandidate(quad, face_down=True, visible=1.0)
    clf = IndexClassifier.load()
    assert all(s.card is None for s in read_candidates(clf, img, find_top_ends(clf, img, [cand])))


@needs_model
def test_training_scene_cards_on_top_of_unions_are_read() -> None:
    """Rendered training decks seed 7, scene 6 (a steep camera: three cards each
    over the next along their long sides, outlined in twos)."""
    stills_read_right(7, 6, ("KD", "4D"))
