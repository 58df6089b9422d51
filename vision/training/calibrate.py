"""Choosing the temperature and abstention thresholds of a trained model (no torch).

A wrong card costs the referee far more than "cannot read", so the thresholds are the
lowest probabilities at which the wrong-card rate on the calibration decks (never
trained on) stays <= TARGET_WRONG:

1. `temperature`: one divisor of the logits, fitted (least negative log-likelihood)
   on the calibration patches, so that probabilities mean what they say on decks the
   network never saw; it matters for pooling two corners (`classifier.joint_prob`).
2. `min_prob`: for a card read from a single corner (the other covered);
3. `min_prob_pair`: on the joint probability of two agreeing corners (two looks at
   the same index).

Calibration cards come from single-card views (synth.py) and whole scenes (scenes.py)
of the calibration decks, and, rank only, from the train photos kept out of training
(real.is_calibration_photo): on those, not one wrong rank is allowed.
Run alone to recalibrate the committed model: `python -m vision.training.calibrate`.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
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
NONE = len(RANKS)
#: Candidate thresholds: fine steps up to 0.99, then ever closer to 1 (pooled
#: probabilities of two corners crowd there).
GRID = [float(t) for t in np.round(np.arange(0.5, 0.99, 0.005), 3)] + \
    [float(1 - 10 ** -k) for k in np.arange(2.0, 6.01, 0.1)]
_TEMPERATURES = [float(t) for t in np.round(np.arange(0.5, 3.01, 0.05), 2)]


@dataclass(frozen=True, slots=True)
class CalCard:
    """One calibration card: the indices of its visible corner patches and its truth
    ("7H"; a rank only, "7", for real photos; None: not a card, must not be read)."""

    patches: tuple[int, ...]
    truth: str | None


def cards_from_views(r: np.ndarray, s: np.ndarray, offset: int = 0) -> list[CalCard]:
    """Single-corner cards for every patch, plus two-corner cards for consecutive
    same-label positives (synth.py and scenes.py emit a card's corners together)."""
    out: list[CalCard] = []
    for i in range(len(r)):
        truth = None if r[i] == NONE else RANKS[r[i]] + SUITS[s[i]]
        out.append(CalCard((offset + i,), truth))
        if i + 1 < len(r) and r[i] == r[i + 1] and s[i] == s[i + 1] and r[i] != NONE:
            out.append(CalCard((offset + i, offset + i + 1), truth))
    return out


def cards_from_photos(r: np.ndarray, ids: np.ndarray, offset: int = 0) -> list[CalCard]:
    """Rank-only cards of real photos: each corner alone, and a card's corners together."""
    out = [CalCard((offset + i,), RANKS[r[i]]) for i in range(len(r))]
    for card_id in np.unique(ids):
        idx = np.flatnonzero(ids == card_id)
        if len(idx) >= 2:
            out.append(CalCard(tuple(int(offset + i) for i in idx), RANKS[r[idx[0]]]))
    return out


def _readings(pr: np.ndarray, ps: np.ndarray) -> list[Reading]:
    """Readings from probability rows, as IndexClassifier.classify makes them."""
    out = []
    for r, s in zip(pr, ps):
        ri, si = int(r[:13].argmax()), int(s[:4].argmax())
        is_none = r[13] > r[ri] or s[4] > s[si]
        out.append(Reading(None if is_none else RANKS[ri], None if is_none else SUITS[si],
                           float(min(r[ri], s[si])), float(r[ri]), float(s[si]),
                           float(max(r[13], s[4]))))
    return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_temperature(logp_r: np.ndarray, logp_s: np.ndarray, r: np.ndarray, s: np.ndarray
                    ) -> float:
    """The logit divisor minimising the rank + suit NLL of labelled patches (grid)."""
    def nll(t: float) -> float:
        lr = np.log(_softmax(logp_r / t)[np.arange(len(r)), r] + 1e-12)
        ls = np.log(_softmax(logp_s / t)[np.arange(len(s)), s] + 1e-12)
        return float(-(lr.mean() + ls.mean()))
    return min(_TEMPERATURES, key=nll)


@dataclass(frozen=True, slots=True)
class _Verdicts:
    """Per card: read at all (thresholds 0), pooled score, corners agreeing, right."""

    read: np.ndarray
    score: np.ndarray
    pooled: np.ndarray
    right: np.ndarray
    positive: np.ndarray

    def rates(self, single: float, pair: float) -> dict[str, float]:
        need = np.where(self.pooled, pair, single)
        acc = self.read & (self.score >= need)
        n = max(int(self.positive.sum()), 1)
        return {"accuracy": float((acc & self.right).sum() / n),
                "wrong": float((acc & ~self.right).sum() / max(len(acc), 1)),
                "abstain": float((~acc & self.positive).sum() / n),
                "cards": float(len(acc)), "wrong_cards": float((acc & ~self.right).sum())}


def verdicts(reads: list[Reading], cards: list[CalCard], cal: Calibration) -> _Verdicts:
    """Combine every card's corner readings with thresholds at 0 and record the score
    each would need to reach (vectorises the threshold search)."""
    free = replace(cal, min_prob=0.0, min_prob_pair=0.0)
    read, score, pooled, right, positive = [], [], [], [], []
    for c in cards:
        rd = [reads[i] for i in c.patches]
        v = combine(rd, free)
        n_agree = sum(1 for x in rd if v.card and (x.rank, x.suit) == (v.rank, v.suit))
        read.append(v.card is not None)
        score.append(v.confidence)
        pooled.append(n_agree >= 2)
        got = v.card
        if got is not None and c.truth is not None and c.truth[-1] not in SUITS:
            got = got[:-1]  # rank-only truth ("10", "Q"): compare ranks
        right.append(got == c.truth)
        positive.append(c.truth is not None)
    return _Verdicts(np.array(read, bool), np.array(score, float), np.array(pooled, bool),
                     np.array(right, bool), np.array(positive, bool))


def choose_thresholds(synthetic: _Verdicts, real: _Verdicts | None = None,
                      target: float = TARGET_WRONG) -> tuple[float, float]:
    """Lowest (single, pair) thresholds with wrong <= `target` on the synthetic cards
    and no wrong card at all on the real ones."""
    def ok(single: float, pair: float) -> bool:
        if synthetic.rates(single, pair)["wrong"] > target:
            return False
        return real is None or real.rates(single, pair)["wrong_cards"] == 0
    single = next((t for t in GRID if ok(t, 1.0)), GRID[-1])
    pair = next((t for t in GRID if ok(single, t)), GRID[-1])
    return single, pair


def calibrate(clf: IndexClassifier, x: np.ndarray, cards: list[CalCard],
              real_x: np.ndarray | None = None, real_cards: list[CalCard] | None = None,
              log=print) -> tuple[Calibration, dict[str, object]]:
    """Fit the temperature on `x` (labels from `cards`), then pick the thresholds."""
    base = replace(clf.calibration, temperature=1.0)
    clf.calibration = base
    pr, ps, _ = _forward(clf, x)
    r = np.full(len(x), -1)
    s = np.full(len(x), -1)
    for c in cards:
        if len(c.patches) == 1:
            i = c.patches[0]
            r[i] = NONE if c.truth is None else RANKS.index(c.truth[:-1])
            s[i] = len(SUITS) if c.truth is None else SUITS.index(c.truth[-1])
    m = r >= 0
    t = fit_temperature(np.log(pr[m] + 1e-12), np.log(ps[m] + 1e-12), r[m], s[m])
    cal = replace(base, temperature=t)
    syn = verdicts(_readings(_softmax(np.log(pr + 1e-12) / t),
                             _softmax(np.log(ps + 1e-12) / t)), cards, cal)
    real = None
    if real_x is not None and real_cards and len(real_x):
        qr, qs, _ = _forward(clf, real_x)
        real = verdicts(_readings(_softmax(np.log(qr + 1e-12) / t),
                                  _softmax(np.log(qs + 1e-12) / t)), real_cards, cal)
    single, pair = choose_thresholds(syn, real)
    cal = replace(cal, min_prob=single, min_prob_pair=pair)
    clf.calibration = cal

    def split(v: _Verdicts, pooled: bool) -> dict[str, float]:
        keep = v.pooled if pooled else ~v.pooled
        sub = _Verdicts(v.read[keep], v.score[keep], v.pooled[keep], v.right[keep],
                        v.positive[keep])
        return sub.rates(single, pair)
    stats: dict[str, object] = {
        "temperature": t, "target_wrong": TARGET_WRONG,
        "synthetic": {"all": syn.rates(single, pair), "single": split(syn, False),
                      "pair": split(syn, True)}}
    if real is not None:
        stats["real_train_holdout"] = {"all": real.rates(single, pair),
                                       "single": split(real, False), "pair": split(real, True)}
    log(f"calibration: T={t}, min_prob={single}, min_prob_pair={pair}: "
        f"{json.dumps(stats)}")
    return cal, stats


def _forward(clf: IndexClassifier, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    parts = [clf.forward(list(x[i:i + 512])) for i in range(0, len(x), 512)]
    if not parts:
        return np.zeros((0, 14)), np.zeros((0, 5)), np.zeros((0, 64))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))  # type: ignore


