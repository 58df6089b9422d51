"""The squeeze of a frame resized non-uniformly, as its cards tell it, and the
resize that undoes it.

Why its own module: the detector's second look (squeeze.py) asks it, and so do
the stills steps that cut cards at the photo's squeeze (recognize/unions.py,
partsqueeze.py, unsqueeze.py, onecorner.py), which need none of the look itself.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import WORK_LONG_SIDE

#: Squeezes (height scale / width scale) tried when estimating a frame's.
SQUEEZES = np.exp(np.linspace(np.log(0.6), np.log(1 / 0.6), 81)).astype(np.float32)
#: Frames whose estimated squeeze lies in this range get no second look (real
#: photos as they are mostly estimate 0.88-1.14: the camera's slant foreshortens
#: the table a little; a photo squeezed to 80% estimates 0.77 or 1.21).
SQUEEZE_BAND = (0.88, 1.14)
#: The squeeze is told by the cards with this much edge support, when there are
#: any (weakly supported ones are often no card, or two as one, and mislead it;
#: real train photos squeezed: 2-3 more cards found than with all of them).
TELLING_SUPPORT = 0.85


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
    inv = 1.0 / SQUEEZES[:, None]  # (K, 1)
    ax, ay = e0[None, :, 0], e0[None, :, 1] * inv  # (K, n)
    bx, by = e1[None, :, 0], e1[None, :, 1] * inv
    la = np.hypot(ax, ay) + 1e-6
    lb = np.hypot(bx, by) + 1e-6
    log_aspect = np.abs(np.log(la / lb))
    cos = (ax * bx + ay * by) / (la * lb)
    err = (log_aspect - np.log(g.ASPECT_NOMINAL)) ** 2 + cos**2
    return float(SQUEEZES[int(np.argmin(err.sum(axis=1)))])


def told_squeeze(quads: list[np.ndarray], support: list[float]) -> tuple[float | None, bool]:
    """The frame's squeeze as its sure cards (edge `support` >= TELLING_SUPPORT)
    tell it, else as all its cards do (None without cards); and whether sure cards
    told it. The detector's second look and unions.py's end cards ask the same."""
    telling = [q for q, s in zip(quads, support) if s >= TELLING_SUPPORT]
    return frame_squeeze(telling or quads), bool(telling)


def unsqueeze_factors(squeeze: float, shape: tuple[int, ...],
                      long_side: int = WORK_LONG_SIDE) -> tuple[float, float]:
    """(fx, fy) resizing a frame of `shape` so that its squeeze is undone and its
    long side is at most `long_side`: the stretched axis shrinks (see squeeze.py's
    docstring)."""
    h, w = shape[:2]
    fx, fy = (squeeze, 1.0) if squeeze < 1.0 else (1.0, 1.0 / squeeze)
    s = min(1.0, long_side / max(w * fx, h * fy))
    return fx * s, fy * s
