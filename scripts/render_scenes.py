#!/usr/bin/env python3
"""Render random table scenes with their ground truth, to look at or to feed tools.

    python scripts/render_scenes.py OUT_DIR [--n 20] [--seed 0] [--cards 8] [--decks french]
        [--overlap 0.3] [--face-down 0.1] [--effects 1.0] [--size 1280x720] [--debug]

Writes OUT_DIR/scene-0000.jpg ... and OUT_DIR/truth.jsonl (one line per image:
file, deck, and per card: card, face_down, corners, visible_fraction, index regions).
`--debug` also writes scene-0000-debug.png with the truth drawn on. Prints the median
render time (the renderer must stay fast: training draws thousands).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.cardart import Pattern, list_decks
from vision.scene import CardTruth, SceneRenderer, random_scene_spec


def truth_json(t: CardTruth) -> dict[str, object]:
    return {"card": t.card, "face_down": t.face_down, "deck": t.deck,
            "corners": [[round(x, 2), round(y, 2)] for x, y in t.corners],
            "visible_fraction": t.visible_fraction,
            "index_regions": [{"quad": [[round(x, 2), round(y, 2)] for x, y in r.quad],
                               "visible_fraction": r.visible_fraction}
                              for r in t.index_regions]}


def draw_truth(img: np.ndarray, truth: list[CardTruth]) -> np.ndarray:
    out = img.copy()
    for t in truth:
        q = np.round(np.array(t.corners)).astype(np.int32)
        cv2.polylines(out, [q], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in q[0]), 6, (255, 0, 255), -1)
        for r in t.index_regions:
            colour = (0, 220, 0) if r.visible else (0, 0, 200)
            cv2.polylines(out, [np.round(np.array(r.quad)).astype(np.int32)], True, colour, 1)
        label = f"{t.card or 'back'} {t.visible_fraction:.2f}"
        cx, cy = (int(v) for v in t.center)
        cv2.putText(out, label, (cx - 30, cy), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3)
        cv2.putText(out, label, (cx - 30, cy), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 0), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cards", type=int, default=8)
    ap.add_argument("--decks", default="french",
                    help="a pattern (french, russian, ...) or comma-separated deck names")
    ap.add_argument("--overlap", type=float, default=0.3)
    ap.add_argument("--face-down", type=float, default=0.1)
    ap.add_argument("--effects", type=float, default=1.0)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--debug", action="store_true")
    args = ap.parse_args(argv)
    if args.decks in {p.value for p in Pattern}:
        decks = [d.name for d in list_decks(args.decks)]
    else:
        decks = args.decks.split(",")
    if not decks:
        print("no card decks installed: bash scripts/system-deps.sh", file=sys.stderr)
        return 1
    w, h = (int(v) for v in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    renderer = SceneRenderer()
    times = []
    with open(args.out / "truth.jsonl", "w", encoding="utf-8") as log:
        for i in range(args.n):
            spec = random_scene_spec(rng, decks, args.cards, overlap=args.overlap,
                                     face_down=args.face_down, effects=args.effects, size=(w, h))
            t0 = time.perf_counter()
            img, truth = renderer.render(spec, rng)
            times.append(time.perf_counter() - t0)
            name = f"scene-{i:04d}.jpg"
            cv2.imwrite(str(args.out / name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
            if args.debug:
                cv2.imwrite(str(args.out / f"scene-{i:04d}-debug.png"), draw_truth(img, truth))
            log.write(json.dumps({"file": name, "table": spec.table.value,
                                  "cards": [truth_json(t) for t in truth]}) + "\n")
    warm = times[1:] or times
    print(f"{args.n} scenes of {args.cards} cards at {w}x{h} in {args.out}: "
          f"median {statistics.median(warm) * 1000:.0f} ms per scene (first, with cold art "
          f"caches: {times[0] * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
