"""How big a card should look at each point of the frame, from the cards seen whole.

Why: the cards of a frame are all one size on the table, so the detector drops
outlines far smaller than the cards seen whole (pips and frames printed on a card,
specks of carpet). But a camera looking at the table at a slant sees the far cards
smaller: at 30 degrees of tilt and half a metre, a card at the far edge of the frame
covers a third of the area of one at the near edge. A single frame-wide size then
dropped whole, sharp, lone cards on the far side (held-out rendered scenes: a five
of diamonds at 0.33 of the largest card's area).

The size a flat card takes in the image changes smoothly with its position: for a
plane seen through a pinhole camera, the image area of a fixed table area at image
point (u, v) is proportional to (g . (u, v, 1))^3 for the third row g of the
image-to-table homography. So the cube root of the cards' areas is linear in
their position, and three cards seen whole, not in a line, fix it. The fit is
clipped to a plausible range round the median card (`SPREAD`), and with fewer cards,
or cards in a line, the expectation is the median card everywhere, as before.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

#: The fitted card size (linear, cube root of area ratio) stays within these
#: factors of the median card's: 0.55^3 = 0.17 and 1.8^3 = 5.8 times its area.
SPREAD = (0.55, 1.8)
#: A card smaller than the frame-wide rule allows is taken for a far card only
#: where the fit expects cards under FAR_SHARE of the median card's area, and only
#: when it has at least MIN_OF_EXPECTED of the area expected there.
FAR_SHARE, MIN_OF_EXPECTED = 0.75, 0.6
#: Cards whose centres span less than this share of the frame's diagonal (or lie
#: nearly in a line) do not fix a slant: the median card is used.
MIN_SPAN = 0.15


class SizeField:
    """Expected card area at image points, from cards seen whole (centres, areas)."""

    def __init__(self, centres: Sequence[tuple[float, float]], areas: Sequence[float],
                 frame: tuple[int, int]) -> None:
        self.median = float(statistics.median(areas)) if areas else 0.0
        self._coef: np.ndarray | None = None
        if len(areas) < 3 or self.median <= 0:
            return
        xy = np.asarray(centres, np.float64).reshape(-1, 2)
        diag = float(np.hypot(*frame))
        spread = xy - xy.mean(axis=0)
        # Smallest extent of the centres (their second principal axis): cards in a
        # line say nothing about the slant across it.
        sv = np.linalg.svd(spread, compute_uv=False)
        if sv[-1] / np.sqrt(len(xy)) < MIN_SPAN * diag / 4:
            return
        root = np.cbrt(np.asarray(areas, np.float64))
        design = np.column_stack([xy / diag, np.ones(len(xy))])
        self._coef, *_ = np.linalg.lstsq(design, root, rcond=None)
        self._diag = diag

    @property
    def sloped(self) -> bool:
        """Whether the cards fixed a slant (else: the median card everywhere)."""
        return self._coef is not None

    def expected(self, points: np.ndarray) -> np.ndarray:
        """Expected card area at each of `points` (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self._coef is None:
            return np.full(len(pts), self.median)
        root = pts @ (self._coef[:2] / self._diag) + self._coef[2]
        mid = np.cbrt(self.median)
        root = np.clip(root, SPREAD[0] * mid, SPREAD[1] * mid)
        return root ** 3

    def far(self, areas: np.ndarray, points: np.ndarray) -> np.ndarray:
        """Which quads (areas at points) are cards the slant makes small: where the
        fit expects clearly smaller cards than the median, about as big as expected
        there (see FAR_SHARE). All False when the cards fixed no slant."""
        areas = np.asarray(areas, np.float64).reshape(-1)
        if self._coef is None:
            return np.zeros(len(areas), dtype=bool)
        e = self.expected(points)
        return (e < FAR_SHARE * self.median) & (areas >= MIN_OF_EXPECTED * e)


#: `far_pair`: two far cards lying one on the other have outlines within this
#: area ratio of each other (calibration seed 5 scene 36: a 3C on a 2S, 1093 and
#: 1054 px at work scale, 0.96); a piece of a card is half of it or less.
PAIR_AREA = 0.7


def far_pair(a: float, b: float) -> bool:
    """May two overlapping outlines of areas `a` and `b`, both as small as the
    slant makes cards there (SizeField.far), be two cards, one lying on
    the other? Only if of about one size (PAIR_AREA). Why: prune.drop_small kept a far
    card only lying apart from every other card chosen, so a piece of a card was
    no far card; but a far pair, each card on the other, was dropped whole, both
    cards (calibration seed 5 scene 36: the 3C and the 2S under it, the 3C whole
    in view). A piece of a card overlapping its card is half of it or less."""
    return min(a, b) >= PAIR_AREA * max(a, b)
