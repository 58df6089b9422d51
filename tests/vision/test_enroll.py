"""Deck enrolment: a Russian-pattern deck (Cyrillic Т К Д В) the network never trained on
is shown card by card through the real detector, stored as files, then read back."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision import enroll
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.types import Frame

detect_mod = pytest.importorskip("vision.detect")
scene = pytest.importorskip("vision.scene")
pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")

DECK = "gnome/Атласные"  # kept out of training (vision.training.split.ENROL_DECKS)
CARDS = ("AS", "KH", "QD", "JC", "10S", "7H", "6D", "9C")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    return tmp_path


def views(cards, seed, repeats=3):
    """Frames showing one card at a time, each `repeats` times (a card held still)."""
    rng = np.random.default_rng(seed)
    renderer = scene.SceneRenderer()
    seq = 0
    for card in cards:
        spec = scene.random_scene_spec(rng, [DECK], 1, cards=[card], overlap=0.0,
                                       face_down=0.0, size=(640, 480), effects=0.4)
        image, _ = renderer.render(spec, rng)
        for _ in range(repeats):
            yield Frame(image, seq, seq / 10.0, "synthetic")
            seq += 1


def test_enrol_a_russian_deck_then_read_it_back(data_dir):
    prompts: list[str] = []
    path = enroll.enrol("atlas", views(CARDS, seed=1), detect=detect_mod.detect_cards,
                        cards=CARDS, prompt=prompts.append)
    assert prompts[0] == "[1/8] show the ace of spades"
    assert sum("got" in p for p in prompts) == len(CARDS)
    assert path == data_dir / "decks" / "atlas"
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["card_list"] == sorted(CARDS)
    assert enroll.list_decks() == ["atlas"]

    from vision.recognize.reader import read_image

    clf = IndexClassifier.load(deck="atlas")
    right = wrong = 0
    for frame, card in zip(views(CARDS, seed=2, repeats=1), CARDS):
        seen = [s for s in read_image(clf, frame.image, detect_mod.detect_cards)
                if s.card is not None]
        right += any(s.card == card for s in seen)
        wrong += any(s.card != card for s in seen)
    assert wrong == 0
    assert right >= len(CARDS) - 1


def test_a_source_that_ends_early_aborts_with_progress():
    with pytest.raises(enroll.EnrolmentAborted) as err:
        enroll.enrol("short", views(CARDS[:2], seed=3), detect=detect_mod.detect_cards,
                     cards=CARDS, prompt=lambda m: None)
    assert (err.value.card, err.value.done, err.value.total) == ("QD", 2, len(CARDS))
    assert enroll.list_decks() == []


def test_store_list_remove_and_bad_names():
    patches = np.zeros((2, 64, 32, 3), np.uint8)
    enroll.save_deck("kids-1", ["AS", "2S"], patches, cards="40")
    assert enroll.list_decks() == ["kids-1"]
    deck = enroll.load_deck("kids-1")
    assert deck.labels == ("AS", "2S") and deck.patches.shape == (2, 64, 32, 3)
    enroll.remove_deck("kids-1")
    assert enroll.list_decks() == []
    with pytest.raises(enroll.UnknownEnrolledDeck) as err:
        enroll.remove_deck("kids-1")
    assert err.value.name == "kids-1"
    with pytest.raises(enroll.BadDeckName):
        enroll.save_deck("../evil", ["AS"], patches[:1])
