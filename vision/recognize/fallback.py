"""A second opinion for the cards the first network leaves unread: the mean of two
networks, run only on those cards.

Why: two networks trained alike but with different seeds make different mistakes on
decks they never saw, so the mean of their logits reads more cards right at the same
wrong rate (held-out decks: 409 -> 415 of 436 cards from true quads). Running both on
every corner doubles the network's time on every frame (2.6 -> 5.3 ms for a frame's 16
patches), which the 30 ms frame budget cannot pay. Most corners are read by the first
network alone, so the pair only looks at the few cards it did not accept.

Its bars (vision.training.fallback_bars) are chosen on exactly those cards of the
calibration data, with the wrong-card budget the first network left: the pair reads
more without adding wrong cards where it was calibrated.

The model directory holds the pair's other network(s) next to index.onnx, and
index.json says so under "fallback": `{"members": ["index_b.onnx"], "calibration":
{...}}`. No such entry: no second opinion (older models, enrolled decks).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.recognize.runtime import MeanRunner, NetRunner, open_runner

if TYPE_CHECKING:
    from vision.recognize.classifier import Calibration, CardReading, IndexClassifier, Reading

#: The key of index.json holding the second opinion.
KEY = "fallback"
#: Probabilities are floored here before their log (a float32 softmax underflows).
_FLOOR = 1e-30


class SecondOpinion:
    """The pair's reading of cards the first network did not accept.

    The pair's logits are the mean of the first network's and the others' (what
    `pair_classifier` runs, and calibration measures). The first network's are not
    run again: its tempered probabilities, kept in each Reading, give its logits up
    to a constant per row (T log p = z - const), which the softmax cancels. So a
    second opinion costs one network call of the other networks only.
    """

    def __init__(self, first_temperature: float, others: list[NetRunner],
                 calibration: Calibration, member_names: tuple[str, ...] = ()) -> None:
        self.first_temperature = first_temperature
        self.others = others
        self.calibration = calibration
        self.member_names = member_names  # the other networks' files (for reports)

    def readings(self, patches: Sequence[np.ndarray], firsts: Sequence[Reading]
                 ) -> list[Reading]:
        """The pair's Reading of each patch, given the first network's (with probs)."""
        from vision.recognize.classifier import readings_from_rows, softmax, to_blob

        if not patches:
            return []
        blob = to_blob(list(patches))
        outs = [r.run(blob) for r in self.others]
        first_r = np.stack([f.probs[0] for f in firsts])  # type: ignore[index]
        first_s = np.stack([f.probs[1] for f in firsts])  # type: ignore[index]
        t0, t = self.first_temperature, self.calibration.temperature
        k = 1 + len(outs)
        rank = (t0 * np.log(np.maximum(first_r, _FLOOR)) + sum(o[0] for o in outs)) / k
        suit = (t0 * np.log(np.maximum(first_s, _FLOOR)) + sum(o[1] for o in outs)) / k
        return readings_from_rows(softmax(rank / t), softmax(suit / t))

    def read(self, cuts: Sequence[Sequence[np.ndarray]],
             firsts: Sequence[Sequence[Reading]]) -> list[CardReading]:
        """The pair's verdict on each card from its corner patches `cuts[i]` and the
        first network's readings of them `firsts[i]` (one call for all), by the
        pair's bars."""
        from vision.recognize.classifier import combine

        flat = [p for ps in cuts for p in ps]
        reads = self.readings(flat, [r for rs in firsts for r in rs])
        out, start = [], 0
        for ps in cuts:
            out.append(combine(reads[start:start + len(ps)], self.calibration))
            start += len(ps)
        return out


def pair_classifier(first: NetRunner, others: Sequence[NetRunner], calibration: Calibration,
                    model: Path) -> IndexClassifier:
    """The pair as one classifier (MeanRunner): what calibration reads with."""
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier(MeanRunner([first, *others]), calibration, model)


def load_fallback(model: Path, first_temperature: float, runtime: str | None = None
                  ) -> SecondOpinion | None:
    """The second opinion index.json names for `model` (the other networks and the
    pair's bars), or None when it names none.

    Raises:
        ModelMissing: a network index.json names is not there.
    """
    from vision.recognize.classifier import Calibration, ModelMissing

    meta = model.with_suffix(".json")
    if not meta.is_file():
        return None
    entry = json.loads(meta.read_text()).get(KEY)
    if not entry:
        return None
    members = [model.parent / name for name in entry["members"]]
    for m in members:
        if not m.is_file():
            raise ModelMissing(m)
    return SecondOpinion(first_temperature, [open_runner(m, runtime) for m in members],
                         Calibration.from_dict(entry["calibration"]),
                         tuple(m.name for m in members))
