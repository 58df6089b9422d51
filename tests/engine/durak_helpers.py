"""The Durak deals the rule tests share (importable as `durak_helpers`: see
`pythonpath` in pyproject's pytest settings): a state started from hands written out,
and the deals several tests play."""

from __future__ import annotations

from typing import Any

from engine.durak import DurakState
from engine.durak_rules import scripted_header


def start(hands: list[str], trump: str = "AH", **kw: Any) -> DurakState:
    state = DurakState.from_header(scripted_header(hands, trump, **kw))
    assert isinstance(state, DurakState)
    return state


# Seat 0 leads by `leader`; trump is hearts (AH under the stock).
LED = ["9S 8H 7C 7D QC KS", "10S 8S 9D 7H 9H 6C"]
#: Three players: seat 2 may throw in (the throw-ins, who acts).
THREE = ["9S 9C 7C 7D QC KS", "10S 8S 9D 7H 9H 6C", "10C JC 8D 10D JD QS"]
#: Six players, spades trump (AS turned), dealer 5: after OUT_BOUTS seat 0 is out.
OUT_DEAL = [
    "7S 8S 9S 10S JS QS",
    "7C 8C 9C 7D 8D 9D",
    "7H 8H 9H QC QD QH",
    "KC KD KH AC AD AH",
    "6S 10C 10D 10H JC JH",
    "6C 6D 6H KS AS JD",
]
#: The first two bouts of OUT_DEAL, both beaten: seat 0 plays its last cards.
OUT_BOUTS: tuple[dict[str, Any], ...] = (
    {"seat": 4, "attack": ["10C"]},
    {"seat": 5, "defend": [["10C", "KS"]]},
    {"bout": "beaten"},
    {"seat": 5, "attack": ["6C", "6D", "6H"]},
    {"seat": 0, "defend": [["6C", "7S"], ["6D", "8S"], ["6H", "9S"]]},
    {"seat": 1, "attack": ["7C", "8D"]},
    {"seat": 2, "attack": ["9H"]},
    {"seat": 0, "defend": [["7C", "10S"], ["8D", "JS"], ["9H", "QS"]]},
    {"bout": "beaten"},
)
