"""patch.py's quad arithmetic compiled (vision.recognize.kernels.quads) is numpy's,
bit for bit: the normalised quad (winding, start corner), mean_aspect and the
index scale that picks the warp's oversampling.

Why a test: every card of every frame goes through normalize_quad before its
index is cut (and the reading rules turn quads with it); a float32 sum in another
order could flip a near-square card's start corner, and the patch with it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognize import kernels, patch


def _quads(rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    for _ in range(3000):
        centre = rng.uniform(0, 1280, 2)
        w, h = rng.uniform(5, 300), rng.uniform(5, 300)
        box = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        a = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        q = centre + box @ rot.T + rng.normal(0, rng.choice([0.0, 0.5, 5.0]), (4, 2))
        q = q[rng.permutation(4)] if rng.random() < 0.2 else q  # self-crossing too
        q = q[::-1] if rng.random() < 0.5 else q  # counter-clockwise
        if rng.random() < 0.3:
            q = np.round(q * 2) / 2  # half-pixel corners
        out.append(q.astype(np.float32))
    out.append(np.zeros((4, 2), np.float32))  # a point
    out.append(np.array([[0, 0], [10, 0], [20, 0], [30, 0]], np.float32))  # a line
    out.append(np.array([[0, 0], [np.nan, 0], [1, 1], [0, 1]], np.float32))
    sq = np.array([[0, 0], [12, 0], [12, 10], [0, 10]], np.float32)  # at the 1.2 cut
    out += [sq, sq[:, ::-1].copy(), sq * 1.0001]
    return out


@pytest.mark.skipif(not kernels.COMPILED, reason="numba missing: only the numpy path runs")
def test_compiled_quad_steps_are_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    quads = _quads(np.random.default_rng(7))
    fast = [(patch.normalize_quad(q), patch.mean_aspect(q),
             patch._index_scale(patch.normalize_quad(q), patch.PATCH_SIZE)) for q in quads]
    monkeypatch.setattr(kernels, "COMPILED", False)
    plain = [(patch.normalize_quad(q), patch.mean_aspect(q),
              patch._index_scale(patch.normalize_quad(q), patch.PATCH_SIZE)) for q in quads]
    turned = 0
    for (fq, fa, fs), (pq, pa, ps) in zip(fast, plain):
        assert fq.dtype == np.float32 and fq.shape == (4, 2)
        np.testing.assert_array_equal(fq, pq)
        assert fa == pa or (np.isnan(fa) and np.isnan(pa))
        assert fs == ps or (np.isnan(fs) and np.isnan(ps))
    for q, (fq, _, _) in zip(quads, fast):
        turned += not np.array_equal(fq, q)
    assert turned > 1000  # reversed and restarted quads were among them


def test_normalize_quad_takes_nested_sequences() -> None:
    """Tuples of corners (CardSighting.corners) as well as arrays, any winding."""
    cw = ((0.0, 0.0), (7.0, 0.0), (7.0, 10.0), (0.0, 10.0))
    ccw = (cw[0], cw[3], cw[2], cw[1])
    long_first = (cw[3], cw[0], cw[1], cw[2])  # (0,10)->(0,0) is a long edge
    for q in (cw, ccw, np.array(cw, np.float64)):
        assert patch.normalize_quad(q).tolist() == [list(p) for p in cw]
    assert patch.normalize_quad(long_first).tolist() == [list(p) for p in cw]


def test_compiled_order_quads_is_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """geometry.order_quads through detect kernels.order_quads: the numpy steps'
    corners, ties at the 1e-3 tolerance, counter-clockwise, degenerate and NaN
    quads included."""
    from vision.detect import geometry
    from vision.detect import kernels as detect_kernels

    if not detect_kernels.COMPILED:
        pytest.skip("numba missing: only the numpy path runs")
    rng = np.random.default_rng(8)
    qs = np.stack(_quads(rng))
    level = qs.copy()
    level[:, 2, 1] = level[:, 0, 1] + rng.choice([0.0, 1e-3, -1e-3, 2e-3], len(qs)).astype(np.float32)
    batches = [qs, level, qs[:1], qs[:0], qs.astype(np.float64)]
    fast = [geometry.order_quads(b) for b in batches]
    monkeypatch.setattr(detect_kernels, "COMPILED", False)
    plain = [geometry.order_quads(b) for b in batches]
    for f, p in zip(fast, plain):
        assert f.dtype == p.dtype == np.float32 and f.shape == p.shape
        np.testing.assert_array_equal(f, p)
    assert not np.array_equal(fast[0], qs)  # some were reordered
