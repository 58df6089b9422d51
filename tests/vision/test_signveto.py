"""A black card refused when its index signs at ten moved cuts show the other
suit and not its own (stills only, vision.recognize.signveto), on rendered scenes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import training_scene

from vision.evaluate import truth_candidates
from vision.recognize import signveto
from vision.recognize.classifier import IndexClassifier
from vision.recognize.reader import read_candidates


@pytest.fixture(scope="module")
def clf() -> IndexClassifier:
    cv2.setNumThreads(1)
    return IndexClassifier.load()


def test_plastics_ten_of_clubs_read_as_a_spade_is_refused(clf: IndexClassifier) -> None:
    """Calibration decks seed 30 scene 9 (true quads): gnome/plastic's 10C, one
    index corner in view, reads "10S" with the spade at 0.990, past signsuit's
    CERTAIN, so the single-cut veto does not ask it. Its sign is a club at all ten
    moved cuts: refused (unread) with the veto, 10S without it. No card of the
    scene is read wrong with the veto."""
    image, truth = training_scene(30, 9, calibration=True)
    cands = truth_candidates(image, truth)
    k = next(k for k, t in enumerate(truth) if t.card == "10C" and t.deck == "gnome/plastic")
    before = [s.card for s in read_candidates(clf, image, cands, sign_cuts=False,
                                              sign_veto=False)]
    after = [s.card for s in read_candidates(clf, image, cands, sign_cuts=False)]
    assert before[k] == "10S" and after[k] is None
    for t, a in zip(truth, after):
        assert a in (None, t.card), (t.card, a)
    quad = np.asarray(truth[k].corners, np.float32)
    rs = clf.classify(list(cands[k].index_patches))
    card = signveto.CardReading("10S", 0.99, "10", "S")
    corners = signveto.kept_at_cuts(image, quad, cands[k].index_visible, card, rs)
    assert [c.kept for c in corners] == [0] and corners[0].against >= signveto.MIN_AGAINST_LONE


def test_a_right_spade_whose_sign_is_read_a_club_at_a_few_cuts_is_kept(
        clf: IndexClassifier) -> None:
    """Calibration decks seed 30 scene 15 (true quads): a 9S whose lone corner's
    sign keeps the spade at none of the ten cuts and shows a club at five (the
    other five find no clean sign): under MIN_AGAINST_LONE, it stays read."""
    image, truth = training_scene(30, 15, calibration=True)
    cands = truth_candidates(image, truth)
    k = next(k for k, t in enumerate(truth) if t.card == "9S")
    got = [s.card for s in read_candidates(clf, image, cands, sign_cuts=False)]
    assert got[k] == "9S"
    quad = np.asarray(truth[k].corners, np.float32)
    rs = clf.classify(list(cands[k].index_patches))
    card = signveto.CardReading("9S", 0.99, "9", "S")
    corners = signveto.kept_at_cuts(image, quad, cands[k].index_visible, card, rs)
    assert all(c.kept <= signveto.MAX_KEPT for c in corners)
    assert not signveto.refuses(corners)


def test_the_veto_needs_every_corner_against() -> None:
    """One corner keeping its suit at most cuts speaks for the card; a lone corner
    needs more cuts against than each of two (the right lone KS of training 33
    scene 43 shows the club at 7 of 7 cuts)."""
    low = signveto.CutVotes(kept=0, against=10, scored=10)
    high = signveto.CutVotes(kept=9, against=0, scored=9)
    seven = signveto.CutVotes(kept=0, against=7, scored=7)
    assert signveto.refuses([low])
    assert not signveto.refuses([low, high])
    assert not signveto.refuses([])
    assert not signveto.refuses([seven])
    assert signveto.refuses([seven, seven])
    assert signveto.votes([4.0, -4.0, 1.0, 5.0], "C") == signveto.CutVotes(2, 1, 4)
