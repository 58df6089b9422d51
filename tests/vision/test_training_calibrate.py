"""Picking the temperature and thresholds: wrong cards bounded, two corners pooled."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognize.classifier import Calibration, Reading
from vision.training.calibrate import (
    GRID,
    MIN_BAR,
    Bars,
    CalCard,
    cards_from_photos,
    cards_from_views,
    choose_thresholds,
    fit_temperature,
    verdicts,
)
from vision.types import SUITS


def rd(rank: str, suit: str, p: float) -> Reading:
    return Reading(rank, suit, p, p, p, 0.01)


def _data():
    """2000 right single corners at 0.96, 20 wrong ones at 0.90; 500 right two-corner
    cards at 0.9 + 0.9 (pooled 0.988), 6 wrong ones at 0.8 + 0.8 (pooled 0.941)."""
    reads: list[Reading] = []
    cards: list[CalCard] = []

    def add(truth: str, got: list[tuple[str, str, float]]) -> None:
        idx = tuple(range(len(reads), len(reads) + len(got)))
        reads.extend(rd(*g) for g in got)
        cards.append(CalCard(idx, truth))
    for _ in range(2000):
        add("7H", [("7", "H", 0.96)])
    for _ in range(20):
        add("7H", [("A", "H", 0.90)])
    for _ in range(500):
        add("QS", [("Q", "S", 0.9), ("Q", "S", 0.9)])
    for _ in range(6):
        add("QS", [("O", "S", 0.8), ("O", "S", 0.8)])
    return reads, cards


def test_thresholds_keep_wrong_cards_under_target_and_pool_pairs():
    reads, cards = _data()
    v = verdicts(reads, cards, Calibration(max_none=0.3, disagree_prob=0.5))
    assert v.pooled.sum() == 506
    assert v.rank_score[v.pooled].max() == pytest.approx(81 / 82)  # pooled, not averaged
    bars = choose_thresholds(v, target=0.001, floor=0.5)
    assert 0.90 < bars.rank_single <= 0.96
    assert 81 / 82 >= bars.rank_pair > 0.64 / (0.64 + 0.04)
    rates = v.rates(bars)
    assert rates["wrong"] <= 0.001
    # every right card is read: singles at 0.96 and the pooled pairs at 0.988
    assert rates["accuracy"] == pytest.approx(2500 / 2526)


def test_one_wrong_real_rank_raises_the_bar():
    reads, cards = _data()
    cal = Calibration(max_none=0.3, disagree_prob=0.5)
    syn = verdicts(reads, cards, cal)
    real_reads = [rd("9", "C", 0.97), rd("10", "H", 0.99)]
    real = verdicts(real_reads, [CalCard((0,), "6"), CalCard((1,), "10")], cal)
    bars = choose_thresholds(syn, real, target=0.001, floor=0.5)
    # the wrong 9 for a 6 must not be read: its rank or its suit (clubs) bar is above it
    assert bars.rank_single > 0.97 or bars.suit_single[SUITS.index("C")] > 0.97
    assert real.rates(bars)["wrong_cards"] == 0


def _suits_data(wrong_as: str):
    """1000 right single corners per suit at 0.95 (rank 0.999); 30 clubs read as
    `wrong_as` at suit 0.97 (rank right, 0.999): the one confident suit confusion."""
    reads: list[Reading] = []
    cards: list[CalCard] = []
    for suit in SUITS:
        for _ in range(1000):
            cards.append(CalCard((len(reads),), "7" + suit))
            reads.append(Reading("7", suit, 0.95, 0.999, 0.95, 0.01))
    for _ in range(30):
        cards.append(CalCard((len(reads),), "7C"))
        reads.append(Reading("7", wrong_as, 0.97, 0.999, 0.97, 0.01))
    return verdicts(reads, cards, Calibration(max_none=0.3, disagree_prob=0.5))


def test_each_suit_gets_its_own_bar_from_the_calibration_data():
    v = _suits_data("S")
    bars = choose_thresholds(v, target=0.001)
    s = {suit: bars.suit_single[SUITS.index(suit)] for suit in SUITS}
    assert s["S"] > 0.97  # spades: clubs read as spades at 0.97 must not pass
    assert s["C"] <= 0.95 and s["D"] <= 0.95 and s["H"] <= 0.95  # nothing to fear there
    assert bars.rank_single <= 0.999  # ranks (all right at 0.999) pass
    assert v.rates(bars)["wrong_cards"] == 0
    assert v.rates(bars)["accuracy"] == pytest.approx(3000 / 4030)
    # the same confusion into hearts moves the strict bar to hearts
    w = _suits_data("H")
    bars_h = choose_thresholds(w, target=0.001)
    assert bars_h.suit_single[SUITS.index("H")] > 0.97
    assert bars_h.suit_single[SUITS.index("S")] <= 0.95
    # one flat bar for all (the old rule) would have abstained on every card
    assert v.rates(Bars.flat(0.975, 0.975))["accuracy"] == 0.0


def test_no_bar_goes_below_the_floor():
    reads = [Reading("7", s, 0.6, 0.6, 0.6, 0.01) for s in SUITS]
    cards = [CalCard((i,), "7" + s) for i, s in enumerate(SUITS)]
    v = verdicts(reads, cards, Calibration(max_none=0.3, disagree_prob=0.5))
    bars = choose_thresholds(v, target=0.001)
    assert bars.vector().min() >= MIN_BAR  # all right, yet 0.6 is never enough
    assert v.rates(bars)["accuracy"] == 0.0
    assert choose_thresholds(v, target=0.001, floor=0.5).vector().max() <= 0.6


def test_bars_round_trip_through_the_calibration():
    bars = Bars(0.95, 0.99, (0.9, 0.91, 0.92, 0.99), (0.93, 0.94, 0.95, 0.999))
    assert Bars.from_vector(bars.vector()) == bars
    cal = bars.apply(Calibration())
    assert (cal.min_prob, cal.min_prob_pair) == (0.95, 0.99)
    assert cal.suit_bar("S", pooled=True) == 0.999 and cal.suit_bar("C", pooled=False) == 0.9


def test_cards_from_views_pair_consecutive_corners():
    r = np.array([3, 3, 13, 5, 7, 7])
    s = np.array([1, 1, 4, 2, 0, 0])
    cards = cards_from_views(r, s)
    pairs = [c for c in cards if len(c.patches) == 2]
    assert [c.patches for c in pairs] == [(0, 1), (4, 5)]
    assert [c.truth for c in pairs] == ["4D", "8C"]
    assert sum(c.truth is None for c in cards) == 1  # the "none" patch: must not be read


def test_cards_from_photos_group_by_card():
    cards = cards_from_photos(np.array([8, 8, 12]), np.array([1, 1, 2]))
    assert [(c.patches, c.truth) for c in cards] == [
        ((0,), "9"), ((1,), "9"), ((2,), "K"), ((0, 1), "9")]


def test_temperature_is_recovered():
    rng = np.random.default_rng(0)
    n, k = 6000, 5
    z = rng.normal(0, 1, (n, k)) + 4 * np.eye(k)[rng.integers(k, size=n)]
    p = np.exp(z / 2.0)
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=row) for row in p])
    t = fit_temperature(z, z, y, y)
    assert t == pytest.approx(2.0, abs=0.2)


def test_grid_reaches_close_to_one():
    assert GRID == sorted(GRID) and GRID[-1] > 0.99999


def test_pair_bars_stay_above_two_corners_at_the_floor():
    # two corners at 0.75 pool to 0.9: all right, yet not a sure card at the floor
    reads = [Reading("7", s, 0.75, 0.75, 0.75, 0.01) for s in SUITS for _ in range(2)]
    cards = [CalCard((2 * i, 2 * i + 1), "7" + s) for i, s in enumerate(SUITS)]
    v = verdicts(reads, cards, Calibration(max_none=0.3, disagree_prob=0.5))
    assert v.pooled.all() and v.suit_score == pytest.approx(0.9)
    bars = choose_thresholds(v, target=0.001)
    assert min(bars.rank_pair, *bars.suit_pair) >= 81 / 82  # 0.9 and 0.9 pooled
    assert v.rates(bars)["accuracy"] == 0.0
    assert v.rates(choose_thresholds(v, target=0.001, floor=0.5))["accuracy"] == 1.0
