"""Seams: the border of one card running across an outline that spans two.

Why: two cards lying side by side, or one shifted along the other (a fan, a sloppy
stack), make one outline whose shape is card-like (card aspects run from 1.05 to 2
once the camera is tilted), fully backed by edges. What gives it away is the border
of the upper card (or the gap between the two) crossing it from side to side, parallel
to two of its sides. A real card has no such line: its pips, pictures and frames stop
at its white margin, short of its border.
"""

from __future__ import annotations

import numpy as np

from vision.detect import kernels
from vision.detect.evidence import Evidence, sample, sample_bgr, side_masks
from vision.detect.geometry import lerp_points

#: Where across the quad seams are looked for (fractions of the width or height).
OFFSETS = np.linspace(0.12, 0.88, 26, dtype=np.float32)
#: Points sampled along each candidate seam, its two ends reaching into the margin.
ALONG = np.concatenate([[0.01, 0.025, 0.04], np.linspace(0.1, 0.9, 13), [0.96, 0.975, 0.99]])
ALONG = ALONG.astype(np.float32)
#: The points of a seam line between its two margins (the paper test's).
_MID = (ALONG >= 0.1) & (ALONG <= 0.9)
#: The lines where a seam with paper on both sides counts (see `seams`): a
#: quarter in from the border or more. (From a fifth, a court picture's frame
#: or a pip card's frame line on a small card, its twin on the other side too
#: faint to be found (`framed`), dropped lone whole cards: training decks' seed
#: 7, 200 scenes, 1086 -> 1090 read right, seed 8 316 -> 319, no wrong read or
#: phantom more. A card shifted a third of its length along another or less
#: makes an outline of IoU 0.75 or more with it.)
_CENTRAL = np.tile((OFFSETS >= 0.25) & (OFFSETS <= 0.75), 2)


#: Where a card's own printed frame may run (a pip card's border line, a court
#: picture's frame): within a quarter of the width or height of its border.
_FRAME_BAND = (OFFSETS <= 0.25) | (OFFSETS >= 0.75)
#: How far (in OFFSETS steps) a line's mirror image may lie from where it should.
_MIRROR_SLACK = 1


#: Tilts tried for each seam line: its two ends moved this far (share of the
#: sides) in opposite directions along the sides they meet. Why: two cards lying
#: side by side are rarely quite aligned, and a union's sides are not parallel
#: under perspective; the seam between the cards then runs at a slant to the
#: lines parallel to the union's sides, and no one of them follows it for 80%.
TILTS = (-0.03, 0.03)


