"""Draw a `SceneSpec`: cards on a table under a camera, with exact ground truth.

Every card is warped straight from its art into the bounding box of its image quad
(never a full-frame warp per card), which keeps a 1280x720 frame with 8 cards at
about 0.1 s of one core. Ground truth comes from the same homographies used to draw,
and visibility from a z-buffer of card ids, so they agree with the pixels exactly
(the only approximation: rounded card corners count as card).
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from vision.cardart import ArtCache, DeckArt, find_deck
from vision.recognize.patch import INDEX_BOX
from vision.scene.camera import project, table_to_image
from vision.scene.spec import (
    CARD_HEIGHT_MM,
    CardPlacement,
    CardTruth,
    Distractor,
    DistractorShape,
    IndexRegion,
    LightSpec,
    SceneSpec,
)
from vision.scene.surface import printed_surface
from vision.scene.texture import render_table
from vision.types import Quad

#: Art is rendered at one of these heights (the smallest at least as tall as the card
#: appears), so the disk cache holds few sizes.
ART_HEIGHTS = (200, 400)


class SceneRenderer:
    """Renders scenes, keeping decoded card art in memory between frames.

    One renderer per worker; `render_scene()` below makes a throwaway one.
    """

    def __init__(self, art: ArtCache | None = None) -> None:
        self.art = art or ArtCache()
        self._decks: dict[str, DeckArt] = {}

    def deck(self, name: str) -> DeckArt:
        d = self._decks.get(name)
        if d is None:
            d = self._decks[name] = find_deck(name)
        return d

    def render(self, spec: SceneSpec,
               rng: np.random.Generator) -> tuple[np.ndarray, list[CardTruth]]:
        """Returns (BGR uint8 image, truth per card in `spec.cards` order)."""
        w, h = spec.size
        hom = table_to_image(spec.camera, spec.size)
        img = render_table(spec.table, spec.table_seed, hom, spec.size)
        labels = np.full((h, w), -1, dtype=np.int16)
        for d in spec.distractors:
            if not d.over_cards:
                _draw_distractor(img, d, hom, spec.light)
        placed: list[tuple[CardPlacement, np.ndarray, float, float]] = []
        for z, card in enumerate(spec.cards):
            quad, art_w_mm = self._draw_card(img, labels, z, card, hom, spec.light)
            placed.append((card, quad, art_w_mm, CARD_HEIGHT_MM))
        for d in spec.distractors:
            if d.over_cards:
                _draw_distractor(img, d, hom, spec.light, labels)
        img = _finish(img, spec, rng)
        truth = [_truth(z, c, q, wmm, hmm, hom, labels)
                 for z, (c, q, wmm, hmm) in enumerate(placed)]
        if abs(spec.stretch_x - 1.0) > 1e-6:
            sx = max(1, round(w * spec.stretch_x)) / w
            img = cv2.resize(img, (max(1, round(w * spec.stretch_x)), h),
                             interpolation=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR)
            truth = [_stretched(t, sx) for t in truth]
        return img, truth

    def _draw_card(self, img: np.ndarray, labels: np.ndarray, z: int, card: CardPlacement,
                   hom: np.ndarray, light: LightSpec) -> tuple[np.ndarray, float]:
        deck = self.deck(card.deck)
        # how tall will the card look? pick art at least that tall
        probe = self.art.card(deck, card.card, ART_HEIGHTS[0])
        width_mm = CARD_HEIGHT_MM * probe.shape[1] / probe.shape[0]
        c2t = _card_to_table(card, width_mm, CARD_HEIGHT_MM)
        quad = project(hom @ c2t, _unit_corners())
        screen_h = max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
        art_h = next((a for a in ART_HEIGHTS if a >= screen_h * 0.9), ART_HEIGHTS[-1])
        art = probe if art_h == ART_HEIGHTS[0] else self.art.card(deck, card.card, art_h)
        ah, aw = art.shape[:2]
        # art pixel -> unit card (0..1) -> table -> image
        a2u = np.array([[1.0 / aw, 0, 0], [0, 1.0 / ah, 0], [0, 0, 1]])
        a2i = hom @ c2t @ a2u
        _shadow(img, quad, card, light)
        x0, y0, x1, y1 = _bbox(quad, img.shape[1], img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return quad, width_mm
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64)
        patch = cv2.warpPerspective(art, shift @ a2i, (x1 - x0, y1 - y0),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=(0, 0, 0, 0))
        alpha = patch[:, :, 3:4].astype(np.float32) * (1.0 / 255.0)
        region = img[y0:y1, x0:x1]
        region *= 1.0 - alpha
        region += patch[:, :, :3].astype(np.float32) * alpha
        poly = np.round((quad - [x0, y0]) * 16).astype(np.int32)
        cv2.fillConvexPoly(labels[y0:y1, x0:x1], poly, z, lineType=cv2.LINE_8, shift=4)
        return quad, width_mm


def render_scene(spec: SceneSpec, rng: np.random.Generator,
                 renderer: SceneRenderer | None = None) -> tuple[np.ndarray, list[CardTruth]]:
    """Draw `spec`; returns (BGR uint8 image, one `CardTruth` per card, bottom first).

    Deterministic for a given spec and rng state (the rng only drives sensor noise).

    Raises:
        vision.cardart.CardArtError: the art for a card cannot be rendered.
    """
    return (renderer or SceneRenderer()).render(spec, rng)


def _unit_corners() -> np.ndarray:
    """Card corners in unit card coordinates, clockwise from the printed top-left."""
    return np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def _card_to_table(card: CardPlacement, width_mm: float, height_mm: float) -> np.ndarray:
    """Unit card (u right, v down the printed face) -> table mm, as a 3x3 matrix."""
    a = math.radians(card.angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    # local: x = (u - .5) * W, y = (.5 - v) * H  (printed top towards +Y), then rotate
    local = np.array([[width_mm, 0, -width_mm / 2], [0, -height_mm, height_mm / 2],
                      [0, 0, 1]])
    rot = np.array([[ca, -sa, card.x_mm], [sa, ca, card.y_mm], [0, 0, 1]])
    return rot @ local


def _bbox(quad: np.ndarray, w: int, h: int, pad: int = 2) -> tuple[int, int, int, int]:
    x0 = max(0, math.floor(quad[:, 0].min()) - pad)
    y0 = max(0, math.floor(quad[:, 1].min()) - pad)
    x1 = min(w, math.ceil(quad[:, 0].max()) + pad)
    y1 = min(h, math.ceil(quad[:, 1].max()) + pad)
    return x0, y0, x1, y1


def _stretched(t: CardTruth, sx: float) -> CardTruth:
    def q(points: Quad) -> Quad:
        return _as_quad(np.array(points) * [sx, 1.0])
    return dataclasses.replace(
        t, corners=q(t.corners),
        index_regions=tuple(dataclasses.replace(r, quad=q(r.quad)) for r in t.index_regions))


def _distractor_outline(d: Distractor) -> np.ndarray:
    """The outline of a distractor in table mm."""
    rng = np.random.default_rng(d.seed)
    if d.shape is DistractorShape.PAPER:
        hw, hh = d.size_mm / 2, d.size_mm * d.aspect / 2
        local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    elif d.shape is DistractorShape.HAND:
        local = _hand_outline(d.size_mm, rng)
    elif d.shape is DistractorShape.ELLIPSE:
        t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        local = np.column_stack([np.cos(t) * d.size_mm / 2, np.sin(t) * d.size_mm * d.aspect / 2])
    else:
        n = int(rng.integers(5, 10))
        t = np.sort(rng.uniform(0, 2 * np.pi, n))
        r = d.size_mm / 2 * rng.uniform(0.5, 1.0, n)
        local = np.column_stack([np.cos(t) * r, np.sin(t) * r * d.aspect])
    a = math.radians(d.angle_deg)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return local @ rot + [d.x_mm, d.y_mm]


def _hand_outline(size_mm: float, rng: np.random.Generator) -> np.ndarray:
    """A palm (wrist towards -Y) with four fingers and a thumb, about `size_mm` long:
    crude, but the outline a detector meets when a player reaches over the cards."""
    s = size_mm / 180.0
    pts: list[tuple[float, float]] = [(-45, -100), (-48, 0)]  # wrist, left side of palm
    # thumb sticking out to the left, then four fingers left to right
    pts += [(-80, 20), (-88, 45), (-72, 50), (-42, 35)]
    fingers: list[tuple[float, float]] = [(-33, 68), (-11, 80), (11, 76), (31, 60)]
    for i, (x, nominal) in enumerate(fingers):
        length = nominal * float(rng.uniform(0.85, 1.1))
        bend = float(rng.uniform(-6, 6)) + 4 * i
        pts += [(x - 9, 40), (x - 8 + bend, 40 + length), (x + 8 + bend, 40 + length),
                (x + 10, 40)]
    pts += [(46, 0), (42, -100)]
    return np.array(pts, dtype=np.float64) * s


def _draw_distractor(img: np.ndarray, d: Distractor, hom: np.ndarray, light: LightSpec,
                     labels: np.ndarray | None = None) -> None:
    """Draw a non-card object, with a soft shadow and a little shading; over the cards
    it also marks its pixels as "no card" in `labels`, so truth counts them covered."""
    poly = project(hom, _distractor_outline(d))
    _shadow_poly(img, poly, 6.0 if d.over_cards else 1.0, light)
    if labels is not None:
        cv2.fillPoly(labels, [np.round(poly * 16).astype(np.int32)], -2, lineType=cv2.LINE_8,
                     shift=4)
    x0, y0, x1, y1 = _bbox(poly, img.shape[1], img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 1.0,
                 lineType=cv2.LINE_AA, shift=4)
    rng = np.random.default_rng(d.seed + 1)
    colour = np.array(d.colour, np.float32)
    # a linear shading across the object, so it is not a flat cut-out
    gy, gx = np.mgrid[0:y1 - y0, 0:x1 - x0].astype(np.float32)
    g = rng.uniform(-1, 1, 2).astype(np.float32) / max(x1 - x0, y1 - y0)
    shade = 1.0 + 0.25 * (gx * g[0] + gy * g[1])
    surface = (printed_surface(d, hom, (x0, y0, x1, y1)) if d.texture
               else colour[None, None, :])
    layer = shade[..., None] * surface
    m = mask[..., None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - m) + layer * m


def _shadow(img: np.ndarray, quad: np.ndarray, card: CardPlacement, light: LightSpec) -> None:
    """Darken the table (and cards below) where this card's soft shadow falls."""
    _shadow_poly(img, quad, card.lift_mm, light)


