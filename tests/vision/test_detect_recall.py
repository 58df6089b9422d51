"""Detection recall regressions: rendered scenes (vision.scene) and the real photos.

Floors sit a little under what the detector measures today (`make bench` prints the
current figures), so a change that loses cards fails here.
"""

from __future__ import annotations

import csv
from collections import defaultdict

import cv2
import numpy as np
import pytest

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.evaluate import REAL_PHOTOS

REAL = REAL_PHOTOS / "images"
HELDOUT = ("gnome/anglo_poker", "gnome/guyenne-classic", "kde/standard", "gnome/tango_nuevo")


def test_rendered_scene_recall() -> None:
    from vision import cardart
    from vision.scene import SceneRenderer, random_scene_spec, render_scene

    try:
        decks = [cardart.find_deck(d) for d in HELDOUT]
        cardart.render_card(decks[0], "AS", 60)
    except cardart.CardArtError as e:
        pytest.skip(f"card art unavailable: {e}")
    r = SceneRenderer()
    n = hit = whole_n = whole_hit = false = 0
    for i in range(10):
        rng = np.random.default_rng(4000 + i)
        img, truth = render_scene(random_scene_spec(rng, decks, 8, overlap=0.3), rng, r)
        cands = detect_cards(img, DetectorConfig(with_patches=False))
        quads = [g.order_quad(np.asarray(t.corners, np.float32)) for t in truth]
        false += sum(max(g.iou(c.quad, q) for q in quads) < 0.5 for c in cands)
        for t, tq in zip(truth, quads):
            ok = any(g.iou(c.quad, tq) >= 0.7 for c in cands)
            n += 1
            hit += ok
            if t.visible_fraction >= 0.999:
                whole_n += 1
                whole_hit += ok
    # Today 0.81 and 0.92, no false card (0.76, 0.85 and one before the seam, size
    # and printed-shape rules).
    assert hit / n >= 0.78, (hit, n)
    assert whole_hit / whole_n >= 0.88, (whole_hit, whole_n)
    assert false == 0, false


@pytest.mark.skipif(not (REAL / "test_labels.csv").is_file(), reason="real photos not present")
def test_real_photo_recall() -> None:
    boxes: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    with (REAL / "test_labels.csv").open() as f:
        for row in csv.DictReader(f):
            boxes[row["filename"]].append(
                tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    found = total = dets = 0
    for name, bs in boxes.items():
        img = cv2.imread(str(REAL / "test" / name))
        assert img is not None, name
        cands = detect_cards(img, DetectorConfig(with_patches=False))
        dets += len(cands)
        bbs = [g.bounding_box(c.quad) for c in cands]
        found += sum(any(g.box_iou(b, d) >= 0.5 for d in bbs) for b in bs)
        total += len(bs)
    # Today 110 of 143 found with 159 detections (102 with 167 before the specks,
    # cut-off cards and wide-snap rules of sizes.py, cutoff.py, rescue.py; 98 with
    # 243 before the seam, size and printed-shape rules: pips and carpet blobs).
    assert found / total >= 0.74, (found, total)
    assert dets <= 1.2 * total, (dets, total)  # not buying recall with phantom cards
