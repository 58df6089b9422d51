"""Synthetic card-table scenes with exact ground truth (training, tests, end-to-end).

`random_scene_spec(rng, decks, n_cards, ...)` invents a scene; `render_scene(spec, rng)`
draws it and returns `(image BGR, [CardTruth, ...])`. See spec.py for the data, and
vision.scene.game for scripted layouts (Durak bouts, tricks, face-down passes) rendered
as a sequence of frames for end-to-end tests.
"""

from vision.scene.layout import random_camera, random_light, random_scene_spec
from vision.scene.render import ART_HEIGHTS, SceneRenderer, render_scene
from vision.scene.spec import (
                               CARD_HEIGHT_MM,
                               CameraSpec,
                               CardPlacement,
                               CardTruth,
                               Distractor,
                               DistractorShape,
                               Glare,
                               IndexRegion,
                               LightSpec,
                               SceneSpec,
                               TableStyle,
)

__all__ = [
    "ART_HEIGHTS", "CARD_HEIGHT_MM", "CameraSpec", "CardPlacement", "CardTruth", "Distractor",
    "DistractorShape", "Glare",
    "IndexRegion", "LightSpec", "SceneRenderer", "SceneSpec", "TableStyle", "random_camera",
    "random_light", "random_scene_spec", "render_scene",
]
