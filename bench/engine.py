"""Engine speed: simulated games per second, and microseconds per validated move.

For every game and option set: how many whole random games per second `simulate`
plays (dealing, `legal_events`, `apply`), and how long `apply` takes to validate one
event when a record is replayed (the referee's hot path), with known hands and
observed. Medians of several runs, in process CPU time (the machines are shared, so
wall time would measure the neighbours); the goal is < 50 us per validated move.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from engine.events import Event
from engine.games import GAME_NAMES, find_game
from engine.header import Header
from engine.simulate import observe, simulate

CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    ("kozel", None, {}),
    ("kozel", None, {"balls_double_next": True}),
    ("kozel-trumps", None, {}),
    ("kozel-trumps", None, {"jack_of_clubs_declares": True}),
    ("vzetki", None, {}),
    ("vzetki", None, {"trump": "H"}),
    ("vzetki", None, {"top_rank": 6}),
    ("vzetki-duo", None, {}),
    ("durak", 2, {}),
    ("durak", 4, {}),
    ("durak", 6, {}),
    ("durak", 4, {"transfer": True}),
]
RUNS = 5
GAMES_PER_RUN = 20
GOAL_US = 50.0


def _games_per_second(game: str, players: int | None, options: dict[str, Any]) -> float:
    rates = []
    for run in range(RUNS):
        rng = random.Random(run)
        start = time.process_time()
        for _ in range(GAMES_PER_RUN):
            simulate(game, rng, players=players, options=options)
        rates.append(GAMES_PER_RUN / (time.process_time() - start))
    return statistics.median(rates)


def _us_per_move(records: list[tuple[Header, list[Event]]]) -> float:
    cls = find_game(records[0][0].game)
    times = []
    for _ in range(RUNS):
        moves = 0
        elapsed = 0.0
        for header, events in records:
            state = cls.from_header(header)
            start = time.process_time()
            for event in events:
                state.apply(event)
            elapsed += time.process_time() - start
            moves += len(events)
        times.append(elapsed / moves * 1e6)
    return statistics.median(times)


def main() -> None:
    print(f"{'game':<14}{'players':>8}  {'options':<30}{'games/s':>9}"
          f"{'us/move known':>15}{'us/move observed':>18}")
    worst = 0.0
    for game, players, options in CASES:
        if game not in GAME_NAMES:
            continue
        try:
            rate = _games_per_second(game, players, options)
            rng = random.Random(99)
            known = [simulate(game, rng, players=players, options=options) for _ in range(10)]
            observed = [(h.without_hands(), [observe(e) for e in ev]) for h, ev in known]
            us_known = _us_per_move(known)
            us_obs = _us_per_move(observed)
        except ImportError as exc:
            print(f"{game:<14} not available: {exc}")
            continue
        worst = max(worst, us_known, us_obs)
        n = players or find_game(game).min_players
        opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        print(f"{game:<14}{n:>8}  {opts:<30}{rate:>9.0f}{us_known:>15.1f}{us_obs:>18.1f}")
    verdict = "meets" if worst < GOAL_US else "MISSES"
    print(f"slowest validated move: {worst:.1f} us ({verdict} the {GOAL_US:.0f} us goal); "
          f"medians of {RUNS} runs")


if __name__ == "__main__":
    main()
