"""What the recogniser's steps cost, for the bench table (evaluate.bench): the
index network on a frame's patches, the second opinion on a card's two corners,
and the pip count of a whole card. One thread, as on the Pi's one core.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.recognize.classifier import IndexClassifier


def time_classify(clf: IndexClassifier, n: int = 16, runs: int = 50
                  ) -> tuple[float, float]:
    """(median, best) milliseconds to classify `n` patches (cv2.dnn on one thread);
    the best run shows the cost on an idle core when the machine is shared."""
    import time

    from vision.recognize.patch import PATCH_H, PATCH_W

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        rng = np.random.default_rng(0)
        patches = list(rng.integers(0, 256, (n, PATCH_H, PATCH_W, 3), dtype=np.uint8))
        clf.classify(patches)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            clf.classify(patches)
            times.append(time.perf_counter() - t0)
    finally:
        cv2.setNumThreads(threads)
    return float(np.median(times) * 1000), float(np.min(times) * 1000)


def time_pips(decks: list[Any], n_scenes: int = 8) -> tuple[float, float, float, int]:
    """Median milliseconds of pips.count_pips per whole face-up card of rendered
    scenes of `decks` (median of 3 calls each): all, counted, refused; and the number
    of cards. It runs only for cards the network left unread (pipcheck.py)."""
    import time

    from vision.recognize.pips import count_pips
    from vision.scene import SceneRenderer, random_scene_spec

    rng = np.random.default_rng(77)
    renderer = SceneRenderer()
    per: list[float] = []
    counted: list[bool] = []
    for _ in range(n_scenes):
        image, truth = renderer.render(random_scene_spec(rng, decks, 8, overlap=0.4), rng)
        for t in truth:
            if t.face_down or t.visible_fraction < 0.98:
                continue
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                got = count_pips(image, t.corners)
                times.append(time.perf_counter() - t0)
            per.append(float(np.median(times)) * 1000)
            counted.append(got is not None)
    ms, yes = np.array(per), np.array(counted, dtype=bool)

    def med(a: np.ndarray) -> float:
        return float(np.median(a)) if len(a) else float("nan")

    return med(ms), med(ms[yes]), med(ms[~yes]), len(ms)


def time_second_opinion(clf: IndexClassifier, n: int = 2, runs: int = 50
                        ) -> tuple[float, float]:
    """(median, best) milliseconds of the fallback's reading of `n` patches whose first
    readings are at hand (what the reader pays per frame with unread cards)."""
    import time

    from vision.recognize.patch import PATCH_H, PATCH_W

    assert clf.fallback is not None
    rng = np.random.default_rng(1)
    patches = list(rng.integers(0, 256, (n, PATCH_H, PATCH_W, 3), dtype=np.uint8))
    firsts = clf.classify(patches)
    clf.fallback.readings(patches, firsts)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        clf.fallback.readings(patches, firsts)
        times.append(time.perf_counter() - t0)
    return float(np.median(times) * 1000), float(np.min(times) * 1000)
