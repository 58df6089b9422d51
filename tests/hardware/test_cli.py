"""`cardtable gpio-test`: the wiring walk-through, on the mock backend."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hardware.config import DEFAULT_CONFIG
from referee.cli import main
from referee.commands.hardware import load_config


def test_walkthrough_lights_every_part_in_turn(capsys, mock_factory) -> None:
    code = main(["gpio-test", "--backend", "mock", "--step", "0", "--listen", "0", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    steps = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("step ")]
    assert steps[:5] == ["seat 0 red", "seat 0 green", "seat 0 blue",
                         "seat 0 blinking white", "seat 0 pulsing white"]  # fmt: skip
    assert "seat 3 pulsing white" in steps and "trump LED S" in steps
    assert "status link_lost" in steps and steps[-2:] == ["buzzer short beep", "all off"]


def test_toml_config_under_a_gpio_table(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[gpio]\nstatus_led = 19\n[[gpio.seats]]\nled = [4, 17, 27]\nbutton = 5\n')
    config = load_config(path)
    assert config.status_led == 19 and config.seats[0].button == 5


def test_conflicting_config_file_exits_2_naming_both_uses(tmp_path: Path, capsys) -> None:
    data = json.loads(json.dumps(DEFAULT_CONFIG))
    data["buzzer"] = 4
    path = tmp_path / "pins.json"
    path.write_text(json.dumps(data))
    assert main(["gpio-test", "--backend", "mock", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "GPIO4" in err and "seat 0 LED red" in err and "buzzer" in err


def test_console_script_runs_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "gpio-test", "--backend", "mock", "--step", "0",
         "--listen", "0", "--no-color"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "seat 0 [R]" in done.stdout and "\x1b" not in done.stdout
