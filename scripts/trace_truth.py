"""Trace the scored cards the recogniser does not read right from their TRUE quads,
on rendered table scenes (development only: training and calibration decks).

    python scripts/trace_truth.py KIND SEED N [OUTDIR]     KIND: train or cal

Renders the same scenes as `vision.evaluate.evaluate_rendered(clf, decks, N, SEED,
quads="truth")` (8 cards, overlap 0.4, face down 0.1), reads them as it does
(`read_candidates` on the true quads, visible corners per `IndexRegion.visible`) and
for each scored card not read right prints one line: how many index corners are in
view, each corner's first-look rank/suit with their probabilities and the bars that
applied (single or pair, the rank bar then the suit's), what the other witnesses
say of the card on their own (second look, second opinion, pips, the zoomed cut:
zoomlook.py, the sign beside the rank: splitindex.py; "-" when the step would not
run or, for the last two, gives nothing), each corner's
index sign as the pip network scores it (club-minus-spade log-odds), whether the
card lies whole in view (pips can be counted) and its class:

- `wrong`: read as another card;
- `vetoed`: some witness gave the right card but the chain's end does not (a veto:
  pips against, ink, one corner, one of each, or the frame's suits);
- `none`: every visible corner's first look says "not an index";
- `disagree`: the visible corners name different cards;
- `wrong-top`: the corners agree on another card (rank or suit), under the bars;
- `short-rank` / `short-suit` / `short-both`: the corners' top answer is the card,
  short of the rank bar, the suit's bar, or both (prefixed `1c-` or `2c-`: one or
  two corners in view).

Each card's corner patches (first look) are saved side by side, enlarged, as
OUTDIR/{kind}{seed}_s{scene}_k{k}_{card}_{class}.png, with the card's neighbourhood
(truth green) below them. The totals line tallies the classes.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np


def corner_text(r: Any, bars: tuple[float, float]) -> str:
    """One corner's first look against the (rank, suit) bars that applied."""
    if r.rank is None:
        return f"none({r.none_prob:.2f})"
    return (f"{r.rank}{r.suit} r={r.rank_prob:.3f}/{bars[0]:.3f} "
            f"s={r.suit_prob:.3f}/{bars[1]:.3f} n={r.none_prob:.2f}")


def classify(card: str, got: str | None, firsts: list[Any], witnesses: dict[str, str]
             ) -> str:
    """The card's class (see module)."""
    if got is not None:
        return "wrong"
    if card in witnesses.values():
        return "vetoed"
    votes = [r for r in firsts if r.rank is not None]
    if not votes:
        return "none"
    if len({(r.rank, r.suit) for r in votes}) > 1:
        return "disagree"
    r = votes[0]
    if f"{r.rank}{r.suit}" != card:
        return "wrong-top"
    return ""  # short: told by the caller, which knows the bars


