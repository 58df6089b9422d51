"""`make bench`: every area's benchmark, each printing its own table.

Benchmarks live here, not in timed tests: the machines are shared and noisy, so
each reports medians (and ratios) over several runs. Run one area with
`python -m bench engine` (or vision, bridge, ...).
"""

from __future__ import annotations

import importlib
import sys
import time

AREAS = ("engine", "vision", "bridge", "hardware")


def main(argv: list[str]) -> int:
    areas = argv or list(AREAS)
    failed = []
    for area in areas:
        try:
            module = importlib.import_module(f"bench.{area}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bench.{area}":
                print(f"== {area}: no benchmark yet\n")
                continue
            raise
        print(f"== {area}")
        start = time.perf_counter()
        try:
            module.main()
        except Exception as exc:  # report and go on with the other areas
            failed.append(area)
            print(f"!! {area} benchmark failed: {type(exc).__name__}: {exc}")
        print(f"   ({area}: {time.perf_counter() - start:.1f} s)\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
