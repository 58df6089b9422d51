"""Has a frame changed since the last one, and where: the live pipeline's change
cache compares small grey thumbnails of the two (see vision/pipeline.py for why).

Why its own module: what counts as a change (ChangeConfig), the thumbnail and
where it changed are a concern apart from reading the cards, and
tests/vision/test_detect_speed_exact.py checks `block_means` on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import geometry as g

__all__ = ["ChangeConfig", "block_means", "changed_mask", "region_moved", "thumbnail"]


@dataclass(frozen=True, slots=True)
class ChangeConfig:
    """When a frame counts as unchanged.

    The thumbnail is `thumb` pixels (width, height) of the grey frame, each an
    average over a block of the frame (noise averages out). A thumbnail pixel has
    changed when it differs by more than `pixel_delta` grey levels after removing the
    median difference (global light drift); the frame has changed when more than
    `max_changed` thumbnail pixels have. At 1280x720 a card covers about 60 of the
    3600 thumbnail pixels, a moved card or a hand many more.
    """

    thumb: tuple[int, int] = (80, 45)
    pixel_delta: float = 10.0
    max_changed: int = 2
    reuse_iou: float = 0.9


def thumbnail(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The frame's grey thumbnail, `size` (width, height) pixels (ChangeConfig.thumb).

    Grey first, then block means: a third of the channels to average, about
    half the time of averaging the colour frame (0.9 ms at 1280x720, most of an
    unchanged frame's cost); the two orders differ by rounding only (<= 1 grey
    level, far below `pixel_delta`). The means by halving (`block_means`)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return block_means(grey, size).astype(np.float32)


def changed_mask(old: np.ndarray, new: np.ndarray, pixel_delta: float) -> np.ndarray:
    """The thumbnail pixels that changed from `old` to `new` by more than
    `pixel_delta` grey levels once the median difference (light drift) is taken out."""
    d = new - old
    d -= float(np.median(d))
    return np.abs(d) > pixel_delta


def block_means(grey: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """cv2.resize(grey, size, INTER_AREA) by halving: 2x2 means while both sides
    are whole multiples of twice `size` (width, height), so that every block of
    the result stays the mean of whole halved blocks; then the rest in one step.

    Why: OpenCV averages 2x2 blocks on a fast path; one 16x16 step from 1280x720
    to 80x45 cost 0.21 ms, the four halvings 0.06 ms. Each halving rounds to
    whole grey levels, so the figures may differ from one step's by a level or
    two (far below ChangeConfig.pixel_delta, and mostly the same way everywhere,
    which the median difference takes out).
    """
    tw, th = size
    out = grey
    while out.shape[1] % (2 * tw) == 0 and out.shape[0] % (2 * th) == 0:
        out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if (out.shape[1], out.shape[0]) != (tw, th):
        out = cv2.resize(out, (tw, th), interpolation=cv2.INTER_AREA)
    return out


def region_moved(moved: np.ndarray, quad: np.ndarray, shape: tuple[int, int]) -> bool:
    """Did any changed thumbnail pixel fall on (or next to) this card?"""
    th, tw = moved.shape
    h, w = shape
    x0, y0, x1, y1 = g.bounding_box(quad)
    c0 = max(0, int(x0 / w * tw) - 1)
    c1 = min(tw, int(np.ceil(x1 / w * tw)) + 1)
    r0 = max(0, int(y0 / h * th) - 1)
    r1 = min(th, int(np.ceil(y1 / h * th)) + 1)
    return bool(moved[r0:r1, c0:c1].any())
