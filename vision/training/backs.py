"""Patches labelled "not an index", cut from card backs as a loose outline cuts them.

Why: a back that prints card faces (kde/nicu-white and kde/nicu-ornamental print a
fan of four aces; gnome/ornamental prints four big suit signs) shows real-looking
indices and pips inside its body. synth.py labels a back's two corners and random
places on its body "none", but rarely on a printed index, and only from a quad near
the true one. The detector, though, sometimes outlines a face-down card loosely (IoU
~0.5) or outlines a printed card of the fan, and then an index patch falls on a
printed A♦: the fine-tuned network of session 12 read that as AD at 0.9998
(vision/recognize/README.md, "Fine-tuning the first network").

So each view here puts a training deck's back (FACE_BACKS most of the time) under
synth.py's camera (table, light, blur, noise, JPEG) and cuts CANDIDATES loose quads
round it: the back's own outline scaled, shifted and turned (LOOSE), or a small
card-shaped quad anywhere on the body (PRINTED: what outlines a printed card). Of
their patches it keeps the KEEP_HARD the starting network finds most index-like
(where it was fooled) and KEEP_RANDOM others; all are labelled "none".
With `loose_only` (session 14's idea A) a view cuts only LOOSE quads and keeps
KEEP_HARD + KEEP_RANDOM of them at random, no network asked: the mined PRINTED cuts
put a real-looking index in the index box, and teaching "none" there cost detected
cards (README, "Backs that print faces").

Only training decks' backs are used (split.training_decks): held-out and calibration
decks' art never. Deterministic for a seed and a starting network.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches, index_quads
from vision.training.synth import (
    NONE_RANK,
    NONE_SUIT,
    CardArt,
    _card_quad,
    _composite,
    _photometric,
    _poly_fraction,
    background,
    load_backs,
)

#: Training decks whose backs print card faces or pips (seen on their rendered backs).
#: `python -m vision.training.backs` prints how index-like a network finds each; the
#: committed one (2026-11-30, 10 views a back): cuts above 0.5 only on nicu-white
#: (0.68%, max 0.96) and nicu-ornamental (0.23%, max 0.84), none on the 26 others.
FACE_BACKS: tuple[str, ...] = ("kde/nicu-white", "kde/nicu-ornamental", "gnome/ornamental")
#: Share of views showing one of FACE_BACKS (the rest: any training deck's back).
FACE_SHARE = 0.7
#: Loose quads cut per view, half LOOSE, half PRINTED (two patches each).
CANDIDATES = 24
#: Patches kept per view: the most index-like to the starting network, and random.
KEEP_HARD = 2
KEEP_RANDOM = 1
#: Views per worker job.
_CHUNK = 250
SEED = 20261130


def _loose_quad(rng: np.random.Generator, quad: np.ndarray, h_img: float) -> np.ndarray:
    """The back's outline as a loose detector gets it: each axis scaled 0.6-1.15,
    shifted, turned a few degrees, corners jittered (IoU with the truth ~0.4-0.8)."""
    c = quad.mean(axis=0)
    u, v = quad[1] - quad[0], quad[3] - quad[0]
    su, sv = rng.uniform(0.6, 1.15, 2)
    shift = rng.normal(0, 0.12, 2)
    rel = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)
    q = c + (rel[:, :1] * su + shift[0]) * u + (rel[:, 1:] * sv + shift[1]) * v
    a = np.deg2rad(rng.normal(0, 6))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    q = c + (q - c) @ rot.T
    return (q + rng.normal(0, 0.03 * h_img, (4, 2))).astype(np.float32)


def _printed_quad(rng: np.random.Generator, quad: np.ndarray, h_img: float,
                  angle: float) -> np.ndarray:
    """A card-shaped quad 0.3-0.75 of the back's height anywhere on its body, turned
    up to 40° from it: how an outline of one printed card of a fan lies."""
    fu, fv = rng.uniform(0.15, 0.85, 2)
    centre = quad[0] + fu * (quad[1] - quad[0]) + fv * (quad[3] - quad[0])
    h = h_img * rng.uniform(0.3, 0.75)
    return _card_quad(rng, centre.astype(np.float32), h, rng.uniform(0.62, 0.75),
                      angle + np.deg2rad(rng.uniform(-40, 40)) + np.pi * rng.integers(2),
                      0.02)


def view_candidates(rng: np.random.Generator, back: CardArt, n: int = CANDIDATES,
                    loose_only: bool = False) -> list[np.ndarray]:
    """One camera view of `back` and the index patches of `n` loose quads round it
    (those whose index box lies at least 30% on the back); half of them round a
    printed card (PRINTED) unless `loose_only`."""
    art = back.image
    h0, w0 = art.shape[:2]
    h_img = float(np.exp(rng.uniform(np.log(55), np.log(200))))
    aspect = (w0 / h0) * float(np.clip(np.exp(rng.normal(0, 0.09)), 0.78, 1.28))
    size = int(h_img * 1.45) + 8
    canvas = background(rng, size, size)
    angle = float(rng.uniform(0, 2 * np.pi))
    centre = np.array([size / 2, size / 2], np.float32) + rng.normal(0, 3, 2)
    quad = _card_quad(rng, centre.astype(np.float32), h_img, aspect, angle, 0.03)
    src = np.array([[0, 0], [w0, 0], [w0, h0], [0, h0]], np.float32)
    alpha = _composite(canvas, art, cv2.getPerspectiveTransform(src, quad))
    img = _photometric(rng, canvas)
    out = []
    for k in range(n):
        q = _loose_quad(rng, quad, h_img) if loose_only or k % 2 == 0 else \
            _printed_quad(rng, quad, h_img, angle)
        for patch, iq in zip(extract_index_patches(img, q), index_quads(q)):
            if _poly_fraction(alpha, iq) >= 0.3:
                out.append(patch)
    return out


def index_likeness(rank_p: np.ndarray, suit_p: np.ndarray) -> np.ndarray:
    """How much a patch looks like an index to a network: its best rank probability
    times its best suit probability, "none" left out."""
    return rank_p[:, :NONE_RANK].max(axis=1) * suit_p[:, :NONE_SUIT].max(axis=1)


def _chunk(args: tuple[str, int, int, bool]) -> np.ndarray:
    """Worker: `n` views with seed (SEED, index), scored by the network at `model`
    (`loose_only`: loose quads only, kept at random, no network)."""
    model, index, n, loose_only = args
    cv2.setNumThreads(1)
    from vision.recognize.classifier import IndexClassifier
    from vision.training import split

    clf = None if loose_only else IndexClassifier.load(model)
    rng = np.random.default_rng([SEED, index])
    backs = load_backs(split.training_decks())
    face = [b for b in backs if b.deck in FACE_BACKS]
    kept: list[np.ndarray] = []
    for _ in range(n):
        pool = face if face and rng.random() < FACE_SHARE else backs
        patches = view_candidates(rng, pool[int(rng.integers(len(pool)))],
                                  loose_only=loose_only)
        if not patches:
            continue
        if clf is None:
            keep = min(KEEP_HARD + KEEP_RANDOM, len(patches))
            kept += [patches[i] for i in rng.choice(len(patches), keep, replace=False)]
            continue
        pr, ps, _ = clf.forward(patches)
        order = np.argsort(-index_likeness(pr, ps))
        pick = list(order[:KEEP_HARD])
        rest = order[KEEP_HARD:]
        if len(rest):
            pick += list(rng.choice(rest, min(KEEP_RANDOM, len(rest)), replace=False))
        kept += [patches[i] for i in pick]
    return np.stack(kept) if kept else np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8)


def back_patches(model: Path, views: int, workers: int = 2, start: int = 0,
                 loose_only: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`views` views' kept patches (see module), labelled "none": (x, r, s) as
    train.synthesise gives. Cached under $CARDTABLE_CACHE/training, keyed by this
    source, the starting network's bytes (unless `loose_only`) and the training backs."""
    from vision.cardart import cache_dir
    from vision.training import split

    key = json.dumps([SEED, views, start, _CHUNK, [d.name for d in split.training_decks()],
                      Path(__file__).read_text(), loose_only,
                      "" if loose_only else hashlib.sha1(Path(model).read_bytes()).hexdigest()])
    path = cache_dir().parent / "training" / (
        f"backs-{'loose-' if loose_only else ''}{views}-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz")
    if path.is_file():
        with np.load(path) as z:
            x = z["x"]
    else:
        jobs = [(str(model), start + i, min(_CHUNK, views - i * _CHUNK), loose_only)
                for i in range((views + _CHUNK - 1) // _CHUNK)]
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            x = np.concatenate(list(pool.map(_chunk, jobs)))
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x)
    n = len(x)
    return x, np.full(n, NONE_RANK, np.int64), np.full(n, NONE_SUIT, np.int64)


def score_backs(model: Path, views: int = 40, seed: int = 0) -> list[tuple[str, float, float]]:
    """Per training back: (deck, share of loose-quad patches the network at `model`
    finds index-like above 0.5, the largest index-likeness seen). Says which backs
    print what the network takes for an index."""
    from vision.recognize.classifier import IndexClassifier
    from vision.training import split

    clf = IndexClassifier.load(model)
    rng = np.random.default_rng(seed)
    out = []
    for back in load_backs(split.training_decks()):
        scores = []
        for _ in range(views):
            patches = view_candidates(rng, back)
            if patches:
                pr, ps, _ = clf.forward(patches)
                scores.append(index_likeness(pr, ps))
        s = np.concatenate(scores) if scores else np.zeros(1)
        out.append((back.deck, float((s > 0.5).mean()), float(s.max())))
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path,
                    default=Path(__file__).resolve().parent.parent / "models" / "index.onnx")
    ap.add_argument("--views", type=int, default=40)
    args = ap.parse_args(argv)
    for deck, share, top in sorted(score_backs(args.model, args.views), key=lambda t: -t[1]):
        print(f"{deck:32s} index-like > 0.5: {share:6.2%}  max {top:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
