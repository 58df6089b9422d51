"""Telling a card's face from its back.

Why this heuristic: a face is mostly plain white paper with a few pips or a framed
picture, and its corner holds a small dark index on white; a back is covered edge to
edge (inside a thin margin) by a coloured or dense pattern. So the share of paper
pixels in the card's inner area separates them in every Debian deck and on real
cards, without knowing the deck. It is only a guess: the recogniser reading an index
overrides it.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Small warp used for the test: it only needs the gross layout.
_W, _H = 40, 56
#: Below this share of paper pixels in the inner area the card is called a back.
PAPER_SHARE_FACE = 0.45


def warp_small(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (_W, _H)) -> np.ndarray:
    """The card warped upright (portrait) to a small fixed size."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def paper_share(card: np.ndarray) -> float:
    """Share of the inner area (inside an 8% margin) that looks like white paper,
    relative to the brightest paper on this card (so warm or dim light is fine)."""
    h, w = card.shape[:2]
    my, mx = max(1, int(h * 0.08)), max(1, int(w * 0.08))
    inner = card[my:h - my, mx:w - mx].astype(np.int16)
    mn = inner.min(axis=2)
    mx_c = inner.max(axis=2)
    # The card's own white: a high percentile of the whole card's brightness,
    # margin included (backs usually keep a white margin).
    ref = float(np.percentile(card.min(axis=2), 97))
    if ref < 40:
        return 0.0
    paper = (mn >= 0.72 * ref) & ((mx_c - mn) <= 0.25 * ref + 12)
    return float(paper.mean())


def looks_face_down(image: np.ndarray, quad: np.ndarray) -> bool:
    """Guess whether the card in `quad` (ordered, see geometry.order_quad) shows its back."""
    return paper_share(warp_small(image, quad)) < PAPER_SHARE_FACE
