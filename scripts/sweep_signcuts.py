"""Sweep signcuts' SUIT_FLOOR and MIN_SCORED on true quads, in one pass per set.

    python scripts/sweep_signcuts.py cal:5:60 cal:30:60 train:7:60 cal:38:300:detect
    python scripts/sweep_signcuts.py --give cal:38:300:detect   (the step on)

Reads each scene (true quads unless a set says detect) with the reader as it is, the signcuts step asking
everything it could give (no floor, no cut count) but giving nothing; for each card
it would be asked about, records its truth, the card the usual cut tells, the
corners' pooled probability of that suit and the signs at the moved cuts. Then prints,
for each floor and cut count, the cards the step would give right and wrong (the
reader's later vetoes, which may take a given card away, are not applied: confirm
the chosen pair with scripts/measure.py). Why one pass: measuring each pair with
measure.py reads every scene again.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import Any

import cv2

#: (truth at the quad, card the usual cut tells, corners' pooled probability of
#: its suit, sign log-odds at the moved cuts per asked corner, scene)
Row = tuple[str, str, float, list[list[float]], int]

FLOORS = (0.0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5)
COUNTS = (0, 5, 6, 7, 8, 9, 10)


def _truth_at(quad: Any, truth: Sequence[Any]) -> str:
    """The true card a candidate quad shows: its own true quad's card, else the
    topmost true card (drawn last) under the quad's centre; "-" if none."""
    import numpy as np

    for t in truth:
        if np.allclose(np.asarray(t.corners, np.float32), quad, atol=0.5):
            return t.card
    c = tuple(float(x) for x in np.asarray(quad, np.float32).mean(axis=0))
    under = [t.card for t in truth if not t.face_down and cv2.pointPolygonTest(
        np.asarray(t.corners, np.float32).reshape(-1, 1, 2), c, False) >= 0]
    return under[-1] if under else "-"


def collect(which: str, clf: Any, giving: bool) -> tuple[list[Row], Any]:
    """Each card signcuts is asked (see Row), and the reader's report with the step
    as it is (`giving`) or without it."""
    from vision import evaluate
    from vision.recognize import signcuts
    from vision.recognize.readings import joint_prob
    from vision.training.split import decks_named
    from vision.types import SUITS

    kind, seed, n, quads = (which.split(":") + ["truth"])[:4]
    rows: list[Row] = []
    now: list[Any] = [0, []]  # scene number, its truth

    def spy(image, quad, visible, verdict, patches, readings, calib):  # type: ignore
        given = signcuts.by_usual_cut(verdict, patches, readings, calib, floor=0.0)
        if given is not None and len(patches) == sum(bool(v) for v in visible):
            note(image, quad, visible, given, readings)
        return give(image, quad, visible, verdict, patches, readings, calib) if giving \
            else None

    def note(image, quad, visible, given, readings):  # type: ignore
        keep = [r.rank == given.rank for r in readings]
        s = SUITS.index(given.suit)
        suit_p = joint_prob([float(r.probs[1][s]) for r in readings
                             if r.rank == given.rank and r.probs is not None])
        row = (_truth_at(quad, now[1]), given.card, suit_p,
               signcuts.odds_at_cuts(image, quad, visible, keep), now[0])
        if row not in rows:  # (the stills steps read a candidate again)
            rows.append(row)

    scenes = evaluate.rendered_scenes

    def watched(*a: Any, **kw: Any) -> Iterator[tuple[Any, Any]]:
        for i, (image, truth) in enumerate(scenes(*a, **kw)):
            now[:] = [i, truth]
            yield image, truth

    give = signcuts.read_by_cut_signs
    signcuts.read_by_cut_signs = spy  # (this process only)
    evaluate.rendered_scenes = watched  # type: ignore[assignment]
    rep = evaluate.evaluate_rendered(clf, decks_named(kind), int(n), seed=int(seed),
                                     quads=quads)
    return rows, rep


def table(rows: list[Row]) -> list[str]:
    """Right/wrong given per (floor, cut count)."""
    from vision.recognize.signcuts import side_of

    out = []
    for f in FLOORS:
        cells = []
        for m in COUNTS:
            got = [(t, c) for t, c, p, odds, _ in rows
                   if p >= f and side_of(odds, m) == c[-1]]
            right = sum(t == c for t, c in got)
            cells.append(f"m{m}:{right}/{len(got) - right}")
        out.append(f"  floor {f:<5} " + " ".join(cells))
    return out


def main(argv: list[str]) -> int:
    from vision.recognize.classifier import IndexClassifier

    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    giving = "--give" in argv
    argv = [a for a in argv if a != "--give"]
    everything: list[Row] = []
    for which in argv:
        rows, rep = collect(which, clf, giving)
        everything += rows
        t = rep.all
        print(f"{which}: {'with' if giving else 'without'} the step right {t.correct}/{t.n} wrong {t.wrong} "
              f"phantoms {rep.phantoms}; {len(rows)} asked (right/wrong given)")
        print("".join(f"  wrong: {e}\n" for e in t.wrong_examples), end="")
        print("\n".join(table(rows)))
        for t, c, p, odds, i in rows:
            if t != c:
                print(f"    scene {i} told {c} of {t}: suit_p {p:.3f} odds "
                      + " | ".join(",".join(f"{z:+.1f}" for z in zs) for zs in odds))
        sys.stdout.flush()
    if len(argv) > 1:
        print("all:")
        print("\n".join(table(everything)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
