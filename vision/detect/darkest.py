"""Card outlines from the darkest of B, G, R, on busy tables (wood grain, checked or
striped cloth), where the grey edges lose cards.

Why: card paper is bright in all three channels and coloured cloth is not, so white
on pink or green gingham, or on wood, shows as a strong step in the darkest channel
while in grey it hardly differs from the cloth's own pattern. `Evidence.paper_edges`
holds that channel's strong edges (busy tables only, evidence.py); here its outer
outlines become card guesses, kept only where the inside is brighter than around.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.evidence import Evidence
from vision.detect.whole import outline_quads

#: The darkest channel's outlines are proposed only where it is at least this much
#: brighter inside than around (brighter_inside, 0..255): card paper on the cloth. Wood
#: grain's dark streaks closed card-sized outlines that became false cards (a real
#: photo: four, and the card lost).
PAPER_BRIGHTER = 15.0


def darkest_quads(
    ev: Evidence, seen: list[np.ndarray], min_area: float
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Card quads from the outer outlines of the darkest channel's strong edges
    (`Evidence.paper_edges`, busy tables only), as `outline_quads` gives them; and
    the outlines not plainly a card, to try corner by corner, less those whose
    bounding box an outline of `seen` (the grey edges') has already (within 3 px).

    Why outer only: inside a pile they would close strips of covered cards against
    the top card's border, card-shaped outlines that are no card; a card the grey
    edges lost (white on a coloured cloth, its border joined to the cloth's pattern)
    is an outer outline here. Why not corner by corner again where the grey edges
    closed the same box: those corners are the grey outline's, and judging their
    guesses twice cost 1.1 ms a busy frame on average (paired A/B, 12 busy
    rendered frames) for no card read more on the training decks or real photos.
    """
    if ev.paper_edges.shape != ev.edges.shape:
        return [], []
    k3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    cs, _ = cv2.findContours(cv2.dilate(ev.paper_edges, k3), cv2.RETR_EXTERNAL,
                             cv2.CHAIN_APPROX_SIMPLE)
    h, w = ev.shape
    cs = [c for c in cs if len(c) >= 4 and min_area <= cv2.contourArea(c) <= 0.95 * h * w]
    if not cs:
        return [], []
    have = np.array([cv2.boundingRect(c) for c in seen], dtype=np.int32).reshape(-1, 4)
    quads: list[np.ndarray] = []
    rest: list[np.ndarray] = []
    for c in cs:
        found, plain = outline_quads(c)
        box = np.array(cv2.boundingRect(c), dtype=np.int32)
        corners = not plain and not (len(have) and np.abs(have - box).max(axis=1).min() <= 3)
        # Paper only: a dark streak of wood grain closes a card-sized outline too
        # (tested last: it costs the most).
        if (found or corners) and brighter_inside(ev.darkest, c) >= PAPER_BRIGHTER:
            quads.extend(found)
            if corners:
                rest.append(c)
    return quads, rest


def brighter_inside(darkest: np.ndarray, c: np.ndarray, ring: int = 4) -> float:
    """How much brighter the darkest channel `darkest` is inside outline `c` (its
    75th percentile) than in a band `ring` px wide around it (its median).

    Why not the median inside: a card lying on a back closes one outline with it,
    half paper, half back; a quarter of paper is enough.
    """
    x, y, bw, bh = cv2.boundingRect(c)
    hh, ww = darkest.shape
    x0, y0 = max(0, x - ring), max(0, y - ring)
    x1, y1 = min(ww, x + bw + ring), min(hh, y + bh + ring)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [c - np.array([x0, y0], np.int32)], -1, 255, cv2.FILLED)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * ring + 1, 2 * ring + 1))
    band = cv2.subtract(cv2.dilate(inside, k), inside)
    roi = np.ascontiguousarray(darkest[y0:y1, x0:x1])
    a, b = _level(roi, inside, 0.75), _level(roi, band, 0.5)
    return 0.0 if a is None or b is None else a - b


def _level(img: np.ndarray, mask: np.ndarray, q: float) -> float | None:
    """The `q` quantile of uint8 `img` under `mask` (None if the mask is empty),
    from a histogram: several times cheaper than indexing and sorting."""
    hist = cv2.calcHist([img], [0], mask, [256], [0, 256]).ravel()
    cum = np.cumsum(hist)
    if cum[-1] <= 0:
        return None
    return float(np.searchsorted(cum, q * cum[-1]))
