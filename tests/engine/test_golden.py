"""Golden records: every tests/data/*.jsonl is checked against its .expected.json.

An expected file holds `{"exit": 0|1|2, "output": {...}}`: the exact JSON object
`cardtable check` prints. For exit 2 only the exit code and the line named by the
message are compared (the wording of a parse error may improve).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.check import check_record
from engine.games import GAME_NAMES

DATA = Path(__file__).parents[1] / "data"
#: golden records are named <game>_<what>.jsonl (other areas may keep data here too)
RECORDS = sorted(p for p in DATA.glob("*.jsonl") if p.name.split("_")[0] in GAME_NAMES)


def test_there_are_golden_records_and_each_has_its_expectation() -> None:
    assert len(RECORDS) >= 8
    missing = [p.name for p in RECORDS if not p.with_suffix(".expected.json").exists()]
    assert missing == []
    orphans = [p.name for p in DATA.glob("*.expected.json")
               if not p.with_name(p.name.replace(".expected.json", ".jsonl")).exists()]
    assert orphans == []
    games = {p.name.split("_")[0] for p in RECORDS}
    assert games == set(GAME_NAMES), f"games without golden records: {set(GAME_NAMES) - games}"


def _line(message: str) -> str | None:
    found = re.match(r"line (\d+): ", message)
    return found.group(1) if found else None


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    outcome = check_record(path)
    assert outcome.exit_code == expected["exit"], outcome.output
    if expected["exit"] == 2:
        want = _line(expected["output"]["error"])
        assert want is not None, "an exit-2 expectation must name its line"
        assert _line(outcome.output["error"]) == want, outcome.output
        assert outcome.output["ok"] is False
    else:
        assert outcome.output == expected["output"]
