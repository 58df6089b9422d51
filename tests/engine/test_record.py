"""The record reader and writer: line numbers on every error, torn tails, durability."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.errors import CardSyntaxError, RecordError
from engine.events import EventMeta, Play
from engine.header import Header
from engine.record import RecordClosed, RecordWriter, read_record, record_lines, write_record
from engine.simulate import simulate

HEADER = '{"game": "vzetki", "dealer": 0}'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_header_events_and_their_lines(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + '\n{"seat": 0, "play": ["5H"], "t": 1.5}\n\n'
                 '{"seat": 1, "play": ["7H"]}\n')
    rec = read_record(path)
    assert rec.header.game == "vzetki"
    assert rec.events[1] == Play(1, (rec.events[1].cards[0],))
    assert rec.lines == (2, 4)  # the blank line 3 is skipped but counted
    assert rec.metas[0] == EventMeta(t=1.5)


@pytest.mark.parametrize(
    ("lines", "bad_line", "words"),
    [
        ([HEADER, '{"seat": 0, "play": ["5H"]', '{"seat": 1, "play": ["7H"]}'], 2, "JSON"),
        ([HEADER, '{"seat": 0, "play": ["1X"]}'], 2, "1X"),
        ([HEADER, '{"seat": 0, "play": ["5H"], "colour": "red"}'], 2, "colour"),
        ([HEADER, '{"seat": 0, "hop": ["5H"]}'], 2, "no event key"),
        ([HEADER, '{"seat": -1, "play": ["5H"]}'], 2, "seat"),
        (['{"game": "vzetki", "deal": 1}'], 1, "deal"),
        (['[1, 2]'], 1, "object"),
        ([], 1, "empty"),
        ([HEADER, '{"seat": 0, "play": ["5H"]}', '{"seat": 1, "play": []}'], 3, "non-empty"),
    ],
)
def test_unreadable_lines_are_named(tmp_path: Path, lines: list[str], bad_line: int,
                                    words: str) -> None:
    path = write(tmp_path, "".join(ln + "\n" for ln in lines))
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.line == bad_line
    assert words in str(info.value)
    assert str(info.value).startswith(f"line {bad_line}: ")


def test_card_syntax_error_is_a_record_error_with_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + '\n{"seat": 0, "play": ["5H"]}\n{"seat": 1, "play": ["QX"]}\n')
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.line == 3
    assert isinstance(info.value.__cause__, CardSyntaxError)


def test_torn_last_line_is_an_error_naming_it_and_can_be_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + '\n{"seat": 0, "play": ["5H"]}\n{"seat": 1, "pl')
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.line == 3 and "torn" in info.value.reason
    rec = read_record(path, allow_torn_tail=True)
    assert len(rec.events) == 1 and rec.torn_line == 3


def test_last_line_without_newline_but_whole_is_fine(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + '\n{"seat": 0, "play": ["5H"]}')
    assert len(read_record(path).events) == 1


def test_bad_json_in_the_middle_is_not_torn_even_with_allow(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + '\n{"seat": 0, "pl\n{"seat": 1, "play": ["7H"]}\n')
    with pytest.raises(RecordError) as info:
        read_record(path, allow_torn_tail=True)
    assert info.value.line == 2 and "JSON" in info.value.reason


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(HEADER.encode() + b'\n{"seat": 0, "note": "\xff"}\n')
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.line == 2


def test_a_character_cut_by_a_torn_tail_is_still_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(HEADER.encode() + b'\n{"seat": 0, "note": "caf' + "é".encode()[:1])
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.line == 2 and "torn" in info.value.reason
    assert read_record(path, allow_torn_tail=True).events == ()


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "nope.jsonl")


def test_simulated_record_round_trips_through_writer_and_reader(tmp_path: Path) -> None:
    header, events = simulate("vzetki", random.Random(5))
    metas = [EventMeta(t=float(i), frame=i, confidence=0.5) for i in range(len(events))]
    path = tmp_path / "game.jsonl"
    write_record(path, header, events, metas)
    rec = read_record(path)
    assert rec.header == header
    assert list(rec.events) == events
    assert list(rec.metas) == metas
    assert path.read_text().splitlines() == record_lines(header, events, metas)


def test_writer_appends_continues_and_refuses_misuse(tmp_path: Path) -> None:
    header, events = simulate("vzetki", random.Random(6))
    path = tmp_path / "game.jsonl"
    with pytest.raises(RecordError, match="header is needed"):
        RecordWriter(path)
    with RecordWriter(path, header) as w:
        w.write(events[0])
        assert not w.closed
    assert w.closed
    w.close()  # idempotent
    with pytest.raises(RecordClosed):
        w.write(events[1])
    with pytest.raises(RecordError, match="already holds"):
        RecordWriter(path, header)
    with RecordWriter(path) as w2:  # continue the same record
        w2.write(events[1])
    assert list(read_record(path).events) == events[:2]


def test_writer_repairs_a_torn_tail_only_when_asked(tmp_path: Path) -> None:
    header, events = simulate("vzetki", random.Random(7))
    path = tmp_path / "game.jsonl"
    write_record(path, header, events[:3])
    with open(path, "a") as f:
        f.write('{"seat": 2, "pla')
    with pytest.raises(RecordError) as info:
        RecordWriter(path)
    assert info.value.line == 5
    with RecordWriter(path, repair_torn_tail=True) as w:
        w.write(events[3])
    assert list(read_record(path).events) == events[:4]


def test_kill_9_loses_at_most_the_line_being_written(tmp_path: Path) -> None:
    """A real child process writes with RecordWriter and is killed mid-stream."""
    path = tmp_path / "live.jsonl"
    script = textwrap.dedent(
        f"""
        import random, sys
        from engine.record import RecordWriter
        from engine.simulate import simulate
        header, events = simulate("vzetki", random.Random(3))
        with RecordWriter({str(path)!r}, header) as w:
            for i, e in enumerate(events):
                w.write(e)
                if i == 9:
                    print("ready", flush=True)
                    sys.stdin.readline()  # wait to be killed
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, cwd=Path(__file__).parents[2])
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    proc.kill()
    proc.wait()
    # simulate the torn line a kill in the middle of a write leaves behind
    with open(path, "a") as f:
        f.write('{"seat": 1, "play": ["')
    rec = read_record(path, allow_torn_tail=True)
    assert len(rec.events) == 10 and rec.torn_line == 12
    assert os.path.getsize(path) > 0


def test_header_round_trip_keeps_optional_keys() -> None:
    header = Header.from_json({"game": "vzetki", "dealer": 2, "leader": 1,
                               "match": {"tricks": [3, 7]}, "options": {"top_rank": 6}})
    line = record_lines(header, [])[0]
    assert Header.from_json(json.loads(line)) == header
