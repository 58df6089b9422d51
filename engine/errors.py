"""What the engine raises. Errors carry fields; their messages are written for players.

- `RecordError`: the input cannot be read as a record at all (`cardtable check` exit 2).
  `CardSyntaxError` is one: `"1X"` is no card.
- `IllegalPlay`: the record reads fine but an event breaks a rule (exit 1). It names the
  rule (a stable id like `"kozel.beat"`), the seat and the cards, and a `reason` a player
  understands ("9S does not beat QH: trump is hearts").
- `RevokeProven`: an `IllegalPlay` found late: a player shows a card of a suit he failed
  to follow earlier. `revoke_event` is the index of the earlier event that was illegal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.cards import Card


class EngineError(Exception):
    """Root of everything engine/ raises."""


class RecordError(EngineError, ValueError):
    """A record (or one of its lines) that cannot be read. `line` is 1-based, or None."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line is not None else reason)

    def at_line(self, line: int) -> RecordError:
        """The same error, located at `line` of a file."""
        err = RecordError(self.reason, line)
        err.__cause__ = self
        return err


class CardSyntaxError(RecordError):
    """Text that is not a card at all (`"1X"`)."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        super().__init__(f"{text!r} is {reason}" if reason.startswith("not") else f"{text!r}: {reason}")


class IllegalPlay(EngineError, ValueError):
    """An event that breaks a rule.

    `rule`: a stable id (`"durak.throw_in_rank"`), `reason`: the player's message,
    `seat`: who acted (None for table events), `cards`: the cards involved.
    `event`: the event's index in the game (0 = first event after the header); the
    record reader turns it into a line number.
    """

    def __init__(
        self,
        rule: str,
        reason: str,
        *,
        seat: int | None = None,
        cards: Sequence[Card] = (),
        event: int | None = None,
    ) -> None:
        self.rule = rule
        self.reason = reason
        self.seat = seat
        self.cards = tuple(cards)
        self.event = event
        super().__init__(reason)


class RevokeProven(IllegalPlay):
    """A revoke shown by a later play. `revoke_event` indexes the earlier, illegal event."""

    def __init__(
        self,
        rule: str,
        reason: str,
        *,
        revoke_event: int,
        seat: int | None = None,
        cards: Sequence[Card] = (),
        event: int | None = None,
    ) -> None:
        self.revoke_event = revoke_event
        super().__init__(rule, reason, seat=seat, cards=cards, event=event)


class NotYourTurn(IllegalPlay):
    """A seat acted when it could not."""


class HiddenInformation(EngineError, LookupError):
    """Asked for something only known with known hands (e.g. `legal_events` when observed)."""
