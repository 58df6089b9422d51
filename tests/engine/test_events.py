"""engine.events: every event kind round-trips through its JSON form; bad lines are
RecordErrors (exit 2), not illegal plays."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import RANKS, SUITS, Card, parse_cards
from engine.errors import CardSyntaxError, RecordError
from engine.events import (
    Attack,
    BoutBeaten,
    Defend,
    Dummy,
    EventMeta,
    Exchange,
    Molodka,
    Note,
    Pass,
    Play,
    Take,
    Transfer,
    event_from_json,
    event_to_json,
)

C = parse_cards

EXAMPLES = [
    ({"seat": 1, "play": ["9H", "KH"]}, Play(1, C(["9H", "KH"]))),
    ({"seat": 2, "pass": 2}, Pass(2, 2)),
    ({"seat": 2, "pass": ["6S", "7S"]}, Pass(2, 2, C(["6S", "7S"]))),
    ({"seat": 0, "molodka": ["6H", "9H", "QH", "AH"]}, Molodka(0, C(["6H", "9H", "QH", "AH"]))),
    ({"seat": 1, "dummy": ["AH", "7H"]}, Dummy(1, C(["AH", "7H"]))),
    ({"seat": 0, "exchange": True}, Exchange(0)),
    ({"seat": 0, "give": "QH", "receive": "8D"}, Exchange(0, *C(["QH", "8D"]))),
    ({"seat": 0, "attack": ["7H", "7S"]}, Attack(0, C(["7H", "7S"]))),
    ({"seat": 1, "defend": [["7H", "9H"], ["7S", "6D"]]},
     Defend(1, ((C(["7H"])[0], C(["9H"])[0]), (C(["7S"])[0], C(["6D"])[0])))),
    ({"seat": 1, "transfer": ["7D"]}, Transfer(1, C(["7D"]))),
    ({"seat": 1, "take": True}, Take(1)),
    ({"bout": "beaten"}, BoutBeaten()),
    ({"seat": 0, "note": "disputed"}, Note(0, "disputed")),
    ({"note": "table bumped"}, Note(None, "table bumped")),
]


@pytest.mark.parametrize(("obj", "event"), EXAMPLES, ids=[next(iter(set(o) - {"seat"}))
                                                          for o, _ in EXAMPLES])
def test_event_json_round_trip(obj: dict, event: object) -> None:
    got, meta = event_from_json(json.loads(json.dumps(obj)))
    assert got == event and meta == EventMeta()
    assert event_to_json(got) == obj


def test_meta_travels_beside_the_event() -> None:
    obj = {"seat": 1, "play": ["9H"], "t": 3.5, "frame": 88, "confidence": 0.9}
    event, meta = event_from_json(obj)
    assert meta == EventMeta(3.5, 88, 0.9)
    assert event_to_json(event, meta) == obj


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"seat": 1}, "no event key"),
        ({"seat": 1, "play": ["9H"], "take": True}, "several event keys"),
        ({"seat": 1, "play": ["9H"], "colour": 1}, "unknown key"),
        ({"seat": 1, "play": []}, "non-empty"),
        ({"seat": 1, "play": "9H"}, "list of cards"),
        ({"seat": "one", "play": ["9H"]}, "seat"),
        ({"seat": True, "play": ["9H"]}, "seat"),
        ({"seat": 1, "pass": 0}, "at least 1"),
        ({"seat": 1, "exchange": False}, "true"),
        ({"seat": 1, "give": "QH"}, "receive"),
        ({"seat": 1, "defend": [["7H"]]}, "pair"),
        ({"seat": 1, "take": "yes"}, "true"),
        ({"bout": "taken"}, "beaten"),
        ({"note": 5}, "text"),
        ({"seat": 1, "play": ["9H"], "t": -1}, "'t'"),
        ({"seat": 1, "play": ["9H"], "confidence": 2}, "confidence"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_event_lines_are_record_errors(obj: object, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        event_from_json(obj)


def test_unknown_card_text_is_a_card_syntax_error() -> None:
    with pytest.raises(CardSyntaxError):
        event_from_json({"seat": 0, "attack": ["1X"]})


# ----- fuzz: parse -> serialize -> parse (python-chess fuzz/fen.py style) ----------------

cards = st.builds(lambda r, s: Card.parse(r + s.value), st.sampled_from(RANKS),
                  st.sampled_from(SUITS))
card_tuples = st.lists(cards, min_size=1, max_size=6).map(tuple)
seats = st.integers(0, 5)
events = st.one_of(
    st.builds(Play, seats, card_tuples),
    st.builds(lambda s, n: Pass(s, n), seats, st.integers(1, 4)),
    st.builds(lambda s, c: Pass(s, len(c), c), seats, card_tuples),
    st.builds(Molodka, seats, card_tuples),
    st.builds(Dummy, seats, card_tuples),
    st.builds(Exchange, seats),
    st.builds(Exchange, seats, cards, cards),
    st.builds(Attack, seats, card_tuples),
    st.builds(Defend, seats, st.lists(st.tuples(cards, cards), min_size=1, max_size=6)
              .map(tuple)),
    st.builds(Transfer, seats, card_tuples),
    st.builds(Take, seats),
    st.just(BoutBeaten()),
    st.builds(Note, st.one_of(st.none(), seats), st.text(max_size=30)),
)
metas = st.builds(EventMeta, st.one_of(st.none(), st.floats(0, 1e6)),
                  st.one_of(st.none(), st.integers(0, 10**9)),
                  st.one_of(st.none(), st.floats(0, 1)))


@given(events, metas)
def test_fuzz_event_text_round_trip(event: object, meta: EventMeta) -> None:
    text = json.dumps(event_to_json(event, meta))  # type: ignore[arg-type]
    again, meta2 = event_from_json(json.loads(text))
    assert again == event and meta2 == meta
    assert json.dumps(event_to_json(again, meta2)) == text
