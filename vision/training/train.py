"""`make model`: train the index classifier on rendered card art, export ONNX, calibrate.

Steps (all seeded, so a rerun gives the same model up to torch's CPU nondeterminism):

1. render the training decks (vision.training.split) through vision.cardart;
2. synthesise camera-like patches (vision.training.synth) in worker processes;
3. train IndexNet (vision.training.model) with three losses: rank, suit, and a cosine
   classifier over the 52 cards + "none" on the embedding, which shapes the embedding
   that deck enrolment matches against;
   the labelled real photos of images/train (vision.training.real; rank only) are
   mixed in, repeated, to close the gap between rendered and photographed cards;
4. export ONNX (opset 13, which cv2.dnn reads) to vision/models/index.onnx;
5. on calibration decks (never trained on), pick the abstention thresholds
   (vision.training.calibrate) and write them to vision/models/index.json.

Run: `python -m vision.training.train [--views N] [--epochs E] [--out DIR]`.
Takes ~10-15 minutes on two cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.recognize.classifier import IndexClassifier
from vision.training import split, synth
from vision.training.calibrate import calibrate, write
from vision.training.model import EMBED_DIM, IndexNet

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
SEED = 20240601


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worker: synthesise `n` views with seed (SEED, kind, index)."""
    kind, index, n = args
    torch.set_num_threads(1)
    if kind == 0:
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
    rng = np.random.default_rng([SEED, kind, index])
    return synth.make_dataset(rng, faces, faces + backs, n, negs)


def synthesise(kind: int, views: int, workers: int, chunk: int = 1000
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Synthesise `views` views (kind 0: training decks, 1: calibration decks), cached
    on disk under $CARDTABLE_CACHE/training keyed by everything that shapes them."""
    import hashlib

    from vision.cardart import cache_dir
    from vision.recognize.patch import INDEX_BOX, PATCH_SIZE

    decks = split.training_decks() if kind == 0 else split.calibration_decks()
    key = json.dumps([SEED, kind, views, chunk, INDEX_BOX, PATCH_SIZE,
                      [d.name for d in decks], Path(synth.__file__).read_text()])
    path = cache_dir().parent / "training" / (
        f"views-{kind}-{views}-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz")
    if path.is_file():
        with np.load(path) as z:
            return z["x"], z["r"], z["s"]
    x, r, s = _synthesise(kind, views, workers, chunk)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, r=r, s=s)
    return x, r, s


def _synthesise(kind: int, views: int, workers: int, chunk: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    jobs = [(kind, i, min(chunk, views - i * chunk)) for i in range((views + chunk - 1) // chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_chunk, jobs))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


class CosineHead(nn.Module):
    """Normalised-weight classifier on the unit embedding (trains the embedding)."""

    def __init__(self, dim: int, n: int, scale: float = 16.0) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.randn(n, dim) * 0.1)
        self.scale = scale

    def forward(self, e: torch.Tensor) -> torch.Tensor:
        return self.scale * e @ F.normalize(self.w, dim=1).T


def train(x: np.ndarray, r: np.ndarray, s: np.ndarray, epochs: int, log=print) -> IndexNet:
    torch.manual_seed(SEED)
    net = IndexNet()
    head = CosineHead(EMBED_DIM, 53)
    card = np.where(r == 13, 52, r * 4 + np.minimum(s, 3))
    card = np.where(s < 0, -1, card)  # real photos: suit unknown, ignored
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()  # uint8 NCHW
    rt, st, ct = torch.from_numpy(r), torch.from_numpy(s), torch.from_numpy(card)
    params = list(net.parameters()) + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=1e-4)
    bs = 256
    steps = epochs * ((len(x) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(SEED)
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(len(x), generator=gen)
        tot, n_ok, t0 = 0.0, 0, time.time()
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            xb = xt[idx].float() / 255.0
            # Cheap extra photometric variety on top of the rendered one.
            xb = xb * (0.8 + 0.4 * torch.rand(len(idx), 1, 1, 1, generator=gen))
            if torch.rand(1, generator=gen).item() < 0.3:  # grey patches
                xb = xb.mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
            xb = xb.clamp(0, 1)
            lr_, ls_, e = net(xb)
            loss = (F.cross_entropy(lr_, rt[idx], label_smoothing=0.02, ignore_index=-1)
                    + F.cross_entropy(ls_, st[idx], label_smoothing=0.02, ignore_index=-1)
                    + 0.5 * F.cross_entropy(head(e), ct[idx], ignore_index=-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
            n_ok += int(((lr_.argmax(1) == rt[idx]) & (ls_.argmax(1) == st[idx])).sum())
        log(f"epoch {ep + 1}/{epochs}: loss {tot / len(x):.4f}, "
            f"train acc {n_ok / len(x):.4f}, {time.time() - t0:.0f} s")
    net.eval()
    return net


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
    ap.add_argument("--views", type=int, default=24000)
    ap.add_argument("--cal-views", type=int, default=4000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
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
    print(f"synthesising {args.views} views...", flush=True)
    x, r, s = synthesise(0, args.views, args.workers)
    print(f"  {len(x)} patches ({(r == 13).mean():.0%} 'none'), {time.time() - t0:.0f} s",
          flush=True)
    if args.real_repeat > 0:
        from vision.training.real import real_patches

        xr, rr = real_patches()
        print(f"  {len(xr)} corner patches from the real training photos (rank only), "
              f"x{args.real_repeat}", flush=True)
        x = np.concatenate([x] + [xr] * args.real_repeat)
        r = np.concatenate([r] + [rr] * args.real_repeat)
        s = np.concatenate([s, np.full(len(xr) * args.real_repeat, -1, np.int64)])
    net = train(x, r, s, args.epochs, log=lambda m: print(m, flush=True))
    onnx_path = args.out / "index.onnx"
    export(net, onnx_path)
    xc, rc, sc = synthesise(1, args.cal_views, args.workers)
    clf = IndexClassifier.load(onnx_path)
    cal, stats = calibrate(clf, xc, rc, sc)
    onnx_path.with_suffix(".json").unlink(missing_ok=True)
    write(onnx_path, cal, stats, {
        "training_decks": [d.name for d in split.training_decks()],
        "calibration_decks": list(split.CALIBRATION_DECKS),
        "heldout_decks": list(split.HELDOUT_DECKS),
        "views": args.views, "epochs": args.epochs, "seed": SEED,
        "patches": len(x), "real_repeat": args.real_repeat,
        "seconds": round(time.time() - t0),
    })
    size = onnx_path.stat().st_size
    print(f"wrote {onnx_path} ({size / 1e6:.2f} MB) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
