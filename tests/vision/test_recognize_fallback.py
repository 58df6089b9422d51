"""The second opinion (vision.recognize.fallback): a pair of networks reading only the
cards the first network leaves unread, with bars chosen on exactly those cards
within the wrong-card budget the first left (vision.training.fallback_bars)."""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from vision_helpers import Cand, TableClassifier, table_patch

from vision.recognize.classifier import (
    DEFAULT_MODEL,
    Calibration,
    CardReading,
    IndexClassifier,
    ModelMissing,
    Reading,
)
from vision.recognize.fallback import load_fallback, pair_classifier
from vision.recognize.reader import read_candidates
from vision.recognize.runtime import MeanRunner, OpenCVRunner
from vision.training.calibrate import CalCard, CalibrationData
from vision.training.fallback_bars import calibrate_fallback
from vision.types import RANKS, SUITS


class _Fixed:
    """A stand-in network giving the same outputs for any batch."""

    def __init__(self, name: str, rank: np.ndarray, suit: np.ndarray, emb: np.ndarray):
        self.name, self.out = name, (rank, suit, emb)

    def run(self, blob: np.ndarray):
        n = len(blob)
        return tuple(np.repeat(o[None], n, axis=0) for o in self.out)


def test_mean_runner_averages_logits_and_keeps_the_first_embedding() -> None:
    rng = np.random.default_rng(1)
    a = _Fixed("a", rng.normal(size=14), rng.normal(size=5), rng.normal(size=64))
    b = _Fixed("b", rng.normal(size=14), rng.normal(size=5), rng.normal(size=64))
    rank, suit, emb = MeanRunner([a, b]).run(np.zeros((3, 3, 64, 32), np.float32))
    np.testing.assert_allclose(rank[0], (a.out[0] + b.out[0]) / 2)
    np.testing.assert_allclose(suit[2], (a.out[1] + b.out[1]) / 2)
    np.testing.assert_allclose(emb[1], a.out[2])
    assert MeanRunner([a, b]).name == "a+b"
    with pytest.raises(ValueError):
        MeanRunner([])


def _model_dir(tmp_path: Path, entry: dict | None) -> Path:
    model = tmp_path / "index.onnx"
    shutil.copyfile(DEFAULT_MODEL, model)
    doc = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    doc.pop("fallback", None)
    if entry is not None:
        doc["fallback"] = entry
    model.with_suffix(".json").write_text(json.dumps(doc))
    return model


def test_no_entry_no_second_opinion(tmp_path: Path) -> None:
    model = _model_dir(tmp_path, None)
    assert load_fallback(model, 1.0) is None
    assert IndexClassifier.load(model).fallback is None


def test_a_missing_network_is_named(tmp_path: Path) -> None:
    model = _model_dir(tmp_path, {"members": ["index_b.onnx"], "calibration": {}})
    with pytest.raises(ModelMissing, match="index_b.onnx"):
        IndexClassifier.load(model)


def _patches(n: int) -> list[np.ndarray]:
    """Noise patches: the two networks read them differently."""
    rng = np.random.default_rng(3)
    return [rng.integers(0, 256, (64, 32, 3), dtype=np.uint8) for _ in range(n)]


