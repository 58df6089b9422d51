"""Telling a card from a shape printed on one (a pip, a court card's frame).

Why: a big pip or the frame round a court picture has a crisp, straight, fully
edge-backed outline of card-like proportions, so edge support alone takes it for a
card; on a phone photo of a few cards a pip is no smaller than the smallest card
the detector must accept. What gives it away is what lies around it: white card
paper all round the outside, and ink (not paper) just inside its border. A real
card shows the opposite, or paper on both sides when it lies on a white cloth (its
own white margin runs inside its border).
"""

from __future__ import annotations

import numpy as np

from vision.detect import kernels
from vision.detect.evidence import Evidence, sample_bgr
from vision.detect.geometry import add_points, lengths, lerp_points

#: Share of the outer ring that must be paper, and most of the inner ring that may
#: be, for a quad to count as printed on a card.
OUTER_PAPER = 0.6
INNER_PAPER = 0.6


#: Where along each side `rings` samples by default (n = 8).
_RING_T = np.linspace(0.25, 0.75, 8, dtype=np.float32)


def rings(quads: np.ndarray, inset: float, outset: float, n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Points (H, 4*n, 2) along the middle of each side, `inset` and `outset` times
    the quad's short side inside and outside its border (at least 2 and 3 px)."""
    q = np.asarray(quads, dtype=np.float32)
    t = np.linspace(0.25, 0.75, n, dtype=np.float32)
    nxt = q[:, [1, 2, 3, 0]]
    pts = lerp_points(q, nxt, t)  # (H, 4, n, 2)
    d = nxt - q
    ln = lengths(d)  # (H, 4)
    short = np.minimum(ln[:, 0] + ln[:, 2], ln[:, 1] + ln[:, 3]) / 2
    nrm = np.stack([-d[..., 1], d[..., 0]], axis=-1) / (ln[..., None] + 1e-9)  # inwards
    din = np.maximum(2.0, short * inset)[:, None, None, None]
    dout = np.maximum(3.0, short * outset)[:, None, None, None]
    inner = add_points(pts, nrm[:, :, None, :] * din)
    outer = add_points(pts, -(nrm[:, :, None, :] * dout))
    h = len(q)
    return inner.reshape(h, -1, 2), outer.reshape(h, -1, 2)


def printed_on_card(
    ev: Evidence, quads: np.ndarray, level: tuple[float, float] | None = None
) -> np.ndarray:
    """Per quad (H, 4, 2, work scale, clockwise): True if it looks like a shape
    printed on a card rather than a card (see the module docstring). `level`:
    the frame's `white_level`, if already known.

    "Paper" is judged against the image's own white (cards in shade or beside a
    brighter object fall out of the global paper mask): no more coloured than that
    white, and at least 60% as bright; "ink" is clearly darker or
    more coloured than the paper around it.
    """
    q = np.asarray(quads, dtype=np.float32)
    h = len(q)
    if h == 0:
        return np.zeros(0, dtype=bool)
    if kernels.COMPILED and ev.color.ndim == 3 and ev.color.shape[2] == 3:
        # The same verdicts in one compiled pass (kernels.printed_flags).
        white, white_sat = level or white_level(ev)
        out = np.empty(h, dtype=bool)
        kernels.printed_flags(np.ascontiguousarray(ev.color, dtype=np.uint8), np.ascontiguousarray(q),
                              _RING_T, np.float32(0.05), np.float32(0.15),
                              np.float32(white_sat + 0.2 * white + 15), np.float32(0.6 * white),
                              float(OUTER_PAPER), float(1 - INNER_PAPER), out)
        return out
    inner, outer = rings(q, 0.05, 0.15)
    mn_i, sat_i = _min_sat(ev, inner.reshape(-1, 2))
    mn_o, sat_o = _min_sat(ev, outer.reshape(-1, 2))
    mn_i, sat_i, mn_o, sat_o = (a.reshape(h, -1) for a in (mn_i, sat_i, mn_o, sat_o))
    white, white_sat = level or white_level(ev)
    paper_o = (sat_o <= white_sat + 0.2 * white + 15) & (mn_o >= 0.6 * white)
    ref = _row_medians(mn_o)
    ref_sat = _row_medians(sat_o)
    ink_i = (mn_i <= ref - 40) | (sat_i >= ref_sat + 60)
    return (paper_o.mean(axis=1) >= OUTER_PAPER) & (ink_i.mean(axis=1) >= 1 - INNER_PAPER)


def _row_medians(v: np.ndarray) -> np.ndarray:
    """np.median(v, axis=1, keepdims=True) of a float32 (H, N) array: the middle
    value of each row, or the mean of the middle two (the same float32 sum
    halved), from one partition (np.median's dozen calls cost more than its work
    here, on a few dozen rows of 32 samples, four times a frame)."""
    n = v.shape[1]
    if n == 0:
        return np.median(v, axis=1, keepdims=True)
    lo, hi = (n - 1) // 2, n // 2
    part = np.partition(v, [lo, hi] if hi != lo else lo, axis=1)
    if hi == lo:
        return part[:, lo:lo + 1]
    return (part[:, lo:lo + 1] + part[:, hi:hi + 1]) / np.float32(2.0)


def _min_sat(ev: Evidence, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Darkest channel and saturation (max - min channel) at points (N, 2)."""
    bgr = sample_bgr(ev.color, pts)
    b, g, r = bgr[:, 0], bgr[:, 1], bgr[:, 2]  # channel by channel: numpy is slow on
    mn = np.minimum(np.minimum(b, g), r)      # a last axis of 3
    return mn, np.maximum(np.maximum(b, g), r) - mn


def white_level(ev: Evidence) -> tuple[float, float]:
    """The frame's paper white: a high percentile of the darkest channel, and the
    saturation there (a phone's white balance may tint all paper blue or yellow)."""
    px = ev.color[::6, ::6].reshape(-1, 3)
    b, g, r = px[:, 0], px[:, 1], px[:, 2]  # channel by channel (see _min_sat)
    mn = np.minimum(np.minimum(b, g), r)
    k = int(0.99 * (len(mn) - 1))
    white = float(max(60.0, np.partition(mn, k)[k]))
    top = mn >= 0.9 * white
    mx = np.maximum(np.maximum(b[top], g[top]), r[top])
    sat = float(np.median(mx - mn[top])) if top.any() else 0.0
    return white, sat
