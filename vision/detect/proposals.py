"""Card hypotheses from contours: whole outlines, and corner-based guesses for cards
that overlap.

Why two kinds: a lone card's outline is a clean four-sided contour, but two cards
lying across each other (Durak's beating card, a sloppy drop) merge into one blob
whose outline has six to eight corners. Each card still shows at least one of its own
right-angled corners on that outline, with two straight sides leaving it; knowing
roughly how big cards are in this frame, such a corner pins the whole card down. The
guesses are cheap and many; `select.py` keeps those the image edges support.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import Evidence

#: Corner angles accepted as the corner of a card seen at an angle (degrees from 90).
CORNER_TOLERANCE = 28.0


def contours(ev: Evidence, min_area: float) -> list[np.ndarray]:
    """Closed outlines from the edge map and from the paper mask, large enough to be
    a card (or several)."""
    h, w = ev.shape
    max_area = 0.95 * h * w
    out: list[np.ndarray] = []
    k3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    closed = cv2.dilate(ev.edges, k3)
    cs, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out.extend(cs)
    paper = cv2.morphologyEx(ev.bright, cv2.MORPH_OPEN, k3)
    cs, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out.extend(cs)
    keep = []
    for c in out:
        if len(c) < 4:
            continue
        a = cv2.contourArea(c)
        if min_area <= a <= max_area:
            keep.append(c)
    return keep


def whole_quads(
    cs: Iterable[np.ndarray], *, hull: bool = True, coarse: bool = True
) -> list[np.ndarray]:
    """Contours that simplify to a card-shaped quad, as they are or by their convex
    hull (a card's outline that caught a few texture edges, or whose printed index
    touches its border, is still convex at heart)."""
    out = []
    for c in cs:
        shapes = [c]
        if hull:
            h = cv2.convexHull(c)
            # The hull only for nearly convex outlines: two cards lying across each
            # other are far from convex, and their hull is no card.
            if cv2.contourArea(c) >= 0.92 * cv2.contourArea(h):
                shapes.append(h)
        for k, shape in enumerate(shapes):
            peri = cv2.arcLength(shape, True)
            for eps in (0.015, 0.03, 0.05) if coarse else (0.015, 0.03):
                poly = cv2.approxPolyDP(shape, eps * peri, True)
                if len(poly) < 4:
                    break
                if len(poly) == 4:
                    q = poly.reshape(4, 2).astype(np.float32)
                    if g.is_card_shaped(q):
                        out.append(g.order_quad(q))
                    break
    return out


def corners_of(c: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """Convex, near-right-angled corners on a simplified contour, each as (point,
    direction to previous vertex, direction to next vertex, their lengths)."""
    peri = cv2.arcLength(c, True)
    poly = cv2.approxPolyDP(c, 0.012 * peri, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if n < 4 or n > 24:
        return []
    orient = np.sign(g.signed_area(poly))
    out = []
    for i in range(n):
        p, a, b = poly[i], poly[i - 1], poly[(i + 1) % n]
        da, db = a - p, b - p
        la, lb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
        if la < 6 or lb < 6:
            continue
        cross = float(da[0] * db[1] - da[1] * db[0])
        # On a clockwise contour a convex corner turns one way; reflex corners (the
        # notch where two cards meet) turn the other and are not card corners.
        if np.sign(cross) == orient:
            continue
        cos = float(np.dot(da, db)) / (la * lb)
        ang = float(np.degrees(np.arccos(np.clip(cos, -1, 1))))
        if abs(ang - 90.0) <= CORNER_TOLERANCE:
            out.append((p, da / la, db / lb, la, lb))
    return out


def corner_hypotheses(
    cs: Iterable[np.ndarray], sizes: list[tuple[float, float]], min_short: float,
    *, side_guesses: bool = False,
) -> list[np.ndarray]:
    """Card quads completed from single corners of (possibly merged) outlines.

    `sizes` are (short, long) side lengths believed likely in this frame (from cards
    found whole); without them, or with `side_guesses`, the visible side lengths at
    each corner add their own guesses.
    """
    out = []
    r = g.ASPECT_NOMINAL
    for c in cs:
        for p, da, db, la, lb in corners_of(c):
            guesses = set()
            # Both sides leaving the corner may be whole sides (the card's next
            # corners show too): the card is then the parallelogram they span.
            if min(la, lb) >= min_short:
                guesses.add((la, lb))
            for s, l in sizes:
                guesses.add((s, l))
                guesses.add((l, s))
            for length, which in ((la, 0), (lb, 1)):
                if (sizes and not side_guesses) or length < min_short:
                    continue  # cards found whole tell the size better than a side
                for other in (length * r, length / r):
                    guesses.add((length, other) if which == 0 else (other, length))
            for l1, l2 in guesses:
                if l1 < 0.85 * la or l2 < 0.85 * lb:
                    continue  # a visible straight side cannot be longer than the card
                if min(l1, l2) < min_short:
                    continue
                q = g.rectangle_from_corner(p, da, db, l1, l2)
                out.append(g.order_quad(q))
    return out
