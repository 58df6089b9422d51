"""Combining a card's two corner readings: abstain rather than guess."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognize.classifier import (
    Calibration,
    Reading,
    combine,
    joint_prob,
    least_reading,
    look_quads,
    readings_from_rows,
)
from vision.types import RANKS, SUITS

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


def rows(ranks: dict[str, float], suit: str = "H", none: float = 0.0) -> Reading:
    """A corner reading built from its probability rows, as the classifier gives it."""
    pr = np.zeros(14, np.float32)
    for k, v in ranks.items():
        pr[RANKS.index(k)] = v
    pr[13] = none
    ps = np.zeros(5, np.float32)
    ps[SUITS.index(suit)] = 1.0 - none
    ps[4] = none
    return readings_from_rows(pr[None], ps[None])[0]


def test_an_unsure_corner_surely_showing_another_rank_vetoes():
    # An outline round the ace of hearts and the nine of hearts: the nine's corner is
    # read unsure of *which* rank (Q 0.49, 9 0.28, J 0.16) but sure it is no ace.
    nine = rows({"Q": 0.49, "9": 0.28, "J": 0.16, "K": 0.07})
    ace = r("A", "H", 0.987, 0.98)
    assert nine.rank == "Q" and nine.confidence < CAL.disagree_prob  # a weak dissent...
    assert combine([ace, nine], CAL).card is None  # ...that still rules the ace out
    # A blurred look at the same ace's index leaves the ace likely enough: no veto.
    blurred = rows({"4": 0.45, "A": 0.3, "7": 0.25})
    assert combine([ace, blurred], CAL).card == "AH"
    # A corner that may be no index at all does not veto either.
    unsure = rows({"Q": 0.45, "9": 0.35}, none=0.2)
    assert combine([ace, unsure], CAL).card == "AH"


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


def test_two_agreeing_corners_pool_their_evidence():
    # Neither corner alone reaches 0.98, together (odds 9 x 9 = 81: 0.988) they do;
    # an average of the two would stay at 0.9 and abstain.
    cal = Calibration(min_prob=0.98, min_prob_pair=0.98)
    assert combine([r("8", "S", 0.9, 0.9)], cal).card is None
    got = combine([r("8", "S", 0.9, 0.9), r("8", "S", 0.9, 0.9)], cal)
    assert got.card == "8S"
    assert got.confidence == pytest.approx(81 / 82)


def test_pooled_pairs_face_their_own_bar():
    cal = Calibration(min_prob=0.9, min_prob_pair=0.995)
    assert combine([r("8", "S", 0.95, 0.95)], cal).card == "8S"  # one corner: 0.95 >= 0.9
    # two corners at 0.9 pool to 0.988 < 0.995: not enough for the pair bar
    assert combine([r("8", "S", 0.9, 0.9), r("8", "S", 0.9, 0.9)], cal).card is None
    assert combine([r("8", "S", 0.95, 0.95), r("8", "S", 0.95, 0.95)], cal).card == "8S"


def test_pooling_needs_both_rank_and_suit():
    cal = Calibration(min_prob=0.98, min_prob_pair=0.98)
    got = combine([r("8", "S", 0.99, 0.6), r("8", "S", 0.99, 0.6)], cal)  # suit 0.69
    assert got.card is None and got.rank == "8" and got.suit is None


def test_disagreeing_corners_never_pool():
    cal = Calibration(min_prob=0.5, min_prob_pair=0.5)
    assert combine([r("8", "S", 0.9, 0.9), r("3", "S", 0.9, 0.9)], cal).card is None


def test_joint_prob():
    assert joint_prob([0.8]) == pytest.approx(0.8)
    assert joint_prob([0.9, 0.9]) == pytest.approx(81 / 82)
    assert joint_prob([0.7, 0.95]) == joint_prob([0.95, 0.7])
    assert joint_prob([0.99, 0.3]) < 0.99  # a corner leaning against weakens the card
    assert 0.0 < joint_prob([0.0, 1.0]) < 1.0  # clipped, no division by zero


def test_each_suit_faces_its_own_bar():
    # spades strict (clubs of unfamiliar decks are read as spades), hearts lenient
    cal = Calibration(min_prob=0.9, min_prob_pair=0.99,
                      suit_min_prob=(0.9, 0.9, 0.9, 0.99),
                      suit_min_prob_pair=(0.95, 0.95, 0.95, 0.999))
    assert combine([r("8", "H", 0.99, 0.95)], cal).card == "8H"
    got = combine([r("8", "S", 0.99, 0.95)], cal)
    assert got.card is None and got.rank == "8" and got.suit is None
    # pooled: 0.9 and 0.9 give 0.988: enough for hearts' pair bar, not for spades'
    assert combine([r("8", "H", 0.999, 0.9), r("8", "H", 0.999, 0.9)], cal).card == "8H"
    assert combine([r("8", "S", 0.999, 0.9), r("8", "S", 0.999, 0.9)], cal).card is None
    # the rank bar still holds whatever the suit
    assert combine([r("8", "H", 0.85, 0.999)], cal).card is None


def test_calibration_reads_per_suit_bars_from_json(tmp_path):
    import json

    path = tmp_path / "index.json"
    path.write_text(json.dumps({"calibration": {
        "min_prob": 0.97, "min_prob_pair": 0.99, "temperature": 1.5,
        "suit_min_prob": [0.9, 0.91, 0.92, 0.99], "suit_min_prob_pair": [0.9, 0.9, 0.9, 0.999],
        "unknown_field": 3}}))
    cal = Calibration.from_json(path)
    assert cal.suit_min_prob == (0.9, 0.91, 0.92, 0.99)
    assert cal.suit_bar("S", pooled=True) == 0.999 and cal.suit_bar("D", pooled=False) == 0.91
    # an older index.json without suit bars: suits face the rank bars
    path.write_text(json.dumps({"calibration": {"min_prob": 0.97, "min_prob_pair": 0.99}}))
    old = Calibration.from_json(path)
    assert old.suit_bar("S", pooled=False) == 0.97 and old.suit_bar("H", pooled=True) == 0.99


def _rows(*probs_of_class: float, cls: int, n: int) -> np.ndarray:
    """Probability rows (one per cut) giving class `cls` the listed probabilities,
    the rest spread over the other classes."""
    rows = []
    for p in probs_of_class:
        row = np.full(n, (1 - p) / (n - 1))
        row[cls] = p
        rows.append(row)
    return np.array(rows)


def test_least_reading_keeps_the_first_cuts_class_at_its_least_probability():
    rank = _rows(0.95, 0.99, 0.90, cls=RANKS.index("Q"), n=14)
    suit = _rows(0.97, 0.93, 0.99, cls=SUITS.index("H"), n=5)
    got = least_reading(rank, suit)
    assert (got.rank, got.suit) == ("Q", "H")
    assert got.rank_prob == pytest.approx(0.90) and got.suit_prob == pytest.approx(0.93)
    # a cut that reads another rank pulls the probability of the first one down
    rank[2] = _rows(0.8, cls=RANKS.index("8"), n=14)[0]
    assert least_reading(rank, suit).rank_prob == pytest.approx(0.2 / 13)
    # "not an index" as the usual cut sees it beats a class the cuts doubt
    none_first = _rows(0.6, 0.6, cls=13, n=14)
    got = least_reading(none_first, _rows(0.9, 0.9, cls=0, n=5))
    assert got.rank is None and got.none_prob == pytest.approx(0.6)


def test_look_quads_scale_the_card_about_its_centre():
    quad = np.float32([[10, 20], [110, 20], [110, 170], [10, 170]])
    tight, loose = look_quads(quad, (0.9, 1.1))
    assert tight.mean(axis=0) == pytest.approx(quad.mean(axis=0))
    assert np.ptp(tight[:, 0]) == pytest.approx(90) and np.ptp(loose[:, 1]) == pytest.approx(165)


def test_second_look_bars_round_trip_through_json(tmp_path):
    import json

    second = Calibration(min_prob=0.95, min_prob_pair=0.96, suit_min_prob=(0.9,) * 4)
    cal = Calibration(min_prob=0.99, second_look=second)
    path = tmp_path / "index.json"
    path.write_text(json.dumps({"calibration": cal.to_dict()}))
    back = Calibration.from_json(path)
    assert back == cal and back.second_look == second and back.second_look.second_look is None
