"""`cardtable check FILE`: replay a record through the rules (RECORD.md contract).

The outcome is data: `CheckOutcome(exit_code, output, message)`. `output` is the one
JSON object the command prints:

- exit 0: `{"ok": true, "complete": bool, "result": {...}}` — legal so far;
- exit 1: `{"ok": false, "event": LINE, "reason": "...", "rule": "..."}` — the event on
  file line LINE breaks a rule (for a revoke proven later, `"revoke_line"` is the line
  of the revoke itself, and `event` the line of the play that proved it);
- exit 2: `{"ok": false, "error": "line N: ..."}` — not readable as a record; the same
  text is `message`, for stderr.

An event after the game has ended is illegal (rule `"common.game_over"`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalPlay, RecordError, RevokeProven
from engine.events import Event, Note
from engine.game import GameState
from engine.games import find_game
from engine.header import Header
from engine.record import Record, read_record

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """What `check_record` found: the exit code, the JSON object, and a stderr message."""

    exit_code: int
    output: dict[str, Any]
    message: str | None = None
    state: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.exit_code == EXIT_OK


def start_state(header: Header) -> GameState:
    """The game state for a header (line 1). Raises RecordError at line 1."""
    try:
        return find_game(header.game).from_header(header)
    except RecordError as exc:
        if exc.line is not None:
            raise
        raise exc.at_line(1) from exc


def replay(state: GameState, events: Iterable[Event]) -> None:
    """Apply events in order; an event after the end is `common.game_over`.

    Raises:
        IllegalPlay: with `.event` the index (in the state's history) of the bad event.
    """
    for event in events:
        if state.complete and not isinstance(event, Note):
            raise IllegalPlay(
                "common.game_over",
                "the game is over: no more cards may be played",
                seat=getattr(event, "seat", None),
                event=len(state.history),
            )
        state.apply(event)


def illegal_output(exc: IllegalPlay, record: Record) -> dict[str, Any]:
    """The exit-1 JSON object for `exc` raised while replaying `record`."""
    index = exc.event if exc.event is not None else len(record.events) - 1
    out: dict[str, Any] = {
        "ok": False,
        "event": record.line_of(index),
        "reason": exc.reason,
        "rule": exc.rule,
    }
    if isinstance(exc, RevokeProven):
        line = record.line_of(exc.revoke_event)
        out["revoke_line"] = line
        # games name the revoke as "line i+2" (no blank lines); use the file's own line
        assumed = f"line {exc.revoke_event + 2}"
        if line != exc.revoke_event + 2 and assumed in exc.reason:
            out["reason"] = exc.reason.replace(assumed, f"line {line}", 1)
    return out


def check_record(
    source: str | os.PathLike[str] | Iterable[str] | Record,
) -> CheckOutcome:
    """Check a record file (path), its lines, or a Record already read."""
    try:
        record = source if isinstance(source, Record) else read_record(source)
        state = start_state(record.header)
    except RecordError as exc:
        message = str(exc)
        return CheckOutcome(EXIT_UNREADABLE, {"ok": False, "error": message}, message)
    try:
        replay(state, record.events)
    except IllegalPlay as exc:
        return CheckOutcome(EXIT_ILLEGAL, illegal_output(exc, record), None, state)
    except RecordError as exc:  # a game found an event it cannot read
        if exc.line is None:
            exc = exc.at_line(record.line_of(len(state.history)))
        message = str(exc)
        return CheckOutcome(EXIT_UNREADABLE, {"ok": False, "error": message}, message, state)
    return CheckOutcome(
        EXIT_OK,
        {"ok": True, "complete": state.complete, "result": state.result()},
        None,
        state,
    )
