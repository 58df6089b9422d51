"""The committed model (onnxruntime, or cv2.dnn where it is missing): reads held-out
decks, abstains on garbage."""

from __future__ import annotations

import numpy as np
import pytest

from vision.evaluate import evaluate_rendered
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier, ModelMissing, combine
from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.training.split import heldout_decks

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")
scene = pytest.importorskip("vision.scene")


@pytest.fixture(scope="module")
def clf() -> IndexClassifier:
    return IndexClassifier.load()


def test_missing_model_says_how_to_make_one(tmp_path):
    with pytest.raises(ModelMissing) as err:
        IndexClassifier.load(tmp_path / "none.onnx")
    assert err.value.path == tmp_path / "none.onnx"
    assert "make model" in str(err.value)


def test_model_is_small_and_calibrated():
    assert DEFAULT_MODEL.stat().st_size < 5_000_000
    assert DEFAULT_MODEL.with_suffix(".json").is_file()


def garbage(rng: np.random.Generator) -> list[np.ndarray]:
    """Patches with no index: flat, noise, stripes, a card back, a blank card edge."""
    from vision.cardart import render_back
    from vision.recognize.patch import extract_index_patches

    out = [np.full((PATCH_H, PATCH_W, 3), v, np.uint8) for v in (0, 90, 200, 255)]
    out += [rng.integers(0, 256, (PATCH_H, PATCH_W, 3), dtype=np.uint8) for _ in range(4)]
    stripes = np.zeros((PATCH_H, PATCH_W, 3), np.uint8)
    stripes[::4] = 255
    out += [stripes, stripes.transpose(1, 0, 2)[:PATCH_H, :PATCH_W].copy()
            if PATCH_W >= PATCH_H else np.ascontiguousarray(stripes[:, ::-1])]
    for deck in heldout_decks()[:3]:
        back = render_back(deck, 320)[:, :, :3].copy()
        h, w = back.shape[:2]
        out += extract_index_patches(back, [(0, 0), (w, 0), (w, h), (0, h)])
    return out


def test_garbage_is_never_read_as_a_card(clf):
    patches = garbage(np.random.default_rng(0))
    readings = clf.classify(patches)
    accepted = [combine([r], clf.calibration).card for r in readings]
    assert accepted == [None] * len(patches)


def test_reads_held_out_decks_from_true_quads_without_wrong_cards(clf):
    rep = evaluate_rendered(clf, heldout_decks(), n_scenes=6, seed=99, n_cards=8,
                            overlap=0.4)
    assert rep.all.n >= 40
    assert rep.all.wrong == 0, rep.all.wrong_examples
    # Floor below what the committed model reaches on this sample (95%; 80% over the
    # 40 scenes of bench, the 99.5% target is not met yet): it catches a broken or
    # badly retrained model or crop, and wrong readings stay at zero.
    assert rep.all.accuracy >= 0.75, rep.all.row()
    assert rep.backs_read == 0


def test_a_card_reads_the_same_from_either_corner(clf):
    rng = np.random.default_rng(3)
    spec = scene.random_scene_spec(rng, heldout_decks()[:1], 3, overlap=0.0,
                                   face_down=0.0, effects=0.2)
    image, truth = scene.render_scene(spec, rng)
    for t in truth:
        q = np.asarray(t.corners)
        a = clf.read_card(image, q)
        b = clf.read_card(image, np.roll(q, 2, axis=0))  # start at the other corner
        assert a.card == b.card
        assert a.card in (None, t.card)


