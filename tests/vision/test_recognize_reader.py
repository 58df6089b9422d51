"""vision.recognize.reader: the one reading rule (batching, second look, backs, and
one card of each).

The recogniser is a stand-in: the reader's composition is under test, not the network.
"""

from __future__ import annotations

import numpy as np
from vision_helpers import Cand

from vision.recognize.classifier import Calibration, CardReading, Reading
from vision.recognize.reader import one_of_each, read_candidates, without_doubles
from vision.types import CardSighting


def rect(x0: float, y0: float, w: float = 63.0, h: float = 88.0) -> tuple:
    return ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))


def seen(corners: tuple, card: str | None) -> CardSighting:
    return CardSighting(corners, False, card, 0.99 if card else 0.0,
                        card[:-1] if card else None, card[-1] if card else None)


# A lies under B: B's top-left index lies on A, A's bottom-right index under B.
A, B = rect(0, 0), rect(40, 50)


def test_different_cards_are_left_alone() -> None:
    s = [seen(A, "QH"), seen(B, "7C")]
    assert one_of_each(s, [(True, True), (True, True)]) == s


def test_the_card_whose_read_index_lies_on_the_other_is_unread() -> None:
    # A's covered corner rightly not read: only B's index lies on the other card,
    # so B (showing what may be A's print through a misjudged order) is the doubt.
    out = one_of_each([seen(A, "QH"), seen(B, "QH")], [(True, False), (True, True)])
    assert [s.card for s in out] == ["QH", None]
    assert out[1].corners == B and out[1].rank is None and out[1].suit is None


def test_an_unread_double_of_a_read_card_is_dropped() -> None:
    """One card seen twice (its outline and a grown half, IoU about 0.75) tells of
    one card; a card lying across it (IoU 0.56, turned 90 degrees), a card beside
    it and a back beside it are other cards and stay."""
    read = seen(rect(100, 100), "QH")
    double = seen(rect(100, 100, 63, 70), None)  # a shorter outline of the same card
    cx, cy = 100 + 31.5, 100 + 44.0
    across = seen(((cx - 44, cy - 31.5), (cx + 44, cy - 31.5), (cx + 44, cy + 31.5),
                   (cx - 44, cy + 31.5)), None)
    beside = seen(rect(140, 100), None)
    back = CardSighting(rect(140, 100), True)
    out = without_doubles([read, double, across, beside, back])
    assert out == [read, across, beside, back]
    assert without_doubles([double, across]) == [double, across]  # nothing read


def test_a_back_where_a_read_card_lies_is_that_card_seen_again() -> None:
    """A second outline of a card read, its index corners hidden, is taken for a back
    by the detector's guess (rendered training decks, seed 10 scene 50: a 4S read,
    "a back" at IoU 0.67 beside it, which the truth matched): it is dropped like
    any unread double; a back turned across the card, or beside it, stays."""
    read = seen(rect(100, 100), "4S")
    again = CardSighting(rect(100, 100, 63, 70), True)
    cx, cy = 100 + 31.5, 100 + 44.0
    across = CardSighting(((cx - 44, cy - 31.5), (cx + 44, cy - 31.5), (cx + 44, cy + 31.5),
                           (cx - 44, cy + 31.5)), True)
    beside = CardSighting(rect(140, 100), True)
    assert without_doubles([read, again, across, beside]) == [read, across, beside]


def test_both_unread_when_nothing_tells_which() -> None:
    # Both read through a corner lying on the other card.
    out = one_of_each([seen(A, "QH"), seen(B, "QH")], [(True, True), (True, True)])
    assert [s.card for s in out] == [None, None]
    # Apart, and the same card: one is wrong, which one cannot be told.
    far = rect(300, 0)
    out = one_of_each([seen(A, "QH"), seen(far, "QH"), seen(B, "7C")],
                      [(True, True)] * 3)
    assert [s.card for s in out] == [None, None, "7C"]


class Unsure:
    """Reads every patch as the queen of hearts at 0.8 (under the bars); a second look
    settles it. Counts the network calls."""

    deck = None

    def __init__(self, again: str | None = "QH") -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.calls: list[int] = []
        self.again = again

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        self.calls.append(len(patches))
        return [Reading("Q", "H", 0.8, 0.8, 0.8, 0.0) for _ in patches]

    def wants_second_look(self, first: list[Reading]) -> bool:
        return True

    def look_again_many(self, image: np.ndarray, cards: list, first: list | None = None
                        ) -> list[CardReading]:
        assert first is not None and len(first) == len(cards)  # the first look passed on
        self.calls.append(-len(cards))
        a = self.again
        return [CardReading(a, 0.95 if a else 0.0, a and a[:-1], a and a[-1]) for _ in cards]


def test_second_looks_of_a_frame_in_one_call_and_backs_stay_backs() -> None:
    image = np.full((300, 500, 3), 90, np.uint8)
    patch = np.full((64, 32, 3), 255, np.uint8)
    cands = [Cand(A, index_patches=(patch, patch)),
             Cand(rect(300, 0), face_down=True, index_patches=(patch,)),
             Cand(rect(300, 150), index_visible=(False, False))]
    clf = Unsure(again=None)
    out = read_candidates(clf, image, cands, zoom=False)  # (as the live Pipeline)
    assert clf.calls == [3, -2]  # one classify for all patches, one second look
    assert [s.card for s in out] == [None, None, None]
    assert [s.face_down for s in out] == [False, True, False]
    clf = Unsure(again="QH")
    out = read_candidates(clf, image, cands[:2])
    # The back's corners read as the queen too: one deck, two queens of hearts apart,
    # so neither is given, and the back is reported face up only if it is given.
    assert [s.card for s in out] == [None, None]
    assert [s.face_down for s in out] == [False, True]
    out = read_candidates(Unsure(again="QH"), image, cands[:1])
    assert out[0].card == "QH" and out[0].confidence == 0.95