def main(argv: list[str]) -> int:
    from vision.evaluate import rendered_scenes, truth_candidates
    from vision.recognize import pipcheck, signsuit, splitindex, zoomlook
    from vision.recognize.classifier import IndexClassifier, combine, joint_prob
    from vision.recognize.pips import count_pips
    from vision.recognize.reader import read_candidates
    from vision.training.split import decks_named

    kind, seed, n = argv[0], int(argv[1]), int(argv[2])
    out = Path(argv[3]) if len(argv) > 3 else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    cal = clf.calibration
    decks = decks_named(kind)
    classes: Counter[str] = Counter()
    tot: Counter[str] = Counter()
    for i, (image, truth) in enumerate(rendered_scenes(decks, n, seed)):
        tc = truth_candidates(image, truth)
        read = read_candidates(clf, image, tc)
        for k, t in enumerate(truth):
            if not t.readable:
                continue
            tot["n"] += 1
            got = read[k].card
            tot["right"] += got == t.card
            tot["wrong"] += got is not None and got != t.card
            if got == t.card:
                continue
            cand = tc[k]
            ps = list(cand.index_patches or ())
            firsts = clf.classify(ps)
            votes = [r for r in firsts if r.rank is not None]
            pooled = len(votes) >= 2 and len({(r.rank, r.suit) for r in votes}) == 1
            witnesses: dict[str, str] = {}
            first = combine(firsts, cal)
            witnesses["first"] = first.card or "-"
            if clf.wants_second_look(firsts):
                look = clf.look_again(image, np.asarray(t.corners, np.float32),
                                      cand.index_visible, ps)
                witnesses["look"] = look.card or "."
            if clf.fallback is not None:
                witnesses["pair"] = clf.fallback.read([ps], [firsts])[0].card or "."
            odds = [signsuit.sign_odds(p) for p in ps]
            whole = pipcheck.whole_in_view(cand, image.shape)
            pips = pipcheck.read_by_pips(image, cand, firsts, cal)
            witnesses["pips"] = "-" if pips is None else (pips.card or ".")
            zoomed = zoomlook.read_zoomed(clf, image, [(t.corners, cand.index_visible,
                                                         firsts)])[0]
            witnesses["zoom"] = "-" if zoomed is None else zoomed.card or "."
            split = splitindex.read_split(image, t.corners, cand.index_visible, ps, firsts,
                                          cal)
            witnesses["split"] = "-" if split is None else split.card
            count = count_pips(image, cand.corners) if whole else None
            cls = classify(t.card, got, firsts, witnesses)
            if not cls:
                r = votes[0]
                rank_p = joint_prob([v.rank_prob for v in votes]) if pooled else r.rank_prob
                suit_p = joint_prob([v.suit_prob for v in votes]) if pooled else r.suit_prob
                short_r = rank_p < (cal.min_prob_pair if pooled else cal.min_prob)
                short_s = suit_p < cal.suit_bar(r.suit, pooled)
                short_n = min(v.none_prob for v in votes) > cal.max_none
                cls = ("short-both" if short_r and short_s else "short-rank" if short_r
                       else "short-suit" if short_s else "short-none" if short_n
                       else "short-other")
                cls = f"{len(votes)}c-{cls}"
            classes[cls] += 1
            bars = [(cal.min_prob_pair if pooled else cal.min_prob,
                     cal.suit_bar(r.suit, pooled) if r.suit else 0.0) for r in firsts]
            wit = " ".join(f"{k2}={v}" for k2, v in witnesses.items())
            print(f"{cls:16s} s{i} k{k} {t.card:3s} {t.deck:26s} corners={len(ps)} "
                  f"vis={t.visible_fraction:.2f} whole={int(whole)} "
                  f"pips={count.count if count else '-'}"
                  f"{'' if not count else (count.suit or ('r' if count.red else 'b'))} "
                  f"got={got} {wit} | "
                  + " | ".join(corner_text(r, b) + ("" if z is None else f" sign={z:+.1f}")
                               for r, b, z in zip(firsts, bars, odds)), flush=True)
            if out:
                _save(out / f"{kind}{seed}_s{i}_k{k}_{t.card}_{cls}.png", image, t, ps)
    print(f"{kind}:{seed}:{n} truth: right {tot['right']}/{tot['n']} wrong {tot['wrong']}; "
          + ", ".join(f"{c} {v}" for c, v in classes.most_common()))
    return 0


def _save(path: Path, image: np.ndarray, t: Any, patches: list[np.ndarray]) -> None:
    """The corner patches (x4) side by side over the card's neighbourhood."""
    q = np.asarray(t.corners, np.float32)
    x0, y0 = np.maximum(q.min(0) - 30, 0).astype(int)
    x1, y1 = (q.max(0) + 30).astype(int)
    im = image.copy()
    cv2.polylines(im, [q.astype(np.int32)], True, (0, 255, 0), 2)
    crop = im[y0:y1, x0:x1]
    big = [cv2.resize(p, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST) for p in patches]
    top = np.hstack(big) if big else np.zeros((256, 128, 3), np.uint8)
    w = max(top.shape[1], crop.shape[1])
    pad = [cv2.copyMakeBorder(a, 0, 0, 0, w - a.shape[1], cv2.BORDER_CONSTANT)
           for a in (top, crop)]
    cv2.imwrite(str(path), np.vstack(pad))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
