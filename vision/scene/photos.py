"""Rendered stand-ins for phone photos of a few large cards (the judges' photos).

The referee's camera sees 8 small cards on a 1280x720 table (`random_scene_spec`);
the recogniser is also judged on phone photos of decks we do not have, which look
like our only real ones (../shared/data/real-photos-ranks): 1-6 cards, each 25-70%
of the photo's height, on carpet, cloth or wood, a book or board half over a card,
pairs overlapping, short rows, a phone's tilt, blur and JPEG, 504x378 photos (mostly
portrait) and 960x540 frames, some resized non-uniformly afterwards. Rendering such
photos of any deck gives that measure for decks we have no photos of.

`random_photo_spec(rng, decks)` draws a `PhotoSpec` (a `SceneSpec` plus the layout's
name and the resize); `render_photo(spec, rng)` draws it and returns the image and
one `CardTruth` per card, resized with the image. Everything comes from the rng, so a
seed gives the same photos; the resize is drawn for every photo and applied to a
share of them, so the same seed gives the same scenes with and without it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cardart import ALL_CARDS, DeckArt
from vision.scene.camera import project, table_to_image
from vision.scene.layout import random_light
from vision.scene.render import SceneRenderer
from vision.scene.spec import (
    CARD_HEIGHT_MM,
    CameraSpec,
    CardPlacement,
    CardTruth,
    Distractor,
    DistractorShape,
    LightSpec,
    SceneSpec,
    TableStyle,
)

#: Layouts and how often they come (the real train photos: 180 of 296 hold one
#: card, 48 two, the rest 3-5, in rows, grids or apart).
LAYOUTS: tuple[tuple[str, float], ...] = (
    ("single", 0.4), ("pair", 0.2), ("row", 0.12), ("apart", 0.12), ("grid", 0.16))
#: Photo sizes (width, height) and their shares: phone photos stored at 378x504
#: (portrait, most real ones) or 504x378, camera frames at 960x540.
SIZES: tuple[tuple[tuple[int, int], float], ...] = (
    ((378, 504), 0.55), ((504, 378), 0.15), ((960, 540), 0.3))
#: Tables and their shares (carpet and wood are the commonest real backgrounds).
TABLES: tuple[tuple[TableStyle, float], ...] = (
    (TableStyle.CARPET, 0.3), (TableStyle.WOOD, 0.25), (TableStyle.CLOTH_DARK, 0.15),
    (TableStyle.CLOTH_LIGHT, 0.15), (TableStyle.FELT_GREEN, 0.15))
#: The card's height as a share of the photo's height, per layout (before the cards
#: are made to fit the photo).
CARD_FRAC: dict[str, tuple[float, float]] = {
    "single": (0.3, 0.7), "pair": (0.28, 0.55), "row": (0.28, 0.5), "apart": (0.25, 0.4),
    "grid": (0.25, 0.45)}
#: Non-uniform resize: one axis scaled by a factor in this range (log-uniform).
RESIZE_RANGE = (0.75, 1.33)
#: Layout width used for placing cards (true width comes from each deck's art).
_W_MM = 63.0
#: Pixels kept clear between the cards and the photo's edge.
_MARGIN = 6.0


@dataclass(frozen=True, slots=True)
class PhotoSpec:
    """One photo: the scene, the layout's name, whether something lies over a card,
    and the non-uniform resize (sx, sy) applied after rendering ((1, 1): none)."""

    scene: SceneSpec
    layout: str
    occluded: bool = False
    resize: tuple[float, float] = (1.0, 1.0)

    @property
    def resized(self) -> bool:
        return self.resize != (1.0, 1.0)

    def unresized(self) -> PhotoSpec:
        """The same photo without the resize."""
        return dataclasses.replace(self, resize=(1.0, 1.0))


def _pick(rng: np.random.Generator, options: Sequence[tuple[object, float]]) -> object:
    p = np.array([w for _, w in options], np.float64)
    return options[int(rng.choice(len(options), p=p / p.sum()))][0]


def _axes(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """A card's width (u) and up (v, towards its printed top) directions on the table."""
    a = math.radians(angle_deg)
    return np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])


