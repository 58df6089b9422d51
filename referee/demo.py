"""`cardtable demo`: the main job on its embedded default.

For now the "table" is simulated: the engine deals and plays a random legal Kozel game
and a 4-player Durak game; the demo narrates them as a table would see them (trump,
plays, who took each trick, running points and defeat points, the fool), drives the
table's lights through the simulated microcontroller on a real pseudo-terminal, draws
those lights in the terminal from what the board reports it shows, writes both records,
and checks them as `cardtable check` would. As the camera pipeline lands, the same
entry point grows into it.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from engine.events import (
    Attack,
    BoutBeaten,
    Defend,
    Event,
    Exchange,
    Molodka,
    Pass,
    Play,
    Take,
    Transfer,
)

DEMO_GAMES: tuple[tuple[str, int], ...] = (("kozel", 4), ("durak", 4))


def describe(event: Event) -> str:
    """One event in words, as a table would see it."""
    match event:
        case Play(seat, cards):
            return f"seat {seat} plays {' '.join(map(str, cards))}"
        case Pass(seat, count, cards):
            return f"seat {seat} passes {count} face down"
        case Molodka(seat, cards):
            return f"seat {seat} shows a molodka: {' '.join(map(str, cards))}"
        case Attack(seat, cards):
            return f"seat {seat} attacks with {' '.join(map(str, cards))}"
        case Defend(seat, pairs):
            beats = ", ".join(f"{b} on {a}" for a, b in pairs)
            return f"seat {seat} beats: {beats}"
        case Transfer(seat, cards):
            return f"seat {seat} transfers with {' '.join(map(str, cards))}"
        case Take(seat):
            return f"seat {seat} takes the table"
        case BoutBeaten():
            return "all beaten: the table goes to the discard"
        case Exchange(seat, _, _):
            return f"seat {seat} exchanges a card with the partner"
    return str(event)


def score_line(game: str, view: dict[str, Any]) -> str:
    if game == "kozel":
        pts = view.get("points", [0, 0])
        return f"points {pts[0]}-{pts[1]}, stock {view.get('stock', 0)}"
    if game == "durak":
        sizes = view.get("hand_sizes", [])
        return f"stock {view.get('stock', 0)}, hands {sizes}"
    return json.dumps({k: view[k] for k in ("points", "tricks") if k in view})


def verdict(game: str, result: dict[str, Any]) -> str:
    """The end of a game in words: who won, the defeat points, the fool."""
    if game == "kozel":
        p, d = result["points"], result["defeat"]
        if p[0] == p[1]:
            return "60-60 (\"balls\"): no defeat points"
        win = 0 if p[0] > p[1] else 1
        lose = 1 - win
        return (f"team {win} wins {p[win]}-{p[lose]}; team {lose} gets "
                f"{d[lose]} defeat points")
    if game == "durak":
        fool = result.get("fool")
        return "no fool: the last cards left all hands together" if fool is None else (
            f"seat {fool} is the fool (durak)")
    return json.dumps(result)


@contextmanager
def _lights(enabled: bool, out: TextIO) -> Iterator[Callable[..., None] | None]:
    """A function that shows a TableDisplay on the simulated board and draws what the
    board then reports; None when the lights are off or cannot start."""
    if not enabled:
        yield None
        return
    try:
        from referee.board import SimulatedBoard
    except ImportError as exc:  # the bridge is optional for the narration
        print(f"(lights off: {exc})", file=out)
        yield None
        return
    with SimulatedBoard() as board:
        print(f"(table lights: simulated board on {board.port})", file=out)
        yield board.show_and_draw


def run_demo(
    *,
    seed: int = 7,
    out_dir: Path = Path("out/demo"),
    lights: bool = True,
    color: bool | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """Play, narrate, record and check the demo games. Returns the exit code."""
    from engine.check import check_record
    from engine.games import find_game
    from engine.record import write_record
    from engine.simulate import simulate
    from referee.lights import display_for

    if color is None:
        color = out.isatty()
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    worst = 0
    with _lights(lights, out) as show:
        for game, players in DEMO_GAMES:
            header, events = simulate(game, rng, players=players)
            state = find_game(game).from_header(header)
            view = state.public_view()
            print(f"\n=== {game}, {players} players, dealer seat {header.dealer}, "
                  f"trump {view.get('trump')} ===", file=out)
            buzz_id = 0
            for event in events:
                before = state.public_view()
                state.apply(event)
                view = state.public_view()
                print(f"  {describe(event)}", file=out)
                if view.get("tricks_played", 0) != before.get("tricks_played", 0):
                    what = "trick" if game != "durak" else "bout"
                    winner = view.get("last_trick_winner")
                    took = f"seat {winner} takes the {what}" if game != "durak" else f"{what} over"
                    print(f"  -> {took}; {score_line(game, view)}", file=out)
                    if show is not None:
                        buzz_id += 1
                        show(display_for(game, {**view, "complete": state.complete},
                                         players=players, buzz_id=buzz_id),
                             color=color, out=out)
            result = state.result()
            print(f"  result: {verdict(game, result)}  {json.dumps(result)}", file=out)
            path = out_dir / f"{game}.jsonl"
            write_record(path, header, events)
            outcome = check_record(path)
            print(f"  record: {path}\n  cardtable check {path}: {json.dumps(outcome.output)}",
                  file=out)
            worst = max(worst, outcome.exit_code)
    return worst