def test_a_card_short_of_the_bars_gets_a_second_look_with_its_own_bars():
    from dataclasses import replace

    from vision.recognize.classifier import Calibration

    clf = IndexClassifier.load()
    rng = np.random.default_rng(5)
    spec = scene.random_scene_spec(rng, heldout_decks()[:1], 2, overlap=0.0,
                                   face_down=0.0, effects=0.2)
    image, truth = scene.render_scene(spec, rng)
    never = Calibration(min_prob=1.1, min_prob_pair=1.1, temperature=clf.calibration.temperature)
    easy = Calibration(min_prob=0.0, min_prob_pair=0.0)
    clf.calibration = never  # no second look: nothing passes
    assert [clf.read_card(image, t.corners).card for t in truth] == [None, None]
    clf.calibration = replace(never, second_look=easy)
    got = [clf.read_card(image, t.corners).card for t in truth]
    assert got == [t.card for t in truth]  # the second look reads them, right
    clf.calibration = replace(never, second_look=never)
    assert [clf.read_card(image, t.corners).card for t in truth] == [None, None]


def test_second_looks_of_a_frame_in_one_call_match_one_by_one(clf):
    rng = np.random.default_rng(8)
    spec = scene.random_scene_spec(rng, heldout_decks()[:2], 4, overlap=0.3, face_down=0.0)
    image, truth = scene.render_scene(spec, rng)
    cards = [(t.corners, tuple(r.visible for r in t.index_regions), None) for t in truth
             if any(r.visible for r in t.index_regions)]
    assert len(cards) >= 2
    together = clf.look_again_many(image, cards)
    alone = [clf.look_again(image, q, v) for q, v, _ in cards]
    assert [(a.card, a.rank, a.suit) for a in together] == [(a.card, a.rank, a.suit) for a in alone]
    assert [a.confidence for a in together] == pytest.approx([a.confidence for a in alone])
    assert clf.look_again_many(image, []) == []


def test_a_second_look_reuses_the_first_cut_it_was_given(clf):
    # The usual cut's rows come from the first look (Reading.probs): the network sees
    # only the other cuts, and the verdicts are those of reading all cuts again.
    rng = np.random.default_rng(8)
    spec = scene.random_scene_spec(rng, heldout_decks()[:2], 4, overlap=0.3, face_down=0.0)
    image, truth = scene.render_scene(spec, rng)
    cards, firsts = [], []
    for t in truth:
        vis = tuple(r.visible for r in t.index_regions)
        if any(vis):
            cuts = [p for p, v in zip(extract_index_patches(image, t.corners), vis) if v]
            cards.append((t.corners, vis, cuts))
            firsts.append(clf.classify(cuts))
    assert all(r.probs is not None for rs in firsts for r in rs)
    seen: list[int] = []
    forward = clf.forward

    def counting(patches):
        seen.append(len(patches))
        return forward(patches)

    clf.forward = counting
    try:
        again = clf.look_again_many(image, cards)
        reused = clf.look_again_many(image, cards, firsts)
    finally:
        del clf.forward
    corners = sum(len(c[2]) for c in cards)
    assert seen == [3 * corners, 2 * corners]
    assert [(a.card, a.rank, a.suit) for a in reused] == [(a.card, a.rank, a.suit) for a in again]
    assert [a.confidence for a in reused] == pytest.approx([a.confidence for a in again], abs=1e-5)


def test_live_evaluation_reads_as_the_pipeline_does(clf):
    """evaluate_rendered(quads="live") stands for the referee's Pipeline: the same
    cards from the same frame."""
    from vision.evaluate import live_detector
    from vision.pipeline import Pipeline
    from vision.recognize.reader import read_candidates, without_doubles
    from vision.types import Frame

    rng = np.random.default_rng(5)
    spec = scene.random_scene_spec(rng, heldout_decks()[:2], 8, overlap=0.4)
    image, _ = scene.render_scene(spec, rng)
    piped = Pipeline(clf).read(Frame(image, 0, 0.0)).cards
    evaluated = without_doubles(read_candidates(clf, image, live_detector()(image)))
    assert [(s.card, s.corners) for s in piped] == [(s.card, s.corners) for s in evaluated]
    assert sum(s.card is not None for s in piped) >= 4
    rep = evaluate_rendered(clf, heldout_decks(), n_scenes=3, seed=99, quads="live")
    assert rep.all.n >= 15 and rep.all.wrong == 0
