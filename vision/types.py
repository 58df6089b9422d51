"""Values that flow out of vision/: frames, and what was seen in them.

These are the contract with referee/: per frame, every card on the table with its
position. Card labels use the same text as the record format (`10H`, `QC`, `AS`), but
vision knows nothing of the games: it reports what it sees, or abstains.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Point = tuple[float, float]
#: Four corners in image pixels, clockwise. For a card read face up the first corner
#: is a corner carrying a printed index (the card's top-left as printed, up to 180°).
Quad = tuple[Point, Point, Point, Point]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")


class VisionError(Exception):
    """Root of everything vision/ raises."""


class UnreadableImage(VisionError, ValueError):
    """An image file that is empty, truncated or not an image at all."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: cannot read image: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One camera frame. `image` is BGR uint8, HxWx3 (OpenCV's layout).

    `seq` counts frames from 0 since the source opened; `t` is seconds since then
    (monotonic for live cameras, from the container for video files).
    """

    image: np.ndarray
    seq: int
    t: float
    source: str = ""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


@dataclass(frozen=True, slots=True)
class CardSighting:
    """One card seen in a frame.

    `card` is the reading when the recogniser accepts it (`"QH"`), else None: a card
    seen but not read. `rank`/`suit` may be given alone when only one is sure (a
    rank-only deck, a covered suit pip). `confidence` is the recogniser's probability
    for `card` (0 when None). Face-down cards (backs) have `face_down=True` and no card.
    """

    corners: Quad
    face_down: bool = False
    card: str | None = None
    confidence: float = 0.0
    rank: str | None = None
    suit: str | None = None

    @property
    def center(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "card": self.card,
            "confidence": round(float(self.confidence), 4),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }
        if self.face_down:
            out["face_down"] = True
        if self.card is None and (self.rank or self.suit):
            out["rank"], out["suit"] = self.rank, self.suit
        return out


@dataclass(frozen=True, slots=True)
class FrameReading:
    """Everything vision saw in one frame. `changed` is False when the reading is the
    one reported for the previous frame, reused (the frame matched it closely enough).

    `settled`: the reading is the settled look's (vision.settle, Pipeline(settle=...)):
    the frame stayed unchanged for some frames after a change and was read once more
    by the stills chain, which finds and reads more cards than the live read. It
    stays so until the next change; the first frame to report it has `changed=True`
    (its cards may differ from the live reading of the same layout). A referee that
    records the cards that stayed can wait for it."""

    seq: int
    t: float
    cards: tuple[CardSighting, ...] = field(default_factory=tuple)
    changed: bool = True
    settled: bool = False
