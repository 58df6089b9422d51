"""Where a card of a row or a fan lies beside a card found: its far side, a
straight edge against the table or the card beneath, searched for by shift and
turn, its top and bottom sides continuing the found card's (a small slide along its
long side); and the cards at the two ends of an outline round a row.

Why apart from strips.py: this is geometry on image gradients alone, tested on
synthetic images; strips.py decides what of it is read and believed.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognize.patch import normalize_quad

#: Shift of a strip card from its seed, as a share of the card's width.
SHIFT = (0.15, 0.92)
#: Turns of a fan card against its seed (degrees).
TURNS = (-10.0, -7.5, -5.0, -2.5, 0.0, 2.5, 5.0, 7.5, 10.0)
#: Slide of a strip card along its long side, as a share of the card's height.
SLIDE = 0.12
#: The far side must be an edge: its mean gradient across at least this (grey
#: levels per pixel, Sobel 3x3 on a 5x5 blur) ...
MIN_EDGE = 8.0
#: ... and the strips tried per seed and way: the strongest far-side edges.
PEAKS = 8
#: ... at least this share of the width apart.
PEAK_GAP = 0.04


def gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y gradients of the blurred grey image (full resolution: a strip's far
    side against the card beneath is a faint step a work scale would blur away)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    return (cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3))


def edge_along(gx: np.ndarray, gy: np.ndarray, a: np.ndarray, b: np.ndarray,
                n: int = 24) -> np.ndarray:
    """Mean gradient across segments a->b (arrays (..., 2)), sampled at n points
    from 8% to 92% of their length (the ends may be under other cards' corners);
    points outside the image count 0."""
    f = np.linspace(0.08, 0.92, n, dtype=np.float32)
    pts = a[..., None, :] + (b - a)[..., None, :] * f[:, None]
    d = b - a
    norm = np.hypot(d[..., 0], d[..., 1])[..., None] + 1e-6
    nx, ny = -d[..., 1:2] / norm, d[..., 0:1] / norm
    h, w = gx.shape
    xi = np.rint(pts[..., 0]).astype(np.int64)
    yi = np.rint(pts[..., 1]).astype(np.int64)
    ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    xi, yi = np.clip(xi, 0, w - 1), np.clip(yi, 0, h - 1)
    g = np.abs(gx[yi, xi] * nx + gy[yi, xi] * ny) * ok
    return g.mean(axis=-1)


def _turned(q: np.ndarray, deg: float) -> np.ndarray:
    c = q.mean(axis=0)
    a = np.radians(deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (q - c) @ rot.T + c


def _peaks(profile: np.ndarray, spacing: int, count: int, floor: float) -> list[int]:
    """Indices of the `count` highest local maxima of `profile` at least `floor`,
    at least `spacing` apart."""
    order = np.argsort(-profile)
    out: list[int] = []
    for i in order:
        if profile[i] < floor or len(out) >= count:
            break
        if all(abs(int(i) - j) >= spacing for j in out):
            out.append(int(i))
    return out


def strip_quads(seed: np.ndarray, way: int, gx: np.ndarray, gy: np.ndarray
                ) -> list[tuple[np.ndarray, int, float, float]]:
    """The strip cards worth reading beside the normalised card quad `seed`, `way`
    +1 (towards its corner 1 side) or -1 (its corner 0 side): per strip its quad,
    the index corner that would be in view (see module), its far side's edge
    strength and its shift (share of the width)."""
    u = seed[1] - seed[0]
    width = float(np.hypot(*u))
    v = seed[3] - seed[0]
    height = float(np.hypot(*v))
    if width < 8 or height < 8:
        return []
    ts = np.arange(SHIFT[0], SHIFT[1], 1.0 / width, dtype=np.float32)
    turned = np.stack([_turned(seed, a) for a in TURNS])  # (A, 4, 2)
    # Every (turn, shift): the far side of the strip card.
    hyp = turned[:, None] + (way * ts)[None, :, None, None] * u  # (A, T, 4, 2)
    top, bottom = (1, 2) if way > 0 else (0, 3)
    score = edge_along(gx, gy, hyp[..., top, :], hyp[..., bottom, :])  # (A, T)
    best_turn = score.argmax(axis=0)
    profile = score.max(axis=0)
    out = []
    for i in _peaks(profile, max(2, int(PEAK_GAP * width)), PEAKS, MIN_EDGE):
        q = _fine(seed, way, TURNS[best_turn[i]], float(ts[i]), gx, gy)
        out.append((_slid(q, way, gx, gy), 2 if way > 0 else 0, float(profile[i]),
                    float(ts[i])))
    return out


#: The fine search round a coarse (turn, shift): turns (degrees) and shifts (share
#: of the width) this far either way.
FINE_TURN, FINE_SHIFT = 2.0, 0.03


def _fine(seed: np.ndarray, way: int, turn: float, t: float, gx: np.ndarray,
          gy: np.ndarray) -> np.ndarray:
    """The strip card at the coarse (`turn`, `t`) beside `seed`, its far side
    snapped onto the strongest edge within FINE_TURN degrees and FINE_SHIFT of it
    (the coarse grid's 2.5 degrees put a far corner a few pixels off the card's,
    enough to misplace a strip's whole card on a small photo)."""
    u = seed[1] - seed[0]
    width = float(np.hypot(*u))
    turns = turn + np.arange(-FINE_TURN, FINE_TURN + 1e-6, 0.5)
    ts = t + np.arange(-FINE_SHIFT, FINE_SHIFT + 1e-6, 0.5 / width, dtype=np.float32)
    turned = np.stack([_turned(seed, float(a)) for a in turns])
    hyp = turned[:, None] + (way * ts)[None, :, None, None] * u
    top, bottom = (1, 2) if way > 0 else (0, 3)
    score = edge_along(gx, gy, hyp[..., top, :], hyp[..., bottom, :])
    a, i = np.unravel_index(int(score.argmax()), score.shape)
    return hyp[a, i].astype(np.float32)


def _slid(q: np.ndarray, way: int, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """`q` slid along its long side to where its top and bottom sides, over the
    strip that shows (the far quarter of the card), lie on edges."""
    height = float(np.hypot(*(q[3] - q[0])))
    v = (q[3] - q[0]) / max(height, 1e-6)
    ss = np.arange(-SLIDE, SLIDE + 1e-6, 1.0 / height, dtype=np.float32) * height
    far, near = ((1, 0), (2, 3)) if way > 0 else ((0, 1), (3, 2))
    # The strip's visible stretch of the top and bottom sides: from the far corner
    # a fifth of the width in.
    a_top, b_top = q[far[0]], q[far[0]] + 0.2 * (q[far[1]] - q[far[0]])
    a_bot, b_bot = q[near[0]], q[near[0]] + 0.2 * (q[near[1]] - q[near[0]])
    shift = ss[:, None] * v
    score = (edge_along(gx, gy, a_top + shift, b_top + shift, 8)
             + edge_along(gx, gy, a_bot + shift, b_bot + shift, 8))
    return (q + ss[int(score.argmax())] * v).astype(np.float32)


#: A card's long side over its short one (poker 88/63).
CARD_ASPECT = 1.4


def side_lengths(q: np.ndarray) -> tuple[float, float]:
    """Mean lengths of sides 0-1/3-2 and of sides 0-3/1-2."""
    a = 0.5 * (np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[3])))
    b = 0.5 * (np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1])))
    return float(a), float(b)


