"""Kozel scoring: defeat points for one game and the match score across games.

`match_step(carried, result, options)` returns the match score after a game:
{"defeat": [a, b] (running defeat points per team), "double": bool (the next game's
defeat points count double: balls with option `balls_double_next`), "over": bool (a
team reached 12), "loser": team or None, "next_leader": seat (last trick's winner)}.
A game whose defeat points are unknown (observed, None) raises ValueError.
"""

from __future__ import annotations

from typing import Any

MATCH_DEFEAT = 12
OPTION_DEFAULTS: dict[str, Any] = {"balls_double_next": False}


def defeat_points(points: tuple[int, int] | list[int], tricks: tuple[int, int] | list[int]
                  ) -> list[int]:
    """Defeat points per team for a finished game (RULES.md): the loser (under 60) gets 2
    for 31-59, 4 under 31 with a trick, 6 without a trick; 60-60 nobody.

    >>> defeat_points((71, 49), (3, 2)), defeat_points((60, 60), (2, 3))
    ([0, 2], [0, 0])
    >>> defeat_points((120, 0), (5, 0)), defeat_points((95, 25), (4, 1))
    ([0, 6], [0, 4])
    """
    if points[0] == points[1]:
        return [0, 0]
    loser = 0 if points[0] < points[1] else 1
    d = 6 if tricks[loser] == 0 else 4 if points[loser] < 31 else 2
    out = [0, 0]
    out[loser] = d
    return out


def split_sums(pool: list[int], k: int) -> set[int]:
    """Every total that `k` of the cards worth `pool` points can make: the points a
    team's face-down cards may hold when `pool` is every unseen card's worth.

    >>> sorted(split_sums([0, 2, 11, 11], 2))
    [2, 11, 13, 22]
    """
    reach: list[set[int]] = [{0}] + [set() for _ in range(k)]
    for value in pool:
        for n in range(k, 0, -1):
            reach[n] |= {s + value for s in reach[n - 1]}
    return reach[k]


def match_step(carried: dict[str, Any] | None, result: dict[str, Any],
               options: dict[str, Any]) -> dict[str, Any]:
    """The match score after one more game (keys in the module docstring).

    >>> s = match_step(None, {"points": [71, 49], "defeat": [0, 2], "last_trick": 3}, {})
    >>> s["defeat"], s["over"], s["next_leader"]
    ([0, 2], False, 3)
    >>> match_step({"defeat": [10, 0], "double": True}, {"points": [20, 100],
    ...     "defeat": [4, 0], "last_trick": 1}, {})["loser"]
    0

    Raises:
        ValueError: the game's defeat points are unknown (an observed record whose
            unseen cards leave the outcome open).
    """
    defeat = result.get("defeat")
    if defeat is None:
        raise ValueError("this game's defeat points are unknown: cards passed face down "
                         "were never seen, so the piles cannot be counted")
    before = list((carried or {}).get("defeat", [0, 0]))
    factor = 2 if (carried or {}).get("double") else 1
    total = [before[t] + factor * defeat[t] for t in range(2)]
    balls = list(result.get("points", [])) == [60, 60]
    opts = {**OPTION_DEFAULTS, **options}
    losers = [t for t in range(2) if total[t] >= MATCH_DEFEAT]
    return {
        "defeat": total,
        "double": bool(balls and opts["balls_double_next"]),
        "over": bool(losers),
        "loser": losers[0] if losers else None,
        "next_leader": result.get("last_trick"),
    }
