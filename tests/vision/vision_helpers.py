"""Helpers shared by the vision tests (on pytest's pythonpath, see pyproject.toml)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from vision import cardart


def deck_or_skip(name: str) -> cardart.DeckArt:
    """The deck `name`, rendered once; skips the test where its Debian package is missing."""
    try:
        deck = cardart.find_deck(name)
        cardart.render_card(deck, "AS", 60)
    except cardart.CardArtError as e:  # packages missing on this machine
        pytest.skip(f"card art unavailable: {e}")
    return deck


def real_boxes(split: str, name: str) -> list[tuple[float, float, float, float]]:
    """The labelled boxes (the visible part of each card) of one real photo."""
    from vision.evaluate import REAL_PHOTOS, real_labels

    return [box for _, box in real_labels(REAL_PHOTOS, split)[name]]


def squeezed_detections(name: str, sx: float, sy: float
                        ) -> tuple[list[list[float]], list[int | None], int]:
    """A real train photo resized `sx` x `sy`, through the stills detector: the box IoU
    of each labelled card (its box resized too) with each detection, the detection
    matched to each card as the real photo evaluation matches them (above 0.4), and
    how many detections there are."""
    import cv2

    from vision.detect import DetectorConfig, detect_cards
    from vision.detect import geometry as g
    from vision.evaluate import REAL_PHOTOS, best_matches, stretched

    img = cv2.imread(str(REAL_PHOTOS / "images" / "train" / name))
    assert img is not None, name
    img = stretched(img, sx, sy)
    boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for x0, y0, x1, y1 in real_boxes("train", name)]
    found = [g.bounding_box(c.quad) for c in detect_cards(img, DetectorConfig(with_patches=False))]
    iou = [[g.box_iou(b, f) for f in found] for b in boxes]
    return iou, best_matches(iou, 0.4), len(found)


def _detected_boxes(split: str, name: str) -> list[tuple[float, float, float, float]]:
    import cv2

    from vision.detect import DetectorConfig, detect_cards
    from vision.detect import geometry as g
    from vision.evaluate import REAL_PHOTOS

    img = cv2.imread(str(REAL_PHOTOS / "images" / split / name))
    assert img is not None, name
    return [g.bounding_box(c.quad) for c in detect_cards(img, DetectorConfig(with_patches=False))]


def matched_box_ious(name: str, split: str = "train") -> tuple[list[float], int]:
    """Box IoU of each labelled card of a real photo with the detection matched to it
    as the real photo evaluation matches them (one each, above 0.4; 0 when none), and
    how many cards were detected."""
    from vision.detect import geometry as g
    from vision.evaluate import best_matches

    found = _detected_boxes(split, name)
    iou = [[g.box_iou(b, f) for f in found] for b in real_boxes(split, name)]
    return [iou[i][j] if j is not None else 0.0
            for i, j in enumerate(best_matches(iou, 0.4))], len(found)


def best_box_iou(name: str, split: str = "train") -> float:
    """The best box IoU of any detection with a real photo's one labelled card."""
    from vision.detect import geometry as g

    (box,) = real_boxes(split, name)
    return max((g.box_iou(f, box) for f in _detected_boxes(split, name)), default=0.0)


#: Inputs of a stand-in index network: a 64x32 BGR patch, flattened.
FEATURES = 3 * 64 * 32


def tiny_index_net(path: Path, seed: int, outputs=("rank", "suit", "embedding")) -> None:
    """Write to `path` a tiny stand-in index network (Flatten + one Gemm per output)
    with random weights."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    sizes = {"rank": 14, "suit": 5, "embedding": 64}
    inits, nodes, outs = [], [helper.make_node("Flatten", ["patch"], ["flat"])], []
    for o in outputs:
        w = rng.normal(0, 0.05, (sizes[o], FEATURES)).astype(np.float32)
        b = rng.normal(0, 0.5, sizes[o]).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"{o}.w"), numpy_helper.from_array(b, f"{o}.b")]
        nodes.append(helper.make_node("Gemm", ["flat", f"{o}.w", f"{o}.b"], [o], transB=1))
        outs.append(helper.make_tensor_value_info(o, TensorProto.FLOAT, ["n", sizes[o]]))
    graph = helper.make_graph(
        nodes, "member", [helper.make_tensor_value_info("patch", TensorProto.FLOAT,
                                                        ["n", 3, 64, 32])], outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.save(model, str(path))


class TableClassifier:
    """Stands in for IndexClassifier in calibration tests: a patch's first two pixels
    (row % 256, row // 256: see `table_patch`) are a row of a table of (rank prob,
    suit prob) for the card `read_as[row]`; the rest of each head's mass goes to an
    8 and to another suit."""

    def __init__(self, table: list[tuple[float, float]], read_as: list[str]) -> None:
        from vision.recognize.classifier import Calibration

        self.table = table
        self.read_as = read_as
        self.calibration = Calibration()

    def forward(self, patches):  # type: ignore[no-untyped-def]
        import numpy as np

        from vision.types import RANKS, SUITS

        pr = np.full((len(patches), 14), 1e-6)
        ps = np.full((len(patches), 5), 1e-6)
        for k, p in enumerate(patches):
            row = int(p[0, 0, 0]) + 256 * int(p[0, 0, 1])
            rp, sp = self.table[row]
            card = self.read_as[row]
            pr[k, RANKS.index(card[:-1])] = rp
            pr[k, RANKS.index("8")] += 1 - rp
            ps[k, SUITS.index(card[-1])] = sp
            ps[k, SUITS.index("D" if card[-1] != "D" else "C")] += 1 - sp
        pr /= pr.sum(axis=1, keepdims=True)
        ps /= ps.sum(axis=1, keepdims=True)
        return pr, ps, np.zeros((len(patches), 64))


def table_patch(row: int):  # type: ignore[no-untyped-def]
    """A blank 64x32 patch naming `row` of a TableClassifier's table."""
    import numpy as np

    out = np.zeros((64, 32, 3), np.uint8)
    out[0, 0, 0], out[0, 0, 1] = row % 256, row // 256
    return out