def seam_lines(
    ev: Evidence, quads: np.ndarray, min_on: float = 0.8
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Straight edges across each quad (H, 4, 2, work scale), parallel to a pair of
    its sides, from one border to the opposite one (edges at both ends, in the
    margin where a card prints nothing, and along `min_on` of the way).

    Returns flags (H, L) for the L lines tried per quad (0 none, 1 a seam, 2 one
    running right up to the border at both ends), whether white paper lies
    on both sides of each line (H, L) (two faces meeting, not the frame of a court
    picture, which has picture on one side), and the lines' sample points
    (H, L, M, 2), so that a caller can ignore seams hidden under cards on top.
    """
    q = np.asarray(quads, dtype=np.float32)
    h, k, m = len(q), len(OFFSETS), len(ALONG)
    if h == 0:
        none = np.zeros((0, 2 * k), dtype=bool)
        return none.astype(np.int8), none, np.zeros((0, 2 * k, m, 2), dtype=np.float32)
    return _scan(ev, q, np.float32(0.0), min_on)


def slanted_seams(ev: Evidence, quads: np.ndarray, flags: np.ndarray, min_on: float = 0.8
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Seams slanted to the quads' sides (by one of TILTS, between its middle
    60%), with paper on both sides, running the way in which `flags` (seam_lines'
    (H, L)) found no straight line: (H, L) bool and their sample points
    (H, L, M, 2).

    Why apart from seam_lines: they count only as two faces meeting (a cloth's
    check lines run parallel to a cell's sides), and not in the test for a back's
    pattern (several lines near one seam would look like one).
    """
    q = np.asarray(quads, dtype=np.float32)
    found = np.zeros(flags.shape, dtype=bool)
    pts = np.zeros((*flags.shape, len(ALONG), 2), dtype=np.float32)
    # Only across a quad with no straight line in that direction: a back's
    # pattern or a cloth's checks show straight ones too.
    half = flags.shape[1] // 2
    straight = flags > 0
    quiet = np.repeat(~np.stack([straight[:, :half].any(axis=1), straight[:, half:].any(axis=1)],
                                axis=1), half, axis=1)
    rows = np.flatnonzero(quiet.any(axis=1))
    if not len(rows):
        return found, pts
    # Every tilt of every quad in one scan.
    n_t = len(TILTS)
    tilt = np.repeat(np.array(TILTS, dtype=np.float32), len(rows))[:, None, None]
    t_flags, t_paper, t_pts = _scan(ev, np.tile(q[rows], (n_t, 1, 1)), tilt, min_on)
    for k in range(n_t):
        part = slice(k * len(rows), (k + 1) * len(rows))
        new = ~found[rows] & quiet[rows] & (t_flags[part] > 0) & t_paper[part] & _CENTRAL[None, :]
        if new.any():
            found[rows] |= new
            at = rows[np.nonzero(new)[0]], np.nonzero(new)[1]
            pts[at] = t_pts[part][new]
    return found, pts


def _scan(ev: Evidence, q: np.ndarray, tilt: np.float32 | np.ndarray, min_on: float
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """seam_lines with lines slanted by `tilt` (q (H, 4, 2) float32; tilt a
    float32, or one per quad (H, 1, 1))."""
    h, k, m = len(q), len(OFFSETS), len(ALONG)
    f = OFFSETS[None, :, None]
    # Lines from side a-b to side c-d at offsets f along those sides, both ways;
    # `across` steps from a line towards its neighbours (for the paper test).
    starts, ends, across = [], [], []
    for a, b, c, d in ((0, 3, 1, 2), (0, 1, 3, 2)):
        starts.append(q[:, None, a] * (1 - (f - tilt)) + q[:, None, b] * (f - tilt))  # (H, K, 2)
        ends.append(q[:, None, c] * (1 - (f + tilt)) + q[:, None, d] * (f + tilt))
        across.append(np.repeat((q[:, None, b] - q[:, None, a]) * 0.06, k, axis=1))
    start, end, step = (np.concatenate(x, axis=1) for x in (starts, ends, across))  # (H, L, 2)
    dv = end - start
    masks = side_masks(np.degrees(np.arctan2(dv[..., 1], dv[..., 0])))
    if kernels.COMPILED and start.dtype == np.float32:  # the same figures, one pass
        pts = np.empty((h, 2 * k, m, 2), dtype=np.float32)
        flags = np.empty((h, 2 * k), dtype=np.int8)
        paper = np.empty((h, 2 * k), dtype=bool)
        kernels.seam_scan(np.ascontiguousarray(ev.bits), np.ascontiguousarray(ev.bright),
                          np.ascontiguousarray(start), np.ascontiguousarray(end), ALONG, 1 - ALONG,
                          np.ascontiguousarray(masks, dtype=np.int64), np.ascontiguousarray(step),
                          _MID, float(min_on), pts, flags, paper)
        return flags, paper, pts
    masks = masks[:, :, None]
    pts = lerp_points(start, end, ALONG).astype(np.float32, copy=False)  # (H, L, M, 2)
    v = sample(ev.bits, pts.reshape(-1, 2)).reshape(pts.shape[:3]).astype(np.int64)
    on = (v & masks) != 0  # (H, L, M)
    tips = on[:, :, np.r_[0:3, m - 3:m]].reshape(h, 2 * k, 2, 3)
    along = on.mean(axis=2) >= min_on
    # Lines drawn on a card stop in its margin; a seam meets the border. Edges at
    # both ends count; right up to the border (strict) marks a cloth's check
    # lines, which run on through everything.
    # (x & y & z rather than .all(axis=-1): numpy is slow on a last axis of 3)
    every = tips[..., 0] & tips[..., 1] & tips[..., 2]  # (H, L, 2): each end
    some = tips[..., 0] | tips[..., 1] | tips[..., 2]
    flags = np.where(every[..., 0] & every[..., 1] & along, 2,
                     np.where(some[..., 0] & some[..., 1] & along, 1, 0)).astype(np.int8)
    paper = np.zeros((h, 2 * k), dtype=bool)
    hit = np.nonzero(flags)
    if len(hit[0]):
        mid = pts[hit][:, _MID]  # (n, M', 2)
        sh = step[hit][:, None, :]
        both = np.stack([mid + sh, mid - sh], axis=1)  # (n, 2, M', 2)
        w = sample(ev.bright, both.reshape(-1, 2)).reshape(both.shape[:3]) > 0
        paper[hit] = (w.mean(axis=2) >= 0.6).all(axis=1)
    return flags, paper, pts


def _patterned(lines: np.ndarray, half: int) -> np.ndarray:
    """Per quad and direction (spread back onto the lines, (H, L)): lines found at
    more than two places, or over a band wider than four offsets: a back's
    pattern (plaid, stripes), not the one or two seams of cards lying together."""
    out = np.zeros_like(lines)
    for lo in (0, half):
        part = lines[:, lo:lo + half].astype(np.int32)
        runs = (np.diff(part, axis=1, prepend=0) == 1).sum(axis=1)
        # Length of the run ending at each offset: count so far, less the count
        # at the last gap before it.
        count = np.cumsum(part, axis=1)
        at_gap = np.maximum.accumulate(np.where(part == 0, count, 0), axis=1)
        longest = (count - at_gap).max(axis=1)
        out[:, lo:lo + half] = ((runs > 2) | (longest > 4))[:, None]
    return out


def framed(lines: np.ndarray) -> np.ndarray:
    """Which lines (H, L, from seam_lines, > 0 where found) are a card's own printed
    frame: a line in the frame band whose mirror image (offset 1 - o, within one
    step) is a line too.

    Why: a card's print is the same turned half round, so the frame line a few
    millimetres inside one side (Dondorf's pip cards, a court picture's frame on a
    small card) has its twin as far inside the opposite side, and near the border
    both run right up to it, white on both sides: taken for the border of a card
    lying on it, it had whole cards dropped as two (a tenth of the whole cards lost
    on the training decks). The border of a card shifted along another lies at one
    offset only; two cards side by side meet in the middle, outside the band.
    """
    half = lines.shape[1] // 2
    out = np.zeros(lines.shape, dtype=bool)
    found = lines > 0
    for lo in (0, half):
        part = found[:, lo:lo + half]
        twin = part[:, ::-1]  # twin[:, j]: the line at the mirrored offset
        near = twin.copy()
        for k in range(1, _MIRROR_SLACK + 1):
            near[:, k:] |= twin[:, :-k]
            near[:, :-k] |= twin[:, k:]
        out[:, lo:lo + half] = part & near & _FRAME_BAND[None, :]
    return out


def stands_out(ev: Evidence, quads: np.ndarray) -> np.ndarray:
    """Per quad (H, 4, 2): is its inside clearly another colour than the table just
    outside it? (A back's pattern is; a patch of carpet or cloth is not.)"""
    from vision.detect.printed import rings

    inner, outer = rings(quads, 0.2, 0.2)
    h = len(quads)
    cin = sample_bgr(ev.color, inner.reshape(-1, 2)).reshape(h, -1, 3).mean(axis=1)
    cout = sample_bgr(ev.color, outer.reshape(-1, 2)).reshape(h, -1, 3).mean(axis=1)
    return np.asarray(np.abs(cin - cout).sum(axis=1) >= 45.0)


def seams(flags: np.ndarray, paper: np.ndarray, distinct: np.ndarray | None = None,
          pattern: np.ndarray | None = None) -> np.ndarray:
    """Which seam lines (from seam_lines) split a quad into two things: paper on
    both sides (two faces), or lines both ways that run right up to the border (a
    cloth's checks: cells, not a card; a back's pattern stops at its margin). A
    direction with lines all over is a pattern and has no seam (`pattern`: that
    test's result, if already worked out)."""
    half = flags.shape[1] // 2
    if pattern is None:
        pattern = _patterned(flags > 0, half)
    if distinct is not None:  # only a card-like object can carry a pattern of its own
        pattern &= distinct[:, None]
    flags = np.where(pattern, 0, flags)
    strict = flags == 2
    grid = strict[:, :half].any(axis=1) & strict[:, half:].any(axis=1)
    # A court picture's frame runs some 10-24% in from the border, with white
    # on both sides of it: paper seams only further in (see _CENTRAL).
    return (flags > 0) & ((paper & _CENTRAL[None, :]) | grid[:, None])


class SeamCache:
    """Seams of a fixed set of quads, worked out when first asked for: most of a
    frame's hypotheses are never looked at closely, and seam lines cost ~1000
    samples per quad."""

    def __init__(self, ev: Evidence, quads: np.ndarray) -> None:
        self.ev = ev
        self.quads = np.asarray(quads, dtype=np.float32)
        n, k = len(self.quads), 2 * len(OFFSETS)
        self.known = np.zeros(n, dtype=bool)
        self.flags = np.zeros((n, k), dtype=bool)
        # Sample points of the quads worked out only (8 KB a quad; a frame has
        # a hundred or two hypotheses, of which a score are looked at closely).
        self.points: dict[int, np.ndarray] = {}
        # Whether slanted seams were looked for (only for the outlines about to be
        # chosen that may be two cards: see in_view).
        self.slant_known = np.zeros(n, dtype=bool)

    def _ensure(self, idx: np.ndarray) -> None:
        todo = idx[~self.known[idx]]
        if len(todo):
            lines, paper, pts = seam_lines(self.ev, self.quads[todo])
            pattern = None
            if kernels.COMPILED:  # the same verdicts without numpy's small calls
                busy = np.empty(len(todo), dtype=bool)
                kernels.seam_busy(np.ascontiguousarray(lines, dtype=np.int8), busy)
            else:
                pattern = _patterned(lines > 0, lines.shape[1] // 2)
                busy = pattern.any(axis=1)
            # Only outlines with lines all over need to tell a back from the cloth.
            distinct = np.zeros(len(todo), dtype=bool)
            if busy.any():
                distinct[busy] = stands_out(self.ev, self.quads[todo[busy]])
            cut = self._cut(lines, paper, distinct, pattern)
            # A card's own frame is no seam: judged again without it (a line
            # seams() would not count without the frame's lines stays a seam
            # only if it is one both ways).
            fr = framed(lines)
            rows = np.flatnonzero(fr.any(axis=1))
            if len(rows):
                bare = np.where(fr[rows], 0, lines[rows]).astype(lines.dtype)
                cut[rows] &= self._cut(bare, paper[rows], distinct[rows],
                                       None if pattern is None else pattern[rows])
            self.flags[todo] = cut
            for j, p in zip(todo.tolist(), pts):
                self.points[j] = p
            self.known[todo] = True

    @staticmethod
    def _cut(lines: np.ndarray, paper: np.ndarray, distinct: np.ndarray,
             pattern: np.ndarray | None) -> np.ndarray:
        """seams() of these lines (compiled where `pattern` was not worked out)."""
        if pattern is None:
            cut = np.empty(lines.shape, dtype=bool)
            kernels.seam_cut(np.ascontiguousarray(lines, dtype=np.int8),
                             np.ascontiguousarray(paper, dtype=bool), distinct, _CENTRAL, cut)
            return cut
        return seams(lines, paper, distinct, pattern.copy())

    def _ensure_slanted(self, idx: np.ndarray) -> None:
        self._ensure(idx)
        todo = idx[~self.slant_known[idx]]
        if len(todo):
            # The straight lines again (rarely asked: not kept for every quad).
            lines, _, _ = seam_lines(self.ev, self.quads[todo])
            slanted, pts = slanted_seams(self.ev, self.quads[todo], lines)
            for k, j in enumerate(todo.tolist()):
                if slanted[k].any():
                    self.flags[j] |= slanted[k]
                    self.points[j] = np.where(slanted[k][:, None, None], pts[k], self.points[j])
            self.slant_known[todo] = True

    def subset(self, idx: np.ndarray) -> SeamCache:
        """The cache of quads[idx], keeping the seams already worked out (the
        outlines drop_inner looked at are looked at again when choosing)."""
        out = SeamCache(self.ev, self.quads[idx])
        out.known[:] = self.known[idx]
        out.flags[:] = self.flags[idx]
        out.slant_known[:] = self.slant_known[idx]
        out.points = {new: self.points[old] for new, old in enumerate(idx.tolist())
                      if old in self.points}
        return out

    def prepare(self, idx: np.ndarray) -> None:
        """Work out the seams of quads `idx` now, in one batch."""
        self._ensure(np.asarray(idx, dtype=np.int64))

    def crossed(self, mask: np.ndarray) -> np.ndarray:
        """For a boolean mask over the quads: which of them a seam crosses (a
        straight one; slanted ones too where already looked for)."""
        idx = np.flatnonzero(mask)
        self._ensure(idx)
        out = np.zeros(len(self.quads), dtype=bool)
        out[idx] = self.flags[idx].any(axis=1)
        return out

    def in_view(self, i: int, covered: list[np.ndarray], slanted: bool = False) -> bool:
        """Does a seam cross quad i outside the cards `covered` lying on it?
        `slanted`: look for slanted seams too (see slanted_seams; the caller
        asks only of outlines that may be two cards side by side: they cost two
        more scans)."""
        if slanted:
            self._ensure_slanted(np.array([i]))
        else:
            self._ensure(np.array([i]))
        return open_seam(self.flags[i], self.points[i], covered)


def open_seam(flags: np.ndarray, points: np.ndarray, covered: list[np.ndarray]) -> bool:
    """Is one of a quad's seam lines (flags (L,), points (L, M, 2) from
    seam_lines) in view, not under the cards `covered` lying on it? (A card's
    border crossing a card it lies on is no seam of the card below.)"""
    from vision.detect.select import inside_quads

    idx = np.flatnonzero(flags)
    if not len(idx):
        return False
    if not covered:
        return True
    pts = points[idx]
    hid = inside_quads(pts.reshape(-1, 2), covered, 3.0).reshape(pts.shape[:2])
    return bool((hid.mean(axis=1) < 0.2).any())
