"""vision.recognize.pipcheck: a whole number card's pips vouch for the rank its
corners show when the network alone falls short of its bars, and never otherwise."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import Cand

from vision import cardart
from vision.recognize.classifier import Calibration, Reading, combine
from vision.recognize.pipcheck import pip_verdict, whole_in_view
from vision.recognize.pips import PipCount
from vision.recognize.reader import read_candidates

CAL = Calibration(min_prob=0.97, min_prob_pair=0.999, suit_min_prob=(0.97, 0.95, 0.95, 0.98),
                  suit_min_prob_pair=(0.99, 0.99, 0.99, 0.9995))


def r(card: str, rank_p: float, suit_p: float = 1.0, none_p: float = 0.0) -> Reading:
    return Reading(card[:-1], card[-1], min(rank_p, suit_p), rank_p, suit_p, none_p)


def pips(count: int, red: bool) -> PipCount:
    return PipCount(count, red, 1.1, 0.01)


def test_a_ten_refused_by_the_network_alone_is_given_with_its_ten_pips() -> None:
    # A real photo's ten of diamonds: both corners read 10D, pooled under the pair bar.
    corners = [r("10D", 0.949), r("10D", 0.889)]
    assert combine(corners, CAL).card is None
    got = pip_verdict(corners, pips(10, red=True), CAL)
    assert got is not None and got.card == "10D" and got.rank == "10" and got.suit == "D"
    assert pip_verdict(corners, None, CAL) is None  # no count, no card


def test_pips_of_another_rank_or_colour_give_nothing() -> None:
    corners = [r("10D", 0.949), r("10D", 0.889)]
    assert pip_verdict(corners, pips(9, red=True), CAL) is None
    assert pip_verdict(corners, pips(10, red=False), CAL) is None


def test_an_unsure_corner_reading_another_rank_is_overruled_a_sure_one_is_not() -> None:
    # "10D 0.999 | 9D 0.595": a disagreement for the network alone.
    unsure = [r("10D", 0.999), r("9D", 0.595)]
    assert combine(unsure, CAL).card is None
    got = pip_verdict(unsure, pips(10, red=True), CAL)
    assert got is not None and got.card == "10D"
    assert pip_verdict([r("10D", 0.999), r("9D", 0.95)], pips(10, red=True), CAL) is None


def test_the_rank_must_still_be_the_networks_likely_one_and_the_suit_pass_its_bar() -> None:
    assert pip_verdict([r("8S", 0.4)], pips(8, red=False), CAL) is None
    assert pip_verdict([r("8S", 0.7)], pips(8, red=False), CAL) is not None
    # Spades need 0.98 from one corner: the pips say nothing of clubs against spades.
    assert pip_verdict([r("8S", 0.9, suit_p=0.97)], pips(8, red=False), CAL) is None
    # Corners naming the same rank but different suits: not settled.
    assert pip_verdict([r("8S", 0.9), r("8C", 0.9)], pips(8, red=False), CAL) is None
    # A corner that sees "no index" does not vote, but a patch mostly "none" blocks.
    assert pip_verdict([r("8S", 0.9, none_p=0.5)], pips(8, red=False), CAL) is None




def test_only_cards_lying_whole_in_view_are_counted() -> None:
    q = ((100, 100), (200, 100), (200, 240), (100, 240))
    shape = (480, 640, 3)
    assert whole_in_view(Cand(q), shape)
    assert not whole_in_view(Cand(q, visible=0.9), shape)
    assert not whole_in_view(Cand(q, index_visible=(True, False)), shape)
    assert not whole_in_view(Cand(q, face_down=True), shape)
    off = ((-20, 100), (80, 100), (80, 240), (-20, 240))
    assert not whole_in_view(Cand(off), shape)


class SureOfRankOnly:
    """A stand-in network: every corner reads `card` at rank probability 0.9 (under
    the bars), suit sure; no second look."""

    deck = None

    def __init__(self, card: str) -> None:
        self.card = card
        self.calibration = CAL

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        return [r(self.card, 0.9) for _ in patches]


def _photo(card: str) -> tuple[np.ndarray, tuple]:
    deck = cardart.find_deck("gnome/paris")
    art = cardart.render_card(deck, card, 400)
    h, w = art.shape[:2]
    img = np.full((600, 600, 3), (40, 90, 30), np.uint8)
    quad = np.float32([[200, 120], [200 + w * 0.9, 120], [200 + w * 0.9, 120 + h * 0.9],
                       [200, 120 + h * 0.9]])
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    warped = cv2.warpPerspective(art, cv2.getPerspectiveTransform(src, quad), (600, 600))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    img = (warped[:, :, :3] * alpha + img * (1 - alpha)).astype(np.uint8)
    return img, tuple(map(tuple, quad))


@pytest.mark.parametrize(("card", "net", "given"), [
    ("7H", "7H", "7H"),    # pips and corners agree: given
    ("7H", "8H", None),    # the network's rank is not the pips': nothing
])
def test_the_reader_asks_the_pips_of_a_whole_card_the_network_left_unread(
        card: str, net: str, given: str | None) -> None:
    img, quad = _photo(card)
    patch = np.full((64, 32, 3), 255, np.uint8)
    whole = Cand(quad, index_patches=(patch, patch))
    assert read_candidates(SureOfRankOnly(net), img, [whole])[0].card == given
    covered = Cand(quad, visible=0.8, index_patches=(patch, patch))
    assert read_candidates(SureOfRankOnly(net), img, [covered])[0].card is None


def test_the_suit_the_pips_show_is_given_even_against_the_networks_suit() -> None:
    # An unfamiliar deck's clubs read as spades by the network, sure of the rank: the
    # spade bar (0.9995 pooled) refuses it, and "S" would be wrong anyway.
    corners = [r("7S", 0.999, suit_p=0.97), r("7S", 0.998, suit_p=0.96)]
    assert combine(corners, CAL).card is None
    clubs = PipCount(7, False, 1.1, 0.01, suit="C")
    got = pip_verdict(corners, clubs, CAL)
    assert got is not None and got.card == "7C" and got.suit == "C"
    # Without a suit from the pips the network's own suit bar still stands.
    assert pip_verdict(corners, pips(7, red=False), CAL) is None
    # The pips' suit never lifts the rank rules: another count, or a sure dissent.
    assert pip_verdict(corners, PipCount(8, False, 1.1, 0.01, suit="C"), CAL) is None
    dissent = [r("7S", 0.999), r("9S", 0.95)]
    assert pip_verdict(dissent, clubs, CAL) is None


def test_pips_are_not_counted_when_the_corners_could_not_vouch_for_a_number(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting costs 1-2 ms a card: court cards, aces and corners naming no rank, or a
    number too unsure, are not counted at all."""
    import vision.recognize.pipcheck as pc

    counted: list[int] = []
    monkeypatch.setattr(pc, "count_pips", lambda image, quad: counted.append(1))
    img = np.zeros((480, 640, 3), np.uint8)
    whole = Cand(((100, 100), (200, 100), (200, 240), (100, 240)))
    for corners in ([r("KH", 0.9)], [r("AS", 0.9)], [r("7H", 0.3)],
                    [r("7H", 0.9), r("QH", 0.95)]):
        assert pc.read_by_pips(img, whole, corners, CAL) is None
    assert counted == []
    pc.read_by_pips(img, whole, [r("7H", 0.9)], CAL)
    assert counted == [1]