def write(model: Path, cal: Calibration, stats: dict[str, object],
          extra: dict[str, object] | None = None) -> None:
    """Store the thresholds next to the model (index.json), keeping other fields."""
    path = model.with_suffix(".json")
    meta = json.loads(path.read_text()) if path.is_file() else {}
    meta.update(extra or {})
    meta["calibration"] = {k: getattr(cal, k) for k in Calibration.__dataclass_fields__}
    meta["calibration_stats"] = stats
    path.write_text(json.dumps(meta, indent=1) + "\n")


def calibration_data(views: int, scenes: int, workers: int
                     ) -> tuple[np.ndarray, list[CalCard], np.ndarray, list[CalCard]]:
    """Patches and cards of the calibration decks (views, scenes) and of the held-back
    real train photos."""
    from vision.training.real import is_calibration_photo, real_patches
    from vision.training.train import CAL_SCENES, CAL_VIEWS, synthesise

    xv, rv, sv = synthesise(CAL_VIEWS, views, workers)
    xs, rs, ss = synthesise(CAL_SCENES, scenes, workers)
    cards = cards_from_views(rv, sv) + cards_from_views(rs, ss, offset=len(xv))
    xr, rr, ids = real_patches(keep=is_calibration_photo)
    return np.concatenate([xv, xs]), cards, xr, cards_from_photos(rr, ids)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--views", type=int, default=4000)
    ap.add_argument("--scenes", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    x, cards, xr, real_cards = calibration_data(args.views, args.scenes, args.workers)
    clf = IndexClassifier.load(args.model)
    cal, stats = calibrate(clf, x, cards, xr, real_cards)
    write(args.model, cal, stats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
