"""The index crop: geometry shared by the detector and the classifier."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognize.patch import (
    INDEX_BOX,
    PATCH_H,
    PATCH_W,
    extract_index_patches,
    index_quads,
    index_quads_and_patches,
    normalize_quad,
)


def _card_image() -> tuple[np.ndarray, np.ndarray]:
    """A 100x140 'card' at (50, 30) with a distinct mark in each index corner."""
    img = np.full((240, 220, 3), 40, np.uint8)
    img[30:170, 50:150] = 255
    img[35:45, 55:60] = (0, 0, 255)  # top-left mark: red, tall
    img[155:165, 140:145] = (255, 0, 0)  # bottom-right mark: blue, tall
    quad = np.array([[50, 30], [150, 30], [150, 170], [50, 170]], np.float32)
    return img, quad


def test_patches_have_fixed_size_and_both_corners_upright():
    img, quad = _card_image()
    tl, br = extract_index_patches(img, quad)
    assert tl.shape == br.shape == (PATCH_H, PATCH_W, 3)
    # The top-left mark sits near the patch's top-left in both patches: the
    # bottom-right one is turned by 180 degrees.
    red = np.argwhere((tl[:, :, 2] > 200) & (tl[:, :, 0] < 80))
    blue = np.argwhere((br[:, :, 0] > 200) & (br[:, :, 2] < 80))
    assert len(red) and len(blue)
    for pts in (red, blue):
        assert pts[:, 0].mean() < PATCH_H / 3 and pts[:, 1].mean() < PATCH_W / 2


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [2, 3, 0, 1], [0, 3, 2, 1], [1, 2, 3, 0],
                                   [3, 0, 1, 2], [1, 0, 3, 2]])
def test_any_winding_or_start_gives_the_same_pair(order):
    img, quad = _card_image()
    ref = extract_index_patches(img, quad)
    got = extract_index_patches(img, quad[order])
    # Either the same pair or the pair swapped (start at the opposite corner).
    same = all(np.abs(a.astype(int) - b).mean() < 2 for a, b in zip(ref, got))
    swapped = all(np.abs(a.astype(int) - b).mean() < 2 for a, b in zip(ref, got[::-1]))
    assert same or swapped


def test_normalize_quad_puts_a_short_edge_first_clockwise():
    q = normalize_quad([[0, 0], [0, 140], [100, 140], [100, 0]])  # counter-clockwise
    x, y = q[:, 0], q[:, 1]
    assert float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0
    assert np.linalg.norm(q[1] - q[0]) < np.linalg.norm(q[2] - q[1])


def test_index_quads_cover_the_index_box():
    _, quad = _card_image()
    tl, br = index_quads(quad)
    _, _, x1, y1 = INDEX_BOX
    assert np.allclose(tl[0], [50, 30]) and np.allclose(tl[2], [50 + 100 * x1, 30 + 140 * y1])
    assert np.allclose(br[0], [150, 170])


def test_grey_images_and_quads_partly_outside_the_image_work():
    img, quad = _card_image()
    grey = img[:, :, 1].copy()
    patches = extract_index_patches(grey, quad - 60)  # partly off the top-left edge
    assert [p.shape for p in patches] == [(PATCH_H, PATCH_W)] * 2


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
@pytest.mark.parametrize("mirror", [False, True])
def test_index_quads_and_patches_is_both_calls_in_one(turn: int, mirror: bool) -> None:
    """The detector's one-pass cut gives exactly what the two public calls give,
    whatever corner the quad starts at and whichever way it winds."""
    img, quad = _card_image()
    img = img.copy()
    img[60:100, 70:120] = np.arange(40 * 50 * 3, dtype=np.uint32).reshape(40, 50, 3) % 251
    q = np.roll(quad + np.array([[0.3, -0.2], [1.1, 0.4], [-0.6, 0.7], [0.2, 0.1]], np.float32),
                -turn, axis=0)
    if mirror:
        q = q[::-1]
    regions, patches = index_quads_and_patches(img, q)
    for a, b in zip(regions, index_quads(q)):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(patches, extract_index_patches(img, q)):
        np.testing.assert_array_equal(a, b)
    small = (16, 32)
    for a, b in zip(index_quads_and_patches(img, q, small)[1], extract_index_patches(img, q, small)):
        np.testing.assert_array_equal(a, b)
