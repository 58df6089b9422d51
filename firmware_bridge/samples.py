"""Random but showable table states, for display-test, the tests and the bench."""

from __future__ import annotations

import random

from hardware.display_state import (
    MAX_SEATS,
    TRUMP_SUITS,
    Buzz,
    LedMode,
    Rgb,
    SeatLight,
    Status,
    TableDisplay,
)

#: Characters that read unambiguously on a 7-segment digit.
DISPLAY_CHARS = "0123456789 -ABCDEFHJLNOPSUYbcdnortu"


def random_display(rng: random.Random, buzz_id: int) -> TableDisplay:
    """A random but showable table state (also used by the tests and the bench)."""
    seats = tuple(
        SeatLight(rng.choice(list(LedMode)), Rgb(rng.randrange(256), rng.randrange(256),
                                                  rng.randrange(256)))
        for _ in range(rng.randint(2, MAX_SEATS)))
    displays = tuple("".join(rng.choice(DISPLAY_CHARS) for _ in range(rng.randint(0, 4)))
                     for _ in range(2))
    return TableDisplay(
        seats=seats,
        displays=displays,  # type: ignore[arg-type]
        trump=rng.choice((None, *TRUMP_SUITS)),
        status=rng.choice([s for s in Status if s is not Status.LINK_LOST]),
        buzz=rng.choice(list(Buzz)),
        buzz_id=buzz_id & 0xFFFF,
    )