class ReadsPast(SureOfRankOnly):
    """A stand-in network reading every corner as `card` past the pair bars, at
    `prob` for rank and suit."""

    def __init__(self, card: str, prob: float) -> None:
        super().__init__(card)
        self.prob = prob

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        return [r(self.card, self.prob, self.prob) for _ in patches]


@pytest.mark.parametrize(("net", "prob", "given"), [
    ("7H", 0.985, "7H"),    # corners and pips agree
    ("8H", 0.985, None),    # both corners read another rank past the bars: the
                            # pips count seven, so it is not given (a held-out
                            # deck's 6H read "5H" at 0.93 and 0.98)
    ("7D", 0.985, None),    # the pips show hearts
    ("7S", 0.985, None),    # the other colour
    ("8H", 0.995, "8H"),    # corners all but certain: not counted (the live budget)
])
def test_a_read_card_whose_pips_say_otherwise_is_not_given(
        net: str, prob: float, given: str | None) -> None:
    img, quad = _photo("7H")
    patch = np.full((64, 32, 3), 255, np.uint8)
    whole = Cand(quad, index_patches=(patch, patch))
    assert read_candidates(ReadsPast(net, prob), img, [whole])[0].card == given
    # A card partly covered: its middle is not counted, the corners stand.
    covered = Cand(quad, visible=0.8, index_patches=(patch, patch))
    assert read_candidates(ReadsPast(net, prob), img, [covered])[0].card == net
