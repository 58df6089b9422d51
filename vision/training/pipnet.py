"""Train the club/spade pip network (vision/recognize/pipnet.py) and read its bars.

`python -m vision.training.pipnet` (one thread, a few minutes; `make model` runs it)
writes vision/models/pipnet.onnx. Why each piece:

- Pips as pips.py finds them: training decks' black number cards (2..10 of clubs
  and spades) are warped into a random view (perspective, tilt, 75-300 px tall),
  lit unevenly, blurred, noised and JPEG-compressed, and counted by
  pips.count_pips on a quad jittered by a pixel, which cuts the pips the reader
  will see (PipCount.crops). So the network learns pips at the sizes and blur of
  the cards it is asked about, not clean art.
- Random sign shapes (suitshapes.py), blurred and shrunk to pip size: clubs and
  spades drawn with every proportion at random, so the network learns what makes
  a club a club rather than the training decks' few glyphs.
- Each crop is also trained turned by 180 degrees with the same label: decks print
  the middle row either way up, and the reader scores each pip both ways.

Bars (pipnet.CLUB_BAR, SPADE_BAR): networks are also trained with a fold of the
training decks left out (by family); each left-out deck's cards are scored by the
network that never saw it, the calibration decks (never trained on) by the final
network. `--bars` prints, per side, the wrong cards at each bar: the bars keep every
set at zero wrong with margin.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.cardart import DeckArt, render_card
from vision.recognize.pipnet import CROP, MODEL_PATH, pip_crops
from vision.recognize.pips import count_pips
from vision.training.suitshapes import suit_mask
from vision.types import SUITS

#: Labels: 0 club, 1 spade (the network's two logits in that order).
BLACK = ("C", "S")
NUMBER_RANKS = tuple(str(n) for n in range(2, 11))


def random_view(rng: np.random.Generator, art: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card `art` (BGRA) seen by a camera: (BGR image, its quad clockwise from the
    printed top-left), with perspective, uneven light, blur, noise and JPEG."""
    ah, aw = art.shape[:2]
    th = float(rng.uniform(75, 300))
    tw = th * aw / ah
    side = int(th * 1.5) + 20
    angle = rng.uniform(0, 2 * np.pi)
    c, s = np.cos(angle), np.sin(angle)
    box = np.array([[-tw / 2, -th / 2], [tw / 2, -th / 2], [tw / 2, th / 2], [-tw / 2, th / 2]])
    box = box + rng.normal(0, 0.04 * th, box.shape)  # perspective
    quad = (box @ np.array([[c, s], [-s, c]]) + side / 2).astype(np.float32)
    src = np.array([[0, 0], [aw, 0], [aw, ah], [0, ah]], np.float32)
    h = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(art, h, (side, side), flags=cv2.INTER_AREA
                                 if th < ah / 2 else cv2.INTER_LINEAR)
    alpha = warped[..., 3:].astype(np.float32) / 255.0
    table = np.empty((side, side, 3), np.float32)
    table[:] = rng.uniform(20, 200, 3)
    img = warped[..., :3].astype(np.float32) * alpha + table * (1 - alpha)
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / side
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = rng.uniform(0.6, 1.25) * (1 + gx * (xx - 0.5) + gy * (yy - 0.5))
    img = img * light[..., None] * rng.uniform(0.9, 1.1, 3)
    if rng.random() < 0.8:
        sigma = float(rng.uniform(0.3, 2.2))
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    img8 = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img8
    return img8, quad + rng.normal(0, 0.8, quad.shape).astype(np.float32)


def deck_pips(rng: np.random.Generator, deck: DeckArt, views: int
              ) -> Iterator[tuple[np.ndarray, int, int]]:
    """(crops of one counted card, label 0 club / 1 spade, pip count) for `views`
    random views of each black number card of `deck`."""
    for suit in BLACK:
        for rank in NUMBER_RANKS:
            arts = [render_card(deck, f"{rank}{suit}", hh) for hh in (200, 400)]
            for _ in range(views):
                img, quad = random_view(rng, arts[int(rng.integers(2))])
                if rng.random() < 0.5:
                    quad = quad[[2, 3, 0, 1]]
                pc = count_pips(img, quad, crops=True)
                if pc is not None and pc.crops is not None and not pc.red:
                    yield pc.crops, BLACK.index(suit), pc.count


