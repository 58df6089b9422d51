"""Kozel scoring: card points, defeat points, the match to 12, and whole random games.

Whole games are played by a fixed policy with known hands; the test recounts each
team's pile from the events itself (molodkas left out so every card is played once).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalPlay
from engine.events import Molodka, Pass, Play
from engine.kozel import KozelState, defeat_points, match_step
from engine.kozel_score import split_sums
from engine.kozel_position import DECK
from engine.ranking import card_points
from engine.simulate import observe


@pytest.mark.parametrize("points, tricks, defeat", [
    ((61, 59), (4, 4), [0, 2]),       # 61 wins; 59 is 31-59: 2
    ((89, 31), (6, 1), [0, 2]),       # 31 still 2
    ((90, 30), (7, 1), [0, 4]),       # under 31 with a trick: 4
    ((120, 0), (8, 1), [0, 4]),       # a trick worth nothing still counts as a trick
    ((120, 0), (9, 0), [0, 6]),       # no trick at all: 6
    ((0, 120), (0, 5), [6, 0]),
    ((40, 80), (3, 3), [2, 0]),
    ((60, 60), (4, 4), [0, 0]),       # balls: nobody
])
def test_defeat_points_follow_the_table_of_rules(points, tricks, defeat):
    assert defeat_points(points, tricks) == defeat


def test_card_points_add_up_to_120_in_the_deck():
    assert sum(card_points(c) for c in DECK) == 120


def test_match_adds_defeat_points_and_ends_at_12():
    s = match_step(None, {"points": [40, 80], "defeat": [2, 0], "last_trick": 1}, {})
    assert s == {"defeat": [2, 0], "double": False, "over": False, "loser": None,
                 "next_leader": 1}
    s = match_step({"defeat": [8, 6], "double": False},
                   {"points": [10, 110], "defeat": [4, 0], "last_trick": 2}, {})
    assert s["defeat"] == [12, 6] and s["over"] and s["loser"] == 0 and s["next_leader"] == 2


def test_balls_double_the_next_game_only_with_the_option():
    balls = {"points": [60, 60], "defeat": [0, 0], "last_trick": 0}
    assert not match_step(None, balls, {})["double"]
    s = match_step(None, balls, {"balls_double_next": True})
    assert s["double"] and s["defeat"] == [0, 0]
    s = match_step(s, {"points": [50, 70], "defeat": [2, 0], "last_trick": 3},
                   {"balls_double_next": True})
    assert s["defeat"] == [4, 0] and not s["double"]


def test_split_sums_are_the_exact_totals_k_unseen_cards_can_make():
    assert split_sums([0, 0, 10, 11], 1) == {0, 10, 11}
    assert split_sums([0, 0, 10, 11], 2) == {0, 10, 11, 21}
    assert split_sums([3, 4], 0) == {0} and split_sums([3, 4], 2) == {7}
    # 12 lies between the lowest (7) and highest (21) pair, but no pair makes it
    assert split_sums([3, 4, 10, 11], 2) == {7, 13, 14, 15, 21}


def test_an_unknown_defeat_cannot_be_added_to_a_match():
    with pytest.raises(ValueError, match="unknown"):
        match_step(None, {"points": [20, 30], "defeat": None}, {})


def _play_without_molodka(seed: int) -> tuple[KozelState, list, list[int]]:
    rng = random.Random(seed)
    header = KozelState.deal(rng, dealer=seed % 4)
    state = KozelState.from_header(header)
    assert isinstance(state, KozelState)
    events, pile = [], [0, 0]
    trick_points = 0
    while not state.complete:
        choices = [e for e in state.legal_events() if not isinstance(e, Molodka)]
        ev = choices[rng.randrange(len(choices))]
        before = state.public_view()["tricks_played"]
        state.apply(ev)
        events.append(ev)
        trick_points += sum(card_points(c) for c in ev.cards)
        view = state.public_view()
        if view["tricks_played"] > before:
            pile[view["last_trick_winner"] % 2] += trick_points
            trick_points = 0
    return state, events, pile


@pytest.mark.parametrize("seed", range(8))
def test_a_whole_game_scores_each_teams_pile_and_names_the_last_tricks_winner(seed):
    state, events, pile = _play_without_molodka(seed)
    result = state.result()
    assert result["points"] == pile and sum(pile) == 120
    assert result["defeat"] == defeat_points(pile, result["tricks"])
    assert result["last_trick"] == state.public_view()["last_trick_winner"]
    assert state.legal_events() == [] and state.to_act() == set()


@pytest.mark.parametrize("seed", range(4))
def test_observed_result_counts_seen_cards_and_never_contradicts_the_true_one(seed):
    state, events, pile = _play_without_molodka(seed)
    assert state.header.hands is not None
    listed = KozelState.from_header(state.header.without_hands())
    unlisted = KozelState.from_header(state.header.without_hands())
    for ev in events:
        listed.apply(ev)  # passes with their cards: everything is known
        unlisted.apply(observe(ev))
    assert listed.result() == state.result()
    res = unlisted.result()
    hidden = sum(e.count for e in events if isinstance(e, Pass))
    assert sum(res.get("unseen_cards", [0, 0])) == hidden
    assert res["defeat"] in (None, state.result()["defeat"])
    assert res["tricks"] == state.result()["tricks"]


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_every_legal_event_is_accepted_observed_and_undo_restores_each_step(seed):
    rng = random.Random(seed)
    state = KozelState.from_header(KozelState.deal(rng, dealer=rng.randrange(4)))
    watcher = KozelState.from_header(state.header.without_hands())
    while not state.complete:
        choices = state.legal_events()
        assert choices
        key = state.state_key()
        ev = choices[rng.randrange(len(choices))]
        state.apply(ev)
        state.undo()
        assert state.state_key() == key
        state.apply(ev)
        watcher.apply(observe(ev))  # never rejects what legal hands explain
        assert watcher.public_view()["hand_sizes"] == state.public_view()["hand_sizes"]
        assert len(state.history) <= KozelState.max_events
    assert watcher.complete


def test_a_play_after_the_end_is_illegal():
    state, events, pile = _play_without_molodka(0)
    with pytest.raises(IllegalPlay) as info:
        state.apply(Play(0, events[0].cards))
    assert info.value.rule == "common.game_over"


def test_public_view_carries_the_match_score_for_the_displays():
    header = KozelState.deal(random.Random(1), dealer=0)
    assert KozelState.from_header(header).public_view()["match"] is None
    carried = {"defeat": [4, 2], "double": False, "over": False, "loser": None,
               "next_leader": 1}
    header = dataclasses.replace(header, match=carried, leader=1)
    view = KozelState.from_header(header).public_view()
    assert view["match"] == carried and view["to_act"] == [1]
