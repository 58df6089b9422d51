"""Procedural table surfaces: green felt, light and dark cloth, wood.

Drawn in table millimetres and then seen through the camera homography, so weave and
grain shrink with distance like the real thing. Kept cheap (a few low-resolution
noise fields upsampled) because training renders thousands of frames.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.scene.camera import project
from vision.scene.spec import TableStyle

#: Largest texture canvas side in pixels; beyond it the texture is drawn coarser.
_MAX_SIDE = 1400


def _grain(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Fine per-pixel grain: a random 128x128 tile repeated (far cheaper than full-size
    normal noise, and the repeat is invisible under the camera warp and sensor noise)."""
    tile = rng.standard_normal((128, 128), dtype=np.float32) * sigma
    h, w = shape
    return np.tile(tile, (h // 128 + 1, w // 128 + 1))[:h, :w]


def _smooth(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Value noise in about -1..1 with features about `cell` pixels wide."""
    h, w = shape
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, choices: list[tuple[int, int, int]],
            jitter: float) -> np.ndarray:
    base = np.array(choices[int(rng.integers(len(choices)))], dtype=np.float32)
    return np.clip(base * rng.uniform(1 - jitter, 1 + jitter, 3), 0, 255).astype(np.float32)


#: A texture is two single-channel maps in table space, `mix` (0..1 between colour
#: c0 and c1) and `shade` (multiplier around 1), plus the two colours. Colour is only
#: applied after the camera warp: half the work of warping and shading BGR.
_Tex = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _felt(rng: np.random.Generator, shape: tuple[int, int], mm: float) -> _Tex:
    base = _colour(rng, [(40, 105, 25), (50, 120, 40), (60, 90, 20), (35, 80, 15),
                         (90, 70, 20)], 0.2)  # BGR greens, one blue-green
    shade = 1.0 + 0.06 * _smooth(rng, shape, 60 / mm) + 0.04 * _smooth(rng, shape, 8 / mm)
    shade += _grain(rng, shape, 0.06)
    return np.zeros(shape, np.float32), shade, base, base


def _cloth(rng: np.random.Generator, shape: tuple[int, int], mm: float, light: bool) -> _Tex:
    if light:
        palette = [(215, 220, 225), (190, 205, 215), (225, 215, 200), (200, 200, 200),
                   (210, 190, 170), (170, 200, 210)]
    else:
        palette = [(40, 30, 25), (70, 35, 30), (35, 30, 80), (30, 30, 30), (60, 50, 40),
                   (45, 60, 35)]
    base = _colour(rng, palette, 0.12)
    h, w = shape
    xs = np.arange(w, dtype=np.float32)
    ys = np.arange(h, dtype=np.float32)
    period = float(rng.uniform(0.8, 2.0)) * mm  # weave period in texture pixels
    weave = np.outer(np.sin(ys * (2 * np.pi / period)), np.sin(xs * (2 * np.pi / period)))
    shade = 1.0 + 0.05 * weave + 0.07 * _smooth(rng, shape, 80 / mm) + _grain(rng, shape, 0.03)
    mix = np.zeros(shape, np.float32)
    other = base
    if light and rng.random() < 0.4:  # a checked or striped tablecloth
        step = float(rng.uniform(15, 40)) * mm
        other = _colour(rng, [(60, 60, 170), (150, 90, 40), (60, 130, 60)], 0.2)
        a = (np.floor(xs / step) % 2)[None, :]
        b = (np.floor(ys / step) % 2)[:, None] if rng.random() < 0.7 else np.zeros((h, 1))
        mix = ((0.5 * a + 0.5 * b) * float(rng.uniform(0.4, 0.9))).astype(np.float32)
    return mix, shade, base, other


def _wood(rng: np.random.Generator, shape: tuple[int, int], mm: float) -> _Tex:
    light = _colour(rng, [(90, 140, 190), (70, 110, 160), (110, 160, 200), (50, 80, 120),
                          (40, 60, 90)], 0.15)
    dark = light * float(rng.uniform(0.55, 0.75))
    h = shape[0]
    yy = np.arange(h, dtype=np.float32)[:, None]
    warp = 25.0 * mm * _smooth(rng, shape, 150 / mm) + 3.0 * mm * _smooth(rng, shape, 20 / mm)
    ring = 0.5 + 0.5 * np.sin((yy + warp) * np.float32(2 * np.pi / (rng.uniform(4, 9) * mm)))
    t = 0.75 * ring ** 3 + 0.25 * (0.5 + 0.5 * _smooth(rng, shape, 40 / mm))
    plank = float(rng.uniform(90, 200)) * mm
    seam = np.abs(((yy + 7 * mm) % plank) - plank / 2) > plank / 2 - 0.6 * mm
    shade = np.where(seam, np.float32(0.45), np.float32(1.0))
    shade = shade * (1.0 + 0.04 * rng.standard_normal((h, 1), dtype=np.float32)) \
        + _grain(rng, shape, 0.02)
    return t.astype(np.float32), shade.astype(np.float32), light, dark


def _carpet(rng: np.random.Generator, shape: tuple[int, int], mm: float) -> _Tex:
    base = _colour(rng, [(120, 140, 160), (90, 110, 130), (150, 160, 170), (70, 80, 90),
                         (110, 120, 110), (60, 70, 110)], 0.15)
    other = base * float(rng.uniform(0.45, 0.7))
    # tufts: fine high-contrast speckle, clumped by a slightly coarser field
    fine = _smooth(rng, shape, max(1.5, 1.2 * mm)) + 0.5 * _grain(rng, shape, 1.0)
    clumps = _smooth(rng, shape, max(2.0, 4.0 * mm))
    mix = np.clip(0.5 + 0.35 * fine + 0.35 * clumps, 0.0, 1.0).astype(np.float32)
    shade = (1.0 + 0.08 * _smooth(rng, shape, 120 / mm)).astype(np.float32)
    return mix, shade, base, other


def render_table(style: TableStyle, seed: int, hom: np.ndarray,
                 size: tuple[int, int]) -> np.ndarray:
    """The bare table as seen by the camera: BGR float32 image of `size`."""
    rng = np.random.default_rng(seed)
    w, h = size
    corners = project(np.linalg.inv(hom), np.array([[0, 0], [w, 0], [w, h], [0, h]],
                                                   dtype=np.float64))
    x0, y0 = corners.min(axis=0) - 5
    x1, y1 = corners.max(axis=0) + 5
    # texture pixels per mm: about the on-screen scale at the centre, capped in size
    centre_scale = float(np.linalg.norm(
        np.diff(project(hom, np.array([[0.0, 0.0], [1.0, 0.0]])), axis=0)))
    mm = min(max(centre_scale, 0.5), _MAX_SIDE / max(x1 - x0, y1 - y0))
    shape = (max(8, int((y1 - y0) * mm)), max(8, int((x1 - x0) * mm)))
    if style is TableStyle.FELT_GREEN:
        mix, shade, c0, c1 = _felt(rng, shape, mm)
    elif style is TableStyle.WOOD:
        mix, shade, c0, c1 = _wood(rng, shape, mm)
    elif style is TableStyle.CARPET:
        mix, shade, c0, c1 = _carpet(rng, shape, mm)
    else:
        mix, shade, c0, c1 = _cloth(rng, shape, mm, light=style is TableStyle.CLOTH_LIGHT)
    # texture pixel (u, v) -> table (x0 + u/mm, y0 + v/mm)
    tex_to_table = np.array([[1 / mm, 0, x0], [0, 1 / mm, y0], [0, 0, 1]])
    m = hom @ tex_to_table
    maps = cv2.warpPerspective(cv2.merge([mix.astype(np.float32), shade.astype(np.float32)]),
                               m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    mix_i, shade_i = maps[:, :, 0:1], maps[:, :, 1:2]
    out = (c0[None, None, :] + (c1 - c0)[None, None, :] * mix_i) * shade_i
    return out.astype(np.float32, copy=False)
