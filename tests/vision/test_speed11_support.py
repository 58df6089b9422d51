"""select.score_many's support figures through kernels.side_support are numpy's
means bit for bit (the supports order and threshold every hypothesis of a frame)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import kernels, select
from vision.detect.evidence import Evidence, gather
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, SceneSpec


@pytest.mark.skipif(not kernels.COMPILED, reason="numba missing: only the numpy path runs")
def test_side_support_is_numpys_mean(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    ev = _table_evidence()
    h, w = ev.shape
    quads = []
    for _ in range(400):
        c = rng.uniform([0, 0], [w, h])
        s = rng.uniform(10, 160)
        a = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        box = np.array([[-0.36, -0.5], [0.36, -0.5], [0.36, 0.5], [-0.36, 0.5]]) * s
        quads.append((c + box @ rot.T).astype(np.float32))
    fast = select.score_many(ev, quads)
    monkeypatch.setattr(kernels, "COMPILED", False)
    plain = select.score_many(ev, quads)
    assert [(f.support, f.side_min) for f in fast] == [(p.support, p.side_min) for p in plain]
    for f, p in zip(fast, plain):
        np.testing.assert_array_equal(f.on, p.on)
        np.testing.assert_array_equal(f.quad, p.quad)
    assert len({f.support for f in fast}) > 10  # a spread of supports was judged


def _table_evidence() -> Evidence:
    """A hand-laid table of a few cards (edges to be found along some quads)."""
    deck_or_skip("gnome/anglo")
    laid = (CardPlacement("gnome/anglo", "QH", -60, -20, 10),
            CardPlacement("gnome/anglo", "7C", 40, 0, -25),
            CardPlacement("gnome/anglo", None, 0, 60, 80, 1.0))
    img, _ = SceneRenderer().render(SceneSpec(laid, camera=CameraSpec(px_per_mm=1.3)),
                                    np.random.default_rng(0))
    return gather(img)
