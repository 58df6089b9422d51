"""The reading's speed-ups give exactly what the plain numpy steps gave.

Each compiled or rewritten step is checked against the numpy code it replaced
(kept here as the reference): the touching pips' k-means (pipsplit, compiled in
vision/recognize/kernels/kmeans.py), the paper level's median (upright._median) and
the network's input blob (classifier.to_blob).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recognize import pipsplit
from vision.recognize.classifier import to_blob
from vision.recognize.kernels import split_pixels
from vision.recognize.upright import _median


def _numpy_split(mask: np.ndarray, k: int) -> np.ndarray | None:
    """pipsplit._split as it was in numpy (session 10), the reference."""
    ys, xs = np.nonzero(mask)
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    centres = [pts[0]]
    for _ in range(k - 1):
        d = np.min([((pts - c) ** 2).sum(axis=1) for c in centres], axis=0)
        centres.append(pts[int(np.argmax(d))])
    c = np.array(centres)
    owner = np.zeros(len(pts), np.int64)
    for _ in range(pipsplit.KMEANS_STEPS):
        owner = np.argmin(((pts[:, None, :] - c[None, :, :]) ** 2).sum(axis=2), axis=1)
        sizes = np.bincount(owner, minlength=k)
        if sizes.min() == 0:
            return None
        moved = np.stack([pts[owner == j].mean(axis=0) for j in range(k)])
        if np.allclose(moved, c, atol=pipsplit.SETTLED):
            break
        c = moved
    sizes = np.bincount(owner, minlength=k).astype(np.float64)
    if sizes.max() > pipsplit.PART_SPREAD * sizes.min():
        return None
    out = np.zeros(mask.shape, np.int32)
    out[ys, xs] = owner + 1
    return out


def _blobs(rng: np.random.Generator, k: int) -> np.ndarray:
    """A label image (int32) whose label 3 is k discs (and ellipses) touching in a
    row or a ring, with other labels' pixels round them: what a nine's or ten's
    touching clubs give at the canonical size."""
    img = np.zeros((60, 70), np.uint8)
    r = int(rng.integers(5, 9))
    x, y = 10 + r, 12 + r
    for i in range(k):
        axes = (r + int(rng.integers(0, 3)), r - int(rng.integers(0, 3)))
        cv2.ellipse(img, (x, y), axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
        step = 2 * r - int(rng.integers(1, 4))
        if rng.random() < 0.5:
            x += step
        else:
            y += step
    labels = np.where(img > 0, 3, 0).astype(np.int32)
    labels[:, :3] = 1  # another component beside it (not to be split)
    labels[rng.random(labels.shape) < 0.02] = 2
    return labels


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_kmeans_kernel_gives_the_numpy_parts(k: int) -> None:
    rng = np.random.default_rng(k)
    split = 0
    for _ in range(40):
        labels = _blobs(rng, k)
        for kk in (k, max(2, k - 1)):  # also a count its area does not fit
            want = _numpy_split((labels == 3).astype(np.uint8), kk)
            alike, got = split_pixels(labels, 3, kk, pipsplit.KMEANS_STEPS,
                                      pipsplit.SETTLED, pipsplit.PART_SPREAD)
            assert alike == (want is not None)
            if want is not None:
                split += 1
                assert got.dtype == np.int32 and np.array_equal(got, want)
    assert split >= 20  # the test saw real splits, not only refusals


def test_split_touching_on_a_window_of_the_label_image() -> None:
    """pipsplit works on a component's box of the label image (a strided view)."""
    rng = np.random.default_rng(11)
    labels = _blobs(rng, 3)
    ys, xs = np.nonzero(labels == 3)
    y0, x0, y1, x1 = ys.min(), xs.min(), ys.max() + 1, xs.max() + 1
    box = labels[y0:y1, x0:x1]
    assert not box.flags.c_contiguous
    want = _numpy_split((box == 3).astype(np.uint8), 3)
    got = pipsplit._split(box, 3, 3)
    assert (got is None) == (want is None)
    if want is not None:
        assert np.array_equal(got, want)


def test_median_is_numpy_median() -> None:
    rng = np.random.default_rng(5)
    for shape in [(35, 25), (4, 4), (3, 5), (1, 1), (2, 1), (6, 7)]:
        for _ in range(200):
            a = rng.integers(0, 256, shape).astype(np.uint8)
            assert _median(a) == float(np.median(a))


def test_blob_is_the_float_division_of_the_stack() -> None:
    rng = np.random.default_rng(2)
    patches = [rng.integers(0, 256, (64, 32, 3)).astype(np.uint8) for _ in range(30)]
    patches[1] = np.arange(64 * 32 * 3).reshape(64, 32, 3).astype(np.uint8)  # every value
    want = np.ascontiguousarray(
        (np.stack(patches).astype(np.float32) / 255.0).transpose(0, 3, 1, 2))
    got = to_blob(patches)
    assert got.dtype == np.float32 and got.flags.c_contiguous and got.shape == (30, 3, 64, 32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