def _shadow_poly(img: np.ndarray, quad: np.ndarray, lift_mm: float, light: LightSpec) -> None:
    if light.shadow <= 0:
        return
    size = float(np.linalg.norm(quad.max(axis=0) - quad.min(axis=0)))
    reach = size * (0.012 + 0.01 * lift_mm)
    a = math.radians(light.shadow_deg)
    offset = np.array([math.cos(a), -math.sin(a)]) * reach
    sigma = max(1.0, size * 0.012)
    pad = int(3 * sigma + reach + 2)
    q = quad + offset
    x0, y0, x1, y1 = _bbox(q, img.shape[1], img.shape[0], pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask: np.ndarray = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((q - [x0, y0]) * 16).astype(np.int32)], 1.0,
                 lineType=cv2.LINE_AA, shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    img[y0:y1, x0:x1] *= (1.0 - 0.45 * min(1.0, light.shadow) * mask)[..., None]


def _finish(img: np.ndarray, spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """Light, glare, optics and sensor: float BGR in, uint8 BGR out."""
    img = np.asarray(img, np.float32)
    noise: np.ndarray
    w, h = spec.size
    lt = spec.light
    # illumination field at 1/8 resolution: gradient x vignette
    sw, sh = max(2, w // 8), max(2, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    nx, ny = (xx / (sw - 1) - 0.5) * 2, (yy / (sh - 1) - 0.5) * 2
    g = math.radians(lt.gradient_deg)
    field = lt.brightness * (1 + lt.gradient * 0.5 * (nx * math.cos(g) + ny * math.sin(g)))
    field *= 1 - lt.vignette * 0.35 * (nx ** 2 + ny ** 2)
    field = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    warm = lt.warmth
    gains = np.array([1 - 0.22 * warm, 1 - 0.04 * abs(warm), 1 + 0.12 * warm], np.float32) \
        if warm >= 0 else np.array([1 - 0.12 * warm, 1.0, 1 + 0.18 * warm], np.float32)
    img = cv2.multiply(img, cv2.merge([field * gains[0], field * gains[1], field * gains[2]]))
    for gl in lt.glare:
        x0, y0, x1, y1 = _bbox(np.array([[gl.x - 3 * gl.radius * gl.aspect,
                                          gl.y - 3 * gl.radius * gl.aspect],
                                         [gl.x + 3 * gl.radius * gl.aspect,
                                          gl.y + 3 * gl.radius * gl.aspect]]), w, h)
        if x1 <= x0 or y1 <= y0:
            continue
        gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        a = math.radians(gl.angle_deg)
        u = (gx - gl.x) * math.cos(a) + (gy - gl.y) * math.sin(a)
        v = -(gx - gl.x) * math.sin(a) + (gy - gl.y) * math.cos(a)
        r2 = (u / (gl.radius * gl.aspect)) ** 2 + (v / gl.radius) ** 2
        k = (gl.strength * np.exp(-0.5 * r2 * 2.5))[..., None]
        reg = img[y0:y1, x0:x1]
        img[y0:y1, x0:x1] = reg + (255.0 * 1.15 - reg) * k
    if spec.blur_sigma > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur_sigma)
    if spec.motion_px >= 1.5:
        n = round(spec.motion_px) | 1
        ker: np.ndarray = np.zeros((n, n), np.float32)
        ker[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), spec.motion_deg, 1.0)
        ker = cv2.warpAffine(ker, rot, (n, n))
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
    if spec.noise_sigma > 0:
        # uniform noise of the same sigma: 3x cheaper to draw than normal, looks the same
        noise = rng.random(img.shape, dtype=np.float32)
        img = cv2.scaleAdd(noise, float(spec.noise_sigma * 12 ** 0.5), img)
        img = np.subtract(img, np.float32(spec.noise_sigma * 3 ** 0.5))
    out = cv2.convertScaleAbs(img)  # saturating float -> uint8
    if spec.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out


