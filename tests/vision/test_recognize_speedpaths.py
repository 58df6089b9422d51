"""The faster paths of a frame's recognition give what the plain ones give.

onnxruntime vs cv2.dnn (vision.recognize.runtime) on the committed model; the face
score's partial warp vs the whole one (vision.detect.faces); the index patches vs
their plain computation (vision.recognize.patch).
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from vision.recognize import runtime as rt
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier, combine
from vision.recognize.patch import extract_index_patches
from vision.training.split import heldout_decks

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")
scene = pytest.importorskip("vision.scene")


def scene_patches(seed: int, n_cards: int = 6) -> tuple[np.ndarray, list, list[np.ndarray]]:
    """A rendered held-out scene, its truth, and every true quad's two index patches."""
    rng = np.random.default_rng(seed)
    spec = scene.random_scene_spec(rng, heldout_decks(), n_cards, overlap=0.3, face_down=0.0)
    image, truth = scene.render_scene(spec, rng)
    return image, truth, [p for t in truth for p in extract_index_patches(image, t.corners)]


def test_opencv_runtime_by_name_and_by_environment(monkeypatch):
    assert IndexClassifier.load(runtime="opencv").runtime == "opencv"
    monkeypatch.setenv(rt.RUNTIME_ENV, "OpenCV")
    assert IndexClassifier.load().runtime == "opencv"


def test_onnxruntime_is_the_default_where_installed(monkeypatch):
    pytest.importorskip("onnxruntime")
    monkeypatch.delenv(rt.RUNTIME_ENV, raising=False)
    assert IndexClassifier.load().runtime == "onnxruntime"
    monkeypatch.setenv(rt.RUNTIME_ENV, "auto")
    assert IndexClassifier.load().runtime == "onnxruntime"


def test_unknown_runtime_names_the_choices(monkeypatch):
    with pytest.raises(rt.UnknownRuntime) as err:
        IndexClassifier.load(runtime="tensorflow")
    assert err.value.name == "tensorflow"
    assert "onnxruntime" in str(err.value) and rt.RUNTIME_ENV in str(err.value)
    monkeypatch.setenv(rt.RUNTIME_ENV, "cuda")
    with pytest.raises(ValueError):
        IndexClassifier.load()


def test_without_onnxruntime_auto_falls_back_and_asking_for_it_fails(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # `import onnxruntime` fails
    assert IndexClassifier.load().runtime == "opencv"
    assert IndexClassifier.load(runtime="auto").runtime == "opencv"
    with pytest.raises(rt.RuntimeUnavailable) as err:
        IndexClassifier.load(runtime="onnxruntime")
    assert "pip install onnxruntime" in str(err.value)


def test_onnxruntime_gives_cv2_dnn_probabilities_and_readings():
    pytest.importorskip("onnxruntime")
    fast, plain = IndexClassifier.load(runtime="onnxruntime"), IndexClassifier.load(
        runtime="opencv")
    assert (fast.runtime, plain.runtime) == ("onnxruntime", "opencv")
    _, _, patches = scene_patches(4)
    rng = np.random.default_rng(0)
    patches += [rng.integers(0, 256, p.shape, dtype=np.uint8) for p in patches[:4]]
    for a, b in zip(fast.forward(patches), plain.forward(patches)):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, atol=1e-5)
    ra, rb = fast.classify(patches), plain.classify(patches)
    assert [(r.rank, r.suit) for r in ra] == [(r.rank, r.suit) for r in rb]
    assert [r.confidence for r in ra] == pytest.approx([r.confidence for r in rb], abs=1e-5)
    cards_a = [combine(ra[i:i + 2], fast.calibration).card for i in range(0, len(ra), 2)]
    cards_b = [combine(rb[i:i + 2], plain.calibration).card for i in range(0, len(rb), 2)]
    assert cards_a == cards_b
    assert any(c is not None for c in cards_a)  # the comparison saw cards read