def sign_pips(rng: np.random.Generator, n: int, blunt: float = 0.0
              ) -> tuple[np.ndarray, np.ndarray]:
    """`n` random club/spade signs (suitshapes.py) as pip crops, blurred and shrunk
    to a canonical pip's size (8-22 px) first: (crops, labels). `blunt`: the share
    of spades drawn broad and blunt-topped (suitshapes' blunt_spades)."""
    crops, labels = [], []
    for _ in range(n):
        label = int(rng.integers(2))
        mask = suit_mask(rng, SUITS.index(BLACK[label]), int(rng.integers(40, 80)),
                         blunt_spades=blunt)
        size = float(rng.uniform(8, 22))
        f = size / mask.shape[0]
        pad = cv2.copyMakeBorder(mask, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=0)
        soft = cv2.GaussianBlur(pad.astype(np.float32) / 255.0, (0, 0), 0.5 / f)
        soft = cv2.resize(soft, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        soft = soft * float(rng.uniform(0.5, 1.0)) + rng.normal(0, 0.03, soft.shape)
        soft = np.where(soft > 0.1, soft, 0).astype(np.float32)
        crops.append(pip_crops([soft])[0])
        labels.append(label)
    return np.stack(crops), np.asarray(labels)


def build_net():  # type: ignore[no-untyped-def]
    """The network: three 3x3 conv blocks (16, 32, 32 channels, each pooled) and two
    small dense layers to the club and spade logits; ~25k weights (~100 KB)."""
    from torch import nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * (CROP // 8) ** 2, 32), nn.ReLU(), nn.Linear(32, 2))


def train(x: np.ndarray, y: np.ndarray, epochs: int = 12, seed: int = 0):  # type: ignore[no-untyped-def]
    """Fit build_net on crops `x` (n, CROP, CROP) and labels `y`, each crop also
    turned by 180 degrees at random, with a little contrast jitter."""
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=epochs * (len(x) // 128 + 1))
    lossf = torch.nn.CrossEntropyLoss()
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x), 128):
            idx = order[i:i + 128]
            b = x[idx].copy()
            turn = rng.random(len(idx)) < 0.5
            b[turn] = b[turn][:, ::-1, ::-1]
            b = np.clip(_reshape(rng, b) * rng.uniform(0.8, 1.1, (len(idx), 1, 1)), 0, 1)
            out = net(torch.from_numpy(b[:, None].astype(np.float32)))
            loss = lossf(out, torch.from_numpy(y[idx]).long())
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    net.eval()
    return net


def _reshape(rng: np.random.Generator, batch: np.ndarray) -> np.ndarray:
    """Half the crops of `batch` stretched (width 0.75-1.3 times the height's
    scale) and turned a little (up to 12 degrees): decks draw pips wider or
    narrower than the training decks (a left-out gnome/orell's broad, flat-topped
    spades read as clubs without it), and a quad may be a degree off."""
    out = batch.copy()
    c = (CROP - 1) / 2.0
    for i in np.flatnonzero(rng.random(len(batch)) < 0.5):
        m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(-12, 12)), 1.0)
        m[:, :2] = m[:, :2] @ np.diag([float(rng.uniform(0.75, 1.3)), 1.0])
        m[:, 2] = c - m[:, :2] @ np.array([c, c])
        out[i] = cv2.warpAffine(batch[i], m, (CROP, CROP), flags=cv2.INTER_LINEAR)
    return out


def card_scores(net, cards: Sequence[np.ndarray]) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    """Each card's per-pip log-odds (club minus spade, both ways up averaged), as the
    reader computes them (pipnet.PipNet.log_odds) but through torch."""
    import torch
    out = []
    with torch.no_grad():
        for crops in cards:
            both = np.concatenate([crops, crops[:, ::-1, ::-1]])[:, None].astype(np.float32)
            z = net(torch.from_numpy(both)).numpy()
            z = z[:, 0] - z[:, 1]
            out.append((z[:len(crops)] + z[len(crops):]) / 2)
    return out