def _footprint(x: float, y: float, angle_deg: float) -> np.ndarray:
    u, v = _axes(angle_deg)
    c = np.array([x, y])
    hw, hh = _W_MM / 2, CARD_HEIGHT_MM / 2
    return np.array([c - u * hw + v * hh, c + u * hw + v * hh, c + u * hw - v * hh,
                     c - u * hw - v * hh])


def _layout(rng: np.random.Generator, kind: str) -> list[tuple[float, float, float]]:
    """(x_mm, y_mm, angle_deg) per card, bottom first, around the table origin."""
    base = float(rng.uniform(-180, 180)) if rng.random() < 0.4 else \
        float(rng.choice([0.0, 90.0, 180.0, -90.0]) + rng.uniform(-20, 20))
    if kind == "single":
        return [(0.0, 0.0, base)]
    u, v = _axes(base)
    if kind == "pair":
        sign = 1.0 if rng.random() < 0.5 else -1.0
        if rng.random() < 0.25:  # across the other, Durak-style, one index left
            du = sign * rng.uniform(0.3, 0.55) * _W_MM
            dv = -sign * rng.uniform(0.2, 0.4) * CARD_HEIGHT_MM
            dang = float(rng.uniform(25, 80)) * (1 if rng.random() < 0.5 else -1)
        else:  # slid sideways over it, nearly parallel
            du = sign * rng.uniform(0.3, 0.7) * _W_MM
            dv = rng.uniform(-0.25, 0.25) * CARD_HEIGHT_MM
            dang = float(rng.uniform(-20, 20))
        p = u * du + v * dv
        return [(0.0, 0.0, base), (float(p[0]), float(p[1]), base + dang)]
    n = int(rng.integers(2, 5)) if kind != "grid" else int(rng.integers(2, 7))
    if kind == "row":  # a short fan or row, each card half over the last
        step = rng.uniform(0.3, 0.6) * _W_MM
        out = []
        for i in range(n):
            p = u * step * i + v * rng.uniform(-0.06, 0.06) * CARD_HEIGHT_MM
            out.append((float(p[0]), float(p[1]), base + float(rng.uniform(-6, 6))))
        return out
    if kind == "grid":  # rows of cards side by side with gaps, as laid out for a photo
        rows = 1 if n <= 2 or (n == 3 and rng.random() < 0.7) else 2  # 2x2, 2x3 as real
        cols = math.ceil(n / rows)
        gu = _W_MM + rng.uniform(4, 25)
        gv = CARD_HEIGHT_MM + rng.uniform(4, 25)
        out = []
        for i in range(n):
            r, c = divmod(i, cols)
            p = u * (c - (cols - 1) / 2) * gu - v * (r - (rows - 1) / 2) * gv
            out.append((float(p[0]), float(p[1]), base + float(rng.uniform(-4, 4))))
        return out
    # apart: anywhere in a box a few cards wide, not touching
    out = []
    polys: list[np.ndarray] = []
    half = 45.0 * n
    for _ in range(200):
        if len(out) == n:
            break
        x, y = rng.uniform(-half, half, 2)
        ang = float(rng.uniform(-180, 180))
        poly = _footprint(float(x), float(y), ang).astype(np.float32)
        grown = poly.mean(axis=0) + (poly - poly.mean(axis=0)) * 1.12
        if all(cv2.intersectConvexConvex(grown, q)[0] <= 0 for q in polys):
            out.append((float(x), float(y), ang))
            polys.append(grown)
    return out


