"""From what the engine says to what the table shows.

The engine's `public_view()` knows the game; `TableDisplay` knows LEDs. This module is
the only place that maps one onto the other, so the lights mean the same in every game:

- green, steady: this seat must act now;
- amber, pulsing: this seat may act (Durak throw-ins);
- blue, steady: this seat took the last trick or bout (until someone acts);
- red, blinking + alarm: this seat's last play was illegal;
- the two team displays: Kozel defeat points, Kozel-trumps pairs open, Vzetki tricks,
  Durak cards left in the stock and the fool's seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hardware.display_state import Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay

GREEN = Rgb(0, 160, 0)
AMBER = Rgb(200, 110, 0)
BLUE = Rgb(0, 60, 220)
RED = Rgb(230, 0, 0)


def _num(value: Any) -> str:
    return str(value)[-4:] if value is not None else ""


def team_displays(game: str, view: Mapping[str, Any]) -> tuple[str, str]:
    """The text of the two team displays for `game` in state `view`."""
    if game == "kozel":
        defeat = view.get("match_defeat") or view.get("defeat") or [0, 0]
        return _num(defeat[0]), _num(defeat[1])
    if game == "kozel-trumps":
        pairs = view.get("match_pairs") or view.get("pairs") or [0, 0]
        return _num(pairs[0]), _num(pairs[1])
    if game in ("vzetki", "vzetki-duo"):
        tricks = view.get("tricks") or [0, 0]
        return _num(tricks[0]), _num(tricks[1])
    if game == "durak":
        fool = view.get("fool")
        return _num(view.get("stock", 0)), ("F " + str(fool)) if fool is not None else ""
    return "", ""


def display_for(
    game: str,
    view: Mapping[str, Any],
    *,
    players: int,
    illegal_seat: int | None = None,
    status: Status = Status.WATCHING,
    buzz_id: int = 0,
    buzz: Buzz = Buzz.NONE,
) -> TableDisplay:
    """The whole table display for one moment of a game."""
    to_act: Sequence[int] = view.get("to_act", ())
    must_act: set[int] = set(to_act)
    may_act: set[int] = set()
    if game == "durak" and view.get("defender") is not None and len(to_act) > 1:
        # The defender must answer; the others only may throw in.
        must_act = {view["defender"]}
        may_act = set(to_act) - must_act
    winner = view.get("last_trick_winner")
    seats = []
    for seat in range(players):
        if seat == illegal_seat:
            light = SeatLight(LedMode.BLINK, RED)
        elif seat in must_act:
            light = SeatLight(LedMode.ON, GREEN)
        elif seat in may_act:
            light = SeatLight(LedMode.PULSE, AMBER)
        elif seat == winner and not view.get("table"):
            light = SeatLight(LedMode.ON, BLUE)
        else:
            light = SeatLight()
        seats.append(light)
    if illegal_seat is not None and buzz is Buzz.NONE:
        buzz = Buzz.ALARM
    return TableDisplay(
        seats=tuple(seats),
        displays=team_displays(game, view),
        trump=view.get("trump"),
        status=Status.READY if view.get("complete") else status,
        buzz=buzz,
        buzz_id=buzz_id,
    )
