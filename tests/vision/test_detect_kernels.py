"""vision.detect.kernels: compiled when imported (never inside the first frame), still
compiled where no numba cache can be written, and the same cards without numba."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import geometry, kernels, outline

KERNELS = (kernels.select_side_points, kernels.cross_sides, kernels.mark_inside,
           kernels.polish_sides, kernels.paper_share_bgr, kernels.outline_flags,
           kernels.outline_polarity, kernels.cover_outlines, kernels.corner_overshoot,
           kernels.table_share, kernels.outline_state, kernels.seam_scan, kernels.seam_busy,
           kernels.seam_cut, kernels.card_shaped, kernels.order_quad, kernels.blank_sheet,
           kernels.corner_asymmetry)


@pytest.mark.skipif(not kernels.COMPILED, reason="numba missing or CARDTABLE_NO_JIT set")
def test_kernels_are_compiled_at_import() -> None:
    # Eager signatures: one compiled version each before any frame is seen.
    assert kernels.COMPILED
    for k in KERNELS:
        assert len(k.signatures) == 1, k


def test_no_writable_cache_still_compiles() -> None:
    # A function without a source file has no cache locator: numba refuses
    # cache=True; the fallback compiles it without a cache.
    ns: dict = {}
    exec("def double(x):\n    return 2 * x\n", ns)  # noqa: S102 (a function with no cache file)
    fn = kernels._compiled("float64(float64)")(ns["double"])
    assert fn(1.5) == 3.0


def test_inside_quads_margin() -> None:
    sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float32)  # clockwise, y down
    pts = np.array([[5, 5], [11, 5], [13, 5], [-1.5, -1.5]], dtype=np.float32)
    assert outline.inside_quads(pts, [sq], 0.0).tolist() == [True, False, False, False]
    assert outline.inside_quads(pts, [sq], 2.0).tolist() == [True, True, False, True]
    assert outline.inside_quads(pts, [], 2.0).tolist() == [False] * 4


def _quads(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Quads as the outlines give them: card-like ones turned every way and wound
    either way (float, as fitted), integer vertices (as simplified), tiny integer
    ones (repeated and collinear corners) and near-squares a hair off a tie."""
    sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float64)
    out = []
    for k in range(n):
        kind = k % 5
        if kind == 0:
            q = rng.uniform(0, 200, (4, 2))
        elif kind == 1:
            q = np.rint(rng.uniform(0, 60, (4, 2)))
        elif kind == 2:
            w, h = rng.uniform(10, 80, 2)
            a = rng.uniform(0, np.pi)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            q = rng.uniform(50, 150, 2) + (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ rot.T
            q = np.roll(q[::-1] if k % 2 else q, k % 4, axis=0) + rng.normal(0, 2, (4, 2))
        elif kind == 3:
            q = np.rint(rng.uniform(0, 6, (4, 2)))
        else:
            q = sq[rng.permutation(4)] + rng.integers(-1, 2, (4, 2)) * 1e-3
        out.append(np.ascontiguousarray(q, dtype=np.float32))
    # Upright rectangles right at the aspect bounds (single-precision ratio).
    for k in range(2000):
        w = np.float32(rng.uniform(8, 300))
        h = np.float32(w * (1.05 if k % 2 else 2.0) * (1 + rng.normal(0, 2e-7)))
        x, y = np.float32(rng.uniform(0, 500)), np.float32(rng.uniform(0, 500))
        out.append(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float32))
    # Index corners level to within geometry's 1e-3 (a float32 tolerance under
    # numpy 2's scalar rules): diamonds whose corner 2 lies right at it.
    tol = np.float32(1e-3)
    for y0 in (0.0, 7.5, 100.25, 333.3):
        y0 = np.float32(y0)
        for y2 in (y0 + tol, y0 - tol, np.nextafter(y0 + tol, np.float32(1e9)),
                   np.nextafter(y0 - tol, np.float32(-1e9)), y0):
            d = np.array([[20, y0], [10, y0 + 10], [0, y2], [10, y0 - 10]], dtype=np.float32)
            out += [d, np.ascontiguousarray(d[::-1]), np.ascontiguousarray(d[[2, 3, 0, 1]])]
    return out


def test_quad_kernels_equal_geometry() -> None:
    # whole.py's compiled shape test and corner order must be geometry's exactly,
    # compiled or not (CARDTABLE_NO_JIT=1), at both angle tolerances.
    qs = _quads(np.random.default_rng(3), 5000)
    shaped = 0
    out = np.empty((4, 2), dtype=np.float32)
    for q in qs:
        for dev in (28.0, 35.0):
            want = geometry.is_card_shaped(q, max_angle_dev=dev)
            assert kernels.card_shaped(q, dev, geometry.ASPECT_MIN, geometry.ASPECT_MAX) == want, q
            shaped += want
        kernels.order_quad(q, out)
        assert np.array_equal(out, geometry.order_quad(q)), q
    assert 1000 < shaped < 9000  # both answers well represented


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value")
def test_paper_share_compiled_equals_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiled figure must be the numpy one exactly (face/back cut at 0.7), on
    # patches from all-dark to all-paper, tinted and tiny (inner area empty).
    from vision.detect import faces

    rng = np.random.default_rng(7)
    cards = []
    for shape in [(64, 32, 3), (84, 60, 3), (13, 13, 3), (2, 2, 3)]:
        for lo in (0, 30, 120, 200, 250):
            c = rng.integers(lo, 256, shape, dtype=np.uint8)
            c[..., 2] = np.minimum(255, c[..., 2].astype(int) + lo // 4).astype(np.uint8)
            cards.append(c)
    compiled = [faces.paper_share(c) for c in cards]
    monkeypatch.setattr(kernels, "COMPILED", False)
    plain = [faces.paper_share(c) for c in cards]
    assert len({round(x, 3) for x in plain if not math.isnan(x)}) > 5  # the cases differ
    for a, b in zip(compiled, plain):
        assert a == b or (math.isnan(a) and math.isnan(b)), (a, b)


_CORNERS = """
import json, sys
import numpy as np
from vision.detect import detect_cards, kernels
from vision.detect.tableau import grid, lay
from vision_helpers import deck_or_skip
img, _ = lay(deck_or_skip("gnome/anglo"), grid(["QH", "10S", "AD", "7C"], seed=5), seed=5)
cards = [np.asarray(c.corners).round(3).tolist() for c in detect_cards(img)]
print(json.dumps({"compiled": kernels.COMPILED, "cards": cards}))
"""


def _corners(no_jit: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_NO_JIT"}
    if no_jit:
        env["CARDTABLE_NO_JIT"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _CORNERS], env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_without_numba_the_same_loops_give_the_same_cards() -> None:
    # 32-bit Raspberry Pi OS has no numba wheel: the kernels then run as plain Python
    # and must find exactly the cards the compiled ones find.
    deck_or_skip("gnome/anglo")  # skip here, not inside the subprocesses
    jit, plain = _corners(False), _corners(True)
    assert jit["compiled"] and not plain["compiled"]
    assert len(jit["cards"]) == 4
    assert plain["cards"] == jit["cards"]