@pytest.mark.parametrize("temperatures", [(1.0, 1.0), (1.4, 1.7)])
def test_the_second_opinion_reads_as_the_pair_run_whole(tmp_path: Path, temperatures) -> None:
    """The first network's logits are rebuilt from its tempered probabilities, not
    run again: the readings equal those of both networks run as one (MeanRunner)."""
    pytest.importorskip("onnx")
    from vision_helpers import tiny_index_net

    t_first, t_pair = temperatures
    tiny_index_net(tmp_path / "index_b.onnx", seed=4)
    model = _model_dir(tmp_path, {"members": ["index_b.onnx"],
                                  "calibration": {"min_prob": 0.97, "temperature": t_pair}})
    clf = IndexClassifier.load(model, runtime="opencv")
    assert clf.fallback is not None and clf.fallback.calibration.min_prob == 0.97
    clf.calibration = Calibration(temperature=t_first)
    clf.fallback.first_temperature = t_first
    assert clf.fallback.calibration.second_look is None
    patches = _patches(6)
    firsts = clf.classify(patches)
    got = clf.fallback.readings(patches, firsts)
    whole = pair_classifier(OpenCVRunner(model), [OpenCVRunner(tmp_path / "index_b.onnx")],
                            clf.fallback.calibration, model)
    want = whole.classify(patches)
    for g, w in zip(got, want):
        assert (g.rank, g.suit) == (w.rank, w.suit)
        np.testing.assert_allclose(g.probs[0], w.probs[0], atol=1e-5)
        np.testing.assert_allclose(g.probs[1], w.probs[1], atol=1e-5)
    # and not simply the first network's readings
    assert any(abs(g.rank_prob - f.rank_prob) > 1e-3 for g, f in zip(got, firsts))


def _rect(x0: float) -> tuple:
    return ((x0, 0.0), (x0 + 63, 0.0), (x0 + 63, 88.0), (x0, 88.0))


class _ByPatch:
    """A stand-in recogniser: a patch's first pixel names the card it reads (0: the
    queen of hearts at 0.999, 1: the seven of clubs at 0.8)."""

    deck = None
    wants_second_look = None  # no second look

    def __init__(self) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.fallback: _Opinion | None = None

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        out = []
        for p in patches:
            card, prob = [("QH", 0.999), ("7C", 0.8)][int(p[0, 0, 0])]
            out.append(Reading(card[:-1], card[-1], prob, prob, prob, 0.0))
        return out


class _Opinion:
    """A stand-in second opinion: gives `card` to every card it is asked about."""

    def __init__(self, card: str | None) -> None:
        self.card = card
        self.asked: list[tuple[int, int]] = []

    def read(self, cuts, firsts) -> list[CardReading]:
        self.asked += [(len(c), len(f)) for c, f in zip(cuts, firsts)]
        c = self.card
        return [CardReading(c, 0.99 if c else 0.0, c and c[:-1], c and c[-1]) for _ in cuts]


def _patch(k: int) -> np.ndarray:
    p = np.zeros((64, 32, 3), np.uint8)
    p[0, 0, 0] = k
    return p


def test_the_pair_reads_only_what_the_first_left_unread_and_never_a_back() -> None:
    image = np.full((200, 400, 3), 90, np.uint8)
    cands = [Cand(_rect(0), index_patches=(_patch(0), _patch(0))),
             Cand(_rect(100), index_patches=(_patch(1), _patch(1))),
             Cand(_rect(200), face_down=True, index_patches=(_patch(1),))]
    first = _ByPatch()
    # zoom=False: the stand-in reads only its own patches, not cuts of the image
    # (zoomlook.py has its own tests)
    read = partial(read_candidates, zoom=False)
    assert [s.card for s in read(first, image, cands)] == ["QH", None, None]
    first.fallback = pair = _Opinion("7C")
    out = read(first, image, cands)
    assert [s.card for s in out] == ["QH", "7C", None]
    assert out[2].face_down
    assert pair.asked == [(2, 2)]  # the unread face-up card's two corners, nothing else
    # A pair that reads nothing leaves the card unread.
    first.fallback = _Opinion(None)
    assert [s.card for s in read(first, image, cands)] == ["QH", None, None]


