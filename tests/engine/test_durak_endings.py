"""Durak with known hands, continued from test_durak.py: the end of a bout (beaten,
taken, the draws), the end of the game (players out, the fool), the match step,
the view and the legal events. As there, each rule is shown both ways.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from durak_helpers import LED, OUT_BOUTS, OUT_DEAL, THREE, start
from rules_helpers import play, rejects

from engine.cards import Card
from engine.durak import DurakState, match_step
from engine.durak_rules import scripted_header
from engine.events import BoutBeaten, event_to_json
from engine.record import read_record

DATA = Path(__file__).parents[1] / "data"


# ----- the end of a bout ---------------------------------------------------------------------


def test_bout_beaten_only_when_every_card_is_beaten() -> None:
    state = start(LED, leader=0)
    rejects(state, {"bout": "beaten"}, "durak.bout_beaten")
    play(state, {"seat": 0, "attack": ["7C", "7D"]}, {"seat": 1, "defend": [["7C", "7H"]]})
    rejects(state, {"bout": "beaten"}, "durak.bout_beaten")
    play(state, {"seat": 1, "defend": [["7D", "9D"]]})
    rejects(state, {"seat": 1, "take": True}, "durak.take")
    play(state, {"bout": "beaten"})
    view = state.public_view()
    assert view["discard"] == 4 and view["table"] == []
    assert view["attacker"] == 1 and view["defender"] == 0  # the defender attacks next
    assert view["last_trick_winner"] == 1 and view["tricks_played"] == 1
    rejects(state, {"seat": 1, "attack": ["7H"]}, "common.card_seen_twice")  # discarded


def test_take_picks_up_the_table_and_the_next_player_attacks() -> None:
    state = start(THREE, leader=0)
    play(
        state,
        {"seat": 0, "attack": ["9S"]},
        {"seat": 1, "defend": [["9S", "10S"]]},
        {"seat": 2, "attack": ["10C"]},
        {"seat": 0, "attack": ["9C"]},  # thrown in after "I take"
        {"seat": 1, "take": True},
    )
    view = state.public_view()
    assert view["hand_sizes"] == [6, 9, 6]
    assert view["attacker"] == 2 and view["defender"] == 0
    assert view["last_bout"] == "taken" and view["last_trick_winner"] == 0
    # the taken cards are his now: he may play them later
    play(state, {"seat": 2, "attack": ["10D"]}, {"seat": 0, "take": True})
    play(state, {"seat": 1, "attack": ["10C"]})


DRAWS = ["6S 7S 8S 9S 10S JS", "6C 8C 10C 6D 8D 10D", "7C 9C JC 7D 9D JD"]


def test_draws_first_attacker_first_then_the_others_clockwise() -> None:
    state = start(DRAWS, "AH", dealer=0, stock_top="QS QC QD KS")
    assert state.to_act() == {1}  # nobody holds a heart: left of the dealer
    play(
        state,
        {"seat": 1, "attack": ["6C"]},
        {"seat": 2, "defend": [["6C", "7C"]]},
        {"seat": 0, "attack": ["6S"]},
        {"seat": 2, "take": True},
    )
    # seat 1 (the first attacker) draws QS, then seat 0 draws QC; seat 2 holds 8
    assert state.public_view()["hand_sizes"] == [6, 6, 8]
    assert state.public_view()["stock"] == 16
    rejects(state, {"seat": 0, "attack": ["QS"]}, "common.not_in_hand")
    play(state, {"seat": 0, "attack": ["QC"]})


def test_the_defender_draws_last() -> None:
    hands = ["6S 8S 9S 10S JS AS", "6C 8C 10C 6D 8D 10D", "7C 9C JC 7S 9D JD"]
    state = start(hands, "AH", dealer=0, stock_top="QS QC QD KS")
    play(
        state,
        {"seat": 1, "attack": ["6C"]},
        {"seat": 2, "defend": [["6C", "7C"]]},
        {"seat": 0, "attack": ["6S"]},
        {"seat": 2, "defend": [["6S", "7S"]]},
        {"bout": "beaten"},
    )
    # seat 1 draws QS, seat 0 QC, and the defender, seat 2, draws last: QD KS
    rejects(state, {"seat": 2, "attack": ["QC"]}, "common.not_in_hand")
    play(state, {"seat": 2, "attack": ["KS"]})


def test_the_turned_trump_card_is_drawn_last() -> None:
    hands = ["6S 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC"]
    header = scripted_header(hands, "AH", leader=0)
    state = DurakState.from_header(header)
    assert header.stock is not None and str(header.stock[-1]) == "AH"
    for _ in range(40):  # the attacker draws one card a bout: 24 bouts
        view = state.public_view()
        if view["stock"] == 0:
            break
        a, d = view["attacker"], view["defender"]
        card = sorted(state._p.hands[a], key=str)[0]
        play(state, {"seat": a, "attack": [str(card)]}, {"seat": d, "take": True})
    assert state.public_view()["stock"] == 0
    holder = [s for s in (0, 1) if Card.parse("AH") in state._p.hands[s]]
    assert len(holder) == 1


# ----- the end of the game -------------------------------------------------------------------


def test_a_player_without_cards_once_the_stock_is_empty_is_out_and_skipped() -> None:
    state = start(OUT_DEAL, "AS", dealer=5)
    assert state.to_act() == {4}  # 6S
    play(
        state,
        {"seat": 4, "attack": ["10C"]},
        {"seat": 5, "defend": [["10C", "KS"]]},
        {"bout": "beaten"},
    )
    # bout 2: six attacking cards, seat 0 beats them all with his six trumps
    play(
        state,
        {"seat": 5, "attack": ["6C", "6D", "6H"]},
        {"seat": 0, "defend": [["6C", "7S"], ["6D", "8S"], ["6H", "9S"]]},
        {"seat": 1, "attack": ["7C", "8D"]},
        {"seat": 2, "attack": ["9H"]},
    )
    err = rejects(state, {"seat": 1, "attack": ["9C"]}, "durak.attack_limit")
    assert "at most 6 attacking cards in a bout" in err.reason
    play(
        state,
        {"seat": 0, "defend": [["7C", "10S"], ["8D", "JS"], ["9H", "QS"]]},
        {"bout": "beaten"},
    )
    view = state.public_view()
    assert view["out"] == [0] and view["hand_sizes"][0] == 0
    # seat 0 beat the bout but is out: the next seat still in attacks
    assert view["attacker"] == 1 and view["defender"] == 2 and 0 not in view["to_act"]
    rejects(state, {"seat": 0, "attack": ["7S"]}, "common.out_of_turn")
    play(state, {"seat": 1, "attack": ["7D"]})
    err = rejects(state, {"seat": 0, "attack": ["7H"]}, "common.out_of_turn")  # no throw-in
    assert err.reason == "seat 0 is out of the game"


def test_never_more_attacking_cards_than_the_defender_held_when_the_bout_began() -> None:
    state = start(OUT_DEAL, "AS", dealer=5)
    play(
        state,
        *OUT_BOUTS,
        {"seat": 1, "attack": ["7D"]},
        {"seat": 2, "take": True},
        {"seat": 3, "attack": ["KC"]},
        {"seat": 4, "defend": [["KC", "6S"]]},
        {"bout": "beaten"},
    )
    assert state.public_view()["hand_sizes"][5] == 2  # AS JD
    play(state, {"seat": 4, "attack": ["10D", "10H"]})  # as many as seat 5 holds
    assert state.public_view()["limit"] == 2
    play(state, {"seat": 5, "defend": [["10D", "JD"]]})
    err = rejects(state, {"seat": 4, "attack": ["JC"]}, "durak.attack_limit")
    assert "seat 5 held only 2 cards when the bout began" in err.reason


@pytest.mark.parametrize("players", [3, 6])
def test_the_last_player_holding_cards_is_the_fool_else_nobody(players: int) -> None:
    fools = set()
    for seed in range(40):
        header = DurakState.deal(random.Random(seed), players=players, dealer=seed % players)
        state = DurakState.from_header(header)
        rng = random.Random(seed)
        while not state.complete:
            events = state.legal_events()
            state.apply(events[rng.randrange(len(events))])
            view = state.public_view()
            assert view["attacker"] not in view["out"] and view["defender"] not in view["out"]
        assert state.legal_events() == [] and state.to_act() == frozenset()
        fool = state.result()["fool"]
        holding = [s for s, n in enumerate(state.public_view()["hand_sizes"]) if n]
        assert holding == ([] if fool is None else [fool])
        fools.add(fool)
    assert len(fools) > 1


def test_events_after_the_end_are_rejected() -> None:
    hands = ["6S 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC"]
    state = start(hands, "AH", leader=0)
    rng = random.Random(5)
    while not state.complete:
        events = state.legal_events()
        state.apply(events[rng.randrange(len(events))])
    rejects(state, {"seat": 0, "attack": ["6S"]}, "common.game_over")


def test_a_record_whose_last_cards_leave_together_has_no_fool() -> None:
    record = read_record(DATA / "durak_no_fool.jsonl")
    state = DurakState.from_header(record.header)
    for event in record.events:
        state.apply(event)
    assert state.complete and state.result() == {"fool": None}
    view = state.public_view()
    assert view["hand_sizes"] == [0, 0] and view["out"] == [0, 1] and view["stock"] == 0
    assert isinstance(record.events[-1], BoutBeaten)  # the last bout was beaten off


def test_match_step_counts_fools_and_the_fool_deals_next() -> None:
    score = match_step(None, {"fool": 2}, {"transfer": False})
    assert score == {"fools": {"2": 1}, "games": 1, "over": False, "loser": None, "next_dealer": 2}
    score = match_step(score, {"fool": None}, {})
    assert score["fools"] == {"2": 1} and score["games"] == 2 and score["next_dealer"] is None
    score = match_step(score, {"fool": 2}, {})
    assert score["fools"] == {"2": 2} and score["next_dealer"] == 2


def test_to_act_is_the_defender_and_whoever_can_throw_in() -> None:
    state = start(THREE, leader=0)
    play(state, {"seat": 0, "attack": ["9S"]})
    assert state.public_view()["to_act"] == [0, 1]
    play(state, {"seat": 1, "defend": [["9S", "10S"]]})
    assert state.public_view()["to_act"] == [0, 2]  # all beaten: only throw-ins (or beaten)
    events = state.legal_events()
    assert BoutBeaten() in events and not any(getattr(e, "seat", None) == 1 for e in events)


def test_result_and_view_keys() -> None:
    state = start(LED, leader=0)
    view = state.public_view()
    for key in (
        "to_act",
        "trump",
        "table",
        "table_down",
        "hand_sizes",
        "stock",
        "last_trick_winner",
        "tricks_played",
        "attacker",
        "defender",
        "out",
        "fool",
    ):
        assert key in view
    assert view["to_act"] == [0] and view["trump"] == "H" and view["stock"] == 24
    assert state.result() == {"fool": None}


def _texts(state: DurakState) -> set[str]:
    return {json.dumps(event_to_json(e), sort_keys=True) for e in state.legal_events()}


def test_legal_events_known_answers() -> None:
    """Counted by hand from the LED deal (hearts trump, seat 0 leads, no transfer)."""
    state = start(LED, leader=0)
    attacks = {"7C", "7D", "7C 7D", "8H", "9S", "QC", "KS"}
    assert _texts(state) == {
        json.dumps({"attack": a.split(), "seat": 0}, sort_keys=True) for a in attacks
    }
    play(state, {"seat": 0, "attack": ["9S"]})
    assert len(state.legal_events()) == 4  # beat with 10S, 7H or 9H, or take
    state.undo()
    play(state, {"seat": 0, "attack": ["7C", "7D"]})
    # 7C: 7H 9H; 7D: 9D 7H 9H; take; seat 0 has no 7 left to throw in
    assert len(state.legal_events()) == 6
