"""Reading and writing game records (RECORD.md: JSON Lines, header on line 1).

The referee appends to a record while a game is played, one event per line, and may be
killed at any moment (power cut, `kill -9`). `RecordWriter` flushes and fsyncs every
line, so at most the line being written is lost; `read_record` then reports that torn
last line as a `RecordError` naming its line, and `read_record(path,
allow_torn_tail=True)` drops it to recover everything before it.

Every problem that stops a file being read as a record is a `RecordError` carrying the
1-based line number: bad JSON, an unknown key, text that is no card (`"1X"`).

>>> rec = read_record(['{"game": "vzetki", "dealer": 0}', '{"seat": 0, "play": ["5H"]}'])
>>> rec.header.game, rec.events, rec.lines
('vzetki', (Play(seat=0, cards=(Card.parse('5H'),)),), (2,))
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TextIO

from engine.errors import RecordError
from engine.events import Event, EventMeta, event_from_json, event_to_json
from engine.header import Header


@dataclass(frozen=True, slots=True)
class Record:
    """A record read from a file: the header, the events, and where each event stood.

    `lines[i]` is the 1-based line number of `events[i]` (blank lines are skipped, so
    this is not always `i + 2`). `torn_line` is the line number of a torn last line
    that was dropped (only with `allow_torn_tail=True`), else None.
    """

    header: Header
    events: tuple[Event, ...]
    metas: tuple[EventMeta, ...]
    lines: tuple[int, ...]
    torn_line: int | None = None

    def line_of(self, event_index: int) -> int:
        """The file line of event `event_index` (0 = the first event)."""
        return self.lines[event_index]


def _split(source: str | os.PathLike[str] | Iterable[str]) -> tuple[list[str], bool]:
    """The record's lines, and whether the last one ended with its newline.

    A path is read as a file; any other iterable gives the lines themselves (complete
    lines: a list of lines is never torn).
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {os.fspath(source)!r}: {exc.strerror}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if data.endswith(b"\n") or exc.start <= data.rfind(b"\n"):
                raise RecordError(
                    "the file is not UTF-8 text", text_line_of_offset(data, exc.start)
                ) from None
            # a character cut in half by a torn last line: let the torn-line rule judge
            text = data.decode("utf-8", errors="replace")
        ends_clean = text.endswith("\n") or text == ""
        lines = text.split("\n")
        if ends_clean:
            lines.pop()  # the empty string after the final newline
        return [ln.rstrip("\r") for ln in lines], ends_clean
    return [ln.rstrip("\r\n") for ln in source], True


def text_line_of_offset(data: bytes, offset: int) -> int:
    """The 1-based line holding byte `offset`."""
    return data.count(b"\n", 0, offset) + 1


def read_record(
    source: str | os.PathLike[str] | Iterable[str], *, allow_torn_tail: bool = False
) -> Record:
    """Read a record from a file (a path), or from its lines (any other iterable).

    A last line without its newline that is not valid JSON is torn (the writer was
    killed mid-line): a RecordError naming it, or dropped with `allow_torn_tail=True`.

    Raises:
        RecordError: (and CardSyntaxError) with `.line` set, naming what is wrong.
    """
    lines, ends_clean = _split(source)
    numbered = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip()]
    torn: int | None = None
    if numbered and not ends_clean and numbered[-1][0] == len(lines):
        last_no, last = numbered[-1]
        try:
            json.loads(last)
        except ValueError:
            if not allow_torn_tail:
                raise RecordError(
                    "the last line is torn (the file ends in the middle of a line: the "
                    "writer was probably stopped while writing it)",
                    last_no,
                ) from None
            torn = last_no
            numbered.pop()
    if not numbered:
        raise RecordError("the record is empty: line 1 must be the header", 1)
    first_no, first = numbered[0]
    try:
        header = Header.from_json(_load(first, first_no))
    except RecordError as exc:
        if exc.line is not None:
            raise
        raise exc.at_line(first_no) from exc
    events: list[Event] = []
    metas: list[EventMeta] = []
    nos: list[int] = []
    for no, text in numbered[1:]:
        try:
            event, meta = event_from_json(_load(text, no))
        except RecordError as exc:
            if exc.line is not None:
                raise
            raise exc.at_line(no) from exc
        events.append(event)
        metas.append(meta)
        nos.append(no)
    return Record(header, tuple(events), tuple(metas), tuple(nos), torn)


def _load(text: str, line: int) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RecordError(f"not valid JSON ({exc})", line) from None


def dumps_line(obj: dict[str, Any]) -> str:
    """One record line (no newline): compact, UTF-8 text kept as is."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def record_lines(
    header: Header, events: Sequence[Event], metas: Sequence[EventMeta | None] | None = None
) -> list[str]:
    """A record as its lines (without newlines), ready to write or to `read_record`."""
    out = [dumps_line(header.to_json())]
    for i, event in enumerate(events):
        meta = metas[i] if metas is not None else None
        out.append(dumps_line(event_to_json(event, meta)))
    return out


def write_record(
    path: str | os.PathLike[str],
    header: Header,
    events: Sequence[Event],
    metas: Sequence[EventMeta | None] | None = None,
) -> None:
    """Write a whole record at once (tools and tests; the referee uses RecordWriter)."""
    with RecordWriter(path, header, new=True) as writer:
        for i, event in enumerate(events):
            writer.write(event, metas[i] if metas is not None else None)


class RecordClosed(RecordError):
    """Writing to a RecordWriter after `close()`."""


class RecordWriter:
    """Append a record line by line, each flushed and fsynced before `write` returns.

    `RecordWriter(path, header)` starts a new record (the file must be missing or
    empty, unless `new=True`, which truncates it). `RecordWriter(path)` continues an
    existing record; if its last line is torn, pass `repair_torn_tail=True` to cut it
    off first (it cannot be read anyway), else RecordError. Use it in a `with` block;
    `close()` may be called twice.

    Raises:
        RecordError: on a missing header for a new record, a torn tail, or writing
            after close (RecordClosed).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        header: Header | None = None,
        *,
        new: bool = False,
        repair_torn_tail: bool = False,
    ) -> None:
        self.path = Path(path)
        self._file: TextIO | None = None
        if new and self.path.exists():
            self.path.write_bytes(b"")
        size = self.path.stat().st_size if self.path.exists() else 0
        if size == 0:
            if header is None:
                raise RecordError(f"{self.path} is a new record: a header is needed")
        else:
            if header is not None:
                raise RecordError(
                    f"{self.path} already holds a record: continue it without a header, "
                    "or pass new=True to start over"
                )
            data = self.path.read_bytes()
            if not data.endswith(b"\n"):
                cut = data.rfind(b"\n") + 1
                if not repair_torn_tail:
                    raise RecordError(
                        "the last line is torn; pass repair_torn_tail=True to cut it off",
                        text_line_of_offset(data, len(data) - 1),
                    )
                with open(self.path, "r+b") as raw:
                    raw.truncate(cut)
                    raw.flush()
                    os.fsync(raw.fileno())
        # kept open for the life of the writer (closed by close()/__exit__)
        self._file = open(self.path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
        if header is not None:
            self._write_line(dumps_line(header.to_json()))

    @property
    def closed(self) -> bool:
        return self._file is None

    def write(self, event: Event, meta: EventMeta | None = None) -> None:
        """Append one event line and make it durable before returning."""
        self._write_line(dumps_line(event_to_json(event, meta)))

    def _write_line(self, line: str) -> None:
        if self._file is None:
            raise RecordClosed(f"{self.path}: the record writer is closed")
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<RecordWriter {str(self.path)!r} {state}>"