def _cal_data(first_wrong: int):
    """2000 one-corner sevens of hearts. The first network: 1900 sure (0.999), of
    which `first_wrong` read as the 7 of diamonds; 100 unsure (0.7). The pair reads
    the 1900 as the first does, but also is sure, and wrong (7D), on 30 of them (they
    are not its business), and on the 100: 98 right at 0.999 and 2 wrong at 0.999."""
    first_rows, pair_rows, x, cards = [], [], [], []
    plan = [("7D" if i < first_wrong else "7H", 0.999, "7D" if i < 30 else "7H", 0.999)
            for i in range(1900)]
    plan += [("7H", 0.7, "7D" if i < 2 else "7H", 0.999) for i in range(100)]
    for f_card, f_p, p_card, p_p in plan:
        first_rows.append((f_card, f_p))
        pair_rows.append((p_card, p_p))
        cards.append(CalCard((len(x),), "7H"))
        x.append(table_patch(len(x)))
    first = TableClassifier([(p, p) for _, p in first_rows], [c for c, _ in first_rows])
    first.calibration = Calibration(min_prob=0.99, min_prob_pair=0.999, temperature=1.0)
    pair = TableClassifier([(p, p) for _, p in pair_rows], [c for c, _ in pair_rows])
    empty = np.zeros((0, 64, 32, 3), np.uint8)
    return first, pair, CalibrationData(np.stack(x), cards, empty, [])


def test_pair_bars_are_chosen_on_the_cards_left_within_the_budget_left() -> None:
    # Budget 2 cards (0.1% of 2000), the first spends none: the pair may read the 100,
    # its 2 wrong ones included; the 30 it misreads among the first's cards don't count.
    first, pair, data = _cal_data(first_wrong=0)
    cal, stats = calibrate_fallback(first, pair, data, target=0.001, log=lambda m: None)
    assert stats["asked"] == 100
    assert stats["wrong_cards_added"] == 2 and stats["accuracy"] == pytest.approx(1998 / 2000)
    # The first spent the budget: the pair may add no wrong card, so it reads none.
    first, pair, data = _cal_data(first_wrong=2)
    cal, stats = calibrate_fallback(first, pair, data, target=0.001, log=lambda m: None)
    assert stats["wrong_cards_added"] == 0
    assert stats["accuracy"] == pytest.approx(1898 / 2000)  # the first's alone
    assert cal.second_look is None


def test_install_copies_the_networks_and_writes_the_entry_the_loader_reads(
        tmp_path: Path) -> None:
    """fallback_bars.install (what `make model` runs last): members copied next to the
    model as index_b.onnx.., a stale entry replaced, the pair's bars written."""
    pytest.importorskip("onnx")
    from vision_helpers import tiny_index_net

    from vision.training.fallback_bars import install

    model = tmp_path / "model" / "index.onnx"
    model.parent.mkdir()
    tiny_index_net(model, seed=1)
    model.with_suffix(".json").write_text(json.dumps({
        "calibration": {"min_prob": 0.95, "temperature": 1.2},
        "fallback": {"members": ["gone.onnx"], "calibration": {}}}))
    tiny_index_net(tmp_path / "other.onnx", seed=2)
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, (40, 64, 32, 3), dtype=np.uint8)
    cards = [CalCard((i,), f"{RANKS[i % 13]}{SUITS[i % 4]}") for i in range(40)]
    empty = np.zeros((0, 64, 32, 3), np.uint8)
    stats = install(model, [tmp_path / "other.onnx"], CalibrationData(x, cards, empty, []),
                    log=lambda m: None)
    assert (model.parent / "index_b.onnx").read_bytes() == (tmp_path / "other.onnx").read_bytes()
    doc = json.loads(model.with_suffix(".json").read_text())
    assert doc["calibration"]["min_prob"] == 0.95  # the first network's bars kept
    assert doc["fallback"]["members"] == ["index_b.onnx"]
    assert stats["asked"] == doc["fallback"]["stats"]["asked"] == 40
    clf = IndexClassifier.load(model, runtime="opencv")
    assert clf.fallback is not None and clf.fallback.member_names == ("index_b.onnx",)
    assert clf.fallback.calibration.min_prob >= 0.9  # bars chosen, none below the floor