@dataclass
class Cand:
    """A detector candidate as the reader sees it (vision.detect.CardCandidate's
    fields that reading uses)."""

    corners: tuple
    face_down: bool = False
    index_visible: tuple[bool, bool] = (True, True)
    index_patches: tuple = ()
    visible: float = 1.0  # share of the card seen (the detector's `visible`)


def scattered_quads(rng: np.random.Generator, h: int, w: int, n: int, smallest: float
                    ) -> list[np.ndarray]:
    """`n` random turned rectangles over an h x w frame and past its borders (half sides
    from `smallest` px), then a point-sized one and one on half-pixel corners (both
    ways of rounding must agree): quads a compiled kernel must treat as numpy does."""
    out = []
    for _ in range(n):
        c = rng.uniform([-0.2 * w, -0.2 * h], [1.2 * w, 1.2 * h])
        a = rng.uniform(0, np.pi)
        sx, sy = rng.uniform(smallest, 0.4 * min(h, w), 2)
        r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        out.append(c + np.array([[-sx, -sy], [sx, -sy], [sx, sy], [-sx, sy]]) @ r.T)
    out.append(np.full((4, 2), 10.5))
    out.append(np.array([[10.5, 10.5], [50.5, 10.5], [50.5, 90.5], [10.5, 90.5]]))
    return out


def without_numba(monkeypatch: pytest.MonkeyPatch, fn, *args, **kw):  # type: ignore[no-untyped-def]
    """fn as it runs without numba (the detector's numpy code)."""
    from vision.detect import kernels

    with monkeypatch.context() as m:
        m.setattr(kernels, "COMPILED", False)
        return fn(*args, **kw)


def stills_read_on_training_scene(seed: int, scene: int, least: int) -> None:
    """Render scene `scene` (counted from 0) of the training decks' random scenes at
    `seed` (8 cards, overlap 0.4, a tenth face down, as the sweeps made them), read it
    through the whole stills chain, and check that at least `least` cards are read and
    every card read lies on its own truth more than on any other card's."""
    import cv2

    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.overlap import quad_iou
    from vision.recognize.reader import read_candidates, still_detector

    cv2.setNumThreads(1)
    image, truth = training_scene(seed, scene)
    clf = IndexClassifier.load()
    read = [s for s in read_candidates(clf, image, still_detector(clf)(image)) if s.card]
    assert len(read) >= least, [s.card for s in read]
    for s in read:
        best = max(truth, key=lambda t: quad_iou(t.corners, s.corners))
        assert best.card == s.card, (s.card, best.card)


def card_on_table(deck: str, card: str, quad_offset: np.ndarray, height: int,
                  turned: bool = False) -> tuple[np.ndarray, tuple]:
    """`card` of `deck` rendered `height` px tall on a green table, its corners moved by
    `quad_offset` (4 x 2: where each lands), turned 180° if asked; the image and quad."""
    import cv2

    art = cardart.render_card(deck_or_skip(deck), card, height)
    h, w = art.shape[:2]
    img = np.full((height + 160, w + 300, 3), (40, 90, 30), np.uint8)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    quad = src + np.float32(quad_offset)
    warped = cv2.warpPerspective(art, cv2.getPerspectiveTransform(src, quad),
                                 (img.shape[1], img.shape[0]))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    img = (warped[:, :, :3] * alpha + img * (1 - alpha)).astype(np.uint8)
    if turned:
        img = img[::-1, ::-1].copy()
        quad = np.float32([img.shape[1] - 1, img.shape[0] - 1]) - quad
    return img, tuple(map(tuple, quad))


def real_train_photo(name: str, sx: float = 1.0, sy: float = 1.0) -> np.ndarray:
    """Real train photo `name` resized (sx, sy) as evaluate_real resizes it; the test
    is skipped where the shared photos are not beside the checkout."""
    from vision.evaluate import REAL_PHOTOS, stretched
    from vision.recognize.imagefile import load_image

    path = REAL_PHOTOS / "images" / "train" / name
    if not path.is_file():
        pytest.skip("real photos not here")
    return stretched(load_image(path), sx, sy)


