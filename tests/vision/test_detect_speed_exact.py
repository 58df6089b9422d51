"""Speed-ups of the live frame that must not change what it finds: the compiled
side sampling of refine.refine_many (kernels.side_samples) and the compiled
printed-shape test (kernels.printed_flags) give exactly what the numpy code gives
(the path run without numba); printed's row medians are np.median's; the Sobel pair from one pass is
cv2.Sobel's; the change thumbnail by halving stays within two grey levels of
one 16x16 averaging."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip, scattered_quads, without_numba

from vision.detect import DetectorConfig, detect_cards, kernels, printed, refine
from vision.detect.evidence import Evidence, gather, sobel_f32
from vision.detect.tableau import grid, lay
from vision.framechange import block_means
from vision.pipeline import Pipeline
from vision.types import Frame

compiled = pytest.mark.skipif(not kernels.COMPILED, reason="numba missing or CARDTABLE_NO_JIT set")


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    img, _ = lay(deck_or_skip("gnome/anglo"), grid(["QH", "10S", None, "7C", "KS", "2H"], seed=3),
                 seed=3)
    # At camera size (1280 wide): work scale 0.5, as the live frame.
    return cv2.resize(img, (1280, round(img.shape[0] * 1280 / img.shape[1])))


@pytest.fixture(scope="module")
def ev(table: np.ndarray) -> Evidence:
    return gather(table)


def _quads(table: np.ndarray, ev: Evidence, rng: np.random.Generator) -> np.ndarray:
    """The cards found (jittered a little), frames and pips inside them (shrunk
    copies), random quads over the frame and past its borders, a point-sized one
    and one on half-pixel corners."""
    h, w = ev.shape
    found = [c.quad * ev.scale for c in detect_cards(table, DetectorConfig(with_patches=False))]
    assert found
    out = list(found)
    for q in found:
        centre = q.mean(axis=0)
        for f in np.linspace(0.2, 1.2, 21):
            out.append(centre + (q - centre) * f + rng.normal(0, 0.5, (4, 2)))
    out += scattered_quads(rng, h, w, 150, 3)
    return np.stack(out).astype(np.float32)


def _spied(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the calls of kernels.`name` (the compiled path must be the one run)."""
    calls: list[int] = []
    real = getattr(kernels, name)

    def spy(*a: Any) -> Any:
        calls.append(1)
        return real(*a)

    monkeypatch.setattr(kernels, name, spy)
    return calls


@compiled
def test_side_samples_refine_as_numpy_at_work_scale(table: np.ndarray, ev: Evidence,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    qs = _quads(table, ev, np.random.default_rng(11))
    calls = _spied(monkeypatch, "side_samples")
    for reach, step in ((4.0, 1.0), (16.0, 2.0), (3.0, 1.0)):
        fast = refine.refine_many(ev, qs, reach=reach, step=step)
        plain = without_numba(monkeypatch, refine.refine_many, ev, qs, reach=reach, step=step)
        np.testing.assert_array_equal(fast, plain)
    assert len(calls) == 3


@compiled
def test_side_samples_refine_full_as_numpy(table: np.ndarray, ev: Evidence,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Full resolution: 16-bit gradients of a crop, its origin, half-pixel steps."""
    qs = _quads(table, ev, np.random.default_rng(12))[:80] / ev.scale
    calls = _spied(monkeypatch, "side_samples")
    fast = refine.refine_full(table, list(qs), ev.scale)
    plain = without_numba(monkeypatch, refine.refine_full, table, list(qs), ev.scale)
    assert calls
    for a, b in zip(fast, plain):
        np.testing.assert_array_equal(a, b)


@compiled
def test_printed_flags_as_numpy(table: np.ndarray, ev: Evidence,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    qs = _quads(table, ev, np.random.default_rng(13))
    calls = _spied(monkeypatch, "printed_flags")
    level = printed.white_level(ev)
    fast = printed.printed_on_card(ev, qs, level)
    plain = without_numba(monkeypatch, printed.printed_on_card, ev, qs, level)
    assert calls
    np.testing.assert_array_equal(fast, plain)
    assert fast.any() and not fast.all()  # both verdicts were reached


@pytest.mark.parametrize("n", [1, 2, 7, 32, 33])
def test_row_medians_are_numpys(n: int) -> None:
    rng = np.random.default_rng(n)
    for v in (rng.integers(0, 256, (40, n)).astype(np.float32),
              rng.normal(100, 60, (40, n)).astype(np.float32)):
        want = np.median(v, axis=1, keepdims=True)
        got = printed._row_medians(v)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_sobel_pair_is_cv2_sobel(table: np.ndarray) -> None:
    blur = cv2.GaussianBlur(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    gx, gy = sobel_f32(blur)
    assert gx.dtype == gy.dtype == np.float32
    np.testing.assert_array_equal(gx, cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3))
    np.testing.assert_array_equal(gy, cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3))


@pytest.mark.parametrize("shape", [(720, 1280), (480, 640), (1080, 1920), (45, 80), (101, 203)])
def test_block_means_within_two_levels_of_one_step(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[0])
    grey = cv2.GaussianBlur(rng.integers(0, 256, shape, dtype=np.uint8), (0, 0), 3)
    one = cv2.resize(grey, (80, 45), interpolation=cv2.INTER_AREA)
    got = block_means(grey, (80, 45))
    assert got.shape == (45, 80) and got.dtype == np.uint8
    assert np.abs(got.astype(int) - one.astype(int)).max() <= 2


def test_pipeline_change_cache_with_the_halved_thumbnail(table: np.ndarray) -> None:
    """A frame whose exposure moved a little still reads as unchanged; a card
    taken away does not."""
    p = Pipeline(None)
    first = p.read(Frame(table, 0, 0.0))
    again = p.read(Frame(cv2.add(table, np.full_like(table, 2)), 1, 0.1))
    assert first.changed and not again.changed and again.cards == first.cards
    moved = table.copy()
    x0, y0, x1, y1 = (int(v) for v in np.asarray(first.cards[0].corners).min(axis=0).tolist()
                      + np.asarray(first.cards[0].corners).max(axis=0).tolist())
    moved[y0:y1, x0:x1] = np.median(table.reshape(-1, 3), axis=0).astype(np.uint8)
    assert p.read(Frame(moved, 2, 0.2)).changed
