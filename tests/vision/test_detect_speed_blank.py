"""vision.detect.blank: the compiled blank-sheet test (kernels.blank_sheet) gives
looks_blank's numpy verdict exactly, compiled or run as plain Python
(CARDTABLE_NO_JIT=1), on every branch: not paper, smooth sheet, faint pattern,
ink (cards), and a notepad with a line of writing and a bare index corner."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import blank, detect_cards, kernels
from vision.detect.evidence import Evidence, gather
from vision.detect.tableau import grid, lay


def _sheet(img: np.ndarray, x: int, y: int, w: int, h: int, shade: int) -> np.ndarray:
    """A light sheet, a little turned, painted on `img`; its corners (full scale)."""
    q = np.array([[x, y], [x + w, y + 6], [x + w - 6, y + h], [x - 6, y + h - 6]], dtype=np.int32)
    cv2.fillConvexPoly(img, q, (shade, shade + 3, shade + 5))
    return q.astype(np.float32)


@pytest.fixture(scope="module")
def scene() -> tuple[Evidence, list[np.ndarray]]:
    img, _ = lay(deck_or_skip("gnome/anglo"), grid(["QH", "10S", None, "7C"], seed=5), seed=5)
    img = cv2.resize(img, (1280, 720)) if img.shape[:2] != (720, 1280) else img.copy()
    rng = np.random.default_rng(6)
    sheets = []
    for k in range(6):
        x, y = 40 + 140 * k, 470 + (k % 2) * 20
        q = _sheet(img, x, y, 110, 160, 232 - 5 * k)
        if k % 3 == 1:  # specks of ink
            for _ in range(2 * k):
                cv2.circle(img, (int(x + rng.uniform(15, 90)), int(y + rng.uniform(15, 140))), 3,
                           (30, 30, 30), -1)
        if k % 3 == 2:  # faint stripes
            for s in range(0, 150, 8):
                cv2.line(img, (x + 5, y + s), (x + 100, y + s + 5), (185, 185, 190), 3)
        sheets.append(q)
    # Notepads, big: a printed header across the middle (index corners bare),
    # and one with a mark in each corner as well.
    for k, x in enumerate((880, 1070)):
        q = _sheet(img, x, 60, 180, 270, 236)
        cv2.rectangle(img, (x + 40, 186), (x + 140, 196), (25, 25, 25), -1)
        if k:
            cv2.circle(img, (x + 20, 95), 7, (20, 20, 20), -1)
            cv2.circle(img, (x + 150, 300), 7, (20, 20, 20), -1)
        sheets.append(q)
    ev = gather(img)
    quads = [q * ev.scale for q in sheets]
    quads += [c.quad * ev.scale for c in detect_cards(img)]
    quads += [q + rng.normal(0, sd, (4, 2)).astype(np.float32) for q in list(quads)
              for sd in (1.0, 2.0, 4.0, 8.0)]
    h, w = ev.shape
    for _ in range(150):  # anywhere, past the borders too
        c = rng.uniform([-0.2 * w, -0.2 * h], [1.2 * w, 1.2 * h])
        a = rng.uniform(0, np.pi)
        sx, sy = rng.uniform(5, 0.3 * min(h, w), 2)
        r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quads.append((c + np.array([[-sx, -sy], [sx, -sy], [sx, sy], [-sx, sy]]) @ r.T).astype(np.float32))
    return ev, [np.asarray(q, dtype=np.float32) for q in quads]


def test_blank_sheet_equals_looks_blank(scene: tuple[Evidence, list[np.ndarray]],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ev, quads = scene
    got = [blank._looks_blank_compiled(ev, q) for q in quads]
    monkeypatch.setattr(kernels, "COMPILED", False)
    want = [blank.looks_blank(ev, q) for q in quads]
    assert got == want
    assert 10 < sum(want) < len(want) - 10  # blank sheets found, cards and the rest not


def test_every_branch_is_taken(scene: tuple[Evidence, list[np.ndarray]]) -> None:
    # The comparison above means something only if each verdict of the kernel occurs,
    # and the notepad rule says yes and no.
    ev, quads = scene
    ink = np.empty(3, dtype=np.int64)
    verdicts = set()
    for q in quads:
        o = np.empty((4, 2), dtype=np.float32)
        kernels.order_quad(q, o)
        verdicts.add(kernels.blank_sheet(ev.bright, ev.grey, blank._CARD @ o, blank._INDEXES @ o,
                                         blank._CARD_GRID, blank.INK_STEP, blank.SMOOTH, ink))
    assert verdicts == {0, 1, 2, 3}
    notepads = [blank._looks_blank_compiled(ev, q) for q in quads[6:8]]
    assert notepads == [True, False]
