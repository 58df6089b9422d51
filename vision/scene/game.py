"""Scripted table layouts for end-to-end tests: a game rendered frame by frame.

The referee's end-to-end tests need frames of a *known* game, not random scenes:
Durak bouts (beating cards across the attacking ones), Kozel tricks (one card from
each seat towards the middle), face-down passes (a small stack of backs). These
helpers build `CardPlacement`s in table millimetres around the camera's aim point;
`game_specs` turns a list of table states into `SceneSpec`s with one camera, table and
light (and a little per-frame jitter, as a real camera never gives two equal frames),
ready for `SyntheticSource(specs=...)` or `write_video`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from vision.scene.spec import CameraSpec, CardPlacement, LightSpec, SceneSpec, TableStyle

#: Gap between neighbouring cards in a row (a 63 mm card plus a hand's width of air).
ROW_STEP_MM = 80.0


def row(cards: Sequence[str | None], deck: str, *, y_mm: float = 0.0, x_mm: float = 0.0,
        step_mm: float = ROW_STEP_MM, angle_deg: float = 0.0) -> list[CardPlacement]:
    """Cards side by side, centred on (x_mm, y_mm); None draws a back."""
    x0 = x_mm - step_mm * (len(cards) - 1) / 2
    return [CardPlacement(deck, c, x0 + i * step_mm, y_mm, angle_deg)
            for i, c in enumerate(cards)]


def durak_bout(pairs: Sequence[tuple[str, str | None]], deck: str, *, y_mm: float = 0.0,
               beat_angle_deg: float = 35.0) -> list[CardPlacement]:
    """Attacking cards in a row; each beating card (if any) laid across its attacker,
    shifted towards the attacker's lower right so that its top-left index stays in
    view (as players do, so the attack can still be read). Bottom cards first."""
    attackers = row([a for a, _ in pairs], deck, y_mm=y_mm, step_mm=ROW_STEP_MM * 1.25)
    out = list(attackers)
    for base, (_, beat) in zip(attackers, pairs):
        if beat is None:
            continue
        # offset in the attacker's frame: right by a third of its width, down a quarter
        out.append(CardPlacement(deck, beat, base.x_mm + 21.0, base.y_mm - 22.0,
                                 base.angle_deg - beat_angle_deg, lift_mm=0.3))
    return out


def trick(cards: Sequence[str | None], deck: str, *, first_seat: int = 0, seats: int = 4,
          radius_mm: float = 55.0) -> list[CardPlacement]:
    """A trick in the middle of the table: card i played by seat (first_seat + i) % seats,
    seat 0 nearest the camera's bottom edge, seats counter-clockwise, each card pushed
    from its seat towards the middle and turned to face it. Later cards lie on top."""
    out = []
    for i, card in enumerate(cards):
        seat = (first_seat + i) % seats
        a = -math.pi / 2 + 2 * math.pi * seat / seats  # seat 0 at the bottom (-Y)
        # slight, deterministic untidiness so cards are not perfectly aligned
        wobble = 7.0 * math.sin(3.1 * (seat + 1) + i)
        out.append(CardPlacement(deck, card, radius_mm * math.cos(a), radius_mm * math.sin(a),
                                 math.degrees(a) + 90 + wobble, lift_mm=0.3 * i))
    return out


def face_down_stack(n: int, deck: str, *, x_mm: float = 0.0, y_mm: float = 0.0,
                    spread_mm: float = 22.0) -> list[CardPlacement]:
    """`n` backs dropped in a loose, slid-apart pile (Kozel passes), each shifted and
    turned a little so that every card of it shows, as a player shows the count."""
    x0 = x_mm - spread_mm * (n - 1) / 2
    return [CardPlacement(deck, None, x0 + spread_mm * i,
                          y_mm + 0.4 * spread_mm * math.sin(2.1 * i),
                          12.0 * math.sin(1.3 * i + 0.5), lift_mm=0.3 * i) for i in range(n)]


def game_specs(states: Sequence[Sequence[CardPlacement]], *, seed: int = 0,
               size: tuple[int, int] = (1280, 720),
               camera: CameraSpec | None = None, light: LightSpec | None = None,
               table: TableStyle = TableStyle.FELT_GREEN, jitter: float = 1.0,
               noise_sigma: float = 2.0, jpeg_quality: int | None = 85) -> list[SceneSpec]:
    """One `SceneSpec` per table state, same camera, table and light throughout.

    `jitter` moves every card by up to ~0.5 mm and 0.5 degrees per frame (times
    jitter), so consecutive frames of an unchanged table differ slightly, like camera
    frames do; 0 gives identical frames for identical states.
    """
    rng = np.random.default_rng(seed)
    cam = camera or CameraSpec(px_per_mm=1.6, tilt_deg=12.0, distance_mm=700.0)
    lt = light or LightSpec(warmth=0.3, shadow=0.4, vignette=0.2)
    table_seed = int(rng.integers(2 ** 31))
    specs = []
    for state in states:
        cards = tuple(
            dataclasses.replace(c, x_mm=c.x_mm + float(rng.uniform(-0.5, 0.5)) * jitter,
                                y_mm=c.y_mm + float(rng.uniform(-0.5, 0.5)) * jitter,
                                angle_deg=c.angle_deg + float(rng.uniform(-0.5, 0.5)) * jitter)
            for c in state)
        specs.append(SceneSpec(cards=cards, size=size, table=table, table_seed=table_seed,
                               camera=cam, light=lt, noise_sigma=noise_sigma,
                               jpeg_quality=jpeg_quality))
    return specs
