"""`make model`: train the index classifier on rendered card art, export ONNX, calibrate.

Steps (all seeded, so a rerun gives the same model up to torch's CPU nondeterminism):

1. render the training decks (vision.training.split) through vision.cardart;
2. synthesise patches in worker processes: single-card camera views (synth.py, with
   font-drawn faces, fontcards.py) and whole rendered table scenes (scenes.py);
3. train IndexNet (vision.training.model) with three losses: rank, suit, and a cosine
   classifier over the 52 cards + "none" on the embedding, which shapes the embedding
   that deck enrolment matches against. Every epoch draws a fresh sample of the
   patches and augments it on the fly (augment.py: detector-like shifts and turns,
   low resolution, blur, light, noise). The labelled real photos of images/train
   (vision.training.real; rank only; one in five kept back for calibration) are mixed
   in, repeated, to close the gap between rendered and photographed cards;
4. export ONNX (opset 13, which cv2.dnn reads) to vision/models/index.onnx; with
   `--members N` (default 1), step 3 is repeated with seeds SEED+1.. and the networks
   are merged into one whose logits are their mean (vision.training.ensemble);
5. on calibration decks (never trained on) and the kept-back photos, fit the
   temperature and pick the abstention thresholds (vision.training.calibrate), written
   to vision/models/index.json;
6. with `--fallback K` (default 2), step 3 once more per seed SEED+N.., exported as
   index_b.onnx, index_c.onnx: the second opinion on the cards the model leaves unread, with bars
   of its own chosen on exactly those cards (vision.training.fallback_bars).

Run: `python -m vision.training.train [--views N] [--scenes N] [--epochs E] [--members M]
[--fallback K] [--out DIR]`.
Time on two shared cores: see vision/recognize/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.recognize.classifier import IndexClassifier
from vision.training import fallback_bars, split, synth
from vision.training.calibrate import calibrate_all, calibration_data, write
from vision.training.model import EMBED_DIM, IndexNet

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
SEED = 20240601
EPOCHS = 12
EPOCH_SIZE = 120_000
#: Networks in the model (vision.training.ensemble merges several). One: a second
#: read 0.4-0.8% more held-out cards right (README), but costs 2.6 ms more for a
#: frame's 16 patches and left the bench frame at 29.8 ms against the 30 ms target.
MEMBERS = 1
#: Networks trained after those (seeds SEED+MEMBERS, ...) that only give a second
#: opinion, with the model's, on the cards it leaves unread (recognize/fallback.py):
#: most of the ensemble's gain for a fraction of its time. Two: a third network
#: read 1-7 more cards than two on every set (README), 0 wrong.
FALLBACK = 2


#: Data kinds: synthetic single-card views (synth.py) and whole scenes (scenes.py),
#: of the training decks (TRAIN_*) or of the calibration decks (CAL_*).
TRAIN_VIEWS, CAL_VIEWS, TRAIN_SCENES, CAL_SCENES = 0, 1, 2, 3
_SCENE_CHUNK = 100  # scenes per job (a job yields ~1400 patches)


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worker: synthesise `n` views (or scenes) of `kind` with seed (SEED, kind, index)."""
    kind, index, n = args
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    rng = np.random.default_rng([SEED, kind, index])
    if kind in (TRAIN_SCENES, CAL_SCENES):
        from vision.training.scenes import scene_patches

        decks = split.training_decks() if kind == TRAIN_SCENES else split.calibration_decks()
        return scene_patches(rng, decks, n, courtless=split.COURTLESS_DECKS)
    if kind == TRAIN_VIEWS:
        faces = [dataclasses.replace(f, rank=synth.NONE_RANK, suit=synth.NONE_SUIT)
                 if f.deck in split.COURTLESS_DECKS and f.rank >= 10 else f
                 for f in synth.load_faces(split.training_decks())]
        from vision.training.fontcards import font_faces, fonts

        if fonts()[0]:  # font-drawn faces: ~30% of the views (see fontcards.py)
            faces = faces + font_faces(np.random.default_rng([SEED, 2, index]), 600)
    else:
        faces = synth.load_faces(split.calibration_decks())
    backs = synth.load_backs(split.training_decks() + split.negative_decks())
    negs = synth.load_faces(split.negative_decks(), as_negative=True) + backs
    return synth.make_dataset(rng, faces, faces + backs, n, negs)


def _source_key(kind: int) -> str:
    """The source text that shapes data of `kind` (a change invalidates its cache)."""
    here = Path(__file__).resolve().parent
    files = [here / "synth.py", here / "fontcards.py", here / "suitshapes.py"]
    if kind in (TRAIN_SCENES, CAL_SCENES):
        files = [here / "scenes.py"] + sorted((here.parent / "scene").glob("*.py"))
    return "".join(f.read_text() for f in files)


