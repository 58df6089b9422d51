"""`check_record` and `cardtable check`: the RECORD.md contract, exit codes and lines."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.check import check_record
from engine.record import record_lines
from engine.simulate import simulate
from referee.cli import main

# seat 0 deals and leads; seat 1 is the dummy. top_rank 3: A 2 3 of each suit, 3 each.
HANDS = [["3H", "AC", "2S"], ["2H", "AS", "3D"], ["AH", "3C", "2D"], ["2C", "3S", "AD"]]
HEADER = {"game": "vzetki", "dealer": 0, "options": {"top_rank": 3}, "hands": HANDS}
GAME = [  # a whole legal round: 3 tricks
    {"seat": 0, "play": ["3H"]}, {"seat": 1, "play": ["2H"]}, {"seat": 2, "play": ["AH"]},
    {"seat": 3, "play": ["2C"]},  # seat 0 wins (3H)
    {"seat": 0, "play": ["AC"]}, {"seat": 1, "play": ["AS"]}, {"seat": 2, "play": ["3C"]},
    {"seat": 3, "play": ["AD"]},  # seat 2 wins (3C)
    {"seat": 2, "play": ["2D"]}, {"seat": 3, "play": ["3S"]}, {"seat": 0, "play": ["2S"]},
    {"seat": 1, "play": ["3D"]},  # seat 1 wins (3D)
]


def lines(header: dict, events: list[dict]) -> list[str]:
    return [json.dumps(header)] + [json.dumps(e) for e in events]


def test_complete_legal_record() -> None:
    out = check_record(lines(HEADER, GAME))
    assert out.exit_code == 0
    assert out.output == {"ok": True, "complete": True, "result": {"tricks": [2, 1]}}


def test_incomplete_record_is_legal_so_far() -> None:
    out = check_record(lines(HEADER, GAME[:5]))
    assert out.output == {"ok": True, "complete": False, "result": {"tricks": [1, 0]}}


def test_illegal_event_is_reported_at_its_line_with_rule() -> None:
    bad = GAME[:4] + [{"seat": 0, "play": ["2S"]}, {"seat": 1, "play": ["3D"]}]  # holds AS
    out = check_record(lines(HEADER, bad))
    assert out.exit_code == 1
    assert out.output["event"] == 7 and out.output["rule"] == "vzetki.follow_suit"
    assert "3D" in out.output["reason"] and "AS" in out.output["reason"]
    assert check_record(lines(HEADER, bad[:-1] + [{"seat": 1, "play": ["AS"]}])).exit_code == 0


def test_observed_revoke_is_reported_where_it_is_proven_naming_the_revoke_line() -> None:
    header = {"game": "vzetki", "dealer": 0, "options": {"top_rank": 4}}
    bad = [{"seat": 0, "play": ["4H"]}, {"seat": 1, "play": ["2S"]},  # line 3: void hearts?
           {"seat": 2, "play": ["3H"]}, {"seat": 3, "play": ["AH"]},
           {"seat": 0, "play": ["4C"]}, {"seat": 1, "play": ["2H"]}]  # line 7: a heart
    out = check_record(lines(header, bad[:-1]))
    assert out.output == {"ok": True, "complete": False, "result": {"tricks": [1, 0]}}
    out = check_record(lines(header, bad))
    assert out.exit_code == 1
    assert out.output["event"] == 7 and out.output["revoke_line"] == 3
    assert out.output["reason"] == \
        "line 3: 2S was played on a heart lead although this player held 2H"


def test_revoke_line_counts_blank_lines_and_notes() -> None:
    header = {"game": "vzetki", "dealer": 0, "options": {"top_rank": 4}}
    text = [json.dumps(header), json.dumps({"seat": 0, "play": ["4H"]}), "",
            json.dumps({"seat": 1, "play": ["2S"]}),  # line 4
            json.dumps({"seat": 2, "play": ["3H"]}), json.dumps({"seat": 3, "play": ["AH"]}),
            json.dumps({"seat": 0, "play": ["4C"]}), json.dumps({"seat": 1, "play": ["2H"]})]
    out = check_record(text)
    assert out.output["event"] == 8 and out.output["revoke_line"] == 4
    assert out.output["reason"].startswith("line 4: 2S was played")


def test_event_after_the_end_is_illegal() -> None:
    out = check_record(lines(HEADER, GAME + [{"seat": 1, "play": ["3D"]}]))
    assert out.exit_code == 1 and out.output["event"] == 14
    assert out.output["rule"] == "common.game_over"


def test_notes_are_ignored_but_keep_line_numbers() -> None:
    events = [{"note": "start"}] + GAME[:2] + [{"seat": 2, "play": ["2H"]}]
    out = check_record(lines(HEADER, events))
    assert out.output["event"] == 5 and out.output["rule"] == "common.card_seen_twice"


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ({"game": "bridge", "dealer": 0}, "unknown game 'bridge'"),
        ({**HEADER, "options": {"top_rank": 3, "jokers": True}}, "jokers"),
        ({**HEADER, "hands": HANDS[:3]}, "4 hands"),
        ({**HEADER, "hands": [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}, "dealt twice"),
        ({**HEADER, "dealer": 4}, "dealer seat 4"),
    ],
)
def test_bad_header_is_unreadable_at_line_1(header: dict, words: str) -> None:
    out = check_record(lines(header, GAME))
    assert out.exit_code == 2
    assert out.output["error"].startswith("line 1: ") and words in out.output["error"]
    assert out.message == out.output["error"]


def test_not_a_card_is_exit_2_but_not_in_deck_is_exit_1() -> None:
    out = check_record(lines(HEADER, [{"seat": 0, "play": ["1X"]}]))
    assert out.exit_code == 2 and out.output["error"].startswith("line 2: ")
    out = check_record(lines(HEADER, [{"seat": 0, "play": ["9H"]}]))  # top_rank 3
    assert out.exit_code == 1 and out.output["rule"] == "common.not_in_deck"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_prints_exactly_one_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad, torn = tmp_path / "good.jsonl", tmp_path / "bad.jsonl", tmp_path / "torn.jsonl"
    good.write_text("\n".join(lines(HEADER, GAME)) + "\n")
    bad.write_text("\n".join(lines(HEADER, GAME[:3] + [{"seat": 0, "play": ["2C"]}])) + "\n")
    torn.write_text("\n".join(lines(HEADER, GAME[:3]))[:-5])
    code, out, err = run_cli(capsys, "check", str(good))
    assert code == 0 and out.count("\n") == 1 and json.loads(out)["complete"] is True
    code, out, err = run_cli(capsys, "check", str(bad))
    assert code == 1 and json.loads(out)["event"] == 5 and err == ""
    assert json.loads(out)["rule"] == "common.out_of_turn"
    code, out, err = run_cli(capsys, "check", str(torn))
    assert code == 2 and json.loads(out)["error"].startswith("line 4: the last line is torn")
    assert "line 4" in err


def test_cli_simulate_writes_a_record_check_accepts(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sim.jsonl"
    code, _, _ = run_cli(capsys, "simulate", "--game", "vzetki", "--seed", "4",
                         "--options", '{"trump": "S"}', "--observed", "-o", str(path))
    assert code == 0
    first = json.loads(path.read_text().splitlines()[0])
    assert "hands" not in first and first["options"] == {"trump": "S"}
    code, out, _ = run_cli(capsys, "check", str(path))
    assert code == 0 and json.loads(out)["complete"] is True
    code, out, _ = run_cli(capsys, "simulate", "--game", "vzetki", "--seed", "4",
                           "--options", '{"trump": "S"}', "--observed")
    assert out.splitlines() == path.read_text().splitlines()  # same seed, same record


def test_cli_simulate_refuses_bad_players_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "simulate", "--game", "durak", "--players", "9")
    assert code == 2 and out == "" and "2..6 players, not 9" in err
    code, out, err = run_cli(capsys, "simulate", "--game", "vzetki", "--options", '{"x": 1}')
    assert code == 2 and "unknown option(s) x" in err


def test_console_script_runs_check(tmp_path: Path) -> None:
    header, events = simulate("vzetki-duo", random.Random(2))
    path = tmp_path / "duo.jsonl"
    path.write_text("\n".join(record_lines(header, events)) + "\n")
    exe = Path(sys.executable).with_name("cardtable")
    proc = subprocess.run([str(exe), "check", str(path)], capture_output=True, text=True, check=False,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
