"""Cards lying in a row, each partly over the next (a player's spread), found
whole as one card.

Why: two cards side by side, the second laid half over the first, make an outline
1.5 cards wide and one card high: 94 x 88 mm, or three cards 126 x 88 mm, which is
as card-shaped as a card turned sideways; it is found whole and taken for one card,
and both cards are lost. What gives it away is the border of the upper card
crossing it from side to side. Between two white cards that border is only a thin
shadow line, too faint for the frame's Canny edges (whose level the table's wood
grain or carpet sets), so neither splits.py nor seams.py sees it. Here the line is
looked for in the gradient itself, across the outline and reaching the outline's
border at both ends (through the cards' white margins, where a card prints
nothing: a court picture's frame stops short of them), with the upper card's
margin quiet beside it on one side (a picture has edges on both). A row whose
seam is found is no card (`drop_rows`), and its cards are proposed
(`row_guesses`, not snapped: the hidden side of a covered card snaps onto the
pictures of the card lying on it): the parts either side of the line and cards
of the group's height at its two ends. (Drawing the line into the edge map
instead, for seams.py to refuse the row, gave a wrong reading on the real train
photos.) Rows not found whole (a notch where the cards' ends are not in line)
give the cards at their ends from their outlines' bounding rectangles
(`end_guesses`).
"""

from __future__ import annotations

from typing import TypeVar

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import Evidence
from vision.detect.prune import Outline

#: Positions across the outline tried for a seam (share of its width), and the
#: tilts (the far end moved by this share of its side: cards in a row lie a few
#: degrees apart).
ROW_STEPS = np.linspace(0.15, 0.85, 36)
ROW_TILTS = (-0.03, 0.0, 0.03)
#: Samples along a line; those within ROW_END of either end are its ends (the
#: cards' white margins: a court picture's frame starts some 8% in).
_ENDS = np.array([0.012, 0.024, 0.036, 0.048, 0.06])
ROW_ALONG = np.concatenate([_ENDS, np.linspace(0.1, 0.9, 21), 1 - _ENDS[::-1]])
ROW_END = 0.07
#: A sample is on the line when the gradient across it, within ROW_REACH px,
#: reaches ROW_GRADIENT (Sobel of the blurred grey image; the seams of the real
#: train photos' rows reached it along 80-100% of their length, at 40 along most).
ROW_REACH = 2
ROW_GRADIENT = 20.0
#: Share of the middle samples that must be on the line, of each end's, and of
#: both ends' (one end of a seam often lies in the shade of the table's edge).
ROW_ON = 0.8
ROW_END_MIN = 0.4
ROW_ENDS = 0.7
#: Beside the line, ROW_QUIET_PX px off it, one side must be quiet (gradient under
#: ROW_GRADIENT) at ROW_QUIET of the middle samples: the upper card's margin.
ROW_QUIET_PX = 5.0
ROW_QUIET = 0.8
#: `end_guesses`: an outline filling this share of its bounding rectangle or
#: more may be a row (the notches where its cards' ends are not in line are small).
ROW_FILL = 0.85
#: `end_guesses` without cards found whole: a row's length is this many times
#: its height or more.
ROW_OBLONG = 1.1
#: Card aspects (long / short) for the cards of the row's height.
ROW_ASPECTS = (1.38, 1.48)
#: Outlines looked at (`candidates`): those this much bigger than the smallest
#: found whole, of up to ROW_FEW, or than the middle one of more.
ROW_FEW = 3
ROW_BIGGER = 1.25


def candidates(quads: list[np.ndarray]) -> tuple[list[np.ndarray], list[float]]:
    """The outlines found whole worth scanning for a row's seam: a frame's only
    one (nothing to compare sizes with), else those ROW_BIGGER times the size of
    the smallest (of up to ROW_FEW; the middle one of more) or more; and the long
    sides of the others, the cards' heights a row may have. (Scanning every card
    cost about 1 ms a frame on the bench's rendered tables.)"""
    if len(quads) <= 1:
        return list(quads), []
    areas = np.array([g.quad_area(q) for q in quads])
    ref = float(areas.min() if len(quads) <= ROW_FEW else np.median(areas))
    big = areas >= ROW_BIGGER * ref
    longs = [float(g.short_long(q[None])[0, 1]) for q, b in zip(quads, big) if not b]
    return [q for q, b in zip(quads, big) if b], longs


