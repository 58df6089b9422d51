"""Cards cut off by the edge of the image.

Why: a card reaching out of the picture shows no border where the picture ends,
so the part of its outline lying along (or beyond) the image's edge finds no edge
to back it, and the card scored as if a whole side were missing (a phone photo
framed tight, a card at the end of a row): it was never chosen. Nothing can be
seen there, so those outline points are credited as backed, like the ones under a
card lying on top; the rest of the outline must be well backed on its own, and
half the outline or more must lie in view, so the edge of the picture alone never
makes a card.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from vision.detect import geometry as g
from vision.detect import outline, select
from vision.detect.evidence import Evidence

#: Outline points this close to the image's edge (work pixels) or beyond it see none.
EDGE_PX = 2.0
#: Share of the outline that may lie there (0.4 found 4 cards fewer on the train
#: photos, the same elsewhere), and the support the rest must have.
MAX_CUT = 0.5
MIN_SEEN = 0.8
#: Stricter than select.choose's own tests, judged on the part in view: one
#: brightness step all round, sides that end at the corners (a checked cloth's
#: cells running out of the picture are card-sized, edged and mostly in view).
MIN_AGREE = 0.8
MAX_OVER = 0.12


def credit_cut_off(
    ev: Evidence, hyps: list[select.Scored], sizes: list[tuple[float, float]],
    quads: np.ndarray | None = None,
) -> list[select.Scored]:
    """`hyps` with the outline points at or beyond the image's edge counted as
    backed by an edge, for the quads whose outline in view is backed well enough,
    whose centre is in view and which have the size of the cards seen whole
    (`sizes`: (short, long) of each; any size if none is); the others as they were.

    Why the size: a block of a checked cloth running out of the picture is as
    well edged as a card; its cells are rarely card-sized. `quads`: the quads
    of `hyps` stacked (H, 4, 2) float32, if the caller has them.
    """
    if not hyps or not sizes:
        return hyps
    if quads is None:
        quads = np.stack([s.quad for s in hyps]).astype(np.float32)
    h, w = (float(v) for v in ev.shape)
    far = np.array([w - 1 - EDGE_PX, h - 1 - EDGE_PX], dtype=np.float32)
    mid = quads.mean(axis=1)
    near = (((quads.min(axis=1) < EDGE_PX) | (quads.max(axis=1) > far)).any(axis=1)
            & (mid >= 0).all(axis=1) & (mid <= far + EDGE_PX).all(axis=1))
    idx = np.flatnonzero(near)
    idx = idx[[hyps[i].on is not None for i in idx.tolist()]]
    if not len(idx):
        return hyps
    dims = g.short_long(quads[idx])
    known = np.array(sizes, dtype=np.float32)
    idx = idx[np.all((dims >= 0.8 * known.min(axis=0)) & (dims <= 1.2 * known.max(axis=0)), axis=1)]
    if not len(idx):
        return hyps
    out = list(hyps)
    pts = outline.outline_points(quads[idx]).reshape(len(idx), -1, 2)
    x, y = pts[..., 0], pts[..., 1]
    cut = (x < EDGE_PX) | (y < EDGE_PX) | (x > w - 1 - EDGE_PX) | (y > h - 1 - EDGE_PX)
    on = np.stack([cast(np.ndarray, hyps[i].on) for i in idx.tolist()])  # score_many sets it
    n_cut = cut.sum(axis=1)
    seen_on = (on & ~cut).sum(axis=1) / np.maximum((~cut).sum(axis=1), 1)
    # The cheap tests first: a little of the outline out of view, the rest backed.
    fit = (n_cut > 0) & (n_cut <= MAX_CUT * cut.shape[1]) & (seen_on >= MIN_SEEN)
    if not fit.any():
        return hyps
    idx, cut, on = idx[fit], cut[fit], on[fit]
    pol = outline.polarity(ev, quads[idx])
    over = outline.overshoot(ev, quads[idx]) / np.maximum(_past_in_view(quads[idx], w, h), 1e-3)
    signed = np.where(on & ~cut, pol, 0)
    agree = np.abs(signed.sum(axis=1)) / np.maximum((signed != 0).sum(axis=1), 1)
    for k in np.flatnonzero((agree >= MIN_AGREE) & (over <= MAX_OVER)).tolist():
        s = hyps[idx[k]]
        flags = on[k] | cut[k]
        per_side = flags.reshape(4, -1).mean(axis=1)
        out[idx[k]] = select.Scored(s.quad, float(per_side.mean()), float(per_side.min()), flags)
    return out


def _past_in_view(quads: np.ndarray, w: float, h: float) -> np.ndarray:
    """Per quad (H, 4, 2): the share of outline.overshoot's points (past each corner,
    along each side) that lie in the image, where an edge could be seen."""
    pts = outline.past_corners(quads).pts
    assert pts is not None
    x, y = pts[..., 0], pts[..., 1]
    seen = (x >= 0) & (y >= 0) & (x <= w - 1) & (y <= h - 1)
    return seen.reshape(len(quads), -1).mean(axis=1)
