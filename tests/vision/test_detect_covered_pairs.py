"""vision.detect finds a card half covered by another with its full quad, where
the pair's outline (prune.split_groups) is the only place its corner shows.

Rendered scenes of the training decks (1280x720, six cards, overlap 0.5), each
drawn from its own seed `np.random.default_rng([77, i])`: the covered card named
has no full-card quad before proposals.RUN_ON (the pair's sides, longer than the
card, ruled out every guess from its corner) and is found with it after.
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import DetectorConfig, detect_cards, proposals
from vision.detect import geometry as g
from vision.scene import SceneRenderer, random_scene_spec
from vision.training.split import training_decks

#: (scene i, covered card, its deck): found only with RUN_ON.
COVERED = [(0, "2C", "gnome/anglo"), (4, "9C", "kde/nicu-white"),
           (9, "8H", "kde/nicu-white"), (18, "8S", "gnome/rheinland")]


def _scene(i: int) -> tuple[np.ndarray, list]:
    names = [d.name for d in training_decks()]
    rng = np.random.default_rng([77, i])
    spec = random_scene_spec(rng, names, 6, overlap=0.5, face_down=0.0)
    return SceneRenderer().render(spec, rng)


@pytest.mark.parametrize("i,card,deck", COVERED)
def test_covered_card_found_whole(i: int, card: str, deck: str) -> None:
    deck_or_skip(deck)
    img, truth = _scene(i)
    t = next(t for t in truth if t.card == card and t.deck == deck)
    assert t.visible_fraction < 0.7  # really half covered
    want = g.order_quad(np.asarray(t.corners, np.float32))
    found = detect_cards(img, DetectorConfig(with_patches=False))
    best = max([g.iou(c.quad, want) for c in found] + [0.0])
    assert best >= 0.85, f"{card} best IoU {best:.2f}"


def test_pair_corner_completed_with_the_card_size() -> None:
    # A corner of a pair's outline: its sides 160 and 110 px, the pair's; the
    # card on top (found whole) is 70 x 100. Only run_on lets that size through.
    corner = (np.array([50.0, 50.0], np.float32), np.array([1.0, 0.0], np.float32),
              np.array([0.0, 1.0], np.float32), 160.0, 110.0)
    card = np.array([[50, 50], [150, 50], [150, 120], [50, 120]], np.float32)
    strict = proposals.complete_corners([corner], [(70.0, 100.0)], 20.0)
    assert all(g.iou(q, card) < 0.9 for q in strict)
    loose = proposals.complete_corners([corner], [(70.0, 100.0)], 20.0, run_on=proposals.RUN_ON)
    assert max(g.iou(q, card) for q in loose) > 0.99
