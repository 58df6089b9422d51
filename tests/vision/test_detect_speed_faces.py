"""vision.detect.faces: the compiled corner asymmetry (kernels.corner_asymmetry) is
numpy's figure exactly, compiled or run as plain Python (CARDTABLE_NO_JIT=1): the
same single-precision means and spreads, summed in numpy's pairwise order."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import faces, kernels


def _patches(rng: np.random.Generator) -> list[np.ndarray]:
    """Grey patches the size face_score warps to (84 x 60) and others (corners of
    fewer than 8 and more than 128 pixels: every branch of the pairwise sum), from
    noise to nearly flat paper."""
    out = []
    for k in range(600):
        h, w = (84, 60) if k % 3 else (int(rng.integers(7, 130)), int(rng.integers(10, 130)))
        if k % 2:
            g = rng.integers(0, 256, (h, w))
        else:
            g = rng.normal(rng.uniform(20, 230), rng.uniform(0.5, 30), (h, w)).clip(0, 255)
        out.append(np.ascontiguousarray(g, dtype=np.uint8))
    out.append(np.full((84, 60), 200, dtype=np.uint8))  # flat: no spread at all
    return out


def test_corner_asymmetry_equals_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    patches = _patches(np.random.default_rng(4))
    got = [float(kernels.corner_asymmetry(p)) for p in patches]
    monkeypatch.setattr(kernels, "COMPILED", False)
    want = [faces.corner_asymmetry(p) for p in patches]
    assert got == want
    assert min(want) == 0.0 and max(want) > 1.0  # flat and busy corners both there
    sizes = {int(p.shape[0] * 0.31 - 1) * int(p.shape[1] * 0.22 - 1) for p in patches}
    assert min(sizes) < 8 and max(sizes) > 256