def read_right_on_real_train(name: str, sx: float = 1.0, sy: float = 1.0) -> dict[int, str]:
    """{label number: card} for the labelled cards of real train photo `name`
    (resized sx, sy) that `read_image` reads at their labelled rank, matched as
    evaluate_real matches, on one OpenCV thread as evaluation runs."""
    import cv2

    from vision.evaluate import REAL_PHOTOS, match_real, real_labels
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_image

    image = real_train_photo(name, sx, sy)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        sightings = read_image(IndexClassifier.load(), image)
    finally:
        cv2.setNumThreads(threads)
    labels = real_labels(REAL_PHOTOS, "train")[name]
    boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for _, (x0, y0, x1, y1) in labels]
    match = match_real(boxes, [s.corners for s in sightings])
    out = {}
    for k, ((rank, _), j) in enumerate(zip(labels, match)):
        card = sightings[j].card if j is not None else None
        if card and card[:-1] == rank:
            out[k] = card
    return out


def training_scene(seed: int, scene: int, *, calibration: bool = False):  # type: ignore[no-untyped-def]
    """(image, truth) of scene `scene` (counted from 0) of the training decks' random
    scenes at `seed`, as the sweeps and `scripts/measure.py train:SEED:N:...` make them
    (8 cards, overlap 0.4, a tenth face down); `calibration`: of the calibration decks
    (`cal:SEED:N:...`)."""
    from vision.evaluate import rendered_scenes
    from vision.training.split import calibration_decks, training_decks

    decks = calibration_decks() if calibration else training_decks()
    for drawn in rendered_scenes(decks, scene + 1, seed):
        pass  # each scene is drawn in turn: the last is the one asked for
    return drawn


def stills_read(image: np.ndarray) -> list:
    """The stills chain's cards of `image`, as `cardtable recognize` reads them."""
    import cv2

    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    return without_doubles(read_candidates(clf, image, still_detector(clf)(image)))


def stills_read_right(seed: int, scene: int, cards: tuple[str, ...]) -> None:
    """The stills chain reads `cards` of that training scene where they lie, and
    nothing wrong nor where no card lies."""
    from vision.evaluate import match_rendered

    image, truth = training_scene(seed, scene)
    read = stills_read(image)
    match = match_rendered(truth, read)
    got = {t.card: read[j].card for t, j in zip(truth, match) if j is not None}
    for card in cards:
        assert got.get(card) == card, (card, got)
    assert all(v is None or v == k for k, v in got.items()), got
    assert sum(1 for j, s in enumerate(read) if s.card and j not in match) == 0


def training_photo(seed: int, i: int):  # type: ignore[no-untyped-def]
    """Photo `i` of the phone-like photos of the training decks drawn with `seed`, as
    `scripts/measure.py photos:SEED:N:train` draws them: (spec, image, truth)."""
    from vision.scene.photos import random_photo_spec, render_photo
    from vision.training.split import training_decks

    decks = [d.name for d in training_decks()]
    rng = np.random.default_rng(seed)
    for _ in range(i + 1):
        spec = random_photo_spec(rng, decks)
    image, truth = render_photo(spec, np.random.default_rng([seed, i]))
    return spec, image, truth


def card_on_cloth(deck: str, card: str, height: int = 240
                  ) -> tuple[np.ndarray, tuple[tuple[int, int], ...]]:
    """`card` of `deck` upright on green cloth at (80, 80), `height` px tall: the
    image and the card's quad (clockwise from its top-left)."""
    from vision.cardart import render_card

    art = render_card(deck_or_skip(deck), card, height)
    h, w = art.shape[:2]
    img = np.full((h + 160, w + 160, 3), (40, 90, 30), np.uint8)
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    roi = img[80:80 + h, 80:80 + w]
    roi[:] = (art[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
    return img, ((80, 80), (80 + w - 1, 80), (80 + w - 1, 80 + h - 1), (80, 80 + h - 1))


def art_on_table(art: np.ndarray, height: int, angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """`art` (BGRA: a card's face or back) `height` px tall, turned `angle_deg`, on a
    green table: the image and the art's quad in it."""
    import cv2

    h0, w0 = art.shape[:2]
    size = int(height * 1.6)
    img = np.full((size, size, 3), (40, 90, 30), np.uint8)
    a = np.deg2rad(angle_deg)
    w = height * w0 / h0
    rel = np.float32([[-w / 2, -height / 2], [w / 2, -height / 2],
                      [w / 2, height / 2], [-w / 2, height / 2]])
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = (rel @ rot.T + size / 2).astype(np.float32)
    src = np.float32([[0, 0], [w0, 0], [w0, h0], [0, h0]])
    warped = cv2.warpPerspective(art, cv2.getPerspectiveTransform(src, quad), (size, size))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    return (warped[:, :, :3] * alpha + img * (1 - alpha)).astype(np.uint8), quad
