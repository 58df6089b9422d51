"""Combining a card's two corner readings: abstain rather than guess."""

from __future__ import annotations

from vision.recognize.classifier import Calibration, Reading, combine

CAL = Calibration(min_prob=0.9, max_none=0.3, disagree_prob=0.5)


def r(rank, suit, rp=0.99, sp=0.99, none=0.01):
    return Reading(rank, suit, min(rp, sp), rp, sp, none)


def test_two_agreeing_corners_give_the_card():
    got = combine([r("Q", "H"), r("Q", "H", 0.95)], CAL)
    assert (got.card, got.rank, got.suit) == ("QH", "Q", "H")
    assert 0.9 < got.confidence <= 1.0


def test_corners_that_disagree_make_the_card_unreadable():
    got = combine([r("Q", "H"), r("K", "H", 0.93)], CAL)
    assert got.card is None and got.rank is None


def test_a_weak_dissent_does_not_veto():
    got = combine([r("Q", "H"), r("K", "H", 0.4, 0.9)], CAL)
    assert got.card == "QH"


def test_a_corner_that_sees_no_index_neither_votes_nor_vetoes():
    got = combine([r(None, None, 0.1, 0.1, 0.95), r("10", "S")], CAL)
    assert got.card == "10S"


def test_low_probability_abstains_but_keeps_the_sure_half():
    got = combine([r("7", "D", 0.99, 0.6)], CAL)
    assert got.card is None and got.rank == "7" and got.suit is None


def test_likely_garbage_abstains():
    assert combine([r("A", "S", none=0.5)], CAL).card is None
    assert combine([], CAL).card is None


def test_reading_unpacks_as_card_confidence_rank_suit():
    card, conf, rank, suit = combine([r("J", "C")], CAL)
    assert (card, rank, suit) == ("JC", "J", "C") and conf > 0.9


def test_two_agreeing_corners_may_pass_a_lower_calibrated_bar():
    cal = Calibration(min_prob=0.95, min_prob_pair=0.85)
    assert combine([r("8", "S", 0.9, 0.9)], cal).card is None  # one corner: not enough
    assert combine([r("8", "S", 0.9, 0.9), r("8", "S", 0.88, 0.92)], cal).card == "8S"
    assert combine([r("8", "S", 0.8, 0.9), r("8", "S", 0.8, 0.9)], cal).card is None
