"""kernels.huber_lines is cv2.fitLine(points, DIST_HUBER, 0, 0.01, 0.01), bit for bit.

Why a test: whole.fit_sides takes its side lines from the kernel when numba is
there and from cv2.fitLine when not; a reading must not depend on which. The point
sets are what fit_sides feeds it: points along a side with pixel noise, a few far
off (a printed index the outline bent around), from 5 points (every restart the
same subset) to a hundred, and repeated points."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import kernels
from vision.detect.kernels.lines import huber_lines
from vision.detect.whole import fit_sides


def _side_points(rng: np.random.Generator, n: int) -> np.ndarray:
    a = rng.uniform(0, 640, 2)
    ang = rng.uniform(0, np.pi)
    t = np.sort(rng.uniform(0, rng.uniform(20, 300), n))
    pts = a + np.outer(t, [np.cos(ang), np.sin(ang)])
    pts += rng.normal(0, rng.choice([0.0, 0.3, 1.0]), pts.shape)
    far = rng.random(n) < 0.1
    pts[far] += rng.normal(0, 6.0, (int(far.sum()), 2))
    if rng.random() < 0.3:
        pts = np.round(pts)  # contour points are whole pixels
    return pts.astype(np.float32)


def test_huber_lines_are_opencvs_bit_for_bit() -> None:
    rng = np.random.default_rng(11)
    out = np.empty((4, 4), np.float32)
    differ = 0
    for _ in range(300):
        counts = rng.choice([5, 7, 10, 11, 12, 19, 33, 100], 4).astype(np.int64)
        sel = np.zeros((4, int(counts.max()), 2), np.float32)
        for i, c in enumerate(counts):
            sel[i, :c] = _side_points(rng, int(c))
        huber_lines(sel, counts, np.float32(0.01), np.float32(0.01), out)
        for i, c in enumerate(counts):
            ref = cv2.fitLine(sel[i, :c].reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            differ += not np.array_equal(out[i], ref)
    assert differ == 0


def test_fit_sides_same_compiled_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card outline whose index bent one corner: the same corners either way."""
    if not kernels.COMPILED:
        pytest.skip("numba missing: only the cv2 path runs")
    rng = np.random.default_rng(5)
    found = 0
    for _ in range(40):
        q = np.array([[100, 80], [190, 85], [185, 210], [95, 205]], np.float32)
        q += rng.normal(0, 4, q.shape).astype(np.float32)
        img = np.zeros((300, 300), np.uint8)
        cv2.fillPoly(img, [np.round(q).astype(np.int32)], 255)
        cv2.circle(img, (int(q[0, 0]) + 4, int(q[0, 1]) + 4), 6, 0, -1)
        cs, _ = cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        c = max(cs, key=cv2.contourArea)
        a = fit_sides(c, q)
        monkeypatch.setattr(kernels, "COMPILED", False)
        b = fit_sides(c, q)
        monkeypatch.setattr(kernels, "COMPILED", True)
        assert (a is None) == (b is None)
        if a is not None:
            found += 1
            assert np.array_equal(a, b)
    assert found >= 30
