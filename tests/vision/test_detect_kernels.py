"""vision.detect.kernels: compiled when imported (never inside the first frame), and
still compiled where no numba cache can be written."""

from __future__ import annotations

import numpy as np

from vision.detect import kernels, select

KERNELS = (kernels.select_side_points, kernels.cross_sides, kernels.mark_inside,
           kernels.polish_sides)


def test_kernels_are_compiled_at_import() -> None:
    # Eager signatures: one compiled version each before any frame is seen.
    for k in KERNELS:
        assert len(k.signatures) == 1, k


def test_no_writable_cache_still_compiles() -> None:
    # A function without a source file has no cache locator: numba refuses
    # cache=True; the fallback compiles it without a cache.
    ns: dict = {}
    exec("def double(x):\n    return 2 * x\n", ns)
    fn = kernels._compiled("float64(float64)")(ns["double"])
    assert fn(1.5) == 3.0


def test_inside_quads_margin() -> None:
    sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float32)  # clockwise, y down
    pts = np.array([[5, 5], [11, 5], [13, 5], [-1.5, -1.5]], dtype=np.float32)
    assert select.inside_quads(pts, [sq], 0.0).tolist() == [True, False, False, False]
    assert select.inside_quads(pts, [sq], 2.0).tolist() == [True, True, False, True]
    assert select.inside_quads(pts, [], 2.0).tolist() == [False] * 4
