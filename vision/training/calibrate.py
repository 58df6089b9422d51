"""Choosing the temperature and abstention thresholds of a trained model (no torch).

A wrong card costs the referee far more than "cannot read", so the thresholds are the
lowest probabilities at which the wrong-card rate on the calibration decks (never
trained on) stays <= TARGET_WRONG:

1. `temperature`: one divisor of the logits, fitted (least negative log-likelihood)
   on the calibration patches, so that probabilities mean what they say on decks the
   network never saw; it matters for pooling two corners (`vision.recognize.readings.joint_prob`).
2. the bars (`Bars`): a rank bar and one bar per suit read, each for a card read
   from a single corner (`min_prob`, `suit_min_prob`) and for the joint probability
   of two agreeing corners (`min_prob_pair`, `suit_min_prob_pair`).

Why per suit: the network's suit mistakes are lopsided. On gnome/plastic it reads
clubs as spades, both corners agreeing, at pooled probabilities up to 0.9999, while
hardly anything is read as a heart that is not one. One bar for all
had to sit above those spades (0.99 / 0.999) and so abstained on most cards whose
suit was merely a little unsure; per-suit bars keep "spade" strict and let the
other suits through. No bar goes below MIN_BAR, no pair bar below what two corners
at MIN_BAR pool to (0.988).

Calibration cards come from single-card views (synth.py), training-style scenes
(scenes.py) and scenes read as the camera chain reads them (calscenes.py: true,
moved and detected quads) of the calibration decks, and, rank only, from the train
photos kept out of training (real.is_calibration_photo): on those, not one wrong rank
is allowed.
Run alone to recalibrate the committed model: `python -m vision.training.calibrate`.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.recognize.classifier import (
    DEFAULT_MODEL,
    Calibration,
    IndexClassifier,
    Reading,
    combine,
    joint_prob,
    readings_from_rows,
    softmax,
)
from vision.types import RANKS, SUITS

TARGET_WRONG = 0.001  # the 0.1% budget, on calibration patches harsher than scenes
#: No bar below this (pair bars: two corners at it, pooled): two calibration decks cannot
#: show every confusion a new deck may bring, so a suit they never misread into still
#: needs 0.9 (see choose_thresholds).
MIN_BAR = 0.9
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


def tempered(pr: np.ndarray, ps: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray]:
    """Probability rows of a network run at temperature 1, as at temperature `t`."""
    return softmax(np.log(pr + 1e-12) / t), softmax(np.log(ps + 1e-12) / t)


def fit_temperature(logp_r: np.ndarray, logp_s: np.ndarray, r: np.ndarray, s: np.ndarray
                    ) -> float:
    """The logit divisor minimising the rank + suit NLL of labelled patches (grid)."""
    def nll(t: float) -> float:
        lr = np.log(softmax(logp_r / t)[np.arange(len(r)), r] + 1e-12)
        ls = np.log(softmax(logp_s / t)[np.arange(len(s)), s] + 1e-12)
        return float(-(lr.mean() + ls.mean()))
    return min(_TEMPERATURES, key=nll)


@dataclass(frozen=True, slots=True)
class Bars:
    """The acceptance bars of one calibration: a rank bar and one bar per suit read
    (SUITS order), each for a lone corner (`single`) and for two pooled corners (`pair`).
    """

    rank_single: float
    rank_pair: float
    suit_single: tuple[float, ...]
    suit_pair: tuple[float, ...]

    @classmethod
    def flat(cls, single: float, pair: float) -> Bars:
        """Rank and every suit at the same two bars (the old, single-valued rule)."""
        n = len(SUITS)
        return cls(single, pair, (single,) * n, (pair,) * n)

    def vector(self) -> np.ndarray:
        """[rank single, rank pair, suit singles..., suit pairs...] (search order)."""
        return np.array([self.rank_single, self.rank_pair, *self.suit_single,
                         *self.suit_pair], float)

    @classmethod
    def from_vector(cls, v: np.ndarray) -> Bars:
        n = len(SUITS)
        return cls(float(v[0]), float(v[1]), tuple(float(x) for x in v[2:2 + n]),
                   tuple(float(x) for x in v[2 + n:2 + 2 * n]))

    @classmethod
    def of(cls, cal: Calibration) -> Bars:
        """The bars `cal` holds (the inverse of `apply`; empty suit bars: the rank's)."""
        return cls(cal.min_prob, cal.min_prob_pair,
                   tuple(cal.suit_bar(s, pooled=False) for s in SUITS),
                   tuple(cal.suit_bar(s, pooled=True) for s in SUITS))

    def apply(self, cal: Calibration) -> Calibration:
        """`cal` with these bars (readings.combine reads them)."""
        return replace(cal, min_prob=self.rank_single, min_prob_pair=self.rank_pair,
                       suit_min_prob=self.suit_single, suit_min_prob_pair=self.suit_pair)


@dataclass(frozen=True, slots=True)
class Verdicts:
    """Per card: read at all (bars 0), pooled rank and suit probabilities, suit read,
    corners agreeing, right, a positive (a card that should be read)."""

    read: np.ndarray
    rank_score: np.ndarray
    suit_score: np.ndarray
    suit: np.ndarray
    pooled: np.ndarray
    right: np.ndarray
    positive: np.ndarray

    def accepted(self, bars: Bars) -> np.ndarray:
        v = bars.vector()
        n = len(SUITS)
        need_rank = np.where(self.pooled, v[1], v[0])
        need_suit = np.where(self.pooled, v[2 + n:][self.suit], v[2:2 + n][self.suit])
        return self.read & (self.rank_score >= need_rank) & (self.suit_score >= need_suit)

    def rates(self, bars: Bars) -> dict[str, float]:
        acc = self.accepted(bars)
        n = max(int(self.positive.sum()), 1)
        return {"accuracy": float((acc & self.right).sum() / n),
                "wrong": float((acc & ~self.right).sum() / max(len(acc), 1)),
                "abstain": float((~acc & self.positive).sum() / n),
                "cards": float(len(acc)), "wrong_cards": float((acc & ~self.right).sum())}

    def subset(self, keep: np.ndarray) -> Verdicts:
        return Verdicts(*(getattr(self, f)[keep] for f in self.__dataclass_fields__))

    def __add__(self, other: Verdicts) -> Verdicts:
        return Verdicts(*(np.concatenate([getattr(self, f), getattr(other, f)])
                           for f in self.__dataclass_fields__))


def verdicts(reads: list[Reading], cards: list[CalCard], cal: Calibration) -> Verdicts:
    """Combine every card's corner readings with bars at 0 and record the rank and
    suit probabilities each would need to reach (vectorises the threshold search)."""
    free = Bars.flat(0.0, 0.0).apply(cal)
    read, rank_score, suit_score, suit, pooled, right, positive = [], [], [], [], [], [], []
    for c in cards:
        rd = [reads[i] for i in c.patches]
        v = combine(rd, free)
        agree = [x for x in rd if v.card and (x.rank, x.suit) == (v.rank, v.suit)]
        read.append(v.card is not None)
        rank_score.append(joint_prob([x.rank_prob for x in agree]) if agree else 0.0)
        suit_score.append(joint_prob([x.suit_prob for x in agree]) if agree else 0.0)
        suit.append(SUITS.index(v.suit) if v.suit else 0)
        pooled.append(len(agree) >= 2)
        got = v.card
        if got is not None and c.truth is not None and c.truth[-1] not in SUITS:
            got = got[:-1]  # rank-only truth ("10", "Q"): compare ranks
        right.append(got == c.truth)
        positive.append(c.truth is not None)
    return Verdicts(np.array(read, bool), np.array(rank_score, float),
                     np.array(suit_score, float), np.array(suit, int),
                     np.array(pooled, bool), np.array(right, bool), np.array(positive, bool))


def choose_thresholds(synthetic: Verdicts, real: Verdicts | None = None,
                      target: float = TARGET_WRONG, floor: float = MIN_BAR) -> Bars:
    """The bars reading most calibration cards right with wrong <= `target` on the
    synthetic cards and no wrong card at all on the real ones.

    Start from the lowest flat pair of bars (rank and every suit alike, single bar
    first, as before), then lower one bar at a time, each step taking the move that
    buys the most right cards per wrong card it adds, while the limits hold. No
    single bar goes below `floor`, no pair bar below what two corners at `floor`
    pool to (0.9 and 0.9: 0.988): a suit the calibration decks never confuse into
    gives no evidence of its risk, only the absence of one, and two doubtful corners
    (0.75 and 0.75 pool to 0.9) are not one sure one.
    """
    def ok(bars: Bars) -> bool:
        if synthetic.rates(bars)["wrong"] > target:
            return False
        return real is None or real.rates(bars)["wrong_cards"] == 0
    n = len(SUITS)
    grid = [g for g in GRID if g >= floor]
    pair_grid = [g for g in GRID if g >= joint_prob([floor, floor])]
    single = next((g for g in grid if ok(Bars.flat(g, 1.0))), GRID[-1])
    pair = next((g for g in pair_grid if ok(Bars.flat(single, g))), GRID[-1])
    bars = Bars.flat(single, pair)
    while True:
        now = synthetic.rates(bars)
        best: tuple[float, Bars] | None = None
        vec = bars.vector()
        for k in range(len(vec)):
            for g in pair_grid if k == 1 or k >= 2 + n else grid:
                if g >= vec[k]:
                    break
                trial = vec.copy()
                trial[k] = g
                cand = Bars.from_vector(trial)
                r = synthetic.rates(cand)
                gain = r["accuracy"] - now["accuracy"]
                if gain <= 0 or not ok(cand):
                    continue
                worth = gain / (max(r["wrong"] - now["wrong"], 0.0) + 1e-6)
                if best is None or worth > best[0]:
                    best = (worth, cand)
        if best is None:
            return bars
        bars = best[1]


def calibrate(clf: IndexClassifier, x: np.ndarray, cards: list[CalCard],
              real_x: np.ndarray | None = None, real_cards: list[CalCard] | None = None,
              log=print) -> tuple[Calibration, dict[str, object]]:
    """Fit the temperature on `x` (labels from `cards`), then pick the thresholds."""
    base = replace(clf.calibration, temperature=1.0)
    clf.calibration = base
    pr, ps, _ = forward_all(clf, x)
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
    syn = verdicts(readings_from_rows(*tempered(pr, ps, t)), cards, cal)
    real = None
    if real_x is not None and real_cards and len(real_x):
        qr, qs, _ = forward_all(clf, real_x)
        real = verdicts(readings_from_rows(*tempered(qr, qs, t)), real_cards, cal)
    bars = choose_thresholds(syn, real)
    cal = bars.apply(cal)
    clf.calibration = cal

    def split(v: Verdicts, pooled: bool) -> dict[str, float]:
        return v.subset(v.pooled if pooled else ~v.pooled).rates(bars)
    stats: dict[str, object] = {
        "temperature": t, "target_wrong": TARGET_WRONG, "min_bar": MIN_BAR,
        "synthetic": {"all": syn.rates(bars), "single": split(syn, False),
                      "pair": split(syn, True)}}
    if real is not None:
        stats["real_train_holdout"] = {"all": real.rates(bars),
                                       "single": split(real, False), "pair": split(real, True)}
    log(f"calibration: T={t}, bars={bars}: {json.dumps(stats)}")
    return cal, stats


def forward_all(clf: IndexClassifier, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    meta["calibration"] = cal.to_dict()
    meta["calibration_stats"] = stats
    path.write_text(json.dumps(meta, indent=1) + "\n")


@dataclass(frozen=True, slots=True)
class CalibrationData:
    """Everything the bars are chosen on (see `calibration_data`). `camera` and
    `real_looks` carry second-look cuts (second_look.LookCards); `camera`'s cards are
    also among `cards` (from `camera_offset` in `x`)."""

    x: np.ndarray
    cards: list[CalCard]
    real_x: np.ndarray
    real_cards: list[CalCard]
    camera: Any = None
    real_looks: Any = None


def calibration_data(views: int, scenes: int, workers: int, camera_scenes: int = 600
                     ) -> CalibrationData:
    """Patches and cards of the calibration decks (views, training-style scenes and
    `camera_scenes` scenes read as the camera chain reads them, calscenes.py) and of
    the held-back real train photos."""
    from vision.training.calscenes import scene_cards
    from vision.training.real import is_calibration_photo, real_patch_looks
    from vision.training.second_look import LookCards
    from vision.training.split import CALIBRATION_DECKS
    from vision.training.train import CAL_SCENES, CAL_VIEWS, synthesise

    xv, rv, sv = synthesise(CAL_VIEWS, views, workers)
    xs, rs, ss = synthesise(CAL_SCENES, scenes, workers)
    cards = cards_from_views(rv, sv) + cards_from_views(rs, ss, offset=len(xv))
    xc, looks, camera_cards = scene_cards(CALIBRATION_DECKS, camera_scenes)
    offset = len(xv) + len(xs)
    cards += [CalCard(tuple(i + offset for i in c.patches), c.truth) for c in camera_cards]
    xr, real_looks, rr, ids = real_patch_looks(keep=is_calibration_photo)
    real_cards = cards_from_photos(rr, ids)
    return CalibrationData(np.concatenate([xv, xs, xc]), cards, xr, real_cards,
                           LookCards(xc, looks, camera_cards),
                           LookCards(xr, real_looks, real_cards))


def calibrate_all(clf: IndexClassifier, data: CalibrationData, log=print
                  ) -> tuple[Calibration, dict[str, object]]:
    """First bars (`calibrate`), then, when `data` has camera scenes, the second
    look's (second_look.calibrate_second_look)."""
    from vision.training.second_look import calibrate_second_look

    cal, stats = calibrate(clf, data.x, data.cards, data.real_x, data.real_cards, log)
    if data.camera is not None and len(data.camera.x):
        cal, second = calibrate_second_look(clf, cal, data.camera, data.real_looks, log=log)
        stats["second_look"] = second
        clf.calibration = cal
    return cal, stats


def add_data_options(ap: argparse.ArgumentParser) -> None:
    """The command-line options saying how much calibration data to make."""
    ap.add_argument("--views", type=int, default=4000)
    ap.add_argument("--scenes", type=int, default=1000)
    ap.add_argument("--camera-scenes", type=int, default=600)
    ap.add_argument("--workers", type=int, default=2)


def data_from_options(args: argparse.Namespace) -> CalibrationData:
    """`calibration_data` as the options of `add_data_options` ask."""
    return calibration_data(args.views, args.scenes, args.workers, args.camera_scenes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    add_data_options(ap)
    args = ap.parse_args(argv)
    data = data_from_options(args)
    clf = IndexClassifier.load(args.model)
    cal, stats = calibrate_all(clf, data)
    write(args.model, cal, stats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
