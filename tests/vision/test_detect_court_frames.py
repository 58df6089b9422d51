"""vision.detect finds a court card whose own border hardly shows (white paper on
white or cream paper) from the frame printed round its picture (frames.py).

Each test fails on the detector before frames.py (commit a3db5d7): the queen and
the jack on near-white paper were not found (only pieces of their pictures, or
nothing), nor were the queens of IMG_2484 and IMG_2526 and the jacks of IMG_2579 (real
train photos).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_helpers import best_box_iou, deck_or_skip, matched_box_ious

from vision import cardart
from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.detect.tableau import Placement, lay
from vision.evaluate import REAL_PHOTOS

REAL = Path(REAL_PHOTOS) / "images"


@pytest.fixture(scope="module")
def anglo() -> cardart.DeckArt:
    return deck_or_skip("gnome/anglo")


def _on_white(deck: cardart.DeckArt, card: str, step: float) -> tuple[np.ndarray, np.ndarray]:
    """`card` on plain paper `step` grey levels darker than the card's, its printed
    outline stroke painted over with paper: a border only a faint step shows."""
    img, laid = lay(deck, [Placement(card, (640, 360), 8)], kind="light", seed=0,
                    card_height=300, shadow=False)
    quad = laid[0].corners
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.int32(np.rint(quad))], 255)
    ring = (mask > 0) & (cv2.erode(mask, np.ones((9, 9), np.uint8)) == 0)
    paper = np.array([246, 248, 248], np.float32)
    out = img.astype(np.float32)
    out[ring] = paper
    noise = np.random.default_rng(0).normal(0, 2, img.shape[:2] + (1,))
    out = np.where(mask[..., None] > 0, out, paper - step + noise)
    return cv2.GaussianBlur(out.clip(0, 255).astype(np.uint8), (3, 3), 0), g.order_quad(quad)


@pytest.mark.parametrize("card", ["QH", "JD"])
@pytest.mark.parametrize("step", [6.0, 10.0])
def test_court_card_on_white_paper_is_found(anglo: cardart.DeckArt, card: str, step: float) -> None:
    """The card is reported where it lies, and nothing else (no piece of its picture)."""
    img, quad = _on_white(anglo, card, step)
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    assert len(cands) == 1, len(cands)
    assert g.iou(cands[0].quad, quad) >= 0.85, round(g.iou(cands[0].quad, quad), 2)


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
@pytest.mark.parametrize("name", ["IMG_2484.JPG", "IMG_2526.JPG"])
def test_queen_on_white_real(name: str) -> None:
    """Real train photos: a queen on a cream placemat printed with birds
    (IMG_2484), a queen on a speckled white worktop (IMG_2526); only her picture
    frame showed crisply (a piece of it, or of her index, was reported instead)."""
    best = best_box_iou(name)
    assert best >= 0.75, round(best, 2)


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
def test_jacks_on_cream_paper_real() -> None:
    """IMG_2579 (real train): two jacks (and two tens) on cream paper, the jacks'
    margins narrow: the card's border follows the frame's line before the line's
    own gradient has died away."""
    ious, _ = matched_box_ious("IMG_2579.JPG")
    assert min(ious[2:]) >= 0.7, [round(v, 2) for v in ious]  # the jacks
