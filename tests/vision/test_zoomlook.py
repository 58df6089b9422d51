"""vision.recognize.zoomlook: a tiny index (the calibration deck gnome/simplistic's
courts) the usual cut reads unsurely is read from a cut zoomed towards the card's
corner; a zoomed cut naming another card than the usual one gives nothing."""

from __future__ import annotations

from vision_helpers import card_on_cloth, training_scene

from vision.evaluate import truth_candidates
from vision.recognize import zoomlook
from vision.recognize.classifier import IndexClassifier
from vision.recognize.patch import extract_index_patches
from vision.recognize.reader import read_candidates


def test_simplistic_queens_tiny_index_is_read_from_the_zoomed_cut() -> None:
    # Calibration decks seed 32, scene 5 (and 33, 5): simplistic's QH, both corners
    # in view, read "Q" at 0.78 and 0.87 by the usual cut (pair bar 0.998), by the
    # zoomed cut past it. Without the step it stays unread.
    clf = IndexClassifier.load()
    for seed, k in ((32, 7), (33, 3)):
        image, truth = training_scene(seed, 5, calibration=True)
        assert truth[k].card == "QH" and truth[k].deck == "gnome/simplistic"
        cands = truth_candidates(image, truth)
        assert read_candidates(clf, image, cands, zoom=False)[k].card is None
        read = read_candidates(clf, image, cands)
        assert read[k].card == "QH"
        assert all(s.card is None or s.card == t.card
                   for s, t in zip(read, truth) if t.readable)


def test_a_zoomed_cut_naming_another_card_gives_nothing() -> None:
    # The usual cuts of one card against the zoomed cuts of another: no card, however
    # sure the zoomed cuts are.
    clf = IndexClassifier.load()
    image_a, quad_a = card_on_cloth("gnome/anglo", "QH")
    image_b, quad_b = card_on_cloth("gnome/anglo", "6H")
    firsts = clf.classify(extract_index_patches(image_a, quad_a))
    zoomed = clf.classify(zoomlook.zoomed_patches(image_b, quad_b, (True, True)))
    assert zoomlook.judge(firsts, firsts, clf.calibration) is not None
    assert zoomlook.judge(firsts, zoomed, clf.calibration) is None
