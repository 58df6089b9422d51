"""Helpers the per-game rule tests share (importable as `rules_helpers`: see
`pythonpath` in pyproject's pytest settings)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalPlay
from engine.events import Event, event_from_json
from engine.game import GameState


def ev(obj: dict[str, Any]) -> Event:
    """An event from its record-line object: `ev({"seat": 0, "attack": ["7H"]})`."""
    return event_from_json(obj)[0]


def play(state: GameState, *objs: dict[str, Any]) -> None:
    """Apply record-line objects in order (each must be legal)."""
    for obj in objs:
        state.apply(ev(obj))


def rejects(state: GameState, event: Event | dict[str, Any], rule: str) -> IllegalPlay:
    """`event` is rejected for `rule`, located at the next event index, and the state is
    left exactly as it was."""
    if isinstance(event, dict):
        event = ev(event)
    before = state.state_key()
    with pytest.raises(IllegalPlay) as info:
        state.apply(event)
    assert info.value.rule == rule, info.value.reason
    assert info.value.event == len(state.history)
    assert state.state_key() == before
    return info.value
