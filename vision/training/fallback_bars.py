"""Bars for the second opinion (vision.recognize.fallback): the mean of the model's
network and one or more others, asked only about the cards the first leaves unread.

The pair's temperature is fitted like any model's (calibrate.calibrate). Its bars are
then chosen (calibrate.choose_thresholds) on exactly the calibration cards the first
network's first look does not accept, with the wrong-card budget the first network
left of TARGET_WRONG: what its first look and its second look (on the camera scenes)
spent is taken off first. On today's data that leaves less than one card, so the pair
may add no wrong card at all where it is calibrated, and none on the kept-back real
photos.

Run: `python -m vision.training.fallback_bars MEMBER.onnx [MEMBER.onnx ...] [--model
vision/models/index.onnx]`: copies the members next to the model (index_b.onnx, ...)
and writes the "fallback" entry of its index.json. `make model` does it for the
networks it trains after the first (train.py `--fallback`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import string
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.recognize.classifier import (
    DEFAULT_MODEL,
    Calibration,
    IndexClassifier,
    readings_from_rows,
)
from vision.recognize.fallback import KEY, pair_classifier
from vision.recognize.runtime import open_runner
from vision.training.calibrate import (
    TARGET_WRONG,
    Bars,
    CalibrationData,
    Verdicts,
    add_data_options,
    calibrate,
    choose_thresholds,
    data_from_options,
    forward_all,
    verdicts,
)


def _first_verdicts(clf: IndexClassifier, x: np.ndarray, cards: list) -> Verdicts:
    pr, ps, _ = forward_all(clf, x)  # at clf's own temperature
    return verdicts(readings_from_rows(pr, ps), cards, clf.calibration)


def _second_look_wrong(first: IndexClassifier, data: CalibrationData) -> int:
    """Wrong cards the first network's second look adds on the camera scenes."""
    from vision.training.second_look import look_readings

    cal = first.calibration
    if cal.second_look is None or data.camera is None or not len(data.camera.x):
        return 0
    saved = first.calibration
    first.calibration = replace(cal, temperature=1.0, second_look=None)
    try:
        r1, r2 = look_readings(first, data.camera, cal.temperature)
    finally:
        first.calibration = saved
    plain = replace(cal, second_look=None)
    v1, v2 = verdicts(r1, data.camera.cards, plain), verdicts(r2, data.camera.cards, plain)
    a1 = v1.accepted(Bars.of(cal))
    a2 = v1.read & ~a1 & v2.accepted(Bars.of(cal.second_look))
    return int((a2 & ~v2.right).sum())


def calibrate_fallback(first: IndexClassifier, pair: IndexClassifier, data: CalibrationData,
                       target: float = TARGET_WRONG, log=print
                       ) -> tuple[Calibration, dict[str, object]]:
    """The pair's calibration (no second look of its own) and its figures (see module).
    `first` carries its calibration; `pair` runs the mean of the networks."""
    bars1 = Bars.of(first.calibration)
    v1 = _first_verdicts(first, data.x, data.cards)
    acc1 = v1.accepted(bars1)
    spent = int((acc1 & ~v1.right).sum()) + _second_look_wrong(first, data)
    real1 = None
    if len(data.real_x):
        real1 = _first_verdicts(first, data.real_x, data.real_cards)
    base, _ = calibrate(pair, data.x, data.cards, data.real_x, data.real_cards,
                        log=lambda *_: None)  # for its temperature
    v2 = _first_verdicts(pair, data.x, data.cards)
    asked = v2.subset(~acc1)
    budget = max(target * len(v1.read) - spent, 0.0) / max(len(asked.read), 1)
    real_asked = None
    if real1 is not None:
        real2 = _first_verdicts(pair, data.real_x, data.real_cards)
        real_asked = real2.subset(~real1.accepted(bars1))
    bars = choose_thresholds(asked, real_asked, target=budget)
    cal = replace(bars.apply(base), second_look=None)
    pair.calibration = cal
    n = max(int(v1.positive.sum()), 1)
    gained = asked.accepted(bars)
    stats: dict[str, object] = {
        "temperature": cal.temperature, "budget_cards": target * len(v1.read) - spent,
        "asked": len(asked.read),
        "first_accuracy": float((acc1 & v1.right).sum() / n),
        "accuracy": float(((acc1 & v1.right).sum() + (gained & asked.right).sum()) / n),
        "wrong_cards_added": int((gained & ~asked.right).sum()),
    }
    if real_asked is not None:
        stats["real_added"] = {"right": int((real_asked.accepted(bars) & real_asked.right).sum()),
                               "wrong": int((real_asked.accepted(bars) & ~real_asked.right).sum())}
    log(f"fallback: bars={bars}: {json.dumps(stats)}")
    return cal, stats


def member_names(n: int) -> list[str]:
    """index_b.onnx, index_c.onnx, ... for the networks after the first."""
    return [f"index_{c}.onnx" for c in string.ascii_lowercase[1:1 + n]]


def install(model: Path, members: list[Path], data: CalibrationData, log=print
            ) -> dict[str, object]:
    """Copy `members` next to `model` under member_names, calibrate the pair and write
    index.json's "fallback" entry (other entries kept). Returns the pair's figures."""
    names = member_names(len(members))
    for src, name in zip(members, names):
        if src.resolve() != (model.parent / name).resolve():
            shutil.copyfile(src, model.parent / name)
    meta = model.with_suffix(".json")
    doc = json.loads(meta.read_text()) if meta.is_file() else {}
    doc.pop(KEY, None)  # (a stale entry would be loaded with the first network)
    meta.write_text(json.dumps(doc, indent=1) + "\n")
    first = IndexClassifier.load(model)
    pair = pair_classifier(open_runner(model), [open_runner(model.parent / n) for n in names],
                           first.calibration, model)
    cal, stats = calibrate_fallback(first, pair, data, log=log)
    doc[KEY] = {"members": names, "calibration": cal.to_dict(), "stats": stats}
    meta.write_text(json.dumps(doc, indent=1) + "\n")
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("members", type=Path, nargs="+")
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    add_data_options(ap)
    args = ap.parse_args(argv)
    install(args.model, args.members, data_from_options(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
