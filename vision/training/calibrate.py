"""Choosing the abstention thresholds of a trained model (no torch needed).

A wrong card costs the referee far more than "cannot read", so the thresholds are the
lowest probabilities at which the wrong-card rate on the calibration decks (never
trained on) stays <= TARGET_WRONG: one threshold for a card read from a single corner
(the other covered), a lower one allowed for two corners that agree (two independent
looks at the same index). Run alone to recalibrate the committed model:
`python -m vision.training.calibrate [--views N]`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from vision.recognize.classifier import (
    DEFAULT_MODEL,
    Calibration,
    IndexClassifier,
    Reading,
    combine,
)
from vision.types import RANKS, SUITS

TARGET_WRONG = 0.001  # the 0.1% budget, on calibration patches harsher than scenes
_GRID = [float(t) for t in np.round(np.arange(0.5, 0.996, 0.005), 3)]


def readings(clf: IndexClassifier, x: np.ndarray) -> list[Reading]:
    """Per-patch readings of the uint8 patches `x` (batched)."""
    out: list[Reading] = []
    for i in range(0, len(x), 512):
        out.extend(clf.classify(list(x[i:i + 512])))
    return out


def _rate(cards: list[tuple[list[Reading], str | None]], cal: Calibration
          ) -> dict[str, float]:
    ok = wrong = abst = n = 0
    for rd, truth in cards:
        v = combine(rd, cal).card
        if truth is None:
            wrong += v is not None
            continue
        n += 1
        ok += v == truth
        wrong += v is not None and v != truth
        abst += v is None
    return {"accuracy": ok / max(n, 1), "wrong": wrong / max(len(cards), 1),
            "abstain": abst / max(n, 1), "cards": float(len(cards))}


def calibrate(clf: IndexClassifier, x: np.ndarray, r: np.ndarray, s: np.ndarray,
              log=print) -> tuple[Calibration, dict[str, object]]:
    """Pick `min_prob` (one corner) then `min_prob_pair` (two agreeing corners).

    Patches come in view order: consecutive same-label positives are the two corners
    of one card. Every patch is also a one-corner card; "none" patches count as cards
    that must not be read.
    """
    reads = readings(clf, x)
    singles: list[tuple[list[Reading], str | None]] = []
    pairs: list[tuple[list[Reading], str | None]] = []
    for i in range(len(x)):
        truth = None if r[i] == 13 else RANKS[r[i]] + SUITS[s[i]]
        singles.append(([reads[i]], truth))
        if i + 1 < len(x) and r[i] == r[i + 1] and s[i] == s[i + 1] and r[i] != 13:
            pairs.append(([reads[i], reads[i + 1]], truth))
    single_t = next((t for t in _GRID
                     if _rate(singles, Calibration(min_prob=t))["wrong"] <= TARGET_WRONG),
                    0.995)
    pair_t = next((t for t in _GRID if t <= single_t and _rate(
        pairs, Calibration(min_prob=single_t, min_prob_pair=t))["wrong"] <= TARGET_WRONG),
        single_t)
    cal = Calibration(min_prob=single_t, min_prob_pair=pair_t)
    stats = {"single": {"threshold": single_t, **_rate(singles, cal)},
             "pair": {"threshold": pair_t, **_rate(pairs, cal)},
             "target_wrong": TARGET_WRONG}
    log(f"calibration: {stats}")
    return cal, stats


def write(model: Path, cal: Calibration, stats: dict[str, object],
          extra: dict[str, object] | None = None) -> None:
    """Store the thresholds next to the model (index.json), keeping other fields."""
    path = model.with_suffix(".json")
    meta = json.loads(path.read_text()) if path.is_file() else {}
    meta.update(extra or {})
    meta["calibration"] = {k: getattr(cal, k) for k in Calibration.__dataclass_fields__}
    meta["calibration_stats"] = stats
    path.write_text(json.dumps(meta, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    from vision.training.train import synthesise

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--views", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    x, r, s = synthesise(1, args.views, args.workers)
    clf = IndexClassifier.load(args.model)
    cal, stats = calibrate(clf, x, r, s)
    write(args.model, cal, stats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
