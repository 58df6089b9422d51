"""Trace the cards the recogniser reads from their true quads but the stills chain
does not, on rendered table scenes (development only: training and calibration decks).

    python scripts/trace_chain.py KIND SEED N [OUTDIR]     KIND: train or cal

Renders the same scenes as `vision.evaluate.evaluate_rendered(clf, decks, N, SEED,
quads=...)` (8 cards, overlap 0.4, face down 0.1), reads each from its true quads and
through the stills chain (`reader._still_candidates`, then `read_candidates` and
`without_doubles`, as `quads="detect"`), and for each scored card read right from its
true quad but not by the chain prints one line with its cause:

- `wrong`: the chain read it as another card;
- `dropped`: a step's candidate on the card (IoU >= ON_CARD) read it right when that
  step's list was read, but the chain's end does not give it (the step named is the
  first that had it);
- `unread`: a final candidate cuts the card's visible index (INDEX_IOU of the index
  regions) but reads nothing;
- `off`: a final candidate lies on the card (IoU >= NEAR) but its index regions miss
  the visible index;
- `union`: a raw outline holds this card and another, nothing on the card alone;
- `never`: no outline near the card.

A `union` or `never` card's line ends with its fate in the detector's first look
(`detector_fate`): `never proposed` (the best IoU of any quad it scored), `scored
but not in choose's pool` (dropped before choose: low support, printed, tiny), or the
pool's quad on the card (IoU >= ON_POOL) with its support, weakest side, polarity
agreement (choose's bar 0.5) and overshoot, and the step that dropped it
(drop_unions, drop_inner, a seam in view, table_like, looks_blank, drop_nested,
drop_small; `choose's figures or a clash` when none of these spoke). Why: the
truth quad's own figures mislead (a pixel off the border, its polarity flips on
light cloth), and a card never proposed needs a proposal, not a looser test.

Each card's neighbourhood is saved as OUTDIR/{kind}{seed}_s{scene}_k{k}_{card}_{cause}.png:
truth green, raw outlines red, final candidates blue, the nearest final candidate's
index regions yellow. The totals line gives the chain's right / wrong / phantoms as
evaluate_rendered counts them.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

#: A step's candidate is "on" the card from this IoU with the true quad.
ON_CARD = 0.5
#: ... near it (an outline off the card) from this IoU.
NEAR = 0.3
#: A quad of the detector's pool is the card's from this IoU (detector_fate).
ON_POOL = 0.8
#: A candidate cuts the card's index when one of its index regions overlaps a visible
#: true index region by this IoU.
INDEX_IOU = 0.6


def index_iou(truth: Any, corners: Any) -> float:
    """Best IoU of one of `corners`' index regions with a visible true index region."""
    from vision.recognize.overlap import quad_iou
    from vision.recognize.patch import index_quads

    mine = index_quads(corners)
    return max((quad_iou(r.quad, q) for r in truth.index_regions if r.visible for q in mine),
               default=0.0)


def holds_two(truth: list[Any], k: int, corners: Any) -> bool:
    """Does `corners` hold most of card k and of another card, without being card k?"""
    from vision.recognize.overlap import quad_iou

    def share(a: Any) -> float:
        a = np.asarray(a, np.float32).reshape(4, 2)
        b = np.asarray(corners, np.float32).reshape(4, 2)
        return cv2.intersectConvexConvex(a, b)[0] / max(float(cv2.contourArea(a)), 1e-6)

    return (share(truth[k].corners) > 0.6 and quad_iou(truth[k].corners, corners) < ON_CARD
            and any(share(o.corners) > 0.5 for m, o in enumerate(truth) if m != k))


def shape_facts(truth: list[Any], k: int, corners: Any) -> str:
    """For an `off` card, what sorts it into a kind: the true card's and the nearest
    outline's long-over-short side (near-square under AMBIGUOUS_ASPECT: a wrong
    diagonal), the outline's area over the card's (about 1 and near-square: the
    wrong diagonal; much more: it holds another card too; less: a part of the card,
    its own printed frame or its visible part), the share of the outline on the
    card (low: it runs onto another card or the table) and of the card in it."""
    from vision.recognize.patch import mean_aspect

    q = np.asarray(corners, np.float32).reshape(4, 2)
    t = np.asarray(truth[k].corners, np.float32).reshape(4, 2)
    aq, at = float(cv2.contourArea(q)), float(cv2.contourArea(t))
    inter = float(cv2.intersectConvexConvex(q, t)[0])
    return (f" | card {mean_aspect(t):.2f} outline {mean_aspect(q):.2f} "
            f"area {aq / max(at, 1e-6):.2f} on {inter / max(aq, 1e-6):.2f} "
            f"holds {inter / max(at, 1e-6):.2f}")