def synthesise(kind: int, views: int, workers: int, start: int = 0
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Synthesise `views` views or scenes of `kind` (see TRAIN_VIEWS...), cached on disk
    under $CARDTABLE_CACHE/training keyed by everything that shapes them. `start`: the
    first chunk index (each chunk's seed is (SEED, kind, index)); finetune.py draws
    fresh data from another start."""
    import hashlib

    from vision.cardart import cache_dir
    from vision.recognize.patch import INDEX_BOX, PATCH_SIZE

    chunk = _SCENE_CHUNK if kind in (TRAIN_SCENES, CAL_SCENES) else 1000
    decks = split.training_decks() if kind in (TRAIN_VIEWS, TRAIN_SCENES) \
        else split.calibration_decks()
    key = json.dumps([SEED, kind, views, chunk, INDEX_BOX, PATCH_SIZE,
                      [d.name for d in decks], _source_key(kind)] + ([start] if start else []))
    path = cache_dir().parent / "training" / (
        f"data-{kind}-{views}-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz")
    if path.is_file():
        with np.load(path) as z:
            return z["x"], z["r"], z["s"]
    jobs = [(kind, start + i, min(chunk, views - i * chunk))
            for i in range((views + chunk - 1) // chunk)]
    # Workers are spawned, not forked: after training, the parent's torch holds
    # thread-pool locks that a forked child inherits locked, and the workers' first
    # torch call (set_num_threads) then hangs for ever (seen: `make model` stuck in
    # calibration_data with both workers idle).
    with ProcessPoolExecutor(max_workers=workers,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(_chunk, jobs))
    x, r, s = (np.concatenate([p[i] for p in parts]) for i in range(3))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, r=r, s=s)
    return x, r, s


class CosineHead(nn.Module):
    """Normalised-weight classifier on the unit embedding (trains the embedding)."""

    def __init__(self, dim: int, n: int, scale: float = 16.0) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.randn(n, dim) * 0.1)
        self.scale = scale

    def forward(self, e: torch.Tensor) -> torch.Tensor:
        return self.scale * e @ F.normalize(self.w, dim=1).T


def train(x: np.ndarray, r: np.ndarray, s: np.ndarray, epochs: int,
          epoch_size: int | None = None, log=print, seed: int = SEED) -> IndexNet:
    """Train IndexNet on uint8 patches `x` with rank `r` and suit `s` labels (-1: unknown).

    Each epoch draws `epoch_size` patches (default: all) afresh from the pool and
    augments them on the fly (vision.training.augment), so a big pool is seen in
    varied form without every epoch costing a pass over all of it. `seed` sets the
    initial weights and the draws: ensemble members differ only by it.
    """
    torch.manual_seed(seed)
    net = IndexNet()
    head = CosineHead(EMBED_DIM, 53)
    card = card_labels(r, s)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()  # uint8 NCHW
    rt, st, ct = torch.from_numpy(r), torch.from_numpy(s), torch.from_numpy(card)
    params = list(net.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=1e-4)
    bs = 256
    per_epoch = min(epoch_size or len(x), len(x))
    steps = epochs * ((per_epoch + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(len(x), generator=gen)[:per_epoch]
        t0 = time.time()
        tot, n_ok = run_epoch(net, head, opt, sched, (xt, rt, st, ct), perm, gen, bs)
        log(f"epoch {ep + 1}/{epochs}: loss {tot / per_epoch:.4f}, "
            f"train acc {n_ok / per_epoch:.4f}, {time.time() - t0:.0f} s")
    net.eval()
    return net


def card_labels(r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The cosine head's class per patch: card r * 4 + s of 52, 52 "not an index",
    -1 where the suit is unknown (real photos, rank only: ignored by that loss)."""
    card = np.where(r == 13, 52, r * 4 + np.minimum(s, 3))
    return np.where(s < 0, -1, card)


def run_epoch(net: IndexNet, head: nn.Module, opt: torch.optim.Optimizer, sched: Any,
              data: tuple[torch.Tensor, ...], draw: torch.Tensor, gen: torch.Generator,
              batch: int) -> tuple[float, int]:
    """One pass over the patches `draw` (indices into data = (patches uint8 NCHW,
    rank, suit, card labels)), in batches augmented afresh: rank + suit + half the
    cosine head's cross-entropy. Returns (summed loss, patches right at rank and
    suit). train and finetune share it."""
    from vision.training.augment import augment

    xt, rt, st, ct = data
    tot, n_ok = 0.0, 0
    for i in range(0, len(draw), batch):
        idx = draw[i:i + batch]
        xb = augment(xt[idx].float() / 255.0, gen)
        lr_, ls_, e = net(xb)
        loss = (F.cross_entropy(lr_, rt[idx], ignore_index=-1)
                + F.cross_entropy(ls_, st[idx], ignore_index=-1)
                + 0.5 * F.cross_entropy(head(e), ct[idx], ignore_index=-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        tot += loss.item() * len(idx)
        n_ok += int(((lr_.argmax(1) == rt[idx]) & (ls_.argmax(1) == st[idx])).sum())
    return tot, n_ok


def export(net: IndexNet, path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (torch.zeros(1, 3, 64, 32),), str(path), input_names=["patch"],
        output_names=["rank", "suit", "embedding"], opset_version=13, dynamo=False,
        dynamic_axes={"patch": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"},
                      "embedding": {0: "n"}})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=40000, help="single-card views")
    ap.add_argument("--scenes", type=int, default=5000, help="whole table scenes")
    ap.add_argument("--cal-views", type=int, default=4000)
    ap.add_argument("--cal-scenes", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--epoch-size", type=int, default=EPOCH_SIZE,
                    help="patches drawn (and augmented afresh) per epoch")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 2))
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument("--members", type=int, default=MEMBERS,
                    help="networks trained with seeds SEED, SEED+1, ...; their mean logits "
                         "are the model (ensemble.py)")
    ap.add_argument("--fallback", type=int, default=FALLBACK,
                    help="networks trained after the members (seeds SEED+members, ...) that "
                         "read, with the model, only what it leaves unread (fallback_bars.py)")
    ap.add_argument("--real-repeat", type=int, default=6,
                    help="how many times the real training photos' patches are repeated "
                         "(0: synthetic only)")
    args = ap.parse_args(argv)
    # One thread: on a shared 2-core machine, OpenMP's two threads run 3-5x *slower*
    # than one (measured); synthesis uses the worker processes instead.
    torch.set_num_threads(1)
    t0 = time.time()
    print(f"rendering card art ({len(split.training_decks())} training decks)...", flush=True)
    from vision.cardart import prerender
    prerender(split.training_decks() + split.calibration_decks() + split.negative_decks(),
              synth.ART_HEIGHT)
    print(f"synthesising {args.views} views and {args.scenes} scenes...", flush=True)
    parts = [synthesise(TRAIN_VIEWS, args.views, args.workers),
             synthesise(TRAIN_SCENES, args.scenes, args.workers)]
    x, r, s = (np.concatenate([p[i] for p in parts]) for i in range(3))
    print(f"  {len(x)} patches ({(r == 13).mean():.0%} 'none'), {time.time() - t0:.0f} s",
          flush=True)
    from vision.training.real import is_calibration_photo, real_patches

    if args.real_repeat > 0:
        xr, rr, _ = real_patches(keep=lambda name: not is_calibration_photo(name))
        print(f"  {len(xr)} corner patches from the real training photos (rank only), "
              f"x{args.real_repeat}", flush=True)
        x = np.concatenate([x] + [xr] * args.real_repeat)
        r = np.concatenate([r] + [rr] * args.real_repeat)
        s = np.concatenate([s, np.full(len(xr) * args.real_repeat, -1, np.int64)])
    from vision.cardart import cache_dir
    from vision.training.ensemble import merge

    members = []
    for k in range(args.members):
        print(f"member {k + 1}/{args.members} (seed {SEED + k})", flush=True)
        net = train(x, r, s, args.epochs, args.epoch_size, log=lambda m: print(m, flush=True),
                    seed=SEED + k)
        members.append(cache_dir().parent / "training" / f"member-{k}.onnx")
        export(net, members[-1])
    onnx_path = merge(members, args.out / "index.onnx")
    second = []
    for k in range(args.fallback):
        seed = SEED + args.members + k
        print(f"second opinion {k + 1}/{args.fallback} (seed {seed})", flush=True)
        net = train(x, r, s, args.epochs, args.epoch_size, log=lambda m: print(m, flush=True),
                    seed=seed)
        second.append(cache_dir().parent / "training" / f"fallback-{k}.onnx")
        export(net, second[-1])
    data = calibration_data(args.cal_views, args.cal_scenes, args.workers)
    onnx_path.with_suffix(".json").unlink(missing_ok=True)
    for stale in fallback_bars.member_names(26):
        (args.out / stale).unlink(missing_ok=True)
    clf = IndexClassifier.load(onnx_path)
    cal, stats = calibrate_all(clf, data)
    write(onnx_path, cal, stats, {
        "training_decks": [d.name for d in split.training_decks()],
        "calibration_decks": list(split.CALIBRATION_DECKS),
        "heldout_decks": list(split.HELDOUT_DECKS),
        "views": args.views, "scenes": args.scenes, "epochs": args.epochs,
        "epoch_size": args.epoch_size, "seed": SEED, "members": args.members,
        "patches": len(x), "real_repeat": args.real_repeat,
        "fallback_networks": args.fallback,
        "seconds": round(time.time() - t0),
    })
    if second:  # after the model's own bars: the pair's budget is what they leave
        fallback_bars.install(onnx_path, second, data)
    size = onnx_path.stat().st_size
    print(f"wrote {onnx_path} ({size / 1e6:.2f} MB) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
