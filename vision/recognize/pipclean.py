"""Is a card's middle a clean set of pips? The checks pips.count_pips makes on the
ink components it found, before it trusts their count.

Why they exist: a count is a witness against the index network (pipcheck.py), so it
must be right whenever it is given; the layout alone (pips.py) is not enough. Blur
merges pips before it drops them (`sharpness`); a hand or a light card over the
middle hides pips without leaving ink (`stray_edges`); a court figure's pieces differ
in colour and shape (`pip_colours`, `shape_agreement`). Cards are the canonical upright
warp of upright.py: objects with `dark` (darkest channel), `paper` (paper level) and
`bgr` arrays.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np


def edges(card: Any) -> np.ndarray:
    """Gradient magnitude of the darkest channel as a share of the paper level per
    pixel (a step from paper to ink of depth d across one pixel gives ~d)."""
    gx = cv2.Sobel(card.dark, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(card.dark, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) / (4.0 * card.paper)


#: Least median sharpness of the pips (their steepest edge over their depth; a
#: sharp edge gives ~0.8, a Gaussian blur of sigma s canonical pixels ~0.4/s).
#: Counted training-deck and real cards lie at 0.38 and up (1st percentile 0.47).
MIN_SHARPNESS = 0.3

def sharpness(card: Any, mag: np.ndarray, labels: np.ndarray, stats: np.ndarray,
               ids: np.ndarray) -> float:
    """Median over the pips `ids` of (steepest edge within 2 px of the pip's box) /
    (the pip's depth below paper). Why: blur merges pips and rounds their shapes before
    it drops them, so a blurred card is not counted at all rather than counted on
    luck."""
    ratio = card.dark / card.paper
    out = []
    for i, (x, y, w, h) in zip(ids, stats[:, :4]):
        ys, xs = slice(max(y - 2, 0), y + h + 2), slice(max(x - 2, 0), x + w + 2)
        depth = 1.0 - float(ratio[y:y + h, x:x + w][labels[y:y + h, x:x + w] == i].mean())
        out.append(float(mag[ys, xs].max()) / max(depth, 0.05))
    return float(np.median(out))


#: Strong edges in the middle field away from the pips (pixels of the canonical card)
#: allowed: more means something lies on the card (a hand, another card's border,
#: a picture), which can hide pips without leaving ink of its own.
MAX_STRAY_EDGES = 12

#: An edge is strong when the darkest channel steps by this share of the paper level.
EDGE_STEP = 0.2

_NEAR = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def stray_edges(card: Any, mag: np.ndarray, labels: np.ndarray, keep: np.ndarray,
                field: tuple[int, int, int, int]) -> int:
    """How many strong-edge pixels of the middle field lie away from the ink
    components kept (`keep[label]`: the pips and the corner indices); `field` =
    (x0, x1, y0, y1), the middle field in canonical pixels.

    Why: the ink mask is measured against the local paper level, so something
    big and light lying over the card (a hand) becomes "paper" and the pips under it
    simply vanish; its outline, though, is a strong edge no pip explains.
    """
    # A pip's own edge may lie a few pixels out of its ink mask (blur): the pixels
    # a little darker than paper that join a pip belong to it.
    faint = (card.dark < 0.9 * card.paper).astype(np.uint8)
    nf, flab = cv2.connectedComponents(faint, connectivity=8)
    own = np.zeros(nf, bool)
    # (np.take(a, idx) is a[idx] for a 1-D `a`, at a third of fancy indexing's cost)
    own[flab[np.take(keep, labels)]] = True
    own[0] = False
    near = cv2.dilate(np.take(own.astype(np.uint8), flab), _NEAR) > 0
    x0, x1, y0, y1 = field
    strong = (mag > EDGE_STEP) & ~near
    return int(np.count_nonzero(strong[y0:y1, x0:x1]))


#: Most colour spread inside one pip (white-balanced BGR, Euclidean std): pips are
#: printed flat; counted number cards stay under 0.25 (99th percentile 0.2).
MAX_COLOUR_SPREAD = 0.3

#: Least shape agreement between pips (see shape_agreement): counted number cards
#: of the training decks lie at 0.8-0.9 (1st percentile 0.62-0.78); a jack's figure
#: cut in two pieces (gnome/ornamental JS) gave 0.63.
MIN_SHAPE_AGREEMENT = 0.65

#: Pip masks are compared at this size (pixels square).
_SHAPE = 16


def shape_agreement(labels: np.ndarray, stats: np.ndarray, ids: np.ndarray) -> float:
    """Least overlap (intersection over union of soft masks, each pip scaled to one
    square) of any pip with the first one, upright or turned by 180 degrees (the
    lower half's pips are printed upside down). Why: a number card's pips are one
    shape; a court figure's pieces, a hand's edge or a pip cut by a card lying over
    it are not."""
    masks = []
    for i, (x, y, w, h) in zip(ids, stats[:, :4]):
        m = (labels[y:y + h, x:x + w] == i).astype(np.float32)
        masks.append(cv2.resize(m, (_SHAPE, _SHAPE), interpolation=cv2.INTER_AREA))
    ref = masks[0]
    turned = ref[::-1, ::-1]
    worst = 1.0
    for m in masks[1:]:
        best = max(float(np.minimum(m, r).sum() / max(np.maximum(m, r).sum(), 1e-6))
                   for r in (ref, turned))
        worst = min(worst, best)
    return worst


def pip_colours(card: np.ndarray, labels: np.ndarray, ids: np.ndarray
                 ) -> tuple[bool | None, float, float]:
    """(warm?, worst colour spread inside one pip, worst colour gap between pips).

    Colours are white-balanced against the paper (the mean of the non-ink pixels,
    per channel). A pip is printed in one flat colour, and all pips of a card
    in the same one: a court figure's pieces (a green hat over a red coat) are not.
    Warm means hearts or diamonds (red, or the yellow/orange diamonds of four-colour
    decks); `warm` is None when the pips do not agree on it.
    """
    white = np.array(cv2.mean(card, mask=(labels == 0).astype(np.uint8))[:3]) + 1.0
    keep = np.zeros(int(labels.max()) + 1, np.uint8)
    keep[ids] = 1
    core = cv2.erode(np.take(keep, labels), _CORE) > 0
    lab = labels[core]
    col = card[core].astype(np.float64) / white
    n = int(labels.max()) + 1
    cnt = np.maximum(np.bincount(lab, minlength=n)[ids], 1).astype(np.float64)
    mean = np.stack([np.bincount(lab, weights=col[:, c], minlength=n)[ids] for c in range(3)],
                    axis=1) / cnt[:, None]
    sq = np.stack([np.bincount(lab, weights=col[:, c] ** 2, minlength=n)[ids]
                   for c in range(3)], axis=1) / cnt[:, None]
    spread = float(np.sqrt(np.maximum(sq - mean * mean, 0.0).sum(axis=1)).max())
    gap = float(np.sqrt(((mean[:, None, :] - mean[None, :, :]) ** 2).sum(axis=2)).max())
    b, g, r = mean[:, 0], mean[:, 1], mean[:, 2]
    warm = (r - b > 0.25) & (r >= 0.85 * g)
    red = True if warm.all() else False if not warm.any() else None
    return red, spread, gap


_CORE = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