def export(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Write `net` as ONNX (batch axis dynamic) to `path`."""
    import torch
    torch.onnx.export(net, torch.zeros(1, 1, CROP, CROP), str(path), input_names=["pips"],
                      output_names=["logits"], dynamic_axes={"pips": {0: "n"}, "logits": {0: "n"}},
                      opset_version=13, dynamo=False)


def gather(decks: Sequence[DeckArt], views: int, seed: int
           ) -> dict[str, list[tuple[np.ndarray, int, int]]]:
    """Counted black cards per deck name (see deck_pips)."""
    rng = np.random.default_rng(seed)
    return {d.name: list(deck_pips(rng, d, views)) for d in decks}


def flat(cards: Sequence[tuple[np.ndarray, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Pips and their labels of counted cards."""
    if not cards:
        return np.zeros((0, CROP, CROP), np.float32), np.zeros(0, int)
    return (np.concatenate([c for c, _, _ in cards]),
            np.concatenate([np.full(len(c), lab) for c, lab, _ in cards]))


def wrong_at(scored: Sequence[tuple[np.ndarray, int]], bars: Sequence[float]) -> list[str]:
    """Per bar, 'given/wrong' over cards (per-pip log-odds, label) at that bar on both sides."""
    rows = []
    for bar in bars:
        given = wrong = 0
        for z, lab in scored:
            mean = float(z.mean())
            suit = 0 if mean > bar and z.min() > 0 else 1 if mean < -bar and z.max() < 0 else None
            if suit is not None:
                given += 1
                wrong += suit != lab
        rows.append(f"{bar}:{given}/{wrong}")
    return rows


def main() -> None:
    """Train the final network (and, with --bars, the left-out folds) and export it."""
    from vision.training.split import calibration_decks, training_decks
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=6)
    ap.add_argument("--signs", type=int, default=6000)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--blunt", type=float, default=0.0,
                    help="share of the random spades drawn broad and blunt-topped")
    ap.add_argument("--bars", action="store_true", help="also read the bars (folds, calibration)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    t0 = time.time()
    decks = training_decks()
    data = gather(decks, a.views, seed=11)
    sx, sy = sign_pips(np.random.default_rng(12), a.signs, a.blunt)
    print(f"data {sum(len(v) for v in data.values())} cards {time.time() - t0:.0f}s", flush=True)
    x, y = flat([c for v in data.values() for c in v])
    net = train(np.concatenate([x, sx]), np.concatenate([y, sy]), a.epochs)
    export(net, a.out)
    print(f"final network {a.out} {a.out.stat().st_size} bytes {time.time() - t0:.0f}s", flush=True)
    if not a.bars:
        return
    bars = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0]
    cal = gather(calibration_decks(), a.views * 3, seed=13)
    scored = [(z, lab) for v in cal.values() for z, (_, lab, _) in
              zip(card_scores(net, [c for c, _, _ in v]), v)]
    print("calibration", len(scored), wrong_at(scored, bars), flush=True)
    families = sorted({d.family for d in decks})
    left: list[tuple[np.ndarray, int]] = []
    for k in range(a.folds):
        out_fams = set(families[k::a.folds])
        names_in = [d.name for d in decks if d.family not in out_fams]
        xi, yi = flat([c for n in names_in for c in data[n]])
        net_k = train(np.concatenate([xi, sx]), np.concatenate([yi, sy]), a.epochs, seed=k + 1)
        for d in decks:
            if d.family in out_fams:
                z = card_scores(net_k, [c for c, _, _ in data[d.name]])
                mine = [(zz, lab) for zz, (_, lab, _) in zip(z, data[d.name])]
                print(f"  fold {k} {d.name} {len(mine)} {wrong_at(mine, bars)}", flush=True)
                left += mine
    print("left out", len(left), wrong_at(left, bars), f"{time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
