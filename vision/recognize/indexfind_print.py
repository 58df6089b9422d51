"""A find read off a picture of a card printed on a back, told by the find's own
paper (indexfind.py; stills only).

Why: kde/nicu-white's back shows a fan of aces, and indexfind found the AH in it, a
card reported where none lies (rendered training decks seed 40 scenes 1 and 69,
seed 41 scene 180). A rule on geometry alone (a card read inside a back's outline
is a picture on it) was tried and reverted: on an unseen seed it cost 6 right
cards, cards of the deck lying on backs. Three witnesses must agree here:

- the find's index lies inside an unread outline (INDEX_INSIDE of its index
  region): a back lying on a card covers that card's index, so a visible index
  inside a back's outline is printed on it, or is a card lying on the back;
- that outline is one card of the frame's size (ONE_CARD), a back, and the find
  is smaller than it (PRINT_AREA): a picture on a back is, while an outline
  holding a card's index is mostly that card's visible part, smaller than the
  find (training decks seed 7: finds 1.3-1.9 of such outlines), or one round
  two cards, larger than one card (seed 7 scene 33: 1.57);
- the find's own face: a card's margin, the band along its edges inside its
  outline (off its index corners), is the paper its index is printed on or, where
  another card lies on it, that card's face, paper again; the printed ace's quad,
  grown from its small index, runs over the back's print round it (nicu-white:
  saturated blue), so little of its margin is its index's paper (MARGIN_PAPER).
  A card of the deck lying on a back keeps its paper round its edges.

Training decks seed 40 scene 69's 8H, found by its index under a back lying on
it, shows why the index and not the quad is asked: 0.61 of its quad lies inside
the back and its margin is 0.48 paper (the back's print), but its index lies
outside. Seed 7 scene 22's 10D lying on a back, its find grown too large, shows
why the margin alone is not enough: 0.33 paper (table and back), its index 0.88
inside an outline smaller than it (1.31).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: The find's card is looked at warped to this size (pixels, width x height: a
#: card's 63 x 88 mm); its margin is the band MARGIN pixels wide inside its edges.
CARD_W, CARD_H = 70, 98
MARGIN = 6
#: The index corners left out of the margin (the index's own ink), as shares of
#: the card's width and height (patch.INDEX_BOX).
INDEX_W, INDEX_H = 0.24, 0.36
#: The paper is the median colour (Lab) of the index patch's pixels at least this
#: percentile bright (the glyph and pip are the darker rest); a margin pixel is
#: paper within PAPER_TOL of it (Lab, OpenCV's 8-bit scale).
PAPER_PERCENTILE = 70
PAPER_TOL = 30.0
#: A find's index is printed on what an unread outline holds when this share of its
#: index region lies inside the outline.
INDEX_INSIDE = 0.9
#: ... and the find is no larger than this share of the outline's area: a card's
#: picture on a back is smaller than the back (nicu-white's printed aces grow
#: finds of 0.36-0.72 of the back's area: training decks seed 41 scene 180, seed 40
#: scenes 1 and 69), while an outline of a card's visible part round a find's index
#: is smaller than the find (training decks seed 7: 1.3-1.9).
PRINT_AREA = 0.8
#: ... and the outline is one card, a back: its size (square root of its area) at
#: most this times the frame's cards' (indexfind.frame_card_size). nicu-white's
#: backs holding the printed aces: 0.83-0.98; training decks seed 7 scene 33's
#: outline round a 10S and the back lying on it, which holds the 10S's index and
#: is twice its find (0.45), is 1.57 (its margin, 0.35 paper, is table and back).
ONE_CARD = 1.25
#: ... and is a picture on it when less than this share of its margin is paper.
MARGIN_PAPER = 0.6


def margin_paper(image: np.ndarray, quad: np.ndarray, patch: np.ndarray) -> float:
    """The share of the card `quad`'s margin (corner 0 its index corner) whose colour
    is the paper of its index `patch` (see module)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    dst = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    card = cv2.warpPerspective(image, cv2.getPerspectiveTransform(q, dst), (CARD_W, CARD_H))
    ink = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    paper = np.median(ink[ink[:, 0] >= np.percentile(ink[:, 0], PAPER_PERCENTILE)], axis=0)
    lab = cv2.cvtColor(card, cv2.COLOR_BGR2LAB).astype(np.float32)
    band = _margin_mask()
    return float((np.linalg.norm(lab[band] - paper, axis=1) < PAPER_TOL).mean())


def _margin_mask() -> np.ndarray:
    """The margin band of the warped card, less its two index corners."""
    mask = np.zeros((CARD_H, CARD_W), bool)
    mask[:MARGIN] = mask[-MARGIN:] = True
    mask[:, :MARGIN] = mask[:, -MARGIN:] = True
    iw, ih = int(INDEX_W * CARD_W), int(INDEX_H * CARD_H)
    mask[:ih, :iw] = mask[-ih:, -iw:] = False
    return mask


def printed_on_back(image: np.ndarray, quad: np.ndarray, patch: np.ndarray,
                    unread: Sequence[np.ndarray], card_size: float | None) -> bool:
    """Is the find `quad` (corner 0 its index corner), read from `patch`, a picture
    printed on a back: its index inside one of the `unread` outlines (INDEX_INSIDE),
    that outline one card of the frame's `card_size` (ONE_CARD; None: not told, so
    no), the find smaller than it (PRINT_AREA), and its margin not its paper
    (MARGIN_PAPER)?"""
    if card_size is None:
        return False
    q = np.asarray(quad, np.float32).reshape(4, 2)
    region = _index_region(q)
    area, index_area = float(cv2.contourArea(q)), float(cv2.contourArea(region))
    if index_area <= 0 or not any(_holds(region, index_area, area, u, card_size)
                                  for u in unread):
        return False
    return margin_paper(image, q, patch) < MARGIN_PAPER


def _holds(region: np.ndarray, index_area: float, area: float, outline: np.ndarray,
           card_size: float) -> bool:
    """Is the unread `outline` one card (ONE_CARD of `card_size`) holding the find's
    index `region` (INDEX_INSIDE), the find smaller than it (PRINT_AREA)?"""
    u = np.asarray(outline, np.float32).reshape(4, 2)
    outline_area = float(cv2.contourArea(u))
    return (np.sqrt(max(outline_area, 0.0)) <= ONE_CARD * card_size
            and area <= PRINT_AREA * outline_area
            and cv2.intersectConvexConvex(region, u)[0] >= INDEX_INSIDE * index_area)


def _index_region(q: np.ndarray) -> np.ndarray:
    """The index region at the quad's corner 0 (patch.INDEX_BOX's shares), as an
    image quad."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    box = np.float32([[[0, 0], [INDEX_W, 0], [INDEX_W, INDEX_H], [0, INDEX_H]]])
    return cv2.perspectiveTransform(box, cv2.getPerspectiveTransform(unit, q))[0]
