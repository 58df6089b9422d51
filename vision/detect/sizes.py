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

A card beside a big sheet: an envelope, a notebook or a printed page on the table
has a crisp outline of card proportions too, and as the largest it set the size,
so a card a fifth of its size or less was dropped as a speck (real train photos: a
queen beside an envelope). Specks are rarely as crisp as a card lying whole: an
outline backed by edges all round, lying clear of the reference and at least
prune.LONE_SHARE of it, is kept (prune.lone_card); select.choose and
prune.drop_small keep it likewise when one outline alone was seen whole there.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect import outline, select
from vision.detect.evidence import Evidence
from vision.detect.prune import crisp, lone_card

#: Outlines under this share of the reference card's area are dropped.
TINY = 0.2
#: The reference must have no side under this share of edge support (0.5 left 8
#: more false cards on the train photos; 0.3 lost a rendered card).
MIN_SIDE = 0.4
#: Candidates for the reference judged at once (largest first; the first
#: nearly always passes).
BATCH = 4


def drop_tiny(
    ev: Evidence, hyps: list[select.Scored], min_support: float, quads: np.ndarray | None = None
) -> list[select.Scored]:
    """`hyps` without the outlines under TINY times the largest card-like one (see
    the module docstring); all of them if none is card-like. `quads`: the quads
    of `hyps` stacked (H, 4, 2) float32, if the caller has them."""
    if len(hyps) < 2:
        return hyps
    if quads is None:
        quads = np.stack([h.quad for h in hyps]).astype(np.float32)
    areas = g.quad_areas(quads)
    sup = np.array([h.support for h in hyps])
    side = np.array([h.side_min for h in hyps])
    dims = g.short_long(quads)
    asp = dims[:, 1] / np.maximum(dims[:, 0], 1e-9)
    ok = (sup >= min_support) & (side >= MIN_SIDE) & (asp >= g.ASPECT_MIN) & (asp <= g.ASPECT_MAX)
    # Nothing could be dropped even by the largest candidate: skip the tests.
    if not ok.any() or areas.min() >= TINY * areas[ok].max():
        return hyps
    at = reference(ev, hyps, quads, areas, np.flatnonzero(ok))
    if at is None:
        return hyps
    ref = float(areas[at])
    return [h for a, h, q in zip(areas.tolist(), hyps, quads) if a >= TINY * ref or (
        crisp(h.support, h.side_min) and lone_card(q, a, ref, [quads[at]]))]


def reference(
    ev: Evidence, hyps: list[select.Scored], quads: np.ndarray, areas: np.ndarray,
    idx: np.ndarray,
) -> int | None:
    """Index of the largest of hyps[idx] that select.choose could take as a whole
    card: one brightness step all round (polarity) and corners that end (no
    straight edges running on past them, as round a block of a checked cloth).
    None if there is none. (A seam test too cost 0.4 ms a frame and changed no
    reference on the rendered or the real photos.)"""
    idx = idx[np.argsort(-areas[idx], kind="stable")]
    for start in range(0, len(idx), BATCH):
        part = idx[start:start + BATCH]
        q = quads[part]
        over = outline.overshoot(ev, q)
        pol = outline.polarity(ev, q)
        on = np.stack([hyps[i].on if hyps[i].on is not None else outline.outline_on(ev, q[k:k + 1])[1][0]
                       for k, i in enumerate(part.tolist())])
        signed = np.where(on, pol, 0)
        agree = np.abs(signed.sum(axis=1)) / np.maximum((signed != 0).sum(axis=1), 1)
        good = (over < 0.3) & (agree >= 0.5)
        if good.any():
            return int(part[int(np.argmax(good))])
    return None
