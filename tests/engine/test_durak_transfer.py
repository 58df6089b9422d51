"""Durak's option `transfer` (perevodnoy): the defender passes the attack on.

RULES.md: before beating anything, the defender may add a card of the attacked rank,
passing the attack on to the next player, who must hold at least as many cards as
would then be attacking. Gaps filled (engine/durak.py): several cards at once, the
attack may come back to the attacker with two players, and the draws still start
with the bout's first attacker.
"""

from __future__ import annotations

from typing import Any

from rules_helpers import ev, play, rejects

from engine.durak import DurakState
from engine.durak_rules import scripted_header
from engine.events import Transfer

THREE = ["7S 9S 9C QC KS 6D", "7C 7D 10S 8S 9D JC", "7H 10C 10D 8D JD KD"]
TWO = ["7S 7C 7D 9S 9C QC", "7H 8S 10S 9D JC KD"]
ON = {"transfer": True}


def start(hands: list[str], options: dict[str, Any] | None = None, **kw: Any) -> DurakState:
    kw.setdefault("leader", 0)
    state = DurakState.from_header(
        scripted_header(hands, "AH", options=ON if options is None else options, **kw)
    )
    assert isinstance(state, DurakState)
    return state


def test_no_transfer_when_the_option_is_off() -> None:
    state = start(THREE, options={})
    play(state, {"seat": 0, "attack": ["7S"]})
    err = rejects(state, {"seat": 1, "transfer": ["7C"]}, "durak.transfer_off")
    assert "option 'transfer' is off" in err.reason
    assert not any(isinstance(e, Transfer) for e in state.legal_events())


def test_transfer_passes_the_attack_to_the_next_player() -> None:
    state = start(THREE)
    play(state, {"seat": 0, "attack": ["7S"]})
    assert Transfer(1, tuple(ev({"seat": 1, "transfer": ["7C"]}).cards)) in state.legal_events()
    play(state, {"seat": 1, "transfer": ["7C"]})
    view = state.public_view()
    assert view["defender"] == 2 and view["attacker"] == 1 and view["table"] == ["7S", "7C"]
    # the old defender may now throw in; the new one defends or takes
    play(state, {"seat": 1, "attack": ["7D"]})
    rejects(state, {"seat": 1, "defend": [["7S", "10S"]]}, "common.out_of_turn")
    play(state, {"seat": 2, "defend": [["7S", "7H"]]})


def test_transfer_of_several_cards_at_once() -> None:
    state = start(THREE)
    play(state, {"seat": 0, "attack": ["7S"]}, {"seat": 1, "transfer": ["7C", "7D"]})
    assert state.public_view()["table"] == ["7S", "7C", "7D"]


def test_transfer_only_with_the_attacked_rank() -> None:
    state = start(THREE)
    play(state, {"seat": 0, "attack": ["7S"]})
    err = rejects(state, {"seat": 1, "transfer": ["9D"]}, "durak.transfer_rank")
    assert "9D" in err.reason and "7s" in err.reason


def test_transfer_only_before_anything_is_beaten() -> None:
    state = start(THREE)
    play(state, {"seat": 0, "attack": ["7S"]}, {"seat": 1, "defend": [["7S", "10S"]]})
    rejects(state, {"seat": 1, "transfer": ["7C"]}, "durak.transfer_after_beat")


def test_only_the_defender_transfers() -> None:
    state = start(THREE)
    play(state, {"seat": 0, "attack": ["7S"]})
    rejects(state, {"seat": 2, "transfer": ["7H"]}, "common.out_of_turn")


def test_a_transfer_may_be_transferred_again() -> None:
    state = start(THREE)
    play(
        state,
        {"seat": 0, "attack": ["7S"]},
        {"seat": 1, "transfer": ["7C"]},
        {"seat": 2, "transfer": ["7H"]},
    )
    view = state.public_view()
    assert view["defender"] == 0 and view["attacker"] == 2 and view["limit"] == 5


def test_the_next_player_must_hold_as_many_cards_as_would_attack() -> None:
    state = start(TWO)
    play(state, {"seat": 0, "attack": ["7S", "7C", "7D"]})  # seat 0 keeps 3 cards
    err = rejects(state, {"seat": 1, "transfer": ["7H"]}, "durak.transfer_count")
    assert "seat 0 holds 3 cards, fewer than the 4" in err.reason
    assert not any(isinstance(e, Transfer) for e in state.legal_events())


def test_with_two_players_the_attack_comes_back_and_the_limit_is_his_hand() -> None:
    state = start(TWO)
    play(state, {"seat": 0, "attack": ["7S", "7C"]}, {"seat": 1, "transfer": ["7H"]})
    view = state.public_view()
    assert view["defender"] == 0 and view["attacker"] == 1
    assert view["limit"] == 4  # seat 0 held 4 cards when the attack reached him
    play(state, {"seat": 0, "transfer": ["7D"]})
    assert state.public_view()["defender"] == 1


def test_draws_still_start_with_the_first_attacker_after_a_transfer() -> None:
    state = start(THREE, stock_top="QS QD")
    play(
        state,
        {"seat": 0, "attack": ["7S"]},
        {"seat": 1, "transfer": ["7C"]},
        {"seat": 2, "take": True},
    )
    # seat 0 (the first attacker) draws QS, then seat 1 draws QD; seat 2 took, so the
    # player on his left (seat 0) attacks seat 1
    view = state.public_view()
    assert view["attacker"] == 0 and view["defender"] == 1
    rejects(state, {"seat": 0, "attack": ["QD"]}, "common.not_in_hand")
    play(state, {"seat": 0, "attack": ["QS"]})


def test_after_a_transferred_bout_is_beaten_the_new_defender_attacks() -> None:
    state = start(THREE)
    play(
        state,
        {"seat": 0, "attack": ["7S"]},
        {"seat": 1, "transfer": ["7C"]},
        {"seat": 2, "defend": [["7S", "7H"]]},
    )
    rejects(state, {"bout": "beaten"}, "durak.bout_beaten")
    play(state, {"seat": 2, "defend": [["7C", "10C"]]}, {"bout": "beaten"})
    view = state.public_view()
    assert view["attacker"] == 2 and view["defender"] == 0 and view["last_trick_winner"] == 2
