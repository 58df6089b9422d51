"""How big the cards of a frame are, before the choice: outlines far smaller than
the cards cannot be cards.

Why before the choice (prune.drop_small runs after it): select.choose takes whole
outlines first and then sizes covered cards by them. A few crisp little quads in a
texture (bark, brick, carpet pile, a flowered cloth) taken first made a real card,
twenty times their size, look far too big to be one, so it was never chosen: a
phone photo of a card or two lost the card and kept the specks. The largest
outline that looks like a card (not like a block of a checked cloth) tells the
size; perspective changes a card's size by well under 2x and two cards side by
side make an outline of twice a card, so a fifth of it keeps every card.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect import select
from vision.detect.evidence import Evidence

#: Outlines under this share of the reference card's area are dropped.
TINY = 0.2
#: The reference must have no side under this share of edge support.
MIN_SIDE = 0.5


def drop_tiny(ev: Evidence, hyps: list[select.Scored], min_support: float) -> list[select.Scored]:
    """`hyps` without the outlines under TINY times the largest card-like one (see
    the module docstring); all of them if none is card-like."""
    if len(hyps) < 2:
        return hyps
    areas = np.array([g.quad_area(h.quad) for h in hyps])
    ref = reference_area(ev, hyps, areas, min_support)
    return [h for a, h in zip(areas.tolist(), hyps) if a >= TINY * ref]


def reference_area(
    ev: Evidence, hyps: list[select.Scored], areas: np.ndarray, min_support: float
) -> float:
    """Area of the largest outline that select.choose could take as a whole card:
    edge-backed all round (every side), one brightness step all round (polarity)
    and corners that end (no straight edges running on past them: a block of a
    checked cloth or a book's cover in a pattern has them). 0 if there is none."""
    ok = np.array([h.support >= min_support and h.side_min >= MIN_SIDE
                   and g.ASPECT_MIN <= g.aspect(h.quad) <= g.ASPECT_MAX for h in hyps])
    idx = np.flatnonzero(ok)
    if not len(idx):
        return 0.0
    idx = idx[np.argsort(-areas[idx], kind="stable")]
    quads = np.stack([hyps[i].quad for i in idx]).astype(np.float32)
    over = select.overshoot(ev, quads)
    pol = select.polarity(ev, quads)
    for k, i in enumerate(idx.tolist()):
        on = hyps[i].on
        if on is None:
            _, on_ = select.outline_on(ev, quads[k:k + 1])
            on = on_[0]
        signed = np.where(on, pol[k], 0)
        agree = abs(int(signed.sum())) / max(1, int((signed != 0).sum()))
        if over[k] < 0.3 and agree >= 0.5:
            return float(areas[i])
    return 0.0