def _as_quad(pts: np.ndarray) -> Quad:
    p = [(float(x), float(y)) for x, y in pts]
    return (p[0], p[1], p[2], p[3])


def _covered(labels: np.ndarray, quad: np.ndarray, z: int) -> float:
    """Share of the quad's pixels showing card z (pixels off the frame count as hidden).

    Both counts are of rasterised pixels of the same polygon, so the edge pixels a
    fill adds (about half the perimeter) cancel out instead of inflating the ratio.
    """
    h, w = labels.shape
    fx0, fy0 = math.floor(quad[:, 0].min()) - 1, math.floor(quad[:, 1].min()) - 1
    fx1, fy1 = math.ceil(quad[:, 0].max()) + 1, math.ceil(quad[:, 1].max()) + 1
    if (fx1 - fx0) * (fy1 - fy0) > 4 * w * h:  # absurdly large: only what is in frame
        fx0, fy0, fx1, fy1 = max(fx0, -w), max(fy0, -h), min(fx1, 2 * w), min(fy1, 2 * h)
    mask = np.zeros((fy1 - fy0, fx1 - fx0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - [fx0, fy0]) * 16).astype(np.int32), 1,
                       lineType=cv2.LINE_8, shift=4)
    total = int(np.count_nonzero(mask))
    if total == 0:
        return 0.0
    x0, y0, x1, y1 = max(fx0, 0), max(fy0, 0), min(fx1, w), min(fy1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    sub = mask[y0 - fy0:y1 - fy0, x0 - fx0:x1 - fx0]
    own = int(np.count_nonzero((labels[y0:y1, x0:x1] == z) & (sub > 0)))
    return own / total


def _truth(z: int, card: CardPlacement, quad: np.ndarray, width_mm: float, height_mm: float,
           hom: np.ndarray, labels: np.ndarray) -> CardTruth:
    regions: tuple[IndexRegion, ...] = ()
    if not card.face_down:
        bx0, by0, bx1, by1 = INDEX_BOX
        c2i = hom @ _card_to_table(card, width_mm, height_mm)
        tl = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]])
        br = 1.0 - tl  # the same box turned 180° about the card centre
        regions = tuple(
            IndexRegion(_as_quad(q), round(_covered(labels, q, z), 4))
            for q in (project(c2i, tl), project(c2i, br)))
    return CardTruth(card=card.card, face_down=card.face_down, corners=_as_quad(quad),
                     visible_fraction=round(_covered(labels, quad, z), 4),
                     index_regions=regions, deck=card.deck, z=z)