def detector_fate(image: np.ndarray, corners: Any) -> str:
    """What became of the card with these (image) corners in detect_cards' first
    look: see the module docstring. Spies on select.choose and the tests it calls
    (restored on return)."""
    from unittest import mock

    from vision.detect import detect_cards, prune, select
    from vision.detect import geometry as g
    from vision.detect.evidence import gather
    from vision.detect.outline import outline_flags, overshoot, polarity
    from vision.detect.seams import SeamCache

    tq = g.order_quads(np.asarray(corners, np.float32)[None] * gather(image).scale)[0]
    seen: dict[str, Any] = {"scored": [], "drops": []}

    def first() -> bool:
        return "pool" not in seen

    def mine(q: Any) -> bool:
        return g.iou(np.asarray(q, np.float32), tq) >= ON_POOL

    def spy(name: str, orig: Any, quad_at: Any) -> Any:
        def call(*a: Any, **kw: Any) -> Any:
            out = orig(*a, **kw)
            if first() and out is True and mine(quad_at(a)):
                seen["drops"].append(name)
            return out
        return call

    def spy_list(name: str, orig: Any, at: int) -> Any:
        def call(*a: Any, **kw: Any) -> Any:
            out = orig(*a, **kw)
            if first() and any(mine(h.quad) for h in a[at]) and not any(mine(h.quad) for h in out):
                seen["drops"].append(name)
            return out
        return call

    o_choose, o_score = select.choose, select.score_many
    o_view = SeamCache.in_view

    def choose(ev: Any, hyps: Any, **kw: Any) -> Any:
        out = o_choose(ev, hyps, **kw)
        if first():
            seen.update(pool=hyps, ev=ev, chosen=out)
        return out

    def score_many(ev: Any, quads: Any) -> Any:
        out = o_score(ev, quads)
        if first():
            seen["scored"].extend(out)
        return out

    def in_view(self: Any, i: int, *a: Any, **kw: Any) -> bool:
        out = o_view(self, i, *a, **kw)
        if first() and out and mine(self.quads[i]):
            seen["drops"].append("seam")
        return out

    with mock.patch.object(select, "choose", choose), \
            mock.patch.object(select, "score_many", score_many), \
            mock.patch.object(SeamCache, "in_view", in_view), \
            mock.patch.object(select, "table_like", spy("table_like", select.table_like, lambda a: a[1])), \
            mock.patch.object(select, "looks_blank", spy("looks_blank", select.looks_blank, lambda a: a[1])), \
            mock.patch.object(prune, "drop_unions", spy_list("drop_unions", prune.drop_unions, 1)), \
            mock.patch.object(prune, "drop_inner", spy_list("drop_inner", prune.drop_inner, 1)), \
            mock.patch.object(prune, "drop_nested", spy_list("drop_nested", prune.drop_nested, 0)), \
            mock.patch.object(prune, "drop_small", spy_list("drop_small", prune.drop_small, 0)):
        detect_cards(image)
    pool = [h for h in seen.get("pool", []) if mine(h.quad)]
    if not pool:
        best = max(seen["scored"], key=lambda h: g.iou(h.quad, tq), default=None)
        iou = g.iou(best.quad, tq) if best is not None else 0.0
        if iou < ON_POOL or best is None:
            return f"never proposed (best scored {iou:.2f})"
        return f"scored (IoU {iou:.2f}, sup {best.support:.2f}) but not in choose's pool"
    h = max(pool, key=lambda h: h.support)
    ev, q = seen["ev"], h.quad[None]
    pol = polarity(ev, q, where=outline_flags(ev, q))
    agree = abs(int(pol.sum())) / max(int((pol != 0).sum()), 1)
    figs = (f"pool sup {h.support:.2f} side {h.side_min:.2f} agree {agree:.2f} "
            f"over {float(overshoot(ev, q)[0]):.2f}")
    if any(mine(c.quad) for c in seen["chosen"]):
        return f"{figs}: chosen (lost after choose)"
    why = ", ".join(dict.fromkeys(seen["drops"])) or "choose's figures or a clash"
    return f"{figs}: dropped by {why}"


