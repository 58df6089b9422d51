"""Does an outline's side end at an object (a book, a board) rather than the table?

Why a module of its own: partial.py grows a card's part in view across a side cut
by an object, and indexfind_blocked.py takes an index whose paper stops at one;
both ask the same question of the photo, in Lab: is the band beyond a side unlike
the table the card lies on (`object_edges`, `contrast`)?
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.recognize.patch import normalize_quad

#: The band beyond the cut side must differ from the table's (object_edges) by
#: this much (Lab mean distance plus the difference of the L channel's spread).
OBJECT_CONTRAST = 25.0
#: Bands beyond a side: from and to these shares of the outline's mean side length.
BAND = (0.04, 0.2)


def lab_of(image: np.ndarray) -> np.ndarray:
    """The BGR `image` in Lab (8-bit)."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def band(lab: np.ndarray, part: np.ndarray, side: int, span: tuple[float, float] = (0.1, 0.9)
          ) -> np.ndarray | None:
    """Lab samples of the band just beyond side `side` of `part`, along `span` of
    the side (shares from its first corner; None: mostly outside the image)."""
    p, q = part[side], part[(side + 1) % 4]
    centre = part.mean(axis=0)
    d = q - p
    n = np.array([d[1], -d[0]], np.float32) / max(float(np.hypot(*d)), 1e-6)
    if float(np.dot(n, (p + q) / 2 - centre)) < 0:
        n = -n  # outward
    size = float(np.sqrt(max(float(cv2.contourArea(part)), 1.0)))
    t = np.linspace(span[0], span[1], 16, dtype=np.float32)
    s = np.linspace(BAND[0], BAND[1], 5, dtype=np.float32) * size
    pts = (p[None, None, :] + t[:, None, None] * d[None, None, :]
           + s[None, :, None] * n[None, None, :]).reshape(-1, 2)
    return sample(lab, pts)


def sample(lab: np.ndarray, pts: np.ndarray) -> np.ndarray | None:
    """Lab pixels at the points `pts` (N, 2) that lie in the image; None when fewer
    than 60% do (a band mostly outside the photo says nothing of what lies there)."""
    h, w = lab.shape[:2]
    x, y = np.rint(pts[:, 0]).astype(int), np.rint(pts[:, 1]).astype(int)
    ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    if ok.mean() < 0.6:
        return None
    return lab[y[ok], x[ok]].astype(np.float32)

def contrast(a: np.ndarray, b: np.ndarray) -> float:
    """How unlike two bands' samples look: Lab mean distance plus the difference of
    their L spread (a book's print or a board's stripes on a plain table)."""
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))
                 + abs(float(a[:, 0].std()) - float(b[:, 0].std())))


def table_bands(lab: np.ndarray, q: np.ndarray, k: int) -> list[np.ndarray]:
    """The table beside the normalised part `q`, were its side `k` cut by an object:
    the bands beyond the opposite side and beyond the halves of the two sides
    between nearer that end (see object_edges)."""
    # (side k + 1 runs towards the far end, side k + 3 away from it)
    others = [band(lab, q, (k + 2) % 4), band(lab, q, (k + 1) % 4, (0.55, 0.9)),
              band(lab, q, (k + 3) % 4, (0.1, 0.45))]
    return [b for b in others if b is not None]


def inside(lab: np.ndarray, quad: np.ndarray, far: tuple[float, float]) -> np.ndarray | None:
    """Lab samples of `quad` (p0, p1 on one side, p2, p3 the far corners) between
    shares `far` of the way from side p0-p1 to the far side (None: mostly outside
    the image)."""
    u = np.linspace(0.1, 0.9, 12, dtype=np.float32)[:, None, None]
    v = np.linspace(far[0], far[1], 6, dtype=np.float32)[None, :, None]
    near = quad[0] + u * (quad[1] - quad[0])
    away = quad[3] + u * (quad[2] - quad[3])
    pts = (near + v * (away - near)).reshape(-1, 2)
    return sample(lab, pts)


def object_edges(lab: np.ndarray, part: Any) -> list[float]:
    """Per side of the normalised `part`: how unlike the band beyond it looks to
    the table the card lies on, in the photo `lab` (Lab; 0: a side the photo cuts).

    The table, were that side cut by an object, is what lies beyond the other
    sides where the object is not: the whole opposite side (the card's end in
    view), and of the two sides between, the half nearer that end (the object
    reaching past the card's sides lies beyond their other half). The least unlike
    of the three counts."""
    q = normalize_quad(part)
    out = []
    for k in range(4):
        beyond = band(lab, q, k)
        known = table_bands(lab, q, k)
        out.append(0.0 if beyond is None or not known
                   else min(contrast(beyond, b) for b in known))
    return out
