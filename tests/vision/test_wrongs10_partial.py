"""vision.recognize.partial: an outline is grown past a side only where the part
grown looks unlike the table too (a card hidden under an object), not over bare
table beyond another card."""

from __future__ import annotations

import numpy as np

from vision.recognize.overlap import quad_iou
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, LightSpec, SceneSpec, TableStyle


def _two_cards_laid_alike() -> SceneSpec:
    """8S and 6H of gnome/ornamental turned alike, the six over most of the eight,
    on a dark cloth (training decks, seed 21, scene 33, its other cards left out):
    the detector outlines both as one, which no corner reads."""
    cards = (CardPlacement("gnome/ornamental", "8S", -175.85, 82.85, -127.85, 0.0),
             CardPlacement("gnome/ornamental", "6H", -203.13, 54.55, -126.43, 0.3))
    return SceneSpec(
        cards=cards, size=(1280, 720), table=TableStyle.CLOTH_DARK, table_seed=228927103,
        camera=CameraSpec(px_per_mm=1.7822, tilt_deg=9.257, roll_deg=13.34,
                          distance_mm=629.44, center_px=(577.34, 343.67)),
        light=LightSpec(warmth=-0.478, brightness=1.135, gradient=0.533,
                        gradient_deg=184.19, vignette=0.467, glare=(), shadow=0.514,
                        shadow_deg=236.69),
        blur_sigma=0.0517, motion_px=0.0, motion_deg=51.6, noise_sigma=1.648,
        jpeg_quality=79, distractors=(), stretch_x=1.0)


def test_two_cards_outlined_as_one_are_not_grown_onto_the_table() -> None:
    """Each card's edge across the other is no object's edge: grown past it, the
    outline ran on over bare cloth and read 6H and 8S for quads half off them."""
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_image

    image, truth = SceneRenderer().render(_two_cards_laid_alike(), np.random.default_rng(0))
    for s in read_image(IndexClassifier.load(), image):
        if s.card is None:
            continue
        best = max(truth, key=lambda t: quad_iou(t.corners, s.corners))
        assert quad_iou(best.corners, s.corners) >= 0.5 and best.card == s.card
