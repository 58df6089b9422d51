"""Trace the cards under a book or a board that the stills chain misses on rendered
phone-like photos (development only: training decks).

    python scripts/trace_blocked.py SEED N [OUTDIR]

Renders the same photos as `vision.evaluate_photos.evaluate_photos(clf,
training_decks(), N, SEED)` (resize share and block chance at their defaults, rng
`[SEED, i]` per photo), reads only the photos with a block, and for every scored card
of them not read right prints one line with the cause:

- `outlined`: a raw detector outline holds the card (IoU >= 0.5) or its index;
- `part`: a raw outline lies on the card (ON_CARD of it) but shows no index;
- `refused`: no outline, a glyph-pip mark at the card's visible index, refused by
  both paper tests (indexfind_marks.on_paper, indexfind_blocked.on_paper_blocked);
  `refused-agree` when such a mark read at its own size (indexown) or at the raw
  outlines' frame card height (indexsize) agrees surely on the true card (a later
  step's rule or filter lost it), `refused-near` when those reads name only the
  true card but short of the bars (each mark's reads noted, `!` where they agree);
- `unsure`: a mark passed a paper test but its reads did not agree;
- `dropped`: a mark read its card but find_by_index's filters dropped it;
- `nomark`: no outline, no mark.

Each card's neighbourhood is saved as OUTDIR/p{photo}_{card}_{cause}.png: truth
green, raw outlines red, final candidates blue, marks as yellow (passed) or magenta
(refused) dots.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np


def main(argv: list[str]) -> int:
    from vision.detect import detect_cards
    from vision.evaluate_photos import PhotoReport, _index_shown, match_photo, outcome, score_photo
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.indexfind import SIZE_TRIES, agree, frame_card_size
    from vision.recognize.indexfind_blocked import on_paper_blocked
    from vision.recognize.indexfind_marks import card_quad, index_marks, on_paper
    from vision.recognize.indexsize import frame_height
    from vision.recognize.memo import ReadingMemo
    from vision.recognize.overlap import quad_iou
    from vision.recognize.patch import extract_index_patches
    from vision.recognize.reader import _still_candidates, read_candidates, without_doubles
    from vision.recognize.readings import combine
    from vision.scene.photos import random_photo_spec, render_photo
    from vision.scene.render import SceneRenderer
    from vision.training.split import training_decks
    from vision.types import CardSighting

    seed, n = int(argv[0]), int(argv[1])
    out = Path(argv[2]) if len(argv) > 2 else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    names = [d.name for d in training_decks()]
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    causes: Counter[str] = Counter()
    rep = PhotoReport()
    for i in range(n):
        spec = random_photo_spec(rng, names)
        if not spec.occluded:
            continue
        image, truth = render_photo(spec, np.random.default_rng([seed, i]), renderer)
        raw = detect_cards(image)
        memo = ReadingMemo(clf)
        final = _still_candidates(memo, image, lambda im, r=raw, i0=image: (
            list(r) if im is i0 else detect_cards(im)))  # (unsqueeze: a second look)
        sightings = without_doubles(read_candidates(clf, image, final))
        score_photo(rep, truth, sightings, photo=i, layout=spec.layout, occluded=True,
                    resized=spec.resized)
        match = match_photo(truth, sightings)
        marks = index_marks(image)
        rs = read_candidates(clf, image, raw)
        height = frame_height(frame_card_size(
            [np.asarray(c.corners, np.float32).reshape(4, 2) for c, r in zip(raw, rs)
             if r.card and all(getattr(c, "index_visible", (True, True)))]))
        for t, j in zip(truth, match):
            if not t.readable or t.face_down:
                continue
            s = sightings[j] if j is not None else None
            what = outcome(t.card, s)
            if what in ("right", "rank", "suit"):
                continue
            raw_s = [CardSighting(corners=tuple(map(tuple, np.asarray(c.corners).reshape(4, 2))),
                                  card=None) for c in raw]
            iou = max((quad_iou(t.corners, c.corners) for c in raw), default=0.0)
            shown = max((_index_shown(t, rs) for rs in raw_s), default=0.0)
            card = cv2.convexHull(np.asarray(t.corners, np.float32).reshape(4, 2))
            on = 0.0
            for c in raw:
                q = cv2.convexHull(np.asarray(c.corners, np.float32).reshape(4, 2))
                a = max(float(cv2.contourArea(q)), 1e-6)
                on = max(on, cv2.intersectConvexConvex(q, card)[0] / a
                         * min(1.0, a / max(float(cv2.contourArea(card)), 1e-6)))
            near = []
            for m in marks:
                for r in t.index_regions:
                    if not r.visible:
                        continue
                    rq = np.asarray(r.quad, np.float32).reshape(4, 2)
                    if cv2.pointPolygonTest(rq.reshape(-1, 1, 2), m.middle, True) >= -2:
                        near.append(m)
            mark_note = ""
            passed = []
            refused: list[str] = []
            for m in near:
                p1 = on_paper(image, m)
                p2 = None if p1 else on_paper_blocked(image, m)
                p = p1 or p2
                if p is None:
                    how = _refused_reads(clf, image, m, height, t.card)
                    mark_note += f" m:refused{how[1]}"
                    refused.append(how[0])
                    continue
                quads = [card_quad(p, k) for k in SIZE_TRIES]
                reads = clf.classify([extract_index_patches(image, q)[0] for q in quads])
                ok = agree(reads, clf.calibration)
                v = combine([max(reads, key=lambda r: r.confidence)], clf.calibration)
                mark_note += (f" m:{'paper' if p1 else 'blocked'}:"
                              + ",".join(f"{r.rank}{r.suit}{r.confidence:.2f}" for r in reads)
                              + (":agree" if ok else "") + f"->{v.card}")
                passed.append((p, ok))
            if iou >= 0.5 or shown >= 0.5:
                cause = "outlined"
            elif passed and any(ok for _, ok in passed):
                cause = "dropped"
            elif passed:
                cause = "unsure"
            elif "agree" in refused:
                cause = "refused-agree"
            elif "near" in refused:
                cause = "refused-near"
            elif near:
                cause = "refused"
            elif on >= 0.3:
                cause = "part"
            else:
                cause = "nomark"
            causes[cause] += 1
            occ = [d for d in spec.scene.distractors if d.over_cards]
            tex = occ[0].texture if occ else "?"
            col = occ[0].colour if occ else "?"
            print(f"p{i} {t.card} {t.deck} {what} cause={cause} vis={t.visible_fraction:.2f} "
                  f"iou={iou:.2f} shown={shown:.2f} on={on:.2f} block={tex or 'plain'}{col} "
                  f"table={spec.scene.table.name} size={image.shape[1]}x{image.shape[0]} "
                  f"got={s.card if s else None}/{s.rank if s else None}{mark_note}", flush=True)
            if out:
                _save(out / f"p{i}_{t.card}_{cause}.png", image, t, raw, final, near,
                      [p for p, _ in passed])
    c = rep.outcomes()
    right = c["right"] + c["rank"] + c["suit"]
    print(f"blocked photos: rank right {right}/{sum(c.values())} wrong {c['wrong']} "
          f"phantoms {rep.phantoms}; causes {dict(causes)}")
    return 0


def _refused_reads(clf, image: np.ndarray, m, height: float | None,
                   truth: str) -> tuple[str, str]:
    """A mark both paper tests refused, read as indexfind's later steps would: at
    its own size (indexown) and at the frame's card height (indexsize, when the
    raw outlines' read cards tell one). Returns ("agree" when some size's tries
    agree on the true card, "near" when they name it but short of the bars, else
    ""), and a note of the reads."""
    from vision.recognize.indexfind import SIZE_TRIES, agree
    from vision.recognize.indexfind_marks import card_quad
    from vision.recognize.indexsize import FRAME_TRIES, frame_quad
    from vision.recognize.patch import extract_index_patches

    tries = {"own": [card_quad(m, k) for k in SIZE_TRIES]}
    if height is not None:
        tries["frame"] = [frame_quad(m, k * height) for k in FRAME_TRIES]
    verdict, note = "", ""
    for name, quads in tries.items():
        reads = clf.classify([extract_index_patches(image, q)[0] for q in quads])
        named = {f"{r.rank}{r.suit}" for r in reads if r.rank is not None}
        ok = agree(reads, clf.calibration)
        if named == {truth}:
            verdict = "agree" if ok else (verdict or "near")
        note += (f":{name}=" + ",".join(f"{r.rank}{r.suit}{r.confidence:.3f}" for r in reads)
                 + ("!" if ok else ""))
    return verdict, note


def _save(path: Path, image: np.ndarray, t, raw, final, marks, passed) -> None:
    """The card's neighbourhood, drawn on (see module)."""
    vis = image.copy()
    for c in raw:
        cv2.polylines(vis, [np.asarray(c.corners, np.int32).reshape(-1, 1, 2)], True,
                      (0, 0, 255), 1)
    for c in final:
        cv2.polylines(vis, [np.asarray(c.corners, np.int32).reshape(-1, 1, 2)], True,
                      (255, 0, 0), 1)
    cv2.polylines(vis, [np.asarray(t.corners, np.int32).reshape(-1, 1, 2)], True,
                  (0, 255, 0), 1)
    for m in marks:
        good = any(p.middle == m.middle for p in passed)
        cv2.circle(vis, (round(m.middle[0]), round(m.middle[1])), 3,
                   (0, 255, 255) if good else (255, 0, 255), -1)
    q = np.asarray(t.corners, np.float32).reshape(4, 2)
    lo, hi = q.min(axis=0), q.max(axis=0)
    pad = 0.3 * (hi - lo)
    x0, y0 = np.maximum(0, (lo - pad).astype(int))
    x1, y1 = (hi + pad).astype(int)
    crop = np.hstack([image[y0:y1, x0:x1], vis[y0:y1, x0:x1]])
    if crop.shape[0] < 300:
        k = 300 / crop.shape[0]
        crop = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(path), crop)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
