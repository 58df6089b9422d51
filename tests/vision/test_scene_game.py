"""Scripted game layouts: what the referee's end-to-end tests will be built from."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cardart import list_decks
from vision.scene import SceneRenderer
from vision.scene.game import durak_bout, face_down_stack, game_specs, row, trick
from vision.sources import open_source, write_video
from vision.sources.synthetic import SyntheticSource

pytestmark = pytest.mark.skipif(not list_decks(), reason="card art packages not installed")
DECK = "kde/standard"


@pytest.fixture(scope="module")
def renderer() -> SceneRenderer:
    return SceneRenderer()


def _truth(renderer, cards):
    (spec,) = game_specs([cards], jitter=0.0)
    return renderer.render(spec, np.random.default_rng(0))[1]


def test_durak_bout_keeps_every_attack_readable(renderer):
    truth = _truth(renderer, durak_bout([("7H", "9H"), ("7S", None), ("KD", "AD")], DECK))
    assert [t.card for t in truth] == ["7H", "7S", "KD", "9H", "AD"]
    by_card = {t.card: t for t in truth}
    for attack in ("7H", "KD"):  # covered, yet the top-left index is in view
        t = by_card[attack]
        assert 0.2 < t.visible_fraction < 0.8
        assert t.index_regions[0].visible and not t.index_regions[1].visible
    for card in ("7S", "9H", "AD"):
        assert by_card[card].visible_fraction > 0.98


def test_trick_cards_face_their_seats_and_are_all_readable(renderer):
    truth = _truth(renderer, trick(["9H", "KH", "6S", "AC"], DECK, first_seat=0))
    assert all(t.readable for t in truth)
    centres = np.array([t.center for t in truth])
    # seat 0 plays from the bottom of the frame, seat 2 from the top
    assert centres[0, 1] > centres[2, 1] and centres[1, 0] > centres[3, 0]


def test_face_down_stack_shows_each_back(renderer):
    truth = _truth(renderer, face_down_stack(3, DECK) + row(["QS"], DECK, y_mm=-100))
    backs = [t for t in truth if t.face_down]
    assert len(backs) == 3 and all(t.visible_fraction > 0.1 for t in backs)


def test_game_rendered_to_video_and_replayed(tmp_path):
    states = [row(["9H"], DECK), row(["9H", "KH"], DECK), row(["9H", "KH"], DECK)]
    specs = game_specs(states, seed=2, size=(640, 360))
    src = SyntheticSource(specs=specs, seed=2)
    frames, truths = [], []
    for f in src:
        frames.append(f)
        truths.append([t.card for t in src.truth])
    assert truths == [["9H"], ["9H", "KH"], ["9H", "KH"]]
    # jitter: an unchanged table still gives a (slightly) different frame
    assert not np.array_equal(frames[1].image, frames[2].image)
    assert np.abs(frames[1].image.astype(int) - frames[2].image.astype(int)).mean() < 6
    path = tmp_path / "game.avi"
    assert write_video(frames, path, fps=5) == 3
    with open_source(f"video:{path}") as replay:
        back = list(replay)
    assert [f.seq for f in back] == [0, 1, 2] and back[0].image.shape == (360, 640, 3)


def test_no_jitter_gives_identical_specs_for_identical_states():
    a, b = game_specs([row(["2C"], DECK)] * 2, jitter=0.0)
    assert a == b
