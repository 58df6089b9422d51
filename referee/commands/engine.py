"""Engine commands: `cardtable check FILE`, `cardtable simulate ...`, `cardtable match ...`.

`check` follows RECORD.md exactly: one JSON object line on stdout, exit 0 (legal so
far), 1 (an illegal event, with its line) or 2 (not a record; the message also goes
to stderr). `simulate` writes a random legal game as a record (stdout or `-o FILE`),
so records for tests and demos come from the rules engine itself.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from engine.check import check_record
from engine.errors import RecordError
from engine.games import GAME_NAMES
from engine.record import record_lines


def register(subparsers: Any) -> None:
    check = subparsers.add_parser(
        "check", help="replay a game record through the rules",
        description="Replay a record; print one JSON line; exit 0 legal, 1 illegal, 2 unreadable.",
    )
    check.add_argument("file", help="the record (JSON Lines)")
    check.set_defaults(func=run_check)

    sim = subparsers.add_parser(
        "simulate", help="write a random legal game as a record",
        description="Deal with a seeded RNG and play random legal moves to the end.",
    )
    _sim_args(sim)
    sim.add_argument("--observed", action="store_true",
                     help="write what a camera sees: no hands, face-down cards as counts")
    sim.add_argument("-o", "--output", help="write the record here (default: stdout)")
    sim.set_defaults(func=run_simulate)

    match = subparsers.add_parser(
        "match", help="simulate a match or check a sequence of records",
        description="With --game: simulate a whole match into a directory. With FILEs: "
        "check each record and that each header's 'match' score follows from the previous.",
    )
    match.add_argument("files", nargs="*", help="records of one match, in order")
    _sim_args(match, required=False)
    match.add_argument("--max-games", type=int, default=200)
    match.add_argument("--start", type=_json_object, default=None,
                       help='the score the first game carries, e.g. \'{"of": 8}\'')
    match.add_argument("-d", "--directory", help="where --game writes game_NNN.jsonl")
    match.set_defaults(func=run_match)


def _sim_args(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument("--game", choices=GAME_NAMES, required=required)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None, help="RNG seed (default: random)")
    parser.add_argument("--options", type=_json_object, default={},
                        help='house rules as JSON, e.g. \'{"transfer": true}\'')


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("options must be a JSON object")
    return value


def _print(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, ensure_ascii=False), flush=True)


def run_check(args: argparse.Namespace) -> int:
    outcome = check_record(args.file)
    _print(outcome.output)
    if outcome.message:
        print(f"cardtable check: {args.file}: {outcome.message}", file=sys.stderr)
    return outcome.exit_code


def run_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate

    rng = random.Random(args.seed)
    try:
        header, events = simulate(
            args.game, rng, players=args.players, options=args.options, observed=args.observed
        )
    except RecordError as exc:
        print(f"cardtable simulate: {exc}", file=sys.stderr)
        return 2
    text = "".join(line + "\n" for line in record_lines(header, events))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def run_match(args: argparse.Namespace) -> int:
    from engine import match as m

    if args.files:
        outcome = m.check_match(args.files)
        _print(outcome.output)
        if outcome.message:
            print(f"cardtable match: {outcome.message}", file=sys.stderr)
        return outcome.exit_code
    if args.game is None:
        print("cardtable match: give record FILEs to check, or --game to simulate",
              file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    try:
        games = m.simulate_match(args.game, rng, players=args.players, options=args.options,
                                 max_games=args.max_games, start=args.start)
    except RecordError as exc:
        print(f"cardtable match: {exc}", file=sys.stderr)
        return 2
    if args.directory:
        import pathlib

        out = pathlib.Path(args.directory)
        out.mkdir(parents=True, exist_ok=True)
        for i, (header, events) in enumerate(games, 1):
            (out / f"game_{i:03d}.jsonl").write_text(
                "".join(line + "\n" for line in record_lines(header, events)), encoding="utf-8"
            )
    _print({"games": len(games), "score": m.final_score(args.game, games)})
    return 0
