"""Printed surfaces for rectangular objects lying over the cards (`Distractor.texture`).

Real photos show cards half under a book, a magazine or a cribbage board: the
object's edge runs across the card, and its print (text lines, a picture, coloured
bands) lies right beside the part of the card still in view. A plain block would
only test the edge. The print is drawn in the object's own millimetres (seen
through the camera like the table texture), so it shrinks and slants with it.
"""

from __future__ import annotations

import math

import numpy as np

from vision.scene.camera import project
from vision.scene.spec import Distractor

#: Texture names `Distractor.texture` may hold ("" = plain colour).
TEXTURES = ("print", "stripes")


def _local_mm(d: Distractor, hom: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """For each pixel of `box` (x0, y0, x1, y1), its (u, v) in the object's frame, mm
    from its centre (u along `size_mm`, v along `size_mm * aspect`)."""
    x0, y0, x1, y1 = box
    gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    pix = np.column_stack([gx.ravel() + 0.5, gy.ravel() + 0.5])
    world = project(np.linalg.inv(hom), pix) - [d.x_mm, d.y_mm]
    a = math.radians(d.angle_deg)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return (world @ rot.T).reshape(y1 - y0, x1 - x0, 2)


def _page(d: Distractor, uv: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A light page of text lines in columns, often with a picture block."""
    w, h = d.size_mm, d.size_mm * d.aspect
    u, v = uv[..., 0] + w / 2, uv[..., 1] + h / 2  # from the page's corner
    pitch = float(rng.uniform(3.5, 6.0))  # line spacing, mm
    cell = float(rng.uniform(1.5, 2.5))  # a letter, mm
    margin = float(rng.uniform(4.0, 12.0))
    # words of 2-9 letters and a blank letter between them, row by row
    cols = int(w / cell) + 2
    letters = np.zeros((int(h / pitch) + 2, cols), bool)
    for r in range(letters.shape[0]):
        c = 0
        while c < cols:
            n = int(rng.integers(2, 10))
            letters[r, c:c + n] = True
            c += n + 1
    row = np.clip((v / pitch).astype(np.int64), 0, letters.shape[0] - 1)
    col = np.clip((u / cell).astype(np.int64), 0, cols - 1)
    # a letter is strokes, not a block: on its cell's left 3/4, in the line's x-height
    strokes = np.sin(u * (2 * np.pi / (cell * 0.5))) > -0.2
    ink = (letters[row, col] & ((v % pitch) < 0.45 * pitch) & ((u % cell) < 0.75 * cell)
           & strokes & (u > margin) & (u < w - margin) & (v > margin) & (v < h - margin))
    out = np.empty(uv.shape[:2] + (3,), np.float32)
    page = np.asarray(d.colour, np.float32)
    out[:] = page
    ink_colour = np.array([30, 30, 35] if rng.random() < 0.8 else [40, 40, 170], np.float32)
    out[ink] = ink_colour
    if rng.random() < 0.6:  # a picture: a block of smooth colour noise
        pu0, pv0 = rng.uniform(0.1, 0.5) * w, rng.uniform(0.1, 0.5) * h
        pu1, pv1 = pu0 + rng.uniform(0.3, 0.5) * w, pv0 + rng.uniform(0.25, 0.45) * h
        pic = (u > pu0) & (u < pu1) & (v > pv0) & (v < pv1)
        c0, c1 = rng.integers(20, 235, (2, 3)).astype(np.float32)
        t = 0.5 + 0.5 * np.sin(u / rng.uniform(6, 20)) * np.cos(v / rng.uniform(6, 20))
        out[pic] = (c0 + (c1 - c0) * t[..., None])[pic]
    return out


def _stripes(d: Distractor, uv: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Coloured bands running along the object's length on its own colour."""
    w = d.size_mm
    u = uv[..., 0] + w / 2
    edges = np.sort(rng.uniform(0, w, int(rng.integers(2, 7)) * 2))
    band = np.searchsorted(edges, u)  # odd = inside a band
    palette = rng.integers(20, 235, (len(edges) + 1, 3)).astype(np.float32)
    out = np.empty(uv.shape[:2] + (3,), np.float32)
    out[:] = np.asarray(d.colour, np.float32)
    odd = (band % 2) == 1
    out[odd] = palette[band[odd]]
    return out


def printed_surface(d: Distractor, hom: np.ndarray,
                    box: tuple[int, int, int, int]) -> np.ndarray:
    """The colour of `d`'s surface over the image box (x0, y0, x1, y1): float32 BGR,
    (y1 - y0, x1 - x0, 3). Unknown textures raise ValueError."""
    rng = np.random.default_rng(d.seed + 2)
    uv = _local_mm(d, hom, box)
    if d.texture == "print":
        return _page(d, uv, rng)
    if d.texture == "stripes":
        return _stripes(d, uv, rng)
    raise ValueError(f"unknown distractor texture {d.texture!r} (known: {TEXTURES})")
