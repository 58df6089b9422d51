"""vision.recognize.indexfind: a card whose outline nobody found is found by its
corner index (a glyph over a pip, on white paper), and reported only where that is
safe: its whole card on paper, read surely, no other card's index clashing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import CardCandidate
from vision.recognize.classifier import Calibration, CardReading, Reading
from vision.recognize.indexfind import Find, Loose, _over_unfound, distinct, find_by_index
from vision.recognize.indexfind_marks import HEIGHT_PER_STEP, card_quad, index_marks, on_paper
from vision.recognize.patch import CARD_ASPECT

#: A card drawn on a dark table: its top-left corner, height (10 glyph-pip steps).
X0, Y0, STEP = 60, 40, 16
HEIGHT = HEIGHT_PER_STEP * STEP
WIDTH = HEIGHT * CARD_ASPECT


def _card_image(length: float = HEIGHT) -> np.ndarray:
    """A white card (`length` pixels long) on a dark green table, its index an "0"
    over a round pip where a usual deck prints them (0.064 H in, 0.10 H and 0.20 H
    down)."""
    img = np.zeros((300, 260, 3), np.uint8)
    img[:] = (40, 90, 30)
    cv2.rectangle(img, (X0, Y0), (int(X0 + WIDTH), int(Y0 + length)), (235, 238, 240), -1)
    gx, gy = round(X0 + 0.064 * HEIGHT), round(Y0 + 0.10 * HEIGHT)
    cv2.circle(img, (gx, gy), 5, (20, 20, 20), 2)  # the glyph: strokes (an "0")
    cv2.circle(img, (gx, gy + STEP), 4, (20, 20, 20), -1)  # the pip: solid
    return img


def _turned(img: np.ndarray) -> np.ndarray:
    """The image turned 90 degrees clockwise (the card lying across)."""
    return np.ascontiguousarray(np.rot90(img, k=-1))


def _near(marks: list, x: float, y: float) -> list:
    return [m for m in marks if np.hypot(m.middle[0] - x, m.middle[1] - y) < STEP]


def test_a_glyph_over_a_pip_is_a_mark_pointing_down_the_card() -> None:
    img = _card_image()
    marks = _near(index_marks(img), X0 + 0.064 * HEIGHT, Y0 + 0.15 * HEIGHT)
    assert len(marks) == 1
    m = marks[0]
    assert m.down == pytest.approx((0.0, 1.0), abs=0.1)  # the pip is the solid blob
    assert m.step == pytest.approx(STEP, rel=0.15)
    # turned with the card, the mark turns too: down now points left
    h = img.shape[0]
    turned = _near(index_marks(_turned(img)), h - 1 - m.middle[1], m.middle[0])
    assert len(turned) == 1 and turned[0].down == pytest.approx((-1.0, 0.0), abs=0.1)


def test_the_card_follows_from_its_index() -> None:
    img = _card_image()
    m = on_paper(img, _near(index_marks(img), X0 + 0.064 * HEIGHT, Y0 + 0.15 * HEIGHT)[0])
    assert m is not None
    q = card_quad(m)
    truth = np.array([[X0, Y0], [X0 + WIDTH, Y0], [X0 + WIDTH, Y0 + HEIGHT], [X0, Y0 + HEIGHT]])
    assert np.abs(q - truth).max() < 0.05 * HEIGHT


def test_a_card_guessed_too_long_runs_off_its_paper() -> None:
    """A deck printing big indices: the same pair on a card half as long. Guessed
    from the pair, the card runs onto the table: no card there."""
    img = _card_image(length=HEIGHT / 2)
    marks = _near(index_marks(img), X0 + 0.064 * HEIGHT, Y0 + 0.15 * HEIGHT)
    assert len(marks) == 1 and on_paper(img, marks[0]) is None
    assert on_paper(_card_image(), marks[0]) is not None


class _Sure:
    """A stand-in recogniser reading every patch as `card`, surely (None: "not an
    index")."""

    deck = None

    def __init__(self, card: str | None) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.card = card

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        if self.card is None:
            return [Reading(None, None, 0.0, 0.0, 0.0, 1.0) for _ in patches]
        return [Reading(self.card[:-1], self.card[-1], 0.999, 0.999, 0.999, 0.0)
                for _ in patches]


def test_an_index_read_surely_is_reported_as_its_whole_card() -> None:
    out = find_by_index(_Sure("AS"), _card_image(), [])
    assert len(out) == 1
    c = out[0]
    assert c.index_visible == (True, False) and len(c.index_patches) == 1
    q = np.asarray(c.corners)
    assert q.min(axis=0) == pytest.approx([X0, Y0], abs=0.05 * HEIGHT)
    assert q.max(axis=0) == pytest.approx([X0 + WIDTH, Y0 + HEIGHT], abs=0.05 * HEIGHT)


def test_nothing_is_added_unread_read_already_or_for_an_enrolled_deck() -> None:
    img = _card_image()
    assert find_by_index(_Sure(None), img, []) == []
    found = CardCandidate(((X0, Y0), (X0 + WIDTH, Y0), (X0 + WIDTH, Y0 + HEIGHT),
                           (X0, Y0 + HEIGHT)), score=0.9)
    assert find_by_index(_Sure("AS"), img, [found]) == [found]  # read there: AS
    enrolled = _Sure("AS")
    enrolled.deck = "some/deck"  # type: ignore[assignment]
    assert find_by_index(enrolled, img, []) == []


def _find(card: str, x0: float) -> Find:
    q = np.array([[x0, 0], [x0 + 70, 0], [x0 + 70, 100], [x0, 100]], np.float32)
    return Find(q, np.zeros((64, 32, 3), np.uint8), CardReading(card, 0.99, card[:-1], card[-1]))


def test_a_fans_cards_overlap_their_indices_do_not() -> None:
    fan = [_find("AH", 0), _find("10C", 25), _find("QS", 50)]  # 25 px strips
    assert {f.reading.card for f in distinct(fan)} == {"AH", "10C", "QS"}
    # the same card twice: once; two cards at one index: neither
    assert [f.reading.card for f in distinct([_find("AH", 0), _find("AH", 3)])] == ["AH"]
    assert distinct([_find("AH", 0), _find("7D", 3)]) == []


def test_a_find_under_an_unfound_cards_index_is_dropped_not_under_a_found_ones() -> None:
    """Another card's index inside a find's quad, where no card kept lies: that card
    lies on the find, which nothing found, and the find is dropped. Unless that
    index shows a card read or found already: it is that card's far index, cut a
    little short by its own quad (IMG_2650 at 1 x 0.8: the ace's far index inside
    the jack's find dropped the jack, and the queen's find beside took its label)."""
    jack = _find("JS", 0)
    ace_index = Loose(np.array([50.0, 80.0], np.float32), "AD")  # inside, not at its index
    assert _over_unfound(jack, [ace_index], [jack.quad])
    assert not _over_unfound(jack, [ace_index], [jack.quad], {"AD"})
    assert _over_unfound(jack, [ace_index], [jack.quad], {"QH"})


@pytest.mark.parametrize("photo, cards", [
    ("IMG_2655.JPG", {"K": "KD", "10": "10H", "A": "AC"}),  # a row: strips only
    ("IMG_2446.JPG", {"A": "AH"}),  # one card on a busy printed box
])
def test_real_cards_no_outline_was_found_for_are_read(photo: str, cards: dict) -> None:
    """Real train photos whose cards the detector found no outline for (a row of
    three on wood; a card on a printed box): each read by its index, in its place."""
    from vision.evaluate import REAL_PHOTOS, match_real, real_labels
    from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_image

    path = REAL_PHOTOS / "images" / "train" / photo
    if not path.is_file() or not DEFAULT_MODEL.is_file():
        pytest.skip("real photos or model not here")
    labels = real_labels(REAL_PHOTOS, "train")[photo]
    sightings = read_image(IndexClassifier.load(), load_image(path))
    match = match_real([box for _, box in labels], [s.corners for s in sightings])
    got = {rank: sightings[j].card if j is not None else None
           for (rank, _), j in zip(labels, match)}
    assert got == cards
