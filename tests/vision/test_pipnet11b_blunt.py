"""suitshapes' blunt-topped spades (blunt_spades, for the pip network's training):
broad, flat- or round-topped like gnome/orell's, yet one piece above the stem (no
club's gaps between lobes) and on a foot; asked for nowhere, the signs drawn are
unchanged."""

from __future__ import annotations

import numpy as np

from vision.training.suitshapes import suit_mask
from vision.types import SUITS

S = SUITS.index("S")
SEEDS = range(40)


def _widths(mask: np.ndarray) -> np.ndarray:
    ink = mask > 127
    return ink.sum(axis=1) / max(1, ink.sum(axis=1).max())


def test_blunt_spades_are_broad_at_the_top_one_piece_and_on_a_foot() -> None:
    for seed in SEEDS:
        m = suit_mask(np.random.default_rng(seed), S, 100, blunt_spades=1.0)
        w = _widths(m)
        assert w[6] >= 0.16, (seed, w[6])  # no point: pointed spades stay <= 0.11 there
        assert w[-2:].max() >= 0.04  # the stem's foot (the body is broad)
        ink = m > 127
        for y in range(3, 50):  # the body: one run of ink a row (no lobes apart)
            runs = np.count_nonzero(np.diff(ink[y].astype(np.int8)) == 1) + int(ink[y, 0])
            assert runs <= 1, (seed, y)


def test_the_default_draws_the_same_signs_as_before() -> None:
    for suit in range(4):
        for seed in range(10):
            a = suit_mask(np.random.default_rng(seed), suit, 60)
            b = suit_mask(np.random.default_rng(seed), suit, 60, blunt_spades=0.0)
            assert np.array_equal(a, b)
    mixed = [suit_mask(np.random.default_rng(seed), S, 100, blunt_spades=0.5)
             for seed in SEEDS]
    blunt = sum(_widths(m)[6] >= 0.16 for m in mixed)
    assert 8 <= blunt <= 32  # about half
