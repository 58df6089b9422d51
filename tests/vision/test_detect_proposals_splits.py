"""splits.split_guesses and its kernel (kernels.split_scan)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import kernels, splits
from vision.detect.evidence import ORIENT_BINS


def _scan(fn: object, bits: np.ndarray, quads: np.ndarray) -> np.ndarray:
    t = np.linspace(splits.SPLIT_MARGIN, 1 - splits.SPLIT_MARGIN, splits.SPLIT_STEPS)
    tilt = np.array(splits.SPLIT_TILTS)
    out = np.full((len(quads), 2, len(t), len(tilt)), -7, dtype=np.int32)
    fn(bits, quads, t, tilt, np.linspace(0.02, 0.98, 40), 6, 5, ORIENT_BINS, 36, 0.05, 5.0, 7,  # type: ignore[operator]
       out)
    return out


def _fan_bits() -> tuple[np.ndarray, np.ndarray]:
    """Orientation bits of a 120 x 100 outline with a vertical border at x = 60
    (bit 4 = vertical edges; evidence.orientation_bits), and that outline."""
    bits = np.zeros((200, 200), np.uint8)
    bits[48:153, 58:63] = 1 << 4  # dilated by 2 px, as orientation_bits does
    quad = np.array([[[20, 50], [120, 50], [120, 150], [20, 150]]], dtype=np.float64)
    return bits, quad


def test_scan_finds_a_border_running_across() -> None:
    bits, quad = _fan_bits()
    out = _scan(kernels.split_scan, bits, quad)
    assert (out >= 0).all()
    # Way 0 crosses from the top side to the bottom one: the border at x = 60 is
    # 0.4 of the way, the untilted line there runs along it all the way.
    t = np.linspace(splits.SPLIT_MARGIN, 1 - splits.SPLIT_MARGIN, splits.SPLIT_STEPS)
    j = int(np.argmin(np.abs(t - 0.4)))
    assert out[0, 0, j, splits.SPLIT_TILTS.index(0.0)] == 40
    assert out[0, 1].max() == 0  # nothing runs across the other way
    assert out[0, 0, :j - 3].max() == 0  # nor away from the border


@pytest.mark.skipif(not kernels.COMPILED, reason="numba missing or CARDTABLE_NO_JIT set")
def test_compiled_scan_equals_plain_python() -> None:
    # The detector's output must not depend on numba (CARDTABLE_NO_JIT=1): the same
    # counts from the loop run as plain Python, on random edges and outlines.
    rng = np.random.default_rng(3)
    bits = (rng.random((160, 240)) < 0.3).astype(np.uint8) * rng.integers(1, 256, (160, 240)).astype(np.uint8)
    quads = np.ascontiguousarray(rng.uniform(-20, 260, (12, 4, 2)))
    compiled = _scan(kernels.split_scan, bits, quads)
    plain = _scan(kernels.split_scan.py_func, bits, quads)
    assert np.array_equal(compiled, plain)
    assert compiled.max() > 0 and (compiled == 0).any()


def test_split_guesses_give_both_parts_of_a_fan() -> None:
    from types import SimpleNamespace

    bits, quad = _fan_bits()
    ev = SimpleNamespace(bits=bits, shape=bits.shape)
    guesses = splits.split_guesses(ev, [quad[0].astype(np.float32)])  # type: ignore[arg-type]
    boxes = {tuple(np.rint([q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()]).astype(int))
             for q in guesses}
    # The left part (20..60, portrait 40 x 100 is no card: aspect 2.5) is not
    # given; the right one (60..120 x 50..150: 60 x 100) is.
    assert any(abs(b[0] - 60) <= 3 and b[2] == 120 and b[1] == 50 and b[3] == 150 for b in boxes), boxes
