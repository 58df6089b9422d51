"""vision.detect.evidence helpers the proposals rely on."""

from __future__ import annotations

import numpy as np

from vision.detect.evidence import _median_colour


def test_median_colour_is_numpys_median() -> None:
    # The table colour (Evidence.table) must be np.median's figures exactly: odd and
    # even counts (the mean of the middle two), ties, one pixel.
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 4, 5, 100, 4784, 4785):
        for k in range(20):
            px = rng.integers(0, 256, (n, 3), dtype=np.uint8)
            if k % 3 == 1:
                px[:, 1] = 7
            if k % 3 == 2:
                px[: n // 2, 2] = 200
            want = np.median(px, axis=0).astype(np.float32)
            assert np.array_equal(_median_colour(px), want), (n, k)
    assert np.isnan(_median_colour(np.zeros((0, 3), np.uint8))).all()
