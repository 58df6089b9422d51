"""refine.trim_overhang: a quad that took in a strip of the card under a fanned
card is trimmed onto the top card's border; card-shaped quads, and square ones
without such a border, are left alone."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import refine
from vision.detect.detector import _trim_full


@dataclass(frozen=True)
class _Grad:
    gx: np.ndarray
    gy: np.ndarray
    grey: np.ndarray


def _grad(image: np.ndarray) -> _Grad:
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    gx, gy = cv2.spatialGradient(grey, ksize=3)
    return _Grad(gx, gy, grey)


def _fan(shadow: bool = True) -> np.ndarray:
    """Dark table; a lower card x 60..130, the top card x 100..170 on it (both
    y 50..150, 70 x 100: aspect 1.43), a shadow line along the top card's left
    border."""
    img = np.full((220, 240, 3), 40, np.uint8)
    cv2.rectangle(img, (60, 50), (129, 149), (225, 225, 225), -1)
    cv2.putText(img, "9", (64, 72), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2)
    cv2.rectangle(img, (100, 50), (169, 149), (235, 235, 235), -1)
    if shadow:
        cv2.line(img, (98, 50), (98, 149), (120, 120, 120), 2)
    return img


def _quad(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Clockwise on screen (y down) from the top-left."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_fanned_quad_trimmed_onto_top_card() -> None:
    img = _fan()
    merged = _quad(60, 50, 170, 150)  # both cards: 110 x 100, too square
    out = refine.trim_overhang(_grad(img), merged[None])[0]
    assert abs(out[:, 0].min() - 100) <= 2.5, out
    assert abs(out[:, 0].max() - 170) <= 0.5 and abs(out[:, 1].min() - 50) <= 0.5


def test_detector_step_trims_the_same_quad() -> None:
    img = _fan()
    out = _trim_full(img, [_quad(60, 50, 170, 150)])[0]
    assert abs(np.asarray(out)[:, 0].min() - 100) <= 2.5


def test_card_shaped_quad_untouched() -> None:
    img = _fan()
    top = _quad(100, 50, 170, 150)
    assert np.array_equal(refine.trim_overhang(_grad(img), top[None])[0], top)


def test_square_sheet_without_inner_border_untouched() -> None:
    img = np.full((220, 240, 3), 40, np.uint8)
    cv2.rectangle(img, (60, 50), (169, 149), (230, 230, 230), -1)  # one square sheet
    q = _quad(60, 50, 170, 150)
    assert np.array_equal(refine.trim_overhang(_grad(img), q[None])[0], q)


def test_busy_inside_is_a_picture_not_a_margin() -> None:
    """A straight line where the border would go, with a picture (busy) inside
    it: a court card's frame, not the top card's border."""
    img = _fan(shadow=True)
    for y in range(52, 148, 8):  # a picture of bold stripes from just inside the line
        img[y:y + 4, 102:165] = 30
    q = _quad(60, 50, 170, 150)
    assert np.array_equal(refine.trim_overhang(_grad(img), q[None])[0], q)
