"""scripts/render_scenes.py and scripts/render_cards.py, run in-process."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import pytest

from vision.cardart import list_decks

pytestmark = pytest.mark.skipif(not list_decks(), reason="card art packages not installed")
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_render_scenes_writes_images_and_matching_truth(tmp_path, capsys):
    script = _load("render_scenes")
    out = tmp_path / "scenes"
    assert script.main([str(out), "--n", "2", "--cards", "3", "--size", "320x240",
                        "--decks", "gnome/anglo", "--debug"]) == 0
    lines = [json.loads(x) for x in (out / "truth.jsonl").read_text().splitlines()]
    assert [x["file"] for x in lines] == ["scene-0000.jpg", "scene-0001.jpg"]
    for line in lines:
        img = cv2.imread(str(out / line["file"]))
        assert img.shape == (240, 320, 3)
        assert len(line["cards"]) == 3
        for card in line["cards"]:
            assert len(card["corners"]) == 4 and 0 <= card["visible_fraction"] <= 1
    assert (out / "scene-0000-debug.png").is_file()
    assert "median" in capsys.readouterr().out


def test_render_cards_contact_sheet(tmp_path):
    script = _load("render_cards")
    sheet = tmp_path / "sheet.png"
    assert script.main(["--pattern", "russian", "--sheet", str(sheet)]) == 0
    img = cv2.imread(str(sheet))
    assert img.shape[0] == 120 * len(list_decks("russian")) and img.shape[1] == 8 * 96
