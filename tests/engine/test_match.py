"""Matches: a sequence of records, each header carrying the score so far (`match`)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest

from engine.events import Event
from engine.games import GAME_NAMES, find_game
from engine.header import Header
from engine.match import check_match, next_seats, score_after, simulate_match
from engine.record import write_record
from referee.cli import main

MAX_GAMES = {"durak": 4}  # a durak match has no fixed end


def write_games(tmp_path: Path, games: list[tuple[Header, list[Event]]]) -> list[Path]:
    paths = []
    for i, (header, events) in enumerate(games, 1):
        path = tmp_path / f"game_{i:03d}.jsonl"
        write_record(path, header, events)
        paths.append(path)
    return paths


@pytest.mark.parametrize("game", GAME_NAMES)
def test_simulated_match_checks_and_ends(game: str, tmp_path: Path) -> None:
    games = simulate_match(game, random.Random(11), max_games=MAX_GAMES.get(game, 60))
    assert games[0][0].match is None
    for (h1, _), (h2, _) in itertools.pairwise(games):
        assert h2.match is not None  # every later game carries the score
        n = h1.players or find_game(game).min_players
        assert h2.dealer == (h1.dealer + 1) % n or h2.match.get("next_dealer") is not None
    outcome = check_match(write_games(tmp_path, games))
    assert outcome.exit_code == 0, outcome.output
    assert outcome.output["games"] == len(games)
    if game != "durak":
        assert outcome.output["over"] is True
        assert outcome.output["score"]["over"] is True


def test_vzetki_match_is_four_rounds_adding_tricks(tmp_path: Path) -> None:
    games = simulate_match("vzetki", random.Random(3))
    assert len(games) == 4
    assert [h.dealer for h, _ in games] == [(games[0][0].dealer + i) % 4 for i in range(4)]
    outcome = check_match(write_games(tmp_path, games))
    assert sum(outcome.output["score"]["tricks"]) == 40
    assert outcome.output["score"]["rounds"] == 4


def test_kozel_match_next_leader_is_last_trick_winner(tmp_path: Path) -> None:
    games = simulate_match("kozel", random.Random(5))
    assert len(games) >= 2
    for (header, events), (nxt, _) in itertools.pairwise(games):
        state = find_game("kozel").from_header(header)
        for e in events:
            state.apply(e)
        assert nxt.leader == state.result()["last_trick"]
        assert nxt.match == score_after(header, state.result())
    assert max(games[-1][0].match["defeat"]) < 12 if games[-1][0].match else True


def test_a_match_may_start_from_a_carried_score(tmp_path: Path) -> None:
    games = simulate_match("vzetki", random.Random(6), start={"of": 8})
    assert len(games) == 8 and games[0][0].match == {"of": 8}
    outcome = check_match(write_games(tmp_path, games))
    assert outcome.exit_code == 0 and outcome.output["score"]["rounds"] == 8
    assert sum(outcome.output["score"]["tricks"]) == 80


def test_tampered_score_is_reported_at_line_1_of_that_file(tmp_path: Path) -> None:
    games = simulate_match("vzetki", random.Random(4))
    h3, e3 = games[2]
    assert h3.match is not None
    wrong = {**h3.match, "tricks": [h3.match["tricks"][0] + 1, h3.match["tricks"][1]]}
    games[2] = (dataclasses.replace(h3, match=wrong), e3)
    paths = write_games(tmp_path, games)
    outcome = check_match(paths)
    assert outcome.exit_code == 1
    assert outcome.output["event"] == 1 and outcome.output["rule"] == "match.score"
    assert outcome.output["file"] == str(paths[2])


def test_tampered_leader_and_incomplete_game(tmp_path: Path) -> None:
    games = simulate_match("kozel", random.Random(8))
    h2, e2 = games[1]
    bad = (dataclasses.replace(h2, leader=((h2.leader or 0) + 1) % 4), e2)
    outcome = check_match(write_games(tmp_path, [games[0], bad]))
    assert outcome.exit_code == 1 and "leader" in outcome.output["reason"]
    short = (games[0][0], games[0][1][:5])
    outcome = check_match(write_games(tmp_path, [short, games[1]]))
    assert outcome.exit_code == 1 and "not complete" in outcome.output["reason"]


def test_illegal_event_inside_a_match_names_file_and_line(tmp_path: Path) -> None:
    games = simulate_match("vzetki", random.Random(9))
    h, e = games[1]
    games[1] = (h, e[:3] + [e[0]] + e[4:])  # a card played twice on line 5
    outcome = check_match(write_games(tmp_path, games))
    assert outcome.exit_code == 1 and outcome.output["event"] == 5
    assert outcome.output["file"].endswith("game_002.jsonl")


def test_next_seats_rotate_unless_the_score_names_them() -> None:
    h = Header(game="durak", players=3, dealer=2)
    assert next_seats(h, {}, 3) == (0, None)
    assert next_seats(h, {"next_dealer": 1}, 3) == (1, None)
    assert next_seats(h, {"next_leader": 1}, 4) == (3, 1)


def test_cli_match_simulates_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "m"
    assert main(["match", "--game", "vzetki-duo", "--seed", "2", "-d", str(out_dir)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4 and summary["score"]["over"] is True
    files = sorted(str(p) for p in out_dir.glob("*.jsonl"))
    assert main(["match", *files]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["match", files[0], files[2]]) == 1
    assert json.loads(capsys.readouterr().out)["rule"] == "match.score"
    assert main(["match", "--game", "vzetki", "--seed", "1", "--start", '{"of": 2}']) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
