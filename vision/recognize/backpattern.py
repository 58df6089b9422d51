"""A card read from a corner that lies on a card back's printed lattice: no card.

Why: a candidate outline that runs onto a face-down card can put its index box on
the back's pattern, and the first network, shown a checkered or diapered patch it
was never taught, may read it surely as a card: calibration decks seed 40 scene 209,
a lone-corner outline (index_visible (False, True)) whose one index box lay on
gnome/simplistic's blue checkered back read "JD" 0.98 (rank 0.997), a phantom. Real
card faces print their index on plain paper: a rank glyph over a suit sign, nothing
repeating. A back's pattern repeats in two directions across the whole box.

So a patch is taken for a back's pattern when its autocorrelation (after a high
pass that leaves the fine pattern, not the edge between a back and the table) shows
a lattice: two peaks a and b in non-parallel directions, each with a dip between it
and the origin (a pattern, not a straight edge or stroke, which correlates with
itself all along its length), and a+b and a-b peaks too (a lattice repeats: a
glyph's strokes may give two or three peaks, not the four). `lattice_strength` is
the weakest of the four (each peak's height or its dip, whichever is less).
Asking a+b or a-b alone cost a right card: training decks seed 7 scene 59, a 10H's
big "10" over its heart scored 0.35 (0.16 asking both).

Measured (session 16, scratch scripts, numbers in the constants): 958 index patches
of face-up cards from true quads (rendered training decks seed 7, calibration decks
seed 5, 40 scenes each) score at most 0.25; 7,801 patches cut by loose outlines round
the 30 training and calibration decks' backs (training.backs.view_candidates, 6 views
a back) score LATTICE or more in 10% (checkered, striped and diapered backs; backs
with a picture or a plain field hardly ever); the phantom JD's patch scores 0.51.

Stills only (reader.read_candidates(..., lattice=True), the default; the live Pipeline
passes False): it costs about a millisecond (1.5 ms on a loaded dev machine)
a patch, asked of the patches that named a card read.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.recognize.readings import CardReading, Reading

#: Sigma (patch px) of the blur subtracted before correlating: keeps a back's fine
#: pattern (period ~5-12 px in a 32 x 64 patch) and drops the step between a back
#: or card and the table, which otherwise dominates the correlation (the phantom
#: JD's patch scored 0 without it).
HIGH_PASS = 2.5
#: Each place of the high-passed patch is divided by its local contrast (RMS over a
#: Gaussian of sigma LOCAL px), floored at LOCAL_FLOOR of the patch's highest: a
#: back's white margin or a card's edge otherwise outweighs its pattern (gnome/
#: simplistic's checkered back cut at its true quad scored 0.27 without it, 0.44-0.50
#: with it; at 24 x 12 lags the faces' highest fell from 0.25 to 0.21).
LOCAL = 4.0
LOCAL_FLOOR = 0.3
#: Lags correlated: up to this many rows and columns (half the patch overlaps
#: itself). At 24 x 12 a coarse checker cut turned 20° (gnome/simplistic's back
#: 200 px tall) showed two of its lattice's peaks, scoring 0; at 32 x 16 it scores
#: 0.9 (36 x 18, asking a+b or a-b only, took the faces' highest to 0.35).
MAX_DY, MAX_DX = 32, 16
#: A peak is at least this far from the origin (the origin's own lobe is not one).
MIN_LAG = 2.5
#: Peaks considered: above this normalised correlation, the strongest MAX_PEAKS.
MIN_PEAK = 0.15
MAX_PEAKS = 10
#: Two peak directions are non-parallel when the sine of their angle is this or more.
MIN_SINE = 0.5
#: A lattice's peaks a+b and a-b lie within this many px of their places.
LATTICE_TOL = 2.0
#: A patch scoring this or more is a back's pattern: faces scored at most 0.25 of
#: 958, the phantom 0.51 (module). A patch wrongly taken for a back costs a card
#: read, never gives one wrong.
LATTICE = 0.35


def _correlation(patch: np.ndarray) -> np.ndarray:
    """The high-passed patch's autocorrelation over lags |dy| <= MAX_DY, |dx| <=
    MAX_DX, each lag normalised by its overlap and the patch's variance (origin 1)."""
    g = patch if patch.ndim == 2 else cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    g = g.astype(np.float32)
    g -= cv2.GaussianBlur(g, (0, 0), HIGH_PASS)
    local = np.sqrt(cv2.GaussianBlur(g * g, (0, 0), LOCAL))
    g /= np.maximum(local, LOCAL_FLOOR * float(local.max()) + 1.0)
    g -= float(g.mean())
    h, w = g.shape
    var = float((g * g).mean())
    if var < 1e-3:
        return np.zeros((2 * MAX_DY + 1, 2 * MAX_DX + 1), np.float32)
    pad = np.zeros((2 * h, 2 * w), np.float32)
    pad[:h, :w] = g
    f = cv2.dft(pad, flags=cv2.DFT_COMPLEX_OUTPUT)
    ac = cv2.idft(cv2.mulSpectrums(f, f, 0, conjB=True), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    ac = np.fft.fftshift(ac)[h - MAX_DY:h + MAX_DY + 1, w - MAX_DX:w + MAX_DX + 1]
    dy = np.abs(np.arange(-MAX_DY, MAX_DY + 1, dtype=np.float32))[:, None]
    dx = np.abs(np.arange(-MAX_DX, MAX_DX + 1, dtype=np.float32))[None, :]
    return ac / ((h - dy) * (w - dx) * var)


def _peaks(ac: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """(strength, lag) of the correlation's peaks, one of each symmetric pair:
    strength is the peak's height or its dip (height less the lowest correlation on
    the way from the origin), whichever is less."""
    cy, cx = MAX_DY, MAX_DX
    core = ac[1:-1, 1:-1]
    top = cv2.dilate(ac, np.ones((3, 3), np.uint8))[1:-1, 1:-1]
    ys, xs = np.nonzero((core >= top) & (core > MIN_PEAK))
    ys, xs = ys + 1, xs + 1
    dy, dx = ys - cy, xs - cx
    keep = ((dy > 0) | ((dy == 0) & (dx > 0))) & (np.hypot(dy, dx) >= MIN_LAG)
    ys, xs, dy, dx = ys[keep], xs[keep], dy[keep], dx[keep]
    order = np.argsort(-ac[ys, xs])[:MAX_PEAKS]
    out = []
    for k in order:
        r = float(np.hypot(dy[k], dx[k]))
        t = np.linspace(0.0, 1.0, int(2 * r) + 2)[1:-1]
        line = ac[np.round(cy + t * dy[k]).astype(int), np.round(cx + t * dx[k]).astype(int)]
        height = float(ac[ys[k], xs[k]])
        out.append((min(height, height - float(line.min())),
                    np.array([dy[k], dx[k]], np.float32)))
    return out


def lattice_strength(patch: np.ndarray) -> float:
    """How surely `patch` shows a two-way repeating pattern (see module): the best,
    over two non-parallel peaks a and b, of the weakest of a, b, a+b and a-b."""
    peaks = _peaks(_correlation(patch))
    if len(peaks) < 2:
        return 0.0
    s = np.array([p[0] for p in peaks], np.float32)
    lag = np.array([p[1] for p in peaks], np.float32)  # (P, 2)
    norm = np.hypot(lag[:, 0], lag[:, 1])
    cross = np.abs(lag[:, None, 0] * lag[None, :, 1] - lag[:, None, 1] * lag[None, :, 0])
    sine = cross / (norm[:, None] * norm[None, :])
    pair = np.minimum(s[:, None], s[None, :])
    pair[sine < MIN_SINE] = 0.0
    if float(pair.max()) <= 0.0:
        return 0.0
    for v in (lag[:, None, :] + lag[None, :, :], lag[:, None, :] - lag[None, :, :]):
        # strength of the peak at v or -v (P x P x P distances): both must be peaks
        d = np.minimum(np.linalg.norm(v[:, :, None, :] - lag[None, None], axis=-1),
                       np.linalg.norm(v[:, :, None, :] + lag[None, None], axis=-1))
        pair = np.minimum(pair, np.where(d <= LATTICE_TOL, s[None, None], 0.0).max(axis=-1))
    return float(pair.max())


def on_a_back(patch: np.ndarray) -> bool:
    """Does `patch` show a back's printed lattice (LATTICE or more)?"""
    return lattice_strength(patch) >= LATTICE


def any_on_a_back(patches: Sequence[np.ndarray]) -> bool:
    """Does one of `patches` show a back's printed lattice?"""
    return any(on_a_back(p) for p in patches)


def reads_a_back(card: CardReading, patches: Sequence[np.ndarray],
                 readings: Sequence[Reading]) -> bool:
    """Does a patch that named `card`'s rank (every patch, if none did: a card the
    second look or the pair gave) show a back's lattice?"""
    naming = [p for p, r in zip(patches, readings) if r.rank is not None and r.rank == card.rank]
    return any_on_a_back(naming or list(patches))
