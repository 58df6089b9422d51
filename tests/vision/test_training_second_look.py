"""Bars for the second look: chosen on the cards the first look left, within budget."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import TableClassifier, table_patch

from vision.recognize.classifier import Calibration
from vision.training.calibrate import CalCard
from vision.training.second_look import LookCards, calibrate_second_look


def _data():
    """2000 one-corner cards: 1000 sevens of hearts sure at the first look (0.999);
    900 unsure at first (0.97) whose tighter and looser cuts agree (0.98); 100 clubs
    read as hearts, as unsure at first (0.97), whose cuts doubt it more (0.93)."""
    table: list[tuple[float, float]] = []
    read_as: list[str] = []
    x, looks, cards = [], [], []

    def patch(p: float, card: str) -> np.ndarray:
        row = len(table)
        table.append((p, p))
        read_as.append(card)
        return table_patch(row)
    for first, again, truth in [(0.999, 0.999, "7H")] * 1000 + [(0.97, 0.98, "7H")] * 900 \
            + [(0.97, 0.93, "7C")] * 100:
        cards.append(CalCard((len(x),), truth))
        x.append(patch(first, "7H"))
        looks.append(np.stack([patch(again, "7H"), patch(again, "7H")]))
    return TableClassifier(table, read_as), LookCards(np.stack(x), np.stack(looks), cards)


def test_second_look_bars_take_the_agreeing_cards_and_keep_out_the_wrong_ones():
    clf, camera = _data()
    first = Calibration(min_prob=0.99, min_prob_pair=0.999, temperature=1.0)
    cal, stats = calibrate_second_look(clf, first, camera, None, target=0.001,
                                       log=lambda m: None)
    second = cal.second_look
    assert second is not None and cal.min_prob == 0.99  # first bars untouched
    # the least of the cuts: 0.97 for the right cards, 0.93 for the clubs
    assert 0.93 <= max(second.suit_bar("H", pooled=False), second.min_prob) <= 0.97
    figures = stats["camera_scenes"]
    assert figures["accuracy_first"] == pytest.approx(1000 / 2000)
    assert figures["accuracy"] == pytest.approx(1900 / 2000)  # the 900 read at last
    assert figures["wrong_cards"] == 0  # the 100 clubs never read as hearts
    assert figures["second_looks"] == 1000
