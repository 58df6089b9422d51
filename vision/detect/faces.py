"""Telling a card's face from its back.

Why this heuristic: a face holds a small dark index on white paper in two opposite
corners and leaves the other two corners blank; a back is covered edge to edge
(inside a thin margin) by a pattern, nearly always mirror-symmetric. Two numbers
capture that without knowing the deck: the share of white paper in the index
corners, and how different the top-left corner is from the mirrored top-right one.
It is only a guess: the recogniser reading an index overrides it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import kernels

#: Small warp used for the test: it only needs the gross layout.
_W, _H = 40, 56
#: The card as face_score sees it (width, height), and the share of its height from
#: the top that corner_asymmetry (and kernels.corner_asymmetry) reads.
FACE_SIZE = (60, 84)
ASYM_TOP = 0.31


def warp_small(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (_W, _H),
               rows: int | None = None) -> np.ndarray:
    """The card warped upright (portrait) to a small fixed size. `rows`: only the top
    `rows` rows of that warp (the same pixels: the same map, a smaller output), for a
    test that looks at the top of the card only."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    out_h = h if rows is None else max(1, min(h, rows))
    return cv2.warpPerspective(image, m, (w, out_h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def paper_share(card: np.ndarray) -> float:
    """Share of the inner area (inside an 8% margin) that looks like white paper,
    relative to the brightest paper on this card (so warm or dim light is fine).

    Compiled (kernels.paper_share_bgr, the same figure) for contiguous colour patches
    when numba is there: a detector asks this of about 14 patches per frame, and the
    numpy steps below were mostly per-call overhead (0.9 ms a frame)."""
    if kernels.COMPILED and card.ndim == 3 and card.shape[2] == 3 and card.flags.c_contiguous:
        share = float(kernels.paper_share_bgr(card))
        if share >= 0.0:
            return share
    h, w = card.shape[:2]
    if card.ndim == 2:
        card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
    b, g, r = cv2.split(card)
    mn_all = cv2.min(cv2.min(b, g), r)
    mx_all = cv2.max(cv2.max(b, g), r)
    # The card's own white: a high percentile of the whole card's brightness,
    # margin included (backs usually keep a white margin).
    hist = cv2.calcHist([mn_all], [0], None, [256], [0, 256]).ravel()
    ref = float(np.searchsorted(np.cumsum(hist), 0.97 * mn_all.size))
    if ref < 40:
        return 0.0
    my, mx = max(1, int(h * 0.08)), max(1, int(w * 0.08))
    mn = mn_all[my:h - my, mx:w - mx].astype(np.int16)
    sat = mx_all[my:h - my, mx:w - mx].astype(np.int16) - mn
    paper = (mn >= 0.72 * ref) & (sat <= 0.25 * ref + 12)
    return float(paper.mean())


def corner_asymmetry(card_grey: np.ndarray) -> float:
    """How different the top-left corner is from the mirrored top-right one.

    A face prints its index in two opposite corners only, so its top-left (glyph)
    and top-right (blank paper) differ; backs are nearly always mirror-symmetric.

    Compiled (kernels.corner_asymmetry, the same figure) for contiguous grey patches
    when numba is there: the numpy steps on two small corners were mostly per-call
    overhead (about 30 us a card).
    """
    if (kernels.COMPILED and card_grey.dtype == np.uint8 and card_grey.ndim == 2
            and card_grey.flags.c_contiguous and card_grey.shape[0] >= 7 and card_grey.shape[1] >= 10):
        return float(kernels.corner_asymmetry(card_grey))
    c = card_grey.astype(np.float32)
    h, w = c.shape
    hh, ww = int(h * ASYM_TOP), int(w * 0.22)
    tl = c[1:hh, 1:ww]
    tr = c[1:hh, w - ww:w - 1][:, ::-1]
    return float(np.abs(tl - tr).mean() / (0.5 * (tl.std() + tr.std()) + 8.0))


#: Weights and threshold of the face score. Weights fitted on the 42 Debian decks'
#: faces (7 cards each) against their backs seen flat (best cut 0.763: 2% of faces
#: and 7% of backs wrong); the cut lowered to 0.7 for rendered tables, where light,
#: blur and court pictures reaching the corner pull faces down (about 4% of faces
#: and 1% of backs wrong there, see bench/vision.py).
W_ASYM, W_INDEX_PAPER, FACE_SCORE_MIN = 0.4, 1.0, 0.7


def face_score(image: np.ndarray, quad: np.ndarray, patches: list[np.ndarray] | None = None) -> float:
    """Higher is more face-like; see FACE_SCORE_MIN.

    Only the top rows of the small card that corner_asymmetry reads are warped (a
    third of the warp, the detector asks this of every card of every frame); the rest
    of the card stays black, unread."""
    w, h = FACE_SIZE
    rows = int(h * ASYM_TOP)
    top = warp_small(image, quad, FACE_SIZE, rows=rows)
    grey = np.zeros((h, w), np.uint8)
    grey[:rows] = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top
    if patches is None:
        from vision.recognize.patch import extract_index_patches

        patches = extract_index_patches(image, quad)
    index_paper = max((paper_share(p) for p in patches), default=0.0)
    return W_ASYM * corner_asymmetry(grey) + W_INDEX_PAPER * index_paper


def looks_face_down(
    image: np.ndarray, quad: np.ndarray, patches: list[np.ndarray] | None = None
) -> bool:
    """Guess whether the card in `quad` (ordered, see geometry.order_quad) shows its
    back. `patches`: its index patches if already cut (both corners)."""
    return face_score(image, quad, patches) < FACE_SCORE_MIN
