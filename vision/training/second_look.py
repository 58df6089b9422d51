"""Bars for the second look (classifier.IndexClassifier.look_again), after the first.

A card whose corners agree but fall short of the first bars is cut again a little
tighter and looser (classifier.SECOND_LOOK_SCALES) and each corner read as the least
probability any cut gives the class the usual cut reads (`readings.least_reading`).
Its own bars are chosen like the first ones (calibrate.choose_thresholds), on exactly
the cards that would get a second look: the calibration decks' camera scenes
(calscenes.py) and the kept-back real train photos, which carry their extra cuts. The
wrong-card budget is what the first look left of TARGET_WRONG on those scenes (none
if it spent it all: then the second look may add no wrong card there), and not one
wrong real rank.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.recognize.classifier import (
    Calibration,
    IndexClassifier,
    Reading,
    least_reading,
    readings_from_rows,
)
from vision.training.calibrate import (
    TARGET_WRONG,
    Bars,
    CalCard,
    Verdicts,
    choose_thresholds,
    forward_all,
    tempered,
    verdicts,
)


@dataclass(frozen=True, slots=True)
class LookCards:
    """Cards with their second-look cuts: patches (N, H, W, 3), each patch's extra
    cuts (N, L, H, W, 3), and cards whose `patches` index both."""

    x: np.ndarray
    looks: np.ndarray
    cards: list[CalCard]


def _probs(clf: IndexClassifier, x: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray]:
    pr, ps, _ = forward_all(clf, x)
    return tempered(pr, ps, t)


def look_readings(clf: IndexClassifier, data: LookCards, t: float
                  ) -> tuple[list[Reading], list[Reading]]:
    """(first-look readings, second-look readings) of every patch at temperature `t`
    (`clf` must run at temperature 1)."""
    pr, ps = _probs(clf, data.x, t)
    n, n_looks = data.looks.shape[:2]
    qr, qs = _probs(clf, data.looks.reshape(n * n_looks, *data.looks.shape[2:]), t)
    qr, qs = qr.reshape(n, n_looks, -1), qs.reshape(n, n_looks, -1)
    second = [least_reading(np.vstack([pr[i:i + 1], qr[i]]), np.vstack([ps[i:i + 1], qs[i]]))
              for i in range(n)]
    return readings_from_rows(pr, ps), second


def _second(first: Verdicts, second: Verdicts, bars: Bars) -> Verdicts:
    """The cards the second look is asked about: read, yet not accepted at first."""
    return second.subset(first.read & ~first.accepted(bars))


def calibrate_second_look(clf: IndexClassifier, cal: Calibration, camera: LookCards,
                          real: LookCards | None = None, target: float = TARGET_WRONG,
                          log=print) -> tuple[Calibration, dict[str, object]]:
    """`cal` (first bars chosen) with `second_look` bars chosen on `camera` and
    `real` (see module), and the figures of both looks together."""
    first_bars = Bars.of(cal)
    saved = clf.calibration
    clf.calibration = replace(cal, temperature=1.0, second_look=None)
    try:
        c1, c2 = look_readings(clf, camera, cal.temperature)
        r1 = r2 = None
        if real is not None and len(real.x):
            r1, r2 = look_readings(clf, real, cal.temperature)
    finally:
        clf.calibration = saved
    plain = replace(cal, second_look=None)
    v1, v2 = verdicts(c1, camera.cards, plain), verdicts(c2, camera.cards, plain)
    asked = _second(v1, v2, first_bars)
    wrong1 = int((v1.accepted(first_bars) & ~v1.right).sum())
    budget = max(target * len(v1.read) - wrong1, 0.0) / max(len(asked.read), 1)
    real_asked = real_looks = None
    if r1 is not None and r2 is not None and real is not None:
        real_looks = verdicts(r1, real.cards, plain), verdicts(r2, real.cards, plain)
        real_asked = _second(*real_looks, first_bars)
    bars = choose_thresholds(asked, real_asked, target=budget)
    out = replace(cal, second_look=bars.apply(plain))

    def both(first: Verdicts, second: Verdicts) -> dict[str, float]:
        a1 = first.accepted(first_bars)
        a2 = first.read & ~a1 & second.accepted(bars)
        right = np.where(a1, first.right, second.right)
        n = max(int(first.positive.sum()), 1)
        return {"accuracy_first": float((a1 & first.right).sum() / n),
                "accuracy": float(((a1 | a2) & right).sum() / n),
                "wrong_cards": float(((a1 | a2) & ~right).sum()),
                "second_looks": float((first.read & ~a1).sum()), "cards": float(len(a1))}
    stats: dict[str, object] = {"budget": budget, "camera_scenes": both(v1, v2)}
    if real_looks is not None:
        stats["real_train_holdout"] = both(*real_looks)
    log(f"second look: bars={bars}: {stats}")
    return out, stats
