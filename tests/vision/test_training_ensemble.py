"""vision.training.ensemble: members merged into one ONNX graph whose rank and suit
logits are the members' mean and whose embedding is the first member's, run by both
runtimes the reader uses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from vision_helpers import tiny_index_net

from vision.recognize.runtime import OpenCVRunner, OrtRunner
from vision.training.ensemble import EnsembleError, merge


@pytest.fixture
def members(tmp_path: Path) -> list[Path]:
    paths = [tmp_path / f"m{k}.onnx" for k in range(3)]
    for k, p in enumerate(paths):
        tiny_index_net(p, seed=k)
    return paths


@pytest.mark.parametrize("runner", [OrtRunner, OpenCVRunner])
def test_logits_are_the_members_mean_and_the_embedding_the_first_members(
        members: list[Path], tmp_path: Path, runner) -> None:
    blob = np.random.default_rng(9).random((5, 3, 64, 32), dtype=np.float32)
    alone = [runner(p).run(blob) for p in members]
    for n in (2, 3):
        merged = runner(merge(members[:n], tmp_path / f"ens{n}.onnx")).run(blob)
        for i in (0, 1):  # rank, suit
            want = np.mean([a[i] for a in alone[:n]], axis=0)
            np.testing.assert_allclose(merged[i], want, rtol=1e-5, atol=1e-5)
            assert not np.allclose(merged[i], alone[0][i], atol=1e-3)  # members differ
        np.testing.assert_allclose(merged[2], alone[0][2], rtol=1e-6, atol=1e-6)


def test_other_members_embedding_branches_are_pruned(members: list[Path],
                                                     tmp_path: Path) -> None:
    merged = onnx.load(str(merge(members[:2], tmp_path / "ens.onnx")))
    names = {i.name for i in merged.graph.initializer}
    assert "m0/embedding.w" in names and "m1/embedding.w" not in names
    assert [o.name for o in merged.graph.output] == ["rank", "suit", "embedding"]


def test_one_member_is_copied_as_is(members: list[Path], tmp_path: Path) -> None:
    out = merge(members[:1], tmp_path / "one.onnx")
    assert out.read_bytes() == onnx.load(str(members[0])).SerializeToString()


def test_members_with_other_outputs_are_refused(members: list[Path], tmp_path: Path) -> None:
    odd = tmp_path / "odd.onnx"
    tiny_index_net(odd, seed=5, outputs=("rank", "suit"))
    with pytest.raises(EnsembleError, match="odd.onnx"):
        merge([members[0], odd], tmp_path / "ens.onnx")
    with pytest.raises(EnsembleError, match="at least one"):
        merge([], tmp_path / "ens.onnx")
