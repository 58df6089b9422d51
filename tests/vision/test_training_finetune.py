"""vision.training.finetune: the committed index network comes back into torch exactly
(its BatchNorms folded into the convolutions), fine-tuning keeps the BatchNorm
statistics frozen, and the exported result reads as the torch net does."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the `train` extra
pytest.importorskip("onnx")

from vision_helpers import card_on_table

from vision.recognize.classifier import DEFAULT_MODEL
from vision.recognize.patch import extract_index_patches
from vision.training import finetune


def _patches() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both corners of a few rendered training-deck cards on a table, with labels."""
    from vision.types import RANKS, SUITS

    xs, rs, ss = [], [], []
    for card in ("7H", "QS", "AC", "10D"):
        img, quad = card_on_table("gnome/anglo", card, np.zeros((4, 2)), 300)
        for p in extract_index_patches(img, np.float32(quad)):
            xs.append(p)
            rs.append(RANKS.index(card[:-1]))
            ss.append(SUITS.index(card[-1]))
    return np.stack(xs), np.array(rs, np.int64), np.array(ss, np.int64)


def test_the_committed_network_comes_back_into_torch() -> None:
    x, _, _ = _patches()
    net = finetune.from_onnx(DEFAULT_MODEL)
    assert finetune.check_start(net, DEFAULT_MODEL, x) <= 1e-5
    with torch.no_grad():
        rank, suit, _ = net(torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255.0)
    assert rank.argmax(1).tolist() == [6, 6, 11, 11, 0, 0, 9, 9]  # 7 7 Q Q A A 10 10
    assert suit.argmax(1).tolist() == [2, 2, 3, 3, 0, 0, 1, 1]  # H H S S C C D D


def test_finetuning_keeps_batchnorm_frozen_and_exports_what_it_trained(tmp_path) -> None:
    x, r, s = _patches()
    net = finetune.from_onnx(DEFAULT_MODEL)
    stats = {k: v.clone() for k, v in net.state_dict().items() if "running" in k}
    before = {k: v.clone() for k, v in net.state_dict().items() if k.endswith("weight")}
    net = finetune.finetune(net, np.repeat(x, 32, axis=0), np.repeat(r, 32), np.repeat(s, 32),
                            epochs=1, epoch_size=64, lr=1e-3, log=lambda _m: None)
    after = net.state_dict()
    assert all(torch.equal(v, after[k]) for k, v in stats.items())
    assert any(not torch.equal(v, after[k]) for k, v in before.items())  # it did train
    from vision.training.train import export

    export(net, tmp_path / "tuned.onnx")
    assert finetune.check_start(net, tmp_path / "tuned.onnx", x) <= 1e-5