def long_over_short(quad: np.ndarray) -> float:
    """Long over short side of the quad (means of opposite sides)."""
    a, b = side_lengths(normalize_quad(quad))
    return max(a, b) / max(min(a, b), 1e-6)


def row_ends(quad: np.ndarray, aspect: float = CARD_ASPECT) -> list[np.ndarray]:
    """The cards at the two ends of an outline round a row of cards standing
    across it (normalised quads), each as tall as the outline is across and
    `aspect` (the cards' long over short side) times narrower: along its long sides, or, for a near-square
    outline (which way the row runs is not told), along either pair of sides."""
    q = normalize_quad(quad)
    a, b = side_lengths(q)  # (normalised: sides 0-1 are the short ones)
    out = []
    for p, length, across in ((q, b, a), (q[[1, 2, 3, 0]], a, b)):
        t = across / aspect / max(length, 1e-6)
        if t > 0.8:
            continue
        # The row runs along p0->p3 and p1->p2; the end cards span p0-p1, p3-p2.
        out.append(np.array([p[0], p[1], p[1] + (p[2] - p[1]) * t, p[0] + (p[3] - p[0]) * t]))
        out.append(np.array([p[3] + (p[0] - p[3]) * t, p[2] + (p[1] - p[2]) * t, p[2], p[3]]))
    return [normalize_quad(e) for e in out]
