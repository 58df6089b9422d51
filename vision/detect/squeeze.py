"""A second look at frames resized non-uniformly (or seen at a slant): cards found
whole tell how squeezed the frame is; the frame is unsqueezed and searched again.

Why: a phone photo may reach us resized to another aspect (a 4:3 photo stored
at 80% of its height). Every card then shares one squeeze: a card lying upright
looks nearly square (1.45 x 0.8 = 1.16), one lying across looks long (1.8), and
a tilted one is a parallelogram. The detector's shape tests and its corner
guesses assume cards of about the nominal aspect with right-angled corners, so
whole outlines are refused and covered cards are completed at the wrong size.
Undoing the squeeze the cards found whole show and detecting again finds most of
them (real train photos squeezed 1 x 0.8 or 0.8 x 1, mostly 504 x 378 px: at
that size the lost resolution cannot be restored, so the frame is unsqueezed by
shrinking its stretched axis, not by enlarging the squeezed one).

The cards of the second look are added to those of the first where no card of
the first (nor one added already) lies (boxes overlapping under 0.3 IoU): the
first look, made on the frame as it came, keeps the cards it found.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import WORK_LONG_SIDE, Evidence, gather

#: Squeezes (height scale / width scale) tried when estimating a frame's.
_SQUEEZES = np.exp(np.linspace(np.log(0.6), np.log(1 / 0.6), 81)).astype(np.float32)
#: Frames whose estimated squeeze lies in this range get no second look (real
#: photos as they are mostly estimate 0.88-1.14: the camera's slant foreshortens
#: the table a little; a photo squeezed to 80% estimates 0.77 or 1.21).
SQUEEZE_BAND = (0.88, 1.14)
#: The squeeze is told by the cards with this much edge support, when there are
#: any (weakly supported ones are often no card, or two as one, and mislead it;
#: real train photos squeezed: 2-3 more cards found than with all of them).
TELLING_SUPPORT = 0.85
#: Cards of the second look longer than this (long/short, in the unsqueezed
#: frame) are not added: the strip of a covered card showing past the one on it,
#: taken for a narrow card (2.9 on a rendered scene, read as its card but no
#: card's outline), while cards on steep real photos reach 2.1.
MAX_ASPECT = 2.2
#: A card of the second look is new when its box overlaps every card of the
#: first look's under this IoU.
NEW_IOU = 0.3


def frame_squeeze(quads: list[np.ndarray]) -> float | None:
    """The frame's squeeze (height scale over width scale) that best turns the
    cards `quads` into rectangles of the nominal aspect, or None without cards.

    Each card is judged by its mean side vectors: once the frame's height is
    divided by the squeeze, they should be at right angles (a cosine of 0) and
    in the ratio geometry.ASPECT_NOMINAL; squared errors in log aspect and
    cosine, summed over cards, pick the squeeze among a fine grid (0.6-1.67)."""
    if not quads:
        return None
    q = np.stack(quads).astype(np.float32)
    e0 = ((q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])) / 2  # (n, 2)
    e1 = ((q[:, 2] - q[:, 1]) + (q[:, 3] - q[:, 0])) / 2
    inv = 1.0 / _SQUEEZES[:, None]  # (K, 1)
    ax, ay = e0[None, :, 0], e0[None, :, 1] * inv  # (K, n)
    bx, by = e1[None, :, 0], e1[None, :, 1] * inv
    la = np.hypot(ax, ay) + 1e-6
    lb = np.hypot(bx, by) + 1e-6
    log_aspect = np.abs(np.log(la / lb))
    cos = (ax * bx + ay * by) / (la * lb)
    err = (log_aspect - np.log(g.ASPECT_NOMINAL)) ** 2 + cos**2
    return float(_SQUEEZES[int(np.argmin(err.sum(axis=1)))])


def unsqueeze_factors(squeeze: float, shape: tuple[int, ...],
                      long_side: int = WORK_LONG_SIDE) -> tuple[float, float]:
    """(fx, fy) resizing a frame of `shape` so that its squeeze is undone and its
    long side is at most `long_side`: the stretched axis shrinks (see the module
    docstring)."""
    h, w = shape[:2]
    fx, fy = (squeeze, 1.0) if squeeze < 1.0 else (1.0, 1.0 / squeeze)
    s = min(1.0, long_side / max(w * fx, h * fy))
    return fx * s, fy * s


def unsqueezed_quads(
    image: np.ndarray, ev: Evidence, quads: list[np.ndarray], support: list[float],
    find: Callable[[Evidence], list[np.ndarray]],
) -> list[np.ndarray]:
    """Cards (at `ev`'s work scale) found by `find` in the unsqueezed frame where
    none of `quads` (the first look's, same scale; `support`: their edge support)
    lies; [] when the cards found show no squeeze outside SQUEEZE_BAND (the usual
    frame: no second look)."""
    telling = [q for q, s in zip(quads, support) if s >= TELLING_SUPPORT]
    k = frame_squeeze(telling or quads)
    if k is None or SQUEEZE_BAND[0] <= k <= SQUEEZE_BAND[1]:
        return []
    h, w = image.shape[:2]
    fx, fy = unsqueeze_factors(k, image.shape)
    size = (max(1, round(w * fx)), max(1, round(h * fy)))
    if min(size) < 16:
        return []
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    ev2 = gather(small)
    # Back to the first look's work scale (via the frame's own pixels).
    back = np.array([ev.scale / (ev2.scale * size[0] / w), ev.scale / (ev2.scale * size[1] / h)],
                    dtype=np.float32)
    seen = find(ev2)
    found = [g.order_quad(q * back) for q in seen]
    if not found:
        return []
    # New: off every card of the first look and every one added before it (the
    # second look may keep two near copies of a card the first did not find).
    taken = g.boxes(quads)
    out = []
    for q, b, q2 in zip(found, g.boxes(found), seen):
        # Unsqueezed, a card has about the nominal aspect: a strip of a covered
        # card that the second look took for a long narrow card has not.
        if g.aspect(q2) > MAX_ASPECT:
            continue
        if all(g.box_iou(b, o) < NEW_IOU for o in taken):
            out.append(q)
            taken.append(b)
    return out