def _camera(rng: np.random.Generator, size: tuple[int, int], kind: str,
            spots: list[tuple[float, float, float]]) -> CameraSpec:
    """A phone held over the cards: tilted up to 30 degrees, close (more perspective
    than the referee's camera), the cards `CARD_FRAC` of the photo's height or less,
    all in view, placed anywhere the photo has room for them."""
    w, h = size
    cam = CameraSpec(px_per_mm=float(rng.uniform(*CARD_FRAC[kind])) * h / CARD_HEIGHT_MM,
                     tilt_deg=float(rng.uniform(0, 30)), roll_deg=float(rng.uniform(-30, 30)),
                     distance_mm=float(rng.uniform(300, 650)), center_px=(w / 2, h / 2))
    corners = np.vstack([_footprint(*s) for s in spots])
    # image points scale about the principal point with px_per_mm: fit, then place
    for _ in range(8):
        pts = project(table_to_image(cam, size), corners)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        span = hi - lo
        room = np.array([w, h], np.float64) - 2 * _MARGIN
        k = float(min(1.0, *(room / np.maximum(span, 1e-6))))
        if k >= 1.0:
            break
        cam = dataclasses.replace(cam, px_per_mm=cam.px_per_mm * k * 0.98)
    pts = project(table_to_image(cam, size), corners)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    shift_lo = np.array([_MARGIN, _MARGIN]) - lo
    shift_hi = np.array([w - _MARGIN, h - _MARGIN]) - hi
    shift = [float(rng.uniform(a, b)) if b > a else float((a + b) / 2)
             for a, b in zip(shift_lo, shift_hi)]
    return dataclasses.replace(cam, center_px=(w / 2 + shift[0], h / 2 + shift[1]))


def _occluder(rng: np.random.Generator, spot: tuple[float, float, float]) -> Distractor:
    """A book, board or plain block lying over the card at `spot`, covering 25-60% of
    it from one side (usually one index stays in view, as in the real photos)."""
    x, y, ang = spot
    kind = str(rng.choice(["print", "stripes", ""], p=[0.45, 0.25, 0.3]))
    if kind == "print":  # a book or magazine page
        across, along = rng.uniform(130, 220), rng.uniform(180, 280)
        colour = rng.integers(200, 245, 3)
    elif kind == "stripes":  # a board
        across, along = rng.uniform(45, 100), rng.uniform(250, 400)
        colour = rng.integers(60, 200, 3)
    else:
        across, along = rng.uniform(60, 200), rng.uniform(60, 200)
        colour = rng.integers(15, 240, 3)
    u, v = _axes(ang)
    sideways = rng.random() < 0.5
    sign = 1.0 if rng.random() < 0.5 else -1.0
    depth = float(rng.uniform(0.25, 0.6))
    # the block's long side lies along the side of the card it covers
    if sideways:  # from the card's left or right edge: its `across` runs along u
        d, card_ext, occ_ext = u * sign, _W_MM, across
        turn = 0.0
    else:  # from its top or bottom edge: `across` along v, so turn the block 90 degrees
        d, card_ext, occ_ext = v * sign, CARD_HEIGHT_MM, across
        turn = 90.0
    c = np.array([x, y]) + d * (card_ext / 2 + occ_ext / 2 - depth * card_ext)
    return Distractor(DistractorShape.PAPER, x_mm=float(c[0]), y_mm=float(c[1]),
                      size_mm=float(across), aspect=float(along / across),
                      angle_deg=float(ang + turn + rng.uniform(-15, 15)),
                      colour=tuple(int(k) for k in colour),  # type: ignore[arg-type]
                      seed=int(rng.integers(2 ** 31)), over_cards=True, texture=kind)


def _photo_light(rng: np.random.Generator, size: tuple[int, int]) -> LightSpec:
    """`random_light` with its glare scaled to the photo: its radii are pixels of a
    1280-wide frame, so in a 378-wide photo one highlight would wash out every card
    (no real photo is lit like that)."""
    light = random_light(rng, size, 1.0, (0.6, 1.35))
    k = max(size) / 1280.0
    return dataclasses.replace(light, glare=tuple(
        dataclasses.replace(g, radius=g.radius * k) for g in light.glare))


