"""A card found by the stills steps from its index alone (indexfind) must be no
bigger than the frame's sure cards allow: else it is reported where its card is
not (a phantom)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognize.overlap import quad_iou
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, LightSpec, SceneSpec, TableStyle


def _nicu_ornamental() -> SceneSpec:
    """kde/nicu-ornamental (big indices) on a light cloth, the camera tilted 35°:
    its 8D, found by its index, was grown twice the size of the frame's cards
    (training decks, seed 25, scene 28)."""
    d = "kde/nicu-ornamental"
    cards = (CardPlacement(d, "10S", 121.5, -100.58, -66.68, 0.0),
             CardPlacement(d, "6S", 137.76, 82.78, -79.22, 0.0),
             CardPlacement(d, "AH", 110.45, -19.0, 123.72, 0.0),
             CardPlacement(d, "7S", 129.42, -59.58, -25.75, 0.3),
             CardPlacement(d, "9C", -100.2, 12.79, -67.92, 0.0),
             CardPlacement(d, "8D", 119.52, 46.38, -147.63, 0.3),
             CardPlacement(d, "2C", -164.11, -71.0, 125.33, 0.0),
             CardPlacement(d, "8H", -171.78, -110.17, 157.46, 0.3))
    return SceneSpec(
        cards=cards, size=(1280, 720), table=TableStyle.CLOTH_LIGHT, table_seed=287882133,
        camera=CameraSpec(px_per_mm=2.4748, tilt_deg=34.735, roll_deg=18.797,
                          distance_mm=537.7, center_px=(604.9, 338.38)),
        light=LightSpec(warmth=-0.621, brightness=0.98, gradient=0.361, gradient_deg=21.01,
                        vignette=0.621, glare=(), shadow=0.2956, shadow_deg=91.21),
        blur_sigma=0.0, motion_px=0.0, motion_deg=128.04, noise_sigma=5.19,
        jpeg_quality=67, distractors=(), stretch_x=1.0)


@pytest.mark.parametrize("spec", [_nicu_ornamental])
def test_every_card_read_lies_on_its_card(spec) -> None:  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_image

    image, truth = SceneRenderer().render(spec(), np.random.default_rng(0))
    read = [s for s in read_image(IndexClassifier.load(), image) if s.card is not None]
    assert read
    for s in read:
        best = max(truth, key=lambda t: quad_iou(t.corners, s.corners))
        assert best.card == s.card and quad_iou(best.corners, s.corners) >= 0.5


def test_a_find_far_from_the_frames_card_size_is_refused() -> None:
    from vision.recognize.indexfind import frame_card_size, of_card_size

    card = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    size = frame_card_size([card, card + 100])
    assert of_card_size(card * 1.2, size) and not of_card_size(card * 1.8, size)
    assert of_card_size(card * 0.7, size)  # (smaller: a far card, a slanted one)
    assert of_card_size(card * 3, frame_card_size([]))  # no size told
