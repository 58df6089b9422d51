"""`cardtable recognize` and `cardtable enroll` from the command line (real images, real
detector, real model): the JSON line form, bad files, black frames, crowded frames."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from referee.cli import main
from vision.recognize.classifier import DEFAULT_MODEL

detect_mod = pytest.importorskip("vision.detect")
scene = pytest.importorskip("vision.scene")
pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")

DECK = "kde/standard"  # held out from training


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A rendered table of 5 held-out cards (no overlaps), its truth, and bad files."""
    d = tmp_path_factory.mktemp("cli")
    rng = np.random.default_rng(7)
    spec = scene.random_scene_spec(rng, [DECK], 5, overlap=0.0, face_down=0.0,
                                   effects=0.3)
    image, truth = scene.render_scene(spec, rng)
    cv2.imwrite(str(d / "table.png"), image)
    cv2.imwrite(str(d / "black.png"), np.zeros((480, 640, 3), np.uint8))
    (d / "empty.jpg").write_bytes(b"")
    _, buf = cv2.imencode(".jpg", image)
    (d / "cut.jpg").write_bytes(buf.tobytes()[:5000])
    (d / "notes.jpg").write_text("not an image\n")
    return d, {t.card for t in truth}


def test_json_lines_one_per_image_errors_inline(table, capsys):
    d, cards = table
    paths = [d / "table.png", d / "empty.jpg", d / "black.png", d / "cut.jpg",
             d / "notes.jpg"]
    code = main(["recognize", "--json", *map(str, paths)])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1  # some images failed
    assert [line["image"] for line in lines] == list(map(str, paths))
    good = lines[0]["cards"]
    assert len(good) == 5
    for c in good:
        assert set(c) >= {"card", "confidence", "corners"} and len(c["corners"]) == 4
    read = [c["card"] for c in good if c["card"] is not None]
    assert set(read) <= cards  # never a wrong card
    assert len(read) >= 1  # how many: see `make bench` (the model abstains a lot)
    assert "empty" in lines[1]["error"]
    assert lines[2]["cards"] == [] and "black" in err
    assert "truncated" in lines[3]["error"]
    assert "error" in lines[4]


def test_plain_output_and_success_exit_code(table, capsys):
    d, _ = table
    assert main(["recognize", str(d / "table.png")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{d / 'table.png'}: ")


def test_a_frame_full_of_cards_does_not_crash(tmp_path, capsys):
    rng = np.random.default_rng(11)
    spec = scene.random_scene_spec(rng, [DECK], 30, overlap=0.6, face_down=0.2,
                                   effects=0.5)
    image, truth = scene.render_scene(spec, rng)
    p = tmp_path / "crowd.jpg"
    cv2.imwrite(str(p), image)
    assert main(["recognize", "--json", str(p)]) == 0
    line = json.loads(capsys.readouterr().out)
    truths = {t.card for t in truth if t.card}
    assert {c["card"] for c in line["cards"] if c["card"]} <= truths


def test_enroll_list_and_remove(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    assert main(["enroll", "--list"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["enroll", "--remove", "nope"]) == 1
    assert "no enrolled deck named 'nope'" in capsys.readouterr().err


def test_enroll_from_a_folder_of_frames_then_recognize_with_the_deck(tmp_path, monkeypatch,
                                                                        capsys):
    """`cardtable enroll --source file:DIR/` walks the prompts through real image files
    (a Russian-pattern deck the network never trained on); the deck is then listed and
    used by `recognize --deck`."""
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    cards = ["AS", "KD", "QC", "JH", "7S"]
    rng = np.random.default_rng(21)
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = scene.SceneRenderer()
    shots = []
    for i, card in enumerate(cards + cards):  # the first five to enrol, then five to read
        spec = scene.random_scene_spec(rng, ["gnome/Атласные"], 1, cards=[card],
                                       overlap=0.0, face_down=0.0, size=(640, 480),
                                       effects=0.3)
        image, _ = renderer.render(spec, rng)
        if i < len(cards):
            for k in range(3):
                cv2.imwrite(str(frames / f"{i:02d}_{k}.png"), image)
        else:
            shots.append(tmp_path / f"shot_{card}.png")
            cv2.imwrite(str(shots[-1]), image)
    code = main(["enroll", "--deck", "atlas", "--source", f"file:{frames}/",
                 "--cards", ",".join(cards)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[1/5] show the ace of spades" in out and "enrolled" in out
    assert main(["enroll", "--list"]) == 0
    assert capsys.readouterr().out.startswith("atlas\t5 cards")
    assert main(["recognize", "--json", "--deck", "atlas", *map(str, shots)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = [[c["card"] for c in line["cards"] if c["card"]] for line in lines]
    assert all(g in ([], [card]) for g, card in zip(got, cards))  # never wrong
    assert sum(g == [card] for g, card in zip(got, cards)) >= 3
    assert main(["enroll", "--remove", "atlas"]) == 0


def test_recognize_reads_on_one_opencv_thread(table, capsys):
    """The same photo reads the same whatever the machine's cores: the figures of
    `make bench` are measured on one thread, so the command runs on one."""
    d, _ = table
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        main(["recognize", "--json", str(d / "black.png")])
        assert cv2.getNumThreads() == 1
    finally:
        cv2.setNumThreads(before)
    capsys.readouterr()