def row_seams(ev: Evidence, quads: list[np.ndarray], longs: list[float] | None = None
              ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """Faint straight lines crossing the outlines `quads` from side to side,
    parallel to a pair of their sides, where the group would be a row of cards of
    its height (one of `longs`, the cards' long sides, within 15%, if given):
    (quad, line start, line end, way) for each, way 0 from side q0-q1 to side
    q3-q2, way 1 from q0-q3 to q1-q2."""
    out = []
    s = ROW_ALONG
    ends = (s <= ROW_END) | (s >= 1 - ROW_END)
    h, w = ev.shape
    for q in quads:
        q = np.asarray(q, dtype=np.float32)
        # The quad's neighbourhood only: gradients across each way's lines there.
        x0, y0 = (max(0, int(v) - 10) for v in q.min(axis=0))
        x1, y1 = (min(lim, int(v) + 11) for v, lim in zip(q.max(axis=0), (w, h)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        gx, gy = ev.gx[y0:y1, x0:x1], ev.gy[y0:y1, x0:x1]
        mag: np.ndarray | None = None
        origin = np.array([x0, y0], dtype=np.float32)
        for way, (a0, a1, b0, b1) in enumerate(((0, 1, 3, 2), (0, 3, 1, 2))):
            height = 0.5 * (g.lengths(q[[b0, b1]] - q[[a0, a1]]).sum())  # along the line
            width = 0.5 * float(np.linalg.norm(q[a1] - q[a0]) + np.linalg.norm(q[b1] - q[b0]))
            card_w = height / ROW_ASPECTS[1]
            if width < 1.1 * card_w or width > 3.2 * card_w:
                continue  # one card, or no row of cards this high
            if longs and not any(0.85 * v <= height <= 1.15 * v for v in longs):
                continue  # not as high as the cards
            t = ROW_STEPS[:, None]
            tb = np.clip(t + np.array(ROW_TILTS)[None, :], 0.0, 1.0)  # (T, K)
            p = q[a0] * (1 - t[..., None]) + q[a1] * t[..., None]  # (T, 1, 2)
            r = q[b0] * (1 - tb[..., None]) + q[b1] * tb[..., None]  # (T, K, 2)
            p = np.broadcast_to(p, r.shape)
            pts = p[..., None, :] * (1 - s[:, None]) + r[..., None, :] * s[:, None]  # (T, K, S, 2)
            # The gradient across the lines (their tilts differ by a degree or
            # two: one direction serves), its largest within ROW_REACH px.
            along = (q[b0] + q[b1] - q[a0] - q[a1]) / 2
            n0 = np.array([-along[1], along[0]], dtype=np.float32) / (float(np.linalg.norm(along)) + 1e-9)
            across = cv2.dilate(np.abs(cv2.addWeighted(gx, float(n0[0]), gy, float(n0[1]), 0.0)),
                                _reach(n0))
            # The ends first (the margins: few lines pass), then the middles of
            # the lines that do.
            on_end = _at(across, pts[..., ends, :] - origin) >= ROW_GRADIENT
            e1, e2 = on_end[..., :_N_END].mean(axis=-1), on_end[..., _N_END:].mean(axis=-1)
            ok = (np.minimum(e1, e2) >= ROW_END_MIN) & (e1 + e2 >= 2 * ROW_ENDS)
            if not ok.any():
                continue
            ti, ki = np.nonzero(ok)
            mids = pts[ti, ki][:, ~ends]  # (L, M, 2)
            on_mid = _at(across, mids - origin) >= ROW_GRADIENT
            mid = np.zeros(ok.shape)
            mid[ti, ki] = on_mid.mean(axis=-1)
            ok &= mid >= ROW_ON
            if not ok.any():
                continue
            # The upper card's white margin: no edge just beside the line on (at
            # least) one side; a court picture has edges on both.
            if mag is None:
                mag = cv2.magnitude(gx, gy)
            ti, ki = np.nonzero(ok)
            quiet = np.zeros(ok.shape, dtype=bool)
            for side in (-ROW_QUIET_PX, ROW_QUIET_PX):
                beside = _at(mag, pts[ti, ki][:, ~ends] + side * n0 - origin)
                quiet[ti, ki] |= (beside < ROW_GRADIENT).mean(axis=-1) >= ROW_QUIET
            ok &= quiet
            if not ok.any():
                continue
            score = np.where(ok, mid + (e1 + e2) / 2, -1.0)
            per_t = score.max(axis=1)
            tilt = score.argmax(axis=1)
            for i in np.flatnonzero(per_t > 0):
                lo, hi = max(0, i - 2), min(len(per_t), i + 3)
                if per_t[i] < per_t[lo:hi].max() or (per_t[lo:i] == per_t[i]).any():
                    continue  # one line per run of positions: the best, the first of equals
                # The line must be a card's border: a card of the row's height
                # reaches from it to one end of the group.
                at = float(ROW_STEPS[i])
                near = min(at, 1 - at) * width
                if near > 1.35 * card_w and width - near > 1.35 * card_w:
                    continue
                out.append((q, p[i, tilt[i]].copy(), r[i, tilt[i]].copy(), way))
    return out


#: Samples at each end of a line.
_N_END = int((ROW_ALONG <= ROW_END).sum())


def _reach(n: np.ndarray) -> np.ndarray:
    """A dilation kernel reaching ROW_REACH px either way along direction `n`
    (the largest value across a line within that reach, in one lookup)."""
    size = 2 * ROW_REACH + 1
    kernel = np.zeros((size, size), np.uint8)
    c = np.array([ROW_REACH, ROW_REACH], dtype=np.float32)
    a, b = np.rint(c - ROW_REACH * n).astype(int), np.rint(c + ROW_REACH * n).astype(int)
    cv2.line(kernel, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1, 1)
    return kernel


def _at(arr: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Nearest-pixel values of `arr` at points (..., 2), clipped to its edge."""
    ij = np.rint(pts).astype(np.int64)
    x = np.minimum(np.maximum(ij[..., 0], 0), arr.shape[1] - 1)
    y = np.minimum(np.maximum(ij[..., 1], 0), arr.shape[0] - 1)
    return arr[y, x]


def row_guesses(seams: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]) -> list[np.ndarray]:
    """Card quads of the rows whose seams were found: the parts either side of
    each seam (the upper card, and what shows of the one under it), and cards of
    the group's height lying at its two ends (the bottom card of a row runs on
    under the next one, past the seam).

    (Not card-sized quads reaching from the line, as splits.py proposes: snapped
    onto the upper card's pips, one beat that card, a phantom on the training
    decks.)
    """
    out: list[np.ndarray] = []
    sides = ((0, 1, 3, 2), (0, 3, 1, 2))
    for q, p, r, way in seams:
        a0, a1, b0, b1 = sides[way]
        # A part is a card's visible part only if no other seam of the group
        # crosses it (else two cards, IMG_2650).
        others = [(p2, r2) for q2, p2, r2, _ in seams if q2 is q and p2 is not p]
        for part in (np.stack([q[a0], p, r, q[b0]]), np.stack([p, q[a1], q[b1], r])):
            if not any(_crosses(part, p2, r2) for p2, r2 in others):
                out.append(part)
        width = min(float(np.linalg.norm(q[a1] - q[a0])), float(np.linalg.norm(q[b1] - q[b0])))
        centre = q.mean(axis=0)
        for e0, e1 in ((a0, b0), (a1, b1)):
            # The end card stands square on the end side, its own side (the
            # group's other sides slant where the row's cards lie askew).
            side = q[e1] - q[e0]
            height = float(np.linalg.norm(side))
            n = np.array([-side[1], side[0]], dtype=np.float32) / max(height, 1e-6)
            if np.dot(centre - q[e0], n) < 0:
                n = -n
            for aspect in ROW_ASPECTS:
                w = height / aspect
                if w < width:
                    out.append(np.stack([q[e0], q[e0] + n * w, q[e1] + n * w, q[e1]]))
    if not out:
        return []
    arr = g.order_quads(np.array(out, dtype=np.float32))
    return list(arr[g.card_shaped_many(arr, max_angle_dev=28.0)])


def end_guesses(cs: list[np.ndarray], sizes: list[tuple[float, float]], min_short: float
                ) -> list[np.ndarray]:
    """Cards at the two ends of outlines that may be a row of cards: outlines of a
    card's height (a card's long side, from `sizes`, the cards found whole, or
    else the outline's own height) and 1.15 to 3.2 cards wide; the card of each
    end lies along it from the end's side.

    Why: the outer corners of a row's outline have one side that runs along the
    whole row, longer than any card, so corner guesses (proposals.complete_corners,
    which require a card at least nearly as long as a side it shows) never give
    the card lying at either end, and the covered card of a spread is lost; a
    card is as high as the row, and its end side is whole.
    """
    out = []
    longs = sorted({round(l, 1) for _, l in sizes})
    # A row covers more than one card (a card and a sliver of the next at least).
    least = 1.1 * min(s * l for s, l in sizes) if sizes else 0.0
    for c in cs:
        area = cv2.contourArea(c)
        if area < least:
            continue
        (cx, cy), (a, b), ang = cv2.minAreaRect(c)
        if area < ROW_FILL * a * b:
            continue  # no row's rectangle (cards lying across each other)
        t = np.deg2rad(ang)
        u = np.array([np.cos(t), np.sin(t)], dtype=np.float32)
        v = np.array([-u[1], u[0]], dtype=np.float32)
        centre = np.array([cx, cy], dtype=np.float32)
        ways: list[tuple[float, float, np.ndarray, np.ndarray]] = [(a, b, u, v), (b, a, v, u)]
        if sizes:
            # A near-square outline (a card and the strip of one below it) fits
            # both ways: the row runs the way whose height is nearer a card's
            # (else a card across both, IMG_2618).
            miss = [min(abs(h / l - 1.0) for _, l in sizes) for _, h, _, _ in ways]
            ways = [ways[int(np.argmin(miss))]]
        else:
            # No card to compare with: the row runs along the outline's clearly
            # longer side (a square one may be a card and a strip of the one
            # under it either way, IMG_2618).
            ways = [w_ for w_ in ways if w_[0] >= ROW_OBLONG * w_[1]]
        for length, height, du, dv in ways:
            if height < min_short:
                continue
            widths = [s for s, l in sizes if 0.85 * l <= height <= 1.15 * l]
            if not widths and not longs:
                widths = [height / asp for asp in ROW_ASPECTS]
            for w in widths:
                if not 1.15 * w <= length <= 3.2 * w:
                    continue
                for end in (-1.0, 1.0):
                    far = centre + du * (end * length / 2)
                    near = far - du * (end * w)
                    hv = dv * (height / 2)
                    out.append(np.stack([far - hv, far + hv, near + hv, near - hv]))
    if not out:
        return []
    arr = g.order_quads(np.array(out, dtype=np.float32))
    return list(arr[g.card_shaped_many(arr, max_angle_dev=28.0)])


def _crosses(q: np.ndarray, p: np.ndarray, r: np.ndarray) -> bool:
    """Does the middle of line p-r run well inside quad q (a tenth of its short
    side or more from its border)?"""
    contour = np.asarray(q, dtype=np.float32).reshape(-1, 1, 2)
    margin = 0.1 * float(g.edge_lengths(np.asarray(q, dtype=np.float32)).min())
    for f in (0.3, 0.5, 0.7):
        x, y = (p * (1 - f) + r * f).tolist()
        if cv2.pointPolygonTest(contour, (float(x), float(y)), True) < margin:
            return False
    return True


H = TypeVar("H", bound=Outline)


def drop_rows(hyps: list[H], seams: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
              max_iou: float = 0.85) -> list[H]:
    """The hypotheses without the rows whose seams were found (and the same
    outline found again by other contours or snapped a little)."""
    groups = {id(q): q for q, _, _, _ in seams}
    return [h for h in hyps if all(g.iou(h.quad, q) <= max_iou for q in groups.values())]
