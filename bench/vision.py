"""`make bench` for vision/: speed of the live path, detection recall, recognition.

Prints one table:
* detection + recognition of a 1280x720 frame with 8 cards (vision.scene, about a
  third overlapping), one thread (cv2.setNumThreads(1)), median wall and CPU time
  over frames, the detection alone on the same frames (so that a change of either
  shows), and which runtime ran the network; a frame where nothing changed since
  the last one; and the settled frame (Pipeline(settle=...): a frame that stayed
  unchanged, read once more by the stills chain, vision.settle);
* peak memory (tracemalloc peak of the pipeline, and the process's max RSS);
* detection recall on rendered scenes (held-out decks) and on the real photos
  (a labelled box counts as found when a detected quad's bounding box has IoU >= 0.5);
* recognition accuracy / wrong readings from vision.evaluate when the model exists,
  and on rendered phone-like photos of the held-out decks (vision.evaluate_photos).
"""

from __future__ import annotations

import csv
import os
import resource
import statistics
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.pipeline import Pipeline, SettleConfig
from vision.types import Frame

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-photos-ranks" / "images"
HELDOUT = ("gnome/anglo_poker", "gnome/guyenne-classic", "kde/standard", "gnome/tango_nuevo")


def _recognizer():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier
    from vision.types import VisionError

    try:
        return IndexClassifier.load()
    except (VisionError, OSError, cv2.error) as e:  # no model: time detection alone
        print(f"  (no recogniser: {type(e).__name__}: {e}; timing detection only)")
        return None


def _heldout():  # type: ignore[no-untyped-def]
    """The decks held out from training (VB2's split), else a fixed set."""
    from vision import cardart

    try:
        from vision.training.split import heldout_decks

        decks = heldout_decks()
        if decks:
            return decks
    except ImportError:
        pass
    return [cardart.find_deck(d) for d in HELDOUT]


def _scenes(n: int, overlap: float, seed: int = 77) -> list[tuple[np.ndarray, list]]:
    from vision.scene import SceneRenderer, random_scene_spec, render_scene

    decks = _heldout()
    r = SceneRenderer()
    out = []
    for i in range(n):
        rng = np.random.default_rng(seed + i)
        spec = random_scene_spec(rng, decks, 8, overlap=overlap)
        out.append(render_scene(spec, rng, r))
    return out


def speed(scenes: list[tuple[np.ndarray, list]]) -> dict[str, float]:
    rec = _recognizer()
    full, full_cpu, same, detect = [], [], [], []
    for img, _ in scenes:
        p = Pipeline(rec)
        p.read(Frame(img, 0, 0.0))  # warm caches (first network call allocates)
        for rep in range(3):
            p.reset()
            t, c = time.perf_counter(), time.thread_time()
            p.read(Frame(img, 1, 0.1))
            full.append(time.perf_counter() - t)
            full_cpu.append(time.thread_time() - c)
        noisy = cv2.add(img, np.full_like(img, 2))  # same scene, exposure nudged
        for i in range(5):
            t = time.perf_counter()
            r = p.read(Frame(noisy, 2 + i, 0.2 + i * 0.1))
            same.append(time.perf_counter() - t)
            assert not r.changed
    # Detection alone in a pass of its own (the frames above are timed as they always were).
    config = Pipeline(rec).detector
    for img, _ in scenes:
        for rep in range(3):
            t = time.perf_counter()
            detect_cards(img, config)
            detect.append(time.perf_counter() - t)
    # The settled look in a pass of its own: the second frame of a scene, unchanged,
    # is read by the stills chain (SettleConfig(after=1)).
    settled, settled_cpu = [], []
    for img, _ in scenes if rec is not None else []:
        p = Pipeline(rec, settle=SettleConfig(after=1))
        p.read(Frame(img, 0, 0.0))
        t, c = time.perf_counter(), time.thread_time()
        r = p.read(Frame(img, 1, 0.1))
        settled.append(time.perf_counter() - t)
        settled_cpu.append(time.thread_time() - c)
        assert r.settled
    # Memory in a separate pass: tracemalloc slows Python down several times.
    tracemalloc.start()
    p = Pipeline(rec)
    for i, (img, _) in enumerate(scenes[:3]):
        p.read(Frame(img, i, i * 0.1))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "full_ms": statistics.median(full) * 1000,
        "full_cpu_ms": statistics.median(full_cpu) * 1000,
        "full_p90_ms": float(np.percentile(full, 90)) * 1000,
        "same_ms": statistics.median(same) * 1000,
        "detect_ms": statistics.median(detect) * 1000,
        "settled_ms": statistics.median(settled) * 1000 if settled else 0.0,
        "settled_cpu_ms": statistics.median(settled_cpu) * 1000 if settled else 0.0,
        "onnxruntime": float(getattr(rec, "runtime", "") == "onnxruntime"),
        "peak_mb": peak / 2**20,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "recognizer": 1.0 if rec is not None else 0.0,
    }


def rendered_recall(scenes: list[tuple[np.ndarray, list]]) -> dict[str, float]:
    """Cards whose true quad a detection matches with IoU >= 0.7."""
    n = hit = vis_n = vis_hit = extra = side_ok = 0
    for img, truth in scenes:
        cands = detect_cards(img, DetectorConfig(with_patches=False))
        used = set()
        for t in truth:
            tq = g.order_quad(np.asarray(t.corners, np.float32))
            best, who = max(((g.iou(c.quad, tq), i) for i, c in enumerate(cands)), default=(0, -1))
            ok = best >= 0.7
            n += 1
            hit += ok
            if t.visible_fraction >= 0.5:
                vis_n += 1
                vis_hit += ok
            if ok:
                used.add(who)
                side_ok += cands[who].face_down == t.face_down
        extra += len(cands) - len(used)
    return {"recall": hit / n, "recall_vis": vis_hit / max(vis_n, 1), "extra": extra / len(scenes),
            "side_ok": side_ok / max(hit, 1), "n": n}


