"""`cardtable demo`: plays, narrates, lights, records and checks demo games."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "demo",
        help="play demo games end to end (engine, simulated lights, records, check)",
        description="Simulate a Kozel game and a 4-player Durak game, narrate them trick "
        "by trick, drive the table lights through the simulated board on a pty, write "
        "the records and check them.",
    )
    p.add_argument("--seed", type=int, default=7, help="random seed of the deal (default 7)")
    p.add_argument("--out", type=Path, default=Path("out/demo"),
                   help="folder for the records (default out/demo)")
    p.add_argument("--no-lights", action="store_true", help="skip the simulated board")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from referee.demo import run_demo

    color = {"auto": None, "always": True, "never": False}[args.color]
    return run_demo(seed=args.seed, out_dir=args.out, lights=not args.no_lights, color=color)
