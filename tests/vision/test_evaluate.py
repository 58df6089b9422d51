"""vision.evaluate's own arithmetic (evaluate_match.py, evaluate_real.py, evaluate_timing.py):
the figures `make bench` prints rest on it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.evaluate import Tally, best_matches, match_real, stretched


def test_tally_counts_wrong_apart_from_abstained():
    t = Tally()
    t.add("QH", "QH")
    t.add("QH", None)
    t.add("QH", "QD", "img 3")
    assert (t.correct, t.abstained, t.wrong, t.n) == (1, 1, 1, 3)
    assert t.wrong_examples == ["img 3: QH read as QD"]
    assert abs(t.accuracy - 1 / 3) < 1e-9 and abs(t.wrong_rate - 1 / 3) < 1e-9


def test_stretched_resizes_each_axis_on_its_own():
    img = np.zeros((100, 200, 3), np.uint8)
    img[40:60, 90:110] = 255
    out = stretched(img, 0.5, 1.2)
    assert out.shape == (120, 100, 3)
    ys, xs = np.nonzero(out[:, :, 0] > 127)
    assert 45 <= xs.min() <= 46 and 53 <= xs.max() <= 55  # x halved
    assert 47 <= ys.min() <= 49 and 70 <= ys.max() <= 72  # y times 1.2
    assert stretched(img, 1.0, 1.0) is img


def test_matching_takes_the_best_overlap_first() -> None:
    # Card 0 lies mostly hidden under card 1; the one detection is card 1's. Taken in
    # turn, card 0 would grab it (0.6 > 0.5) and card 1's reading count against card 0.
    assert best_matches([[0.6], [0.95]], 0.5) == [None, 0]
    # Each detection once; below the bar, no match.
    assert best_matches([[0.9, 0.7], [0.8, 0.4]], 0.5) == [0, None]
    assert best_matches([[0.9, 0.7], [0.8, 0.75]], 0.5) == [0, 1]
    assert best_matches([[0.3]], 0.5) == [None]
    assert best_matches([], 0.5) == []


def test_a_strip_of_a_covered_card_matches_the_whole_card_sighting() -> None:
    """A fanned card's label boxes only its visible strip (here 30 x 140 of a
    100 x 140 card): box IoU 0.3, yet it is that card; the strip must not go to a
    sighting that only brushes it, nor to one already matched."""
    top = [[130, 0], [230, 0], [230, 140], [130, 140]]
    under = [[100, 0], [200, 0], [200, 140], [100, 140]]
    labels = [(130, 0, 230, 140), (100, 0, 130, 140)]
    assert match_real(labels, [top, under]) == [0, 1]
    assert match_real(labels, [under, top]) == [1, 0]
    assert match_real(labels, [top]) == [0, None]  # the top card is taken already
    far = [[110, 60], [210, 60], [210, 200], [110, 200]]  # holds half the strip
    assert match_real(labels, [top, far]) == [0, None]
    # A card lying over the strip's card from the left holds the strip's box too,
    # but neither of its index corners is in it: not this card (IMG_2648 at 0.8x1).
    across = [[60, 0], [160, 0], [160, 140], [60, 140]]
    assert match_real([labels[1]], [across, under]) == [1]
    assert match_real([labels[1]], [across]) == [None]
    tiny = (100, 0, 105, 10)  # 50 px^2 of a 14,000 px^2 card: too little to tell
    assert match_real([tiny], [under]) == [None]


def test_known_label_mistakes_are_corrected() -> None:
    """IMG_2396 shows a ten of diamonds but is labelled "nine" (see LABEL_FIXES)."""
    from vision.evaluate import REAL_PHOTOS, real_labels

    if not (REAL_PHOTOS / "images" / "train_labels.csv").is_file():
        import pytest

        pytest.skip("real photos not present")
    assert [rank for rank, _ in real_labels(REAL_PHOTOS, "train")["IMG_2396.JPG"]] == ["10"]


def test_pip_timing_for_the_bench_counts_whole_cards() -> None:
    from vision.evaluate_timing import time_pips
    from vision.training.split import heldout_decks

    decks = heldout_decks()
    if not decks:
        import pytest

        pytest.skip("card art unavailable")
    all_ms, _, _, n = time_pips(decks, n_scenes=2)
    assert n >= 4 and 0 < all_ms < 1000


def test_the_scripts_deck_sets_are_the_split_and_a_wrong_name_says_which_exist() -> None:
    from vision.training.split import calibration_decks, decks_named, heldout_decks, training_decks

    assert [d.name for d in decks_named("held")] == [d.name for d in heldout_decks()]
    assert [d.name for d in decks_named("cal")] == [d.name for d in calibration_decks()]
    assert [d.name for d in decks_named("train")] == [d.name for d in training_decks()]
    with pytest.raises(ValueError, match="held, cal, train"):
        decks_named("test")
