"""Listing Durak's legal events (known hands), in the order the base class promises.

The full set explodes (every subset of throw-ins, every matching of a multi-pair
defend), so this lists a canonical subset; `DurakState.apply` accepts all legal
events, listed or not:
- the first attack of a bout: every non-empty set of same-rank cards, up to the limit;
- throw-ins: one card at a time (several at once equal the singles in a row);
- defends: one pair at a time (likewise);
- transfers: every non-empty set of cards of the attacked rank the next player can face;
- `take` while a card is unbeaten, `bout: beaten` once all are beaten.

Sorted by the JSON text of each event (`json.dumps(event_to_json(e), sort_keys=True)`),
built here directly because random play spends its time sorting.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import combinations

from engine.cards import Card, Suit
from engine.durak_rules import DECK, Position, beats, left_of
from engine.events import Attack, BoutBeaten, Defend, Event, Take, Transfer, event_to_json


def listed_events(p: Position, players: int, trump: Suit, transfer: bool) -> list[Event]:
    """The legal events in position `p` (canonical subset, see above), sorted; [] at the end."""
    if p.over:
        return []
    events: list[Event] = []
    if not p.table:
        assert p.attacker is not None and p.defender is not None
        limit = min(p.cap, p.sizes[p.defender])
        for group in _by_rank(p.hands[p.attacker]).values():
            events.extend(Attack(p.attacker, c) for c in _subsets(group, limit))
    else:
        defender = p.defender
        assert defender is not None
        if len(p.table) < p.limit:
            ranks = {c.rank for c in p.table_cards}
            for s in range(players):
                if s != defender:
                    events.extend(Attack(s, (c,)) for c in p.hands[s] if c.rank in ranks)
        unbeaten = p.unbeaten
        hand = p.hands[defender]
        for a in unbeaten:
            events.extend(Defend(defender, ((a, b),)) for b in hand if beats(b, a, trump))
        events.append(Take(defender) if unbeaten else BoutBeaten())
        if transfer and len(unbeaten) == len(p.table):
            nxt = left_of(defender, players, p.out)
            same = [c for c in hand if c.rank == p.table[0][0].rank]
            room = p.sizes[nxt] - len(p.table)
            events.extend(Transfer(defender, c) for c in _subsets(same, room))
    keyed = {json_key(e): e for e in events}
    return [keyed[k] for k in sorted(keyed)]


_TEXT: dict[Card, str] = {c: json.dumps(str(c)) for c in DECK}


def json_key(e: Event) -> str:
    """`json.dumps(event_to_json(e), sort_keys=True)`, built directly for Durak's events."""
    if isinstance(e, Attack):
        return f'{{"attack": [{", ".join(_TEXT[c] for c in e.cards)}], "seat": {e.seat}}}'
    if isinstance(e, Defend):
        pairs = ", ".join(f"[{_TEXT[a]}, {_TEXT[b]}]" for a, b in e.pairs)
        return f'{{"defend": [{pairs}], "seat": {e.seat}}}'
    if isinstance(e, Transfer):
        return f'{{"seat": {e.seat}, "transfer": [{", ".join(_TEXT[c] for c in e.cards)}]}}'
    return json.dumps(event_to_json(e), sort_keys=True)


def _by_rank(cards: Iterable[Card]) -> dict[str, list[Card]]:
    out: dict[str, list[Card]] = {}
    for c in sorted(cards, key=str):
        out.setdefault(c.rank, []).append(c)
    return out


def _subsets(cards: list[Card], most: int) -> list[tuple[Card, ...]]:
    """Every non-empty subset of `cards` with at most `most` cards."""
    return [
        combo
        for k in range(1, min(most, len(cards)) + 1)
        for combo in combinations(sorted(cards, key=str), k)
    ]
