"""What a synthetic scene is made of, and the ground truth that comes out of it.

A `SceneSpec` is plain data (deck names, card labels, millimetres, degrees), so a scene
can be logged, compared and re-rendered; only image noise comes from the rng passed to
`render_scene`. Table coordinates are millimetres on the table plane, X right and Y
away from the viewer, origin where the camera looks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from vision.types import Point, Quad

#: A standard card is 63 x 88 mm; we keep the height and take the width from the art.
CARD_HEIGHT_MM = 88.0


class TableStyle(enum.Enum):
    """Procedural table surfaces (vision/scene/texture.py)."""

    FELT_GREEN = "felt-green"
    CLOTH_LIGHT = "cloth-light"
    CLOTH_DARK = "cloth-dark"
    WOOD = "wood"
    CARPET = "carpet"
    """Coarse, high-contrast pile: the hard background of many real phone photos."""


@dataclass(frozen=True, slots=True)
class CardPlacement:
    """One card on the table. `card` None means the art's back is drawn (face down)."""

    deck: str
    card: str | None
    x_mm: float
    y_mm: float
    #: Counter-clockwise rotation on the table; 0 = printed top pointing away (+Y).
    angle_deg: float = 0.0
    #: Lift above the table (cards lying on others); makes the shadow longer.
    lift_mm: float = 0.0

    @property
    def face_down(self) -> bool:
        return self.card is None


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """A pinhole camera looking at the table origin from `distance_mm` away.

    `px_per_mm` is the scale at the image point the camera aims at; `tilt_deg` tips
    the optical axis away from vertical (0 = straight down); `roll_deg` turns the
    image; `center_px` is where the aim point lands (None: image centre).
    """

    px_per_mm: float = 2.0
    tilt_deg: float = 0.0
    roll_deg: float = 0.0
    distance_mm: float = 700.0
    center_px: Point | None = None


@dataclass(frozen=True, slots=True)
class Glare:
    """A soft specular highlight, in image pixels; `strength` 0..1 of full white."""

    x: float
    y: float
    radius: float
    strength: float
    #: Elongation of the highlight (1 = round) and its orientation.
    aspect: float = 1.0
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class LightSpec:
    """Global light: `warmth` -1 (cold/blue) .. +1 (warm/tungsten), `brightness` gain,
    a linear gradient of relative `gradient` across the frame in `gradient_deg`, and
    a vignette 0..1."""

    warmth: float = 0.0
    brightness: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 0.0
    vignette: float = 0.0
    glare: tuple[Glare, ...] = ()
    #: 0 = no card shadows, 1 = strong; `shadow_deg` is where the shadows fall.
    shadow: float = 0.5
    shadow_deg: float = -60.0


class DistractorShape(enum.Enum):
    ELLIPSE = "ellipse"
    POLYGON = "polygon"
    PAPER = "paper"
    """A plain light rectangle about card size: a note, a score pad (not a card!)."""
    HAND = "hand"
    """A palm with fingers (skin tones), usually over the cards: a player reaching in."""


@dataclass(frozen=True, slots=True)
class Distractor:
    """Something on the table that is not a card (drawn under the cards), in table mm."""

    shape: DistractorShape
    x_mm: float
    y_mm: float
    size_mm: float
    angle_deg: float = 0.0
    colour: tuple[int, int, int] = (128, 128, 128)
    #: Polygon irregularity / ellipse and paper aspect.
    aspect: float = 1.0
    seed: int = 0
    #: Drawn over the cards (hiding what it covers, which truth then counts as
    #: covered) instead of lying under them.
    over_cards: bool = False
    #: Surface print: "" plain (shaded colour), "print" a page of text lines (a book
    #: or magazine), "stripes" coloured bands along its length (a board, a box).
    #: Why: a plain block is one edge; a printed one covering a card puts ink and
    #: edges next to the index the reader must still find (real photos have both).
    texture: str = ""


@dataclass(frozen=True, slots=True)
class SceneSpec:
    """Everything needed to draw one frame, cards listed bottom first."""

    cards: tuple[CardPlacement, ...]
    size: tuple[int, int] = (1280, 720)
    table: TableStyle = TableStyle.FELT_GREEN
    #: Seeds the table texture (independent of the rng's noise).
    table_seed: int = 0
    camera: CameraSpec = field(default_factory=CameraSpec)
    light: LightSpec = field(default_factory=LightSpec)
    blur_sigma: float = 0.0
    #: Motion blur length in pixels (0 = none), along `motion_deg`.
    motion_px: float = 0.0
    motion_deg: float = 0.0
    noise_sigma: float = 0.0
    #: JPEG quality 1..100, or None to skip compression.
    jpeg_quality: int | None = None
    distractors: tuple[Distractor, ...] = ()
    #: Non-uniform resize of the finished image: width x `stretch_x` (phones and
    #: viewers do it); truth is stretched with it. The image is then not `size`.
    stretch_x: float = 1.0


@dataclass(frozen=True, slots=True)
class IndexRegion:
    """Where a corner index lies in the image: a quad clockwise from the corner that
    is top-left when the index is read upright, and how much of it is uncovered."""

    quad: Quad
    visible_fraction: float

    @property
    def visible(self) -> bool:
        """Uncovered enough (95%) that a reader should be able to read it."""
        return self.visible_fraction >= 0.95


@dataclass(frozen=True, slots=True)
class CardTruth:
    """Ground truth for one drawn card (same order as `SceneSpec.cards`).

    `corners` are the card's image corners clockwise from its printed top-left;
    `visible_fraction` is the share of the card's area not covered by cards above it
    (the frame edge and objects over the cards count as covering). `index_regions` holds the top-left index
    then the bottom-right one (empty for face-down cards).
    """

    card: str | None
    face_down: bool
    corners: Quad
    visible_fraction: float
    index_regions: tuple[IndexRegion, ...]
    deck: str = ""
    z: int = 0

    @property
    def center(self) -> Point:
        return (sum(p[0] for p in self.corners) / 4.0, sum(p[1] for p in self.corners) / 4.0)

    @property
    def readable(self) -> bool:
        """Face up with at least one index uncovered: a reader should name it."""
        return not self.face_down and any(r.visible for r in self.index_regions)
