"""Measure the recogniser on one named set, for development (make bench prints the
standard table; this runs any seed or split on its own, one line of counts each).

    python scripts/measure.py real:test            real photos, rank only (1 x 1)
    python scripts/measure.py real:train:0.8:1     ... resized 0.8 x 1
    python scripts/measure.py held:1234:60:truth   held-out decks, seed, scenes, quads
    python scripts/measure.py cal:5:60:detect      calibration decks (train: training)
    python scripts/measure.py photos:4321:60       phone-like photos of held-out decks
    python scripts/measure.py photos:4321:60:train ... of training decks

`--model PATH` reads with another model (its index.json and second opinion beside
it), e.g. a candidate from vision.training.finetune before it is adopted.

`quads` is truth (the recogniser alone), detect (the stills chain) or live (the
referee's Pipeline). A held-out seed measured here must not then guide development:
keep seeds you look into apart from seeds you report.
"""

from __future__ import annotations

import sys
import time

import cv2

from vision.recognize.classifier import IndexClassifier


def _decks(which: str) -> list:
    from vision.training.split import decks_named

    return decks_named(which)


def measure(arg: str, clf: IndexClassifier, verbose: bool) -> str:
    from vision.evaluate import evaluate_real, evaluate_rendered
    from vision.evaluate_photos import evaluate_photos, report_lines

    parts = arg.split(":")
    kind = parts[0]
    if kind == "real":
        split = parts[1]
        sx, sy = (float(parts[2]), float(parts[3])) if len(parts) > 3 else (1.0, 1.0)
        rep = evaluate_real(clf, split=split, stretch=(sx, sy))
        t = rep.ranks
        extra = rep.ranks.wrong_examples if verbose else []
        return (f"{arg}: right {t.correct}/{t.n} ({t.accuracy:.1%}) wrong {t.wrong} "
                f"missed {rep.missed}" + "".join(f"\n  wrong: {e}" for e in extra))
    if kind == "photos":
        seed, n = int(parts[1]), int(parts[2])
        decks = _decks(parts[3] if len(parts) > 3 else "held")
        rep = evaluate_photos(clf, decks, n, seed)
        t = rep.ranks
        return (f"{arg}: rank right {t.correct}/{t.n} ({t.accuracy:.1%}) wrong {t.wrong} "
                f"phantoms {rep.phantoms}\n  " + "\n  ".join(report_lines(rep)))
    seed, n, quads = int(parts[1]), int(parts[2]), parts[3]
    rep = evaluate_rendered(clf, _decks(kind), n, seed=seed, quads=quads)
    t = rep.all
    lines = [(f"{arg}: right {t.correct}/{t.n} ({t.accuracy:.1%}) wrong {t.wrong} "
              f"abstain {t.abstained} phantoms {rep.phantoms} "
              f"backs read {rep.backs_read}/{rep.backs}")]
    if verbose:
        lines += [f"  wrong: {e}" for e in t.wrong_examples]
        lines += [f"  back read: {e}" for e in rep.back_examples]
        lines += [f"  phantom: {e}" for e in rep.phantom_examples]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    model = None
    if "--model" in args:
        i = args.index("--model")
        model = args[i + 1]
        del args[i:i + 2]
    if not args:
        print(__doc__)
        return 2
    cv2.setNumThreads(1)
    clf = IndexClassifier.load(model)
    for arg in args:
        t0 = time.perf_counter()
        print(measure(arg, clf, verbose) + f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