def real_recall(split: str = "test") -> dict[str, float] | None:
    labels = REAL / f"{split}_labels.csv"
    if not labels.is_file():
        return None
    boxes: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    with labels.open() as f:
        for r in csv.DictReader(f):
            boxes[r["filename"]].append(tuple(float(r[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    found = total = dets = 0
    times = []
    for name, bs in sorted(boxes.items()):
        img = cv2.imread(str(REAL / split / name))
        if img is None:
            continue
        t = time.perf_counter()
        cands = detect_cards(img, DetectorConfig(with_patches=False))
        times.append(time.perf_counter() - t)
        dets += len(cands)
        bbs = [g.bounding_box(c.quad) for c in cands]
        found += sum(any(g.box_iou(b, d) >= 0.5 for d in bbs) for b in bs)
        total += len(bs)
    return {"recall": found / total, "boxes": total, "images": len(boxes),
            "dets_per_image": dets / len(boxes), "ms": statistics.median(times) * 1000}


def speed_in_fresh_processes(runs: int = 3) -> list[dict[str, float]]:
    """`speed` measured in `runs` fresh interpreters.

    Why: on these shared virtual machines the same code times 20-40% apart from one
    process to the next (memory placement, neighbours), while runs within one process
    agree; one process's median alone would be luck.
    """
    import json
    import subprocess
    import sys

    code = ("import json, cv2; cv2.setNumThreads(1); from bench.vision import _scenes, speed; "
            "print(json.dumps(speed(_scenes(12, overlap=0.3))))")
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    out = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env=env, cwd=root)
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


def main() -> None:
    # One core: OpenCV single-threaded (numpy's element-wise work already is). CPU
    # time is printed beside wall time because this machine is shared and busy.
    cv2.setNumThreads(1)
    runs = speed_in_fresh_processes()
    full = sorted(r["full_ms"] for r in runs)
    cpu = sorted(r["full_cpu_ms"] for r in runs)
    s = runs[[r["full_ms"] for r in runs].index(statistics.median(full))]
    what = "detection + recognition" if s["recognizer"] else "detection (no model)"
    print(f"  1280x720, 8 cards, one thread: {what:24s} median {s['full_ms']:6.1f} ms wall,"
          f" {statistics.median(cpu):.1f} ms CPU (median of {len(runs)} fresh processes, each"
          f" the median of 36 frames; per process {', '.join(f'{x:.1f}' for x in full)} ms;"
          f" p90 wall {s['full_p90_ms']:.1f}; target <= 30;"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    det = statistics.median(r["detect_ms"] for r in runs)
    net = "onnxruntime" if s["onnxruntime"] else "cv2.dnn"
    print(f"  of which detection alone (same frames):           median {det:6.1f} ms wall"
          f" (median of the {len(runs)} processes); the network runs in {net}")
    print(f"  unchanged frame (change cache):                  median {s['same_ms']:6.2f} ms"
          f"  (target <= 3)")
    if s["recognizer"]:
        settled = statistics.median(r["settled_ms"] for r in runs)
        settled_cpu = statistics.median(r["settled_cpu_ms"] for r in runs)
        print(f"  settled frame (stills chain, once a layout stays): median {settled:6.1f} ms"
              f" wall, {settled_cpu:.1f} ms CPU (no budget: once per layout;"
              f" SettleConfig(inline=False) runs it off the camera thread)")
    print(f"  peak memory: pipeline {s['peak_mb']:.1f} MB (tracemalloc), process max RSS "
          f"{s['rss_mb']:.0f} MB")
    r = rendered_recall(_scenes(40, overlap=0.3, seed=500))
    print(f"  detection recall, rendered held-out decks ({', '.join(d.name for d in _heldout())};"
          f" {r['n']} cards, IoU >= 0.7): "
          f"{r['recall']:.3f}; cards >= half visible {r['recall_vis']:.3f}; "
          f"face/back right {r['side_ok']:.3f}; extra quads/scene {r['extra']:.2f}")
    real = real_recall()
    if real is None:
        print(f"  real photos: not found under {REAL}")
    else:
        print(f"  detection recall, real photos ({real['images']} photos, {real['boxes']} cards, "
              f"box IoU >= 0.5): {real['recall']:.3f}; detections/photo "
              f"{real['dets_per_image']:.1f}; median {real['ms']:.0f} ms/photo")
    try:
        from vision import evaluate
    except ImportError:
        print("  recognition: vision.evaluate not available")
        return
    if s["recognizer"]:
        evaluate.bench(lambda line: print("  " + line))
        photos(lambda line: print("  " + line))
    else:
        print("  recognition: skipped (no model; `make model`)")


def photos(out: Callable[[str], None] = print, n: int = 60,
           decks: list[str] | None = None) -> dict[str, float]:
    """Rank-only and whole-card reading of rendered phone-like photos of the held-out
    decks (vision.evaluate_photos): the stand-in for the judges' photos of decks we
    have none of (about 0.6 s a photo with the rendering: 60 take under a minute)."""
    from vision import evaluate_photos

    return evaluate_photos.bench(out, photos=n, decks=decks)


if __name__ == "__main__":
    main()