def full_warp_face_score(image: np.ndarray, quad: np.ndarray) -> float:
    """faces.face_score as it was: the whole 60 x 84 card warped, then scored."""
    import cv2

    from vision.detect import faces

    small = faces.warp_small(image, quad, faces.FACE_SIZE)
    assert small.shape[:2] == faces.FACE_SIZE[::-1]
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    paper = max(faces.paper_share(p) for p in extract_index_patches(image, quad))
    return faces.W_ASYM * faces.corner_asymmetry(grey) + faces.W_INDEX_PAPER * paper


def test_face_score_warps_only_the_rows_it_reads_and_scores_the_same():
    import cv2

    from vision.detect import faces

    image, truth, _ = scene_patches(6, n_cards=8)
    rng = np.random.default_rng(1)
    quads = [np.asarray(t.corners, np.float32) for t in truth]
    quads += [(q + rng.normal(0, 20, q.shape) + rng.normal(0, 200, (1, 2))).astype(np.float32)
              for q in quads for _ in range(3)]  # skewed, some partly off the frame
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scores = []
    for q in quads:
        for img in (image, grey):
            scores.append(faces.face_score(img, q))
            assert scores[-1] == full_warp_face_score(img, q)
    assert len(set(scores)) > len(scores) // 2  # real, varied scores were compared
    assert faces.warp_small(image, quads[0], faces.FACE_SIZE, rows=26).shape == (26, 60, 3)


def plain_index_patches(image: np.ndarray, quad: np.ndarray, size=(32, 64)) -> list[np.ndarray]:
    """extract_index_patches written plainly (every matrix built per call, sides by
    np.linalg.norm): the reference the patch module's precomputed path is held to."""
    import cv2

    from vision.recognize.patch import INDEX_BOX, normalize_quad

    q = normalize_quad(quad)
    pw, ph = size
    x0, y0, x1, y1 = INDEX_BOX
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    w = 0.5 * float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]))
    h = 0.5 * float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))
    k = int(max(1.0, np.ceil(max(w * (x1 - x0) / pw, h * (y1 - y0) / ph) / 1.5)))
    p2c = np.array([[(x1 - x0) / pw, 0, x0], [0, (y1 - y0) / ph, y0], [0, 0, 1]]) @ np.array(
        [[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    if k > 1:
        p2c = p2c @ np.diag([1 / k, 1 / k, 1])
    out = []
    for corners in (q, q[[2, 3, 0, 1]]):
        m = cv2.getPerspectiveTransform(unit, corners).astype(np.float64) @ p2c
        m = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]]) @ m
        p = cv2.warpPerspective(image, m, (pw * k, ph * k),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
        out.append(cv2.resize(p, (pw, ph), interpolation=cv2.INTER_AREA) if k > 1 else p)
    return out


def test_index_patches_are_those_of_the_plain_computation():
    import cv2

    from vision.recognize.patch import index_quads_and_patches

    image, truth, _ = scene_patches(7, n_cards=5)
    big = cv2.resize(image, None, fx=3, fy=3)  # indices far larger than a patch: k > 1
    rng = np.random.default_rng(2)
    cases = []
    for t in truth:
        q = np.asarray(t.corners, np.float32)
        cases += [(image, q), (image, q[::-1].copy()), (big, q * 3), (big, q * 2.5 + 7)]
        cases += [(image, (q + rng.normal(0, 15, q.shape)).astype(np.float32))]
    for img, q in cases:
        want = plain_index_patches(img, q)
        got = extract_index_patches(img, q)
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
        assert all(np.array_equal(a, b) for a, b in zip(index_quads_and_patches(img, q)[1], want))
    small = plain_index_patches(image, cases[0][1], (16, 32))
    assert all(np.array_equal(a, b) for a, b in zip(
        extract_index_patches(image, cases[0][1], (16, 32)), small))