def main(argv: list[str]) -> int:
    from vision.detect import detect_cards
    from vision.evaluate import match_rendered, rendered_scenes, truth_candidates
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.indexfind import find_by_index
    from vision.recognize.memo import ReadingMemo
    from vision.recognize.oneplace import refuse_clashes
    from vision.recognize.overlap import quad_iou
    from vision.recognize.paperedge import find_paper_edges
    from vision.recognize.partgrow import find_grown_parts
    from vision.recognize.partial import find_partial
    from vision.recognize.patch import index_quads
    from vision.recognize.reader import read_candidates, without_doubles
    from vision.recognize.strips import find_strips
    from vision.recognize.topend import find_top_ends
    from vision.recognize.unions import split_unions
    from vision.training.split import decks_named

    kind, seed, n = argv[0], int(argv[1]), int(argv[2])
    out = Path(argv[3]) if len(argv) > 3 else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    decks = decks_named(kind)
    causes: Counter[str] = Counter()
    tot = Counter()
    for i, (image, truth) in enumerate(rendered_scenes(decks, n, seed)):
        tc = truth_candidates(image, truth)
        tread = read_candidates(clf, image, tc)
        memo = ReadingMemo(clf)
        raw = detect_cards(image)
        stages: dict[str, list[Any]] = {"raw": raw}
        stages["unions"] = split_unions(memo, image, raw)
        stages["strips"] = find_strips(memo, image, stages["unions"])
        stages["indexfind"] = find_by_index(memo, image, stages["strips"])
        stages["clash"] = refuse_clashes(memo, image, stages["indexfind"], stages["unions"])
        stages["partial"] = find_partial(memo, image, stages["clash"])
        stages["topend"] = find_top_ends(memo, image, stages["partial"])
        stages["paperedge"] = find_paper_edges(memo, image, stages["topend"])
        final = stages["partgrow"] = find_grown_parts(memo, image, stages["paperedge"])
        reads = {k: read_candidates(memo, image, v) for k, v in stages.items()}
        read = without_doubles(read_candidates(clf, image, final))
        match = match_rendered(truth, read)
        tot["phantoms"] += sum(1 for j, s in enumerate(read) if j not in match and s.card)
        for k, t in enumerate(truth):
            if t.face_down or not any(r.visible for r in t.index_regions):
                continue
            j = match[k]
            got = read[j].card if j is not None else None
            tot["n"] += 1
            tot["truth_right"] += tread[k].card == t.card
            tot["right"] += got == t.card
            tot["wrong"] += got is not None and got != t.card
            if got == t.card or (tread[k].card != t.card and got is None):
                continue
            on_iou = [quad_iou(t.corners, c.corners) for c in final]
            near = int(np.argmax(on_iou)) if on_iou else None
            first = next((name for name, cs in stages.items()
                          for c, s in zip(cs, reads[name])
                          if s.card == t.card and quad_iou(t.corners, c.corners) >= ON_CARD),
                         None)
            idx = max((index_iou(t, c.corners) for c in final), default=0.0)
            if got is not None:
                cause = "wrong"
            elif first is not None:
                cause = f"dropped@{first}"
            elif idx >= INDEX_IOU:
                cause = "unread"
            elif on_iou and max(on_iou) >= NEAR:
                cause = "off"
            elif any(holds_two(truth, k, c.corners) for c in raw):
                cause = "union"
            else:
                cause = "never"
            causes[cause.split("@")[0]] += 1
            best = {name: max((quad_iou(t.corners, c.corners) for c in cs), default=0.0)
                    for name, cs in stages.items()}
            shape = (shape_facts(truth, k, final[near].corners)
                     if near is not None and cause == "off" else "")
            if cause in ("union", "never"):
                shape = f" | {detector_fate(image, t.corners)}"
            print(f"{cause:18s} s{i} k{k} {t.card:3s} {t.deck:24s} vis={t.visible_fraction:.2f} "
                  f"idx={idx:.2f} got={got} "
                  + " ".join(f"{name}={v:.2f}" for name, v in best.items()) + shape,
                  flush=True)
            if out:
                q = np.asarray(t.corners, np.float32)
                x0, y0 = np.maximum(q.min(0) - 60, 0).astype(int)
                x1, y1 = (q.max(0) + 60).astype(int)
                im = image.copy()
                for c in raw:
                    cv2.polylines(im, [np.asarray(c.corners, np.int32).reshape(4, 2)], True,
                                  (0, 0, 255), 1)
                for c in final:
                    cv2.polylines(im, [np.asarray(c.corners, np.int32).reshape(4, 2)], True,
                                  (255, 0, 0), 1)
                cv2.polylines(im, [q.astype(np.int32)], True, (0, 255, 0), 2)
                if near is not None:
                    for r in index_quads(final[near].corners):
                        cv2.polylines(im, [np.asarray(r, np.int32)], True, (0, 255, 255), 1)
                cv2.imwrite(str(out / f"{kind}{seed}_s{i}_k{k}_{t.card}_{cause}.png"),
                            im[y0:y1, x0:x1])
    print(f"{kind}:{seed}:{n}: right {tot['right']}/{tot['n']} wrong {tot['wrong']} "
          f"phantoms {tot['phantoms']} (true quads {tot['truth_right']}); "
          + ", ".join(f"{c} {v}" for c, v in causes.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
