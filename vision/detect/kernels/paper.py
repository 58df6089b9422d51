"""Kernel of faces: how much of a card patch is plain paper (face or back test)."""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled


@_compiled("float64(uint8[:, :, ::1])")
def paper_share_bgr(card: np.ndarray) -> float:
    """For faces.paper_share on a contiguous BGR patch: the same histogram
    percentile of the darkest channel and the same paper test, in two passes over the
    pixels instead of a dozen small OpenCV/numpy calls. Returns -1.0 where the inner
    area is empty (the caller then asks numpy, which gives NaN)."""
    h, w = card.shape[0], card.shape[1]
    hist = np.zeros(256, np.int64)
    for y in range(h):
        for x in range(w):
            b, g, r = card[y, x, 0], card[y, x, 1], card[y, x, 2]
            hist[min(min(b, g), r)] += 1
    need = 0.97 * (h * w)
    total = 0
    ref = 256
    for v in range(256):
        total += hist[v]
        if total >= need:
            ref = v
            break
    if ref < 40:
        return 0.0
    my, mx = max(1, int(h * 0.08)), max(1, int(w * 0.08))
    if h - my <= my or w - mx <= mx:
        return -1.0
    lo = 0.72 * ref
    top = 0.25 * ref + 12
    count = 0
    for y in range(my, h - my):
        for x in range(mx, w - mx):
            b, g, r = card[y, x, 0], card[y, x, 1], card[y, x, 2]
            dark = np.int64(min(min(b, g), r))
            light = np.int64(max(max(b, g), r))
            if dark >= lo and light - dark <= top:
                count += 1
    return count / ((h - 2 * my) * (w - 2 * mx))
