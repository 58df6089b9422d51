"""The drawn suit signs (vision.training.suitshapes) carry the features that tell the
suits apart, whatever proportions were drawn: a test that the generator cannot teach
the network a club that is really a spade."""

from __future__ import annotations

import numpy as np
import pytest

from vision.training.suitshapes import suit_mask
from vision.types import SUITS

SEEDS = range(40)


def _row_widths(mask: np.ndarray) -> np.ndarray:
    ink = mask > 127
    return ink.sum(axis=1) / max(1, ink.sum(axis=1).max())


@pytest.mark.parametrize("suit", range(4))
def test_mask_is_the_asked_height_and_cropped_to_ink(suit: int) -> None:
    for seed in SEEDS:
        m = suit_mask(np.random.default_rng(seed), suit, 40)
        assert m.shape[0] == 40 and m.dtype == np.uint8
        assert m[0].max() > 0 and m[-1].max() > 0  # ink touches the top and bottom
        assert 0.3 < m.shape[1] / m.shape[0] < 1.6


@pytest.mark.parametrize("suit,pointed", [(SUITS.index("S"), True), (SUITS.index("D"), True),
                                          (SUITS.index("C"), False),
                                          (SUITS.index("H"), False)])
def test_spades_and_diamonds_end_in_a_point_at_the_top(suit: int, pointed: bool) -> None:
    """Near its top a spade or diamond is a narrow point, a club a round lobe and a
    heart two lobes; at 4% of the height the ink is narrow or wide accordingly."""
    for seed in SEEDS:
        m = suit_mask(np.random.default_rng(seed), suit, 100)
        near_top = _row_widths(m)[4]
        assert (near_top < 0.2) == pointed, (SUITS[suit], seed, near_top)


@pytest.mark.parametrize("suit,on_foot", [(SUITS.index("C"), True), (SUITS.index("S"), True),
                                          (SUITS.index("H"), False),
                                          (SUITS.index("D"), False)])
def test_clubs_and_spades_stand_on_a_foot(suit: int, on_foot: bool) -> None:
    """Black suits end at the bottom in a stem's foot; hearts and diamonds in a point."""
    for seed in SEEDS:
        w = _row_widths(suit_mask(np.random.default_rng(seed), suit, 100))
        assert (w[-2:].max() >= 0.08) == on_foot, (SUITS[suit], seed, w[-2:])


def test_a_club_has_three_lobes_a_spade_one() -> None:
    """Cut across at the height of a club's side lobes, the ink splits into the two side
    lobes; a spade's body at any height is one piece (no gap between lobes)."""
    for seed in SEEDS:
        club = suit_mask(np.random.default_rng(seed), SUITS.index("C"), 100) > 127
        # the top lobe alone: its row at 5% has ink in one run in the middle
        row = club[5]
        xs = np.nonzero(row)[0]
        assert xs.mean() == pytest.approx(club.shape[1] / 2, abs=club.shape[1] * 0.12)
        spade = suit_mask(np.random.default_rng(seed), SUITS.index("S"), 100) > 127
        for y in range(55):
            runs = np.count_nonzero(np.diff(spade[y].astype(np.int8)) == 1) + int(spade[y, 0])
            assert runs <= 1, (seed, y)
