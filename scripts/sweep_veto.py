"""Sweep signveto's bars on every black card the chain gives, in one pass per set.

    python scripts/sweep_veto.py OUT.jsonl cal:5:60 cal:30:60:detect train:7:60
    python scripts/sweep_veto.py --table OUT.jsonl...       (the table from rows kept)
    python scripts/sweep_veto.py --give OUT.jsonl cal:40:300:detect   (the veto on)

Reads each scene (true quads unless a set says detect) with the reader as it is but
signcuts off and the veto refusing nothing (`--give`: as it is); for each black card the veto would be
asked about (signveto.asked) records its truth, the card, its corners' suit
readings and each corner's sign log-odds at the ten moved cuts, one JSON row a
card appended to OUT. `--table` prints, for each (MAX_KEPT, MIN_AGAINST), the right
and wrong cards the veto would refuse. Why one pass: measure.py reads every scene
again for each pair. (The reader's later steps, which may take a card away, are
not applied: confirm the chosen pair with scripts/measure.py.)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from sweep_signcuts import _truth_at

KEPTS = (0, 1, 2, 3, 4)
AGAINSTS = (0, 1, 3, 5, 7, 9)


def collect(which: str, clf: Any, out: Path, giving: bool = False) -> Any:
    """Append a row per black card asked (see module); the reader's report."""
    from vision import evaluate
    from vision.recognize import signcuts, signveto
    from vision.recognize.signcuts import odds_at_cuts
    from vision.training.split import decks_named

    kind, seed, n, quads = (which.split(":") + ["truth"])[:4]
    now: list[Any] = [0, []]
    seen: set[tuple[Any, ...]] = set()

    def spy(image, cands, verdicts, firsts, skip):  # type: ignore
        note(image, cands, verdicts, firsts, skip)
        return give(image, cands, verdicts, firsts, skip) if giving else set()

    def note(image, cands, verdicts, firsts, skip):  # type: ignore
        for i, (cand, v, rs) in enumerate(zip(cands, verdicts, firsts)):
            if i in skip or v is None or not signveto.asked(v, cand, rs):
                continue
            quad = np.asarray(cand.corners, np.float32).reshape(4, 2)
            visible = tuple(getattr(cand, "index_visible", (True, True)))
            keep = [r.rank == v.rank for r in rs]
            key = (now[0], v.card, tuple(np.round(quad.ravel(), 1)))
            if key in seen:  # (the stills steps read a candidate again)
                continue
            seen.add(key)
            row = {"set": which, "scene": now[0], "truth": _truth_at(quad, now[1]),
                   "card": v.card, "kind": type(cand).__name__,
                   "corners": [[r.suit, round(r.suit_prob, 5)] for r in rs
                               if r.rank == v.rank],
                   "odds": [[round(z, 2) for z in zs]
                            for zs in odds_at_cuts(image, quad, visible, keep)]}
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")

    scenes = evaluate.rendered_scenes

    def watched(*a: Any, **kw: Any) -> Iterator[tuple[Any, Any]]:
        for i, (image, truth) in enumerate(scenes(*a, **kw)):
            now[:] = [i, truth]
            yield image, truth

    give = signveto.refused
    signveto.refused = spy  # (this process only)
    signcuts.read_by_cut_signs = lambda *a, **k: None  # (the veto alone)
    evaluate.rendered_scenes = watched  # type: ignore[assignment]
    return evaluate.evaluate_rendered(clf, decks_named(kind), int(n), seed=int(seed),
                                      quads=quads)


def table(rows: list[dict[str, Any]]) -> list[str]:
    """Right/wrong refused per (MAX_KEPT, MIN_AGAINST), of the right/wrong asked."""
    from vision.recognize.signveto import votes

    right = sum(r["truth"] == r["card"] for r in rows)
    out = [f"  asked {len(rows)}: {right} right, {len(rows) - right} wrong; "
           "refused right/wrong per MIN_AGAINST " + " ".join(map(str, AGAINSTS))]
    for k in KEPTS:
        cells = []
        for a in AGAINSTS:
            got = [r for r in rows if refuses_at(r, k, a, votes)]
            ok = sum(r["truth"] == r["card"] for r in got)
            cells.append(f"{ok}/{len(got) - ok}")
        out.append(f"  kept<={k}: " + " ".join(f"{c:>7}" for c in cells))
    return out


def refuses_at(row: dict[str, Any], kept: int, against: int, votes: Any) -> bool:
    """Would the veto with these bars (one bar for every corner) refuse the row's card?"""
    vs = [votes(zs, row["card"][-1]) for zs in row["odds"]]
    return bool(vs) and all(v.kept <= kept and v.against >= against for v in vs)


def main(argv: list[str]) -> int:
    if argv[0] == "--table":
        rows = [json.loads(line) for p in argv[1:] for line in Path(p).read_text().splitlines()]
        print("\n".join(table(rows)))
        return 0
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.signveto import refuses, votes

    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    giving = argv[0] == "--give"
    argv = argv[1:] if giving else argv
    out = Path(argv[0])
    for which in argv[1:]:
        rep = collect(which, clf, out, giving)
        t = rep.all
        print(f"{which}: right {t.correct}/{t.n} wrong {t.wrong} phantoms {rep.phantoms}")
        print("".join(f"  wrong: {e}\n" for e in t.wrong_examples), end="")
        rows = [r for r in map(json.loads, out.read_text().splitlines())
                if r["set"] == which] if out.exists() else []
        print("\n".join(table(rows)))
        for r in rows:
            if refuses([votes(zs, r["card"][-1]) for zs in r["odds"]]):
                print(f"  refused (as chosen): scene {r['scene']} {r['card']} at "
                      f"{r['truth']} corners {r['corners']}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
