"""Random but plausible scenes: where cards lie, how the camera and light are set.

Three ways a card lands: on free table space (no overlap), across another card the
Durak way (the beating card rotated over the attacking one, leaving one of its
index corners in view), or fanned half over a neighbour. Everything is drawn from the
rng given, so a seed reproduces a scene exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.cardart import ALL_CARDS, DeckArt
from vision.scene.camera import project, table_to_image
from vision.scene.spec import (
    CARD_HEIGHT_MM,
    CameraSpec,
    CardPlacement,
    Distractor,
    DistractorShape,
    Glare,
    LightSpec,
    SceneSpec,
    TableStyle,
)

#: Tables drawn from by default (CARPET is opt-in: `tables=list(TableStyle)`).
DEFAULT_TABLES = (TableStyle.FELT_GREEN, TableStyle.CLOTH_LIGHT, TableStyle.CLOTH_DARK,
                  TableStyle.WOOD)

#: Width used for layout only (true width comes from each deck's art when drawn).
_W_MM = 63.0


def _footprint(x: float, y: float, angle_deg: float, grow: float = 0.0) -> np.ndarray:
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    hw, hh = _W_MM / 2 + grow, CARD_HEIGHT_MM / 2 + grow
    local = np.array([[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]])
    return (local @ np.array([[ca, sa], [-sa, ca]]) + [x, y]).astype(np.float32)


def _overlaps(poly: np.ndarray, others: list[np.ndarray]) -> bool:
    for o in others:
        area, _ = cv2.intersectConvexConvex(poly, o)
        if area > 1.0:
            return True
    return False


class _View:
    """What the camera sees, for placing cards: table points <-> image pixels."""

    def __init__(self, hom: np.ndarray, size: tuple[int, int], margin: float) -> None:
        self.hom, self.inv = hom, np.linalg.inv(hom)
        self.x0, self.y0 = margin, margin
        self.x1, self.y1 = size[0] - margin, size[1] - margin

    def sample(self, rng: np.random.Generator) -> tuple[float, float]:
        """A table point seen at a uniformly random image position."""
        p = project(self.inv, np.array([[rng.uniform(self.x0, self.x1),
                                         rng.uniform(self.y0, self.y1)]]))[0]
        return float(p[0]), float(p[1])

    def contains(self, poly_mm: np.ndarray) -> bool:
        q = project(self.hom, poly_mm)
        return bool((q[:, 0] >= self.x0).all() and (q[:, 0] <= self.x1).all()
                    and (q[:, 1] >= self.y0).all() and (q[:, 1] <= self.y1).all())


def random_camera(rng: np.random.Generator, size: tuple[int, int],
                  px_per_mm: tuple[float, float] = (1.3, 2.6),
                  max_tilt_deg: float = 35.0) -> CameraSpec:
    """A camera over the table: scale, tilt towards the players, slight roll."""
    return CameraSpec(px_per_mm=float(rng.uniform(*px_per_mm)),
                      tilt_deg=float(rng.uniform(0.0, max_tilt_deg)),
                      roll_deg=float(rng.uniform(-25.0, 25.0)),
                      distance_mm=float(rng.uniform(450.0, 900.0)),
                      center_px=(size[0] / 2 + float(rng.uniform(-0.05, 0.05)) * size[0],
                                 size[1] / 2 + float(rng.uniform(-0.05, 0.05)) * size[1]))


def random_light(rng: np.random.Generator, size: tuple[int, int],
                 effects: float = 1.0, brightness: tuple[float, float] = (0.65, 1.2)
                 ) -> LightSpec:
    """Warm or cold light, uneven, sometimes with glare; `effects` 0 gives flat light."""
    glare: list[Glare] = []
    if rng.random() < 0.45 * effects:
        for _ in range(int(rng.integers(1, 3))):
            glare.append(Glare(x=float(rng.uniform(0, size[0])), y=float(rng.uniform(0, size[1])),
                               radius=float(rng.uniform(30, 160)),
                               strength=float(rng.uniform(0.25, 0.85)) * effects,
                               aspect=float(rng.uniform(1.0, 3.0)),
                               angle_deg=float(rng.uniform(0, 180))))
    return LightSpec(warmth=float(rng.uniform(-1, 1)) * effects,
                     brightness=float(1 + (rng.uniform(*brightness) - 1) * effects),
                     gradient=float(rng.uniform(0, 0.6)) * effects,
                     gradient_deg=float(rng.uniform(0, 360)),
                     vignette=float(rng.uniform(0, 0.7)) * effects,
                     glare=tuple(glare),
                     shadow=float(rng.uniform(0.15, 0.9)),
                     shadow_deg=float(rng.uniform(0, 360)))


def random_scene_spec(rng: np.random.Generator, decks: Sequence[DeckArt | str], n_cards: int,
                      *, overlap: float = 0.3, face_down: float = 0.1,
                      size: tuple[int, int] = (1280, 720), cards: Sequence[str] = ALL_CARDS,
                      table: TableStyle | None = None, effects: float = 1.0,
                      px_per_mm: tuple[float, float] = (1.3, 2.6),
                      max_tilt_deg: float = 35.0, mix_decks: bool = False,
                      distractors: float = 0.0, stretch: float = 0.0,
                      brightness: tuple[float, float] = (0.65, 1.2),
                      tables: Sequence[TableStyle] = DEFAULT_TABLES, hands: float = 0.0,
                      off_edge: float = 0.0) -> SceneSpec:
    """A random scene of `n_cards` distinct cards from one of `decks`.

    `overlap` is the chance that a card is laid on an earlier one (half Durak-style
    across it, half fanned beside it); `face_down` the chance it shows its back;
    `effects` scales blur, noise, JPEG, glare and uneven light (0 = a clean frame);
    `mix_decks` draws each card's deck separately. Card labels are drawn from `cards`
    (e.g. a 36-card subset); n_cards above its size is clipped. `distractors` is the
    chance of 1-3 non-card objects on the table (paper notes among them); `stretch`
    the largest non-uniform resize (0.2: width scaled by 0.8..1.2); `brightness` the
    exposure range ((0.65, 1.35) also washes cards out as phone photos do). The new
    options default to off so that a seed keeps giving the scenes it gave before;
    training wants e.g. distractors=0.3, stretch=0.15, brightness=(0.6, 1.35),
    tables=list(TableStyle) (adds carpet). `hands` is the chance of a hand reaching
    over the cards (covering some: truth says so); `off_edge` the chance that a card
    laid on free table sticks out of the frame (as in hand-held photos).
    """
    names = [d if isinstance(d, str) else d.name for d in decks]
    if not names:
        raise ValueError("random_scene_spec needs at least one deck")
    table_deck = names[int(rng.integers(len(names)))]
    cam = random_camera(rng, size, px_per_mm, max_tilt_deg)
    hom = table_to_image(cam, size)
    box = _View(hom, size, margin=4.0)
    labels = list(rng.permutation(list(cards)))[:n_cards]
    polys: list[np.ndarray] = []
    placed: list[CardPlacement] = []
    covered: set[int] = set()
    for label in labels:
        down = bool(rng.random() < face_down)
        deck = names[int(rng.integers(len(names)))] if mix_decks else table_deck
        spot = None
        # only cards that lie on the table and are not yet covered take a card on top
        base_ids = [i for i in range(len(placed))
                    if i not in covered and placed[i].lift_mm == 0.0]
        if placed and base_ids and rng.random() < overlap:
            bi = base_ids[int(rng.integers(len(base_ids)))]
            spot = _on_top(rng, placed[bi], box)
            if spot is not None:
                covered.add(bi)
        if spot is None:
            spot = _free(rng, box, polys,
                         off_edge=off_edge > 0 and bool(rng.random() < off_edge))
        x, y, ang = spot
        lift = 0.0
        poly = _footprint(x, y, ang)
        for i, p in enumerate(polys):
            if _overlaps(poly, [p]):
                lift = max(lift, placed[i].lift_mm + 0.3)
        polys.append(poly)
        placed.append(CardPlacement(deck=deck, card=None if down else str(label), x_mm=x,
                                    y_mm=y, angle_deg=ang, lift_mm=lift))
    e = effects
    things: list[Distractor] = []
    if distractors > 0 and rng.random() < distractors:
        for _ in range(int(rng.integers(1, 4))):
            x, y = box.sample(rng)
            shape = list(DistractorShape)[int(rng.integers(len(DistractorShape)))]
            paper = shape is DistractorShape.PAPER
            colour = (tuple(int(v) for v in rng.integers(215, 252, 3)) if paper
                      else tuple(int(v) for v in rng.integers(10, 240, 3)))
            things.append(Distractor(
                shape=shape, x_mm=x, y_mm=y,
                size_mm=float(rng.uniform(50, 75) if paper else rng.uniform(25, 160)),
                angle_deg=float(rng.uniform(0, 360)), colour=colour,  # type: ignore[arg-type]
                aspect=float(rng.uniform(1.2, 1.6) if paper else rng.uniform(0.3, 1.0)),
                seed=int(rng.integers(2 ** 31))))
    if hands > 0 and placed and rng.random() < hands:
        # a hand reaching from a frame edge towards one of the cards
        target = placed[int(rng.integers(len(placed)))]
        toward = float(rng.uniform(0, 360))
        a = math.radians(toward)
        reach = float(rng.uniform(40, 90))
        things.append(Distractor(
            DistractorShape.HAND, x_mm=target.x_mm - reach * math.cos(a),
            y_mm=target.y_mm - reach * math.sin(a), size_mm=float(rng.uniform(150, 190)),
            angle_deg=toward - 90.0,
            colour=tuple(int(v) for v in (np.array([120, 150, 205]) *  # type: ignore[arg-type]
                                          rng.uniform(0.55, 1.1))),
            seed=int(rng.integers(2 ** 31)), over_cards=True))
    return SceneSpec(
        cards=tuple(placed), size=size,
        table=table or tables[int(rng.integers(len(tables)))],
        table_seed=int(rng.integers(2 ** 31)), camera=cam,
        light=random_light(rng, size, e, brightness),
        blur_sigma=float(rng.uniform(0, 1.3)) * e if rng.random() < 0.7 else 0.0,
        motion_px=float(rng.uniform(2, 7)) * e if rng.random() < 0.15 * e else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        noise_sigma=float(rng.uniform(0, 6)) * e,
        jpeg_quality=int(rng.integers(35, 96)) if rng.random() < 0.7 * e else None,
        distractors=tuple(things),
        stretch_x=float(1 + rng.uniform(-stretch, stretch)) if stretch > 0 else 1.0)


def _overlap_area(poly: np.ndarray, others: list[np.ndarray]) -> float:
    return sum(float(cv2.intersectConvexConvex(poly, o)[0]) for o in others)


def _free(rng: np.random.Generator, box: _View, polys: list[np.ndarray],
          off_edge: bool = False) -> tuple[float, float, float]:
    """A spot on free table inside the view (or, `off_edge`, centred in view but
    sticking out of it); when the view is crowded, the spot of least overlap among
    150 tries."""
    best, best_area = None, float("inf")
    for attempt in range(150):
        x, y = box.sample(rng)
        ang = float(rng.uniform(-180, 180))
        poly = _footprint(x, y, ang, grow=3.0)
        inside = box.contains(_footprint(x, y, ang))
        if inside == off_edge:  # off_edge wants a card whose centre is in view, not all
            continue
        area = _overlap_area(poly, polys)
        if area < best_area:
            best, best_area = (x, y, ang), area
        if area <= 0.0:
            break
    if best is None:  # a view smaller than a card: put it where the camera aims
        return (0.0, 0.0, float(rng.uniform(-180, 180)))
    return best


def _on_top(rng: np.random.Generator, base: CardPlacement, box: _View
            ) -> tuple[float, float, float] | None:
    """A spot across (Durak) or fanned over `base`, leaving one of its indices in view.

    Returns (x, y, angle) or None when no such spot fits the view.
    """
    a = math.radians(base.angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    for attempt in range(20):
        # offsets in the base card's printed frame: +u right, +v up (towards its top)
        sign = 1.0 if rng.random() < 0.5 else -1.0  # which index corner stays visible
        if rng.random() < 0.5:  # Durak: beating card across, shifted off one corner
            du = sign * float(rng.uniform(0.3, 0.55)) * _W_MM
            dv = -sign * float(rng.uniform(0.2, 0.4)) * CARD_HEIGHT_MM
            dang = float(rng.uniform(15, 75)) * (1 if rng.random() < 0.5 else -1)
        else:  # fanned: slid sideways, nearly parallel
            du = sign * float(rng.uniform(0.35, 0.7)) * _W_MM
            dv = float(rng.uniform(-0.1, 0.1)) * CARD_HEIGHT_MM
            dang = float(rng.uniform(-12, 12))
        x = base.x_mm + du * ca - dv * sa
        y = base.y_mm + du * sa + dv * ca
        ang = base.angle_deg + dang
        if box.contains(_footprint(x, y, ang)):
            return (x, y, ang)
    return None
