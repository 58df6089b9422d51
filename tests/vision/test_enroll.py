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


def numbered_card(number: int, suit: str, height: int = 320) -> np.ndarray:
    """A children's numbered card (1..10, the ace is "1"), BGRA: the number in two
    opposite corners with a small suit sign under it, a big number in the middle."""
    import cv2

    w = int(height * 0.7)
    img = np.zeros((height, w, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, height - 1), (250, 250, 245, 255), -1)
    colour = (30, 30, 200, 255) if suit in "HD" else (20, 20, 20, 255)
    corner = np.zeros((height // 2, w // 2, 4), np.uint8)
    text = str(number)
    cv2.putText(corner, text, (4, 42), cv2.FONT_HERSHEY_DUPLEX, 1.3 if number < 10 else 1.0,
                colour, 3)
    shape = {"H": [(10, 62), (30, 62), (20, 80)], "D": [(20, 54), (30, 68), (20, 82), (10, 68)],
             "S": [(20, 54), (30, 76), (10, 76)], "C": [(12, 56), (28, 56), (28, 76), (12, 76)]}
    cv2.fillPoly(corner, [np.array(shape[suit], np.int32)], colour)
    img[: height // 2, : w // 2][corner[:, :, 3] > 0] = corner[corner[:, :, 3] > 0]
    turned = corner[::-1, ::-1]
    img[height - height // 2:, w - w // 2:][turned[:, :, 3] > 0] = turned[turned[:, :, 3] > 0]
    cv2.putText(img, text, (w // 3, height // 2 + 20), cv2.FONT_HERSHEY_DUPLEX, 2.0,
                colour, 4)
    return img


def table_frame(art: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`art` lying on a plain cloth at a random place and angle, seen at a slight slant."""
    import cv2

    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = (40, 110, 50)
    noise = np.empty(frame.shape, np.int16)
    cv2.randn(noise, 0, 4)
    h, w = art.shape[:2]
    scale = rng.uniform(0.55, 0.8)
    ang = rng.uniform(0, 2 * np.pi)
    c, s = np.cos(ang), np.sin(ang)
    pts = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float32) * 0.5 * scale
    pts = pts @ np.array([[c, -s], [s, c]], np.float32).T + (320 + rng.uniform(-80, 80),
                                                            240 + rng.uniform(-40, 40))
    pts += rng.normal(0, 4, pts.shape).astype(np.float32)
    hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                      pts.astype(np.float32))
    warped = cv2.warpPerspective(art, hom, (640, 480))
    a = warped[:, :, 3:4].astype(np.float32) / 255
    out = warped[:, :, :3] * a + frame * (1 - a) + noise
    return np.clip(out, 0, 255).astype(np.uint8)


def test_enrol_a_numbered_childrens_deck():
    cards = {"AS": (1, "S"), "2H": (2, "H"), "5D": (5, "D"), "6C": (6, "C"), "9S": (9, "S"),
             "10H": (10, "H")}
    rng = np.random.default_rng(4)

    def frames(repeats):
        seq = 0
        for n, suit in cards.values():
            image = table_frame(numbered_card(n, suit), rng)
            for _ in range(repeats):
                yield Frame(image, seq, seq / 10.0)
                seq += 1

    enroll.enrol("kids", frames(3), detect=detect_mod.detect_cards, cards=tuple(cards),
                 prompt=lambda m: None)
    from vision.recognize.reader import read_image

    clf = IndexClassifier.load(deck="kids")
    right = wrong = 0
    for frame, label in zip(frames(1), cards):
        got = [s.card for s in read_image(clf, frame.image, detect_mod.detect_cards) if s.card]
        right += got == [label]
        wrong += any(g != label for g in got)
    assert wrong == 0  # the 6 and the 9 are not confused, turned or not
    assert right >= len(cards) - 1
