"""vision.detect.select: the compiled outline sampling and greedy bookkeeping give
exactly what the numpy code gives (the path run without numba), on the quads of a
real table: cards, near misses, quads running off the frame, degenerate ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from vision_helpers import deck_or_skip, scattered_quads, without_numba

from vision.detect import detect_cards, kernels, outline, select
from vision.detect.evidence import Evidence, gather
from vision.detect.tableau import grid, lay

pytestmark = pytest.mark.skipif(not kernels.COMPILED, reason="numba missing or CARDTABLE_NO_JIT set")


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    img, _ = lay(deck_or_skip("gnome/anglo"), grid(["QH", "10S", None, "7C", "KS", "2H"], seed=3),
                 seed=3)
    return img


@pytest.fixture(scope="module")
def ev(table: np.ndarray) -> Evidence:
    return gather(table)


def _quads(ev: Evidence, rng: np.random.Generator) -> np.ndarray:
    """Quads where the evidence is: the cards found (and jittered a little), random
    ones over the frame and past its borders, a point-sized one."""
    h, w = ev.shape
    found = [c.quad * ev.scale for c in detect_cards(ev.color)]
    assert found
    out = list(found)
    for q in found:
        for _ in range(30):
            out.append(q + rng.normal(0, 1.0, (4, 2)))
    out += scattered_quads(rng, h, w, 200, 5)
    return np.stack(out).astype(np.float32)


@pytest.mark.parametrize("n", [outline.SIDE_SAMPLES, 40])
def test_outline_flags_and_polarity_equal_numpy(ev: Evidence, monkeypatch: pytest.MonkeyPatch,
                                                n: int) -> None:
    quads = _quads(ev, np.random.default_rng(n))
    on = outline.outline_flags(ev, quads, n)
    on_plain = without_numba(monkeypatch, outline.outline_flags, ev, quads, n)
    assert on.shape == (len(quads), 4 * n)
    assert 0.02 < on_plain.mean() < 0.98  # the case is not trivial
    np.testing.assert_array_equal(on, on_plain)
    pol = outline.polarity(ev, quads, n)
    pol_plain = without_numba(monkeypatch, outline.polarity, ev, quads, n)
    assert (pol_plain == 1).any() and (pol_plain == -1).any()
    np.testing.assert_array_equal(pol, pol_plain)
    # Only where asked (choose: the points on an edge), 0 elsewhere.
    pol_on = outline.polarity(ev, quads, n, where=on)
    np.testing.assert_array_equal(pol_on, np.where(on, pol_plain, 0))
    np.testing.assert_array_equal(pol_on, without_numba(monkeypatch, outline.polarity, ev, quads, n, where=on))
    pts, on2 = outline.outline_on(ev, quads, n)
    np.testing.assert_array_equal(on2, on)
    assert pts.shape == (len(quads), 4 * n, 2)


def test_overshoot_and_table_like_equal_numpy(ev: Evidence,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(9)
    quads = _quads(ev, rng)
    over = outline.overshoot(ev, quads)
    over_plain = without_numba(monkeypatch, outline.overshoot, ev, quads)
    assert 5 < len(set(over_plain.tolist())) and (over_plain == 0).any()
    np.testing.assert_array_equal(over, over_plain)
    # table_like with no, one and several quads lying on it (their points left out).
    got, want = [], []
    for k, q in enumerate(quads):
        covered = [quads[j] for j in rng.choice(len(quads), k % 4, replace=False)]
        covered += [q + rng.normal(0, 8.0, (4, 2)).astype(np.float32)] if k % 5 == 0 else []
        got.append(outline.table_like(ev, q, covered))
        want.append(without_numba(monkeypatch, outline.table_like, ev, q, covered))
    assert 10 < sum(want) < len(want) - 10
    assert got == want


def test_score_many_equals_numpy(ev: Evidence, monkeypatch: pytest.MonkeyPatch) -> None:
    quads = list(_quads(ev, np.random.default_rng(5)))
    a = select.score_many(ev, quads)
    b = without_numba(monkeypatch, select.score_many, ev, quads)
    assert [(s.support, s.side_min) for s in a] == [(s.support, s.side_min) for s in b]
    assert all(x.on is not None and y.on is not None and np.array_equal(x.on, y.on)
               for x, y in zip(a, b))


@pytest.fixture(scope="module")
def piles() -> list[np.ndarray]:
    """Rendered tables of 8 overlapping cards (as bench vision's frame): choose's
    bookkeeping of outline points hidden under cards taken first matters here."""
    from vision.scene import SceneRenderer, random_scene_spec, render_scene

    deck = deck_or_skip("gnome/anglo")
    r = SceneRenderer()
    out = []
    for seed in (77, 80, 81):
        rng = np.random.default_rng(seed)
        out.append(render_scene(random_scene_spec(rng, [deck], 8, overlap=0.3), rng, r)[0])
    return out


def test_choose_equals_numpy(table: np.ndarray, piles: list[np.ndarray],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    # choose as the detector calls it (hypotheses, sizes, options), on a table of
    # cards apart and on piles of overlapping ones.
    calls: list[tuple[Evidence, list[select.Scored], dict[str, Any]]] = []
    choose = select.choose

    def record(ev: Evidence, hyps: list[select.Scored], **kw: Any) -> list[select.Chosen]:
        calls.append((ev, hyps, kw))
        return choose(ev, hyps, **kw)

    monkeypatch.setattr(select, "choose", record)
    for img in [table, *piles]:
        detect_cards(img)
    monkeypatch.setattr(select, "choose", choose)
    assert len(calls) == 4
    for ev, hyps, kw in calls:
        a = select.choose(ev, hyps, **kw)
        b = without_numba(monkeypatch, select.choose, ev, hyps, **kw)
        assert len(a) >= 5
        assert [(c.support, c.visible_outline) for c in a] == [(c.support, c.visible_outline) for c in b]
        assert all(np.array_equal(x.quad, y.quad) for x, y in zip(a, b))


def test_cover_outlines_equals_numpy_update(ev: Evidence) -> None:
    # The tallies after each chosen card, against choose's numpy update (inside_quads
    # on the outline points of the live outlines near the card), card after card.
    rng = np.random.default_rng(11)
    quads = _quads(ev, rng)
    h = len(quads)
    on = rng.random((h, 4 * outline.SIDE_SAMPLES)) < 0.7
    signed = np.where(on, rng.integers(-1, 2, on.shape), 0).astype(np.int8)
    pts = outline.outline_points(quads).reshape(h, -1, 2)
    alive = rng.random(h) < 0.8
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    got = [np.zeros(on.shape, dtype=bool)] + [np.zeros(h, dtype=np.int64) for _ in range(4)]
    want = [np.zeros(on.shape, dtype=bool)] + [np.zeros(h, dtype=np.int64) for _ in range(4)]
    moved = 0
    for picked in rng.choice(h, 12, replace=False):
        x0, y0 = quads[picked].min(axis=0) - 3.0
        x1, y1 = quads[picked].max(axis=0) + 3.0
        before = got[1].copy()
        kernels.cover_outlines(quads, outline.SIDE_T, 1 - outline.SIDE_T,
                               outline.quad_lines([quads[picked]], 2.5)[0],
                               np.array([x0, y0, x1, y1], dtype=np.float32), alive, lo, hi,
                               got[0], on, signed, *got[1:])
        near = np.flatnonzero(alive & (lo[:, 0] <= x1) & (hi[:, 0] >= x0)
                              & (lo[:, 1] <= y1) & (hi[:, 1] >= y0))
        cov = want[0]
        cov[near] |= outline.inside_quads(pts[near].reshape(-1, 2), [quads[picked]], 2.5).reshape(
            len(near), -1)
        vis = ~cov[near]
        want[1][near] = vis.sum(axis=1)
        want[2][near] = (on[near] & vis).sum(axis=1)
        sv = np.where(vis, signed[near], 0)
        want[3][near] = sv.sum(axis=1)
        want[4][near] = (sv != 0).sum(axis=1)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
        moved += int((got[1] != before).sum())
    assert moved > 20  # cards did hide outline points of others


def test_seam_scan_equals_seam_lines(ev: Evidence) -> None:
    # kernels.seam_scan is ready for seams.seam_lines (not wired there yet: the
    # inputs below are what seam_lines works out before sampling); it must give
    # seam_lines' flags, paper tests and points exactly.
    from vision.detect import seams
    from vision.detect.evidence import side_masks

    quads = _quads(ev, np.random.default_rng(4))
    flags, paper, pts = seams.seam_lines(ev, quads)
    f = seams.OFFSETS[None, :, None]
    starts, ends, across = [], [], []
    for a, b, c, d in ((0, 3, 1, 2), (0, 1, 3, 2)):
        starts.append(quads[:, None, a] * (1 - f) + quads[:, None, b] * f)
        ends.append(quads[:, None, c] * (1 - f) + quads[:, None, d] * f)
        across.append(np.repeat((quads[:, None, b] - quads[:, None, a]) * 0.06, len(seams.OFFSETS), axis=1))
    start, end, step = (np.concatenate(x, axis=1) for x in (starts, ends, across))
    dv = end - start
    masks = side_masks(np.degrees(np.arctan2(dv[..., 1], dv[..., 0])))
    got = (np.empty(flags.shape, dtype=np.int8), np.empty(paper.shape, dtype=bool),
           np.empty(pts.shape, dtype=np.float32))
    along = seams.ALONG
    kernels.seam_scan(ev.bits, ev.bright, start, end, along, 1 - along, masks, step,
                      (along >= 0.1) & (along <= 0.9), 0.8, got[2], got[0], got[1])
    assert (flags == 2).any() and (flags == 1).any() and paper.any()  # not a trivial case
    np.testing.assert_array_equal(got[0], flags)
    np.testing.assert_array_equal(got[1], paper)
    np.testing.assert_array_equal(got[2], pts)


def test_seam_busy_and_cut_equal_seams() -> None:
    # kernels.seam_busy / seam_cut, ready for seams.SeamCache (not wired yet), must
    # give seams._patterned's busy rows and seams.seams' verdicts exactly: random
    # line flags from sparse to dense, paper tests and card-like quads.
    from vision.detect import seams

    rng = np.random.default_rng(2)
    h, lines = 3000, 2 * len(seams.OFFSETS)
    density = rng.uniform(0.02, 0.6, (h, 1))
    flags = np.where(rng.random((h, lines)) < density, rng.integers(1, 3, (h, lines)), 0).astype(np.int8)
    paper = rng.random((h, lines)) < 0.5
    distinct = rng.random(h) < 0.5
    pattern = seams._patterned(flags > 0, lines // 2)
    want = seams.seams(flags, paper, distinct, pattern.copy())
    busy = np.empty(h, dtype=bool)
    kernels.seam_busy(flags, busy)
    np.testing.assert_array_equal(busy, pattern.any(axis=1))
    central = seams._CENTRAL  # the lines where paper seams count
    got = np.empty((h, lines), dtype=bool)
    kernels.seam_cut(flags, paper, distinct, central, got)
    assert 0.1 < busy.mean() < 0.9 and 0.02 < want.mean() < 0.5  # not a trivial case
    np.testing.assert_array_equal(got, want)