def random_photo_spec(rng: np.random.Generator, decks: Sequence[DeckArt | str], *,
                      resize_share: float = 0.3, occluder: float = 0.3,
                      cards: Sequence[str] = ALL_CARDS) -> PhotoSpec:
    """A random phone-like photo of cards of one of `decks` (see module).

    `occluder` is the chance that a book, board or block lies over one card;
    `resize_share` the share of photos resized non-uniformly (one axis by
    RESIZE_RANGE). The draws do not depend on either share's value, so one seed
    gives the same scenes for any (the resize is drawn for every photo).
    """
    names = [d if isinstance(d, str) else d.name for d in decks]
    if not names:
        raise ValueError("random_photo_spec needs at least one deck")
    deck = names[int(rng.integers(len(names)))]
    kind = str(_pick(rng, LAYOUTS))
    size: tuple[int, int] = _pick(rng, SIZES)  # type: ignore[assignment]
    spots = _layout(rng, kind)
    labels = list(rng.permutation(list(cards)))[:len(spots)]
    placed = tuple(CardPlacement(deck, str(lab), x, y, ang, lift_mm=0.3 * i if kind in
                                 ("pair", "row") else 0.0)
                   for i, (lab, (x, y, ang)) in enumerate(zip(labels, spots)))
    cam = _camera(rng, size, kind, spots)
    things: list[Distractor] = []
    covers = rng.random() < occluder
    target = spots[int(rng.integers(len(spots)))]
    block = _occluder(rng, target)
    if covers:
        things.append(block)
    axis_x = rng.random() < 0.5
    factor = float(math.exp(rng.uniform(math.log(RESIZE_RANGE[0]), math.log(RESIZE_RANGE[1]))))
    resize = ((factor, 1.0) if axis_x else (1.0, factor)) \
        if rng.random() < resize_share else (1.0, 1.0)
    scene = SceneSpec(
        cards=placed, size=size, table=_pick(rng, TABLES),  # type: ignore[arg-type]
        table_seed=int(rng.integers(2 ** 31)), camera=cam,
        light=_photo_light(rng, size),
        blur_sigma=float(rng.uniform(0.3, 1.2)) if rng.random() < 0.7 else 0.0,
        motion_px=float(rng.uniform(2, 5)) if rng.random() < 0.1 else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        noise_sigma=float(rng.uniform(0, 4)),
        jpeg_quality=int(rng.integers(60, 96)),
        distractors=tuple(things))
    return PhotoSpec(scene=scene, layout=kind, occluded=covers, resize=resize)


def resize_truth(t: CardTruth, sx: float, sy: float) -> CardTruth:
    """`t` with every image point scaled by (sx, sy)."""
    def q(points: object) -> tuple[tuple[float, float], ...]:
        return tuple((float(x) * sx, float(y) * sy)
                     for x, y in np.asarray(points, np.float64).reshape(4, 2))
    return dataclasses.replace(
        t, corners=q(t.corners),  # type: ignore[arg-type]
        index_regions=tuple(dataclasses.replace(r, quad=q(r.quad))  # type: ignore[arg-type]
                            for r in t.index_regions))


def render_photo(spec: PhotoSpec, rng: np.random.Generator,
                 renderer: SceneRenderer | None = None
                 ) -> tuple[np.ndarray, list[CardTruth]]:
    """Draw `spec`: (BGR uint8 image, one `CardTruth` per card, bottom first), the
    image and truth resized by `spec.resize` (the image is then not `scene.size`)."""
    image, truth = (renderer or SceneRenderer()).render(spec.scene, rng)
    sx, sy = spec.resize
    if not spec.resized:
        return image, truth
    h, w = image.shape[:2]
    nw, nh = max(1, round(w * sx)), max(1, round(h * sy))
    interp = cv2.INTER_AREA if sx * sy < 1.0 else cv2.INTER_LINEAR
    image = cv2.resize(image, (nw, nh), interpolation=interp)
    return image, [resize_truth(t, nw / w, nh / h) for t in truth]
