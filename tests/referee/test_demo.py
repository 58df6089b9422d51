"""`cardtable demo` end to end: narration, lights through the simulated board, records."""

from __future__ import annotations

import io
import json

from engine.check import check_record
from referee.demo import run_demo, verdict


def test_demo_plays_records_and_checks_both_games(tmp_path):
    out = io.StringIO()
    code = run_demo(seed=3, out_dir=tmp_path, lights=False, out=out)
    text = out.getvalue()
    assert code == 0
    assert "=== kozel" in text and "=== durak" in text
    assert "takes the trick" in text and "defeat points" in text
    for game in ("kozel", "durak"):
        outcome = check_record(tmp_path / f"{game}.jsonl")
        assert outcome.exit_code == 0 and outcome.output["complete"] is True
        assert json.dumps(outcome.output) in text  # the check printed is the real one


def test_demo_lights_go_through_the_simulated_board(tmp_path):
    out = io.StringIO()
    assert run_demo(seed=3, out_dir=tmp_path, lights=True, color=False, out=out) == 0
    text = out.getvalue()
    assert "(table lights: simulated board on /dev/pts/" in text
    # The drawing is what the board reports it shows: a seat lit green, trump shown.
    assert "[G]" in text and "trump" in text and "\x1b" not in text


def test_verdict_words():
    assert verdict("kozel", {"points": [71, 49], "defeat": [0, 2]}) == (
        "team 0 wins 71-49; team 1 gets 2 defeat points")
    assert "balls" in verdict("kozel", {"points": [60, 60], "defeat": [0, 0]})
    assert verdict("durak", {"fool": 2}) == "seat 2 is the fool (durak)"
    assert verdict("durak", {"fool": None}).startswith("no fool")
