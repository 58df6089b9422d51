"""Per-image evidence every card hypothesis is checked against: edges, their
distance map, and the gradient used to snap sides onto the true card border.

Why computed once: the detector proposes hundreds of quads per frame (whole contours
and corner-based guesses for overlapping cards); each is scored by sampling these
arrays at a few hundred points, which is cheap only if the arrays already exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Work at most this many pixels on the long side: enough for an 8-card table at
#: 1280x720, and it bounds the cost on a 12-megapixel phone photo.
WORK_LONG_SIDE = 640
#: Canny's high threshold for the darkest-channel edges (`Evidence.paper_edges`),
#: as a multiple of the grey edges' (see darkest_edges).
PAPER_EDGE_STEP = 1.8
#: The darkest-channel edges are worked out only when at least this share of the
#: frame's pixels are grey edges: a busy table (cloth pattern, wood grain).
BUSY_EDGES = 0.04


@dataclass(frozen=True, slots=True, eq=False)
class Evidence:
    """Arrays at work scale (`scale` = work pixels per image pixel)."""

    scale: float
    grey: np.ndarray
    edges: np.ndarray  # uint8 0/255, Canny
    bits: np.ndarray  # uint8: bit k set if an edge of orientation bin k lies within 2 px
    gx: np.ndarray  # float32 gradients of the blurred grey image
    gy: np.ndarray
    bright: np.ndarray  # uint8 0/255, "paper" pixels: bright and unsaturated
    paper_edges: np.ndarray  # uint8 0/255, strong edges of the darkest channel (busy tables), or (1, 1) zeros
    darkest: np.ndarray  # uint8, the darkest of B, G, R per pixel
    color: np.ndarray  # the BGR image at work scale
    table: np.ndarray  # (3,) float32 median colour: the table, which fills most frames

    @property
    def shape(self) -> tuple[int, int]:
        return int(self.grey.shape[0]), int(self.grey.shape[1])


def work_scale(image: np.ndarray, long_side: int = WORK_LONG_SIDE) -> float:
    h, w = image.shape[:2]
    return min(1.0, long_side / float(max(h, w)))


def gather(image: np.ndarray, long_side: int = WORK_LONG_SIDE) -> Evidence:
    """Compute the evidence for a BGR image."""
    s = work_scale(image, long_side)
    small = image
    size = (max(1, round(image.shape[1] * s)), max(1, round(image.shape[0] * s)))
    if size != (image.shape[1], image.shape[0]):
        # Area averaging: no aliasing, and at a whole factor (1280 -> 640) it is a
        # plain 2x2 mean, cheaper than a Gaussian pyramid step.
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    gx, gy = sobel_f32(blur)
    hi = canny_level(gx, gy)
    edges = cv2.Canny(blur, hi * 0.4, hi, L2gradient=True)
    bits = orientation_bits(edges, gx, gy)
    bright, darkest = paper_and_darkest(small)
    # Why only on a busy table: there the grey edges join the cloth's pattern to
    # the cards' borders; on a plain one they close the cards already, and the map
    # costs about 1 ms a frame, with its outlines' quads to judge.
    busy = cv2.countNonZero(edges) >= BUSY_EDGES * edges.size
    paper_edges = darkest_edges(darkest, hi) if busy else np.zeros((1, 1), np.uint8)
    table = _median_colour(small[::7, ::7].reshape(-1, 3))
    return Evidence(
        scale=s, grey=blur, edges=edges, bits=bits, gx=gx, gy=gy, bright=bright,
        paper_edges=paper_edges, darkest=darkest, color=small, table=table,
    )


def sobel_f32(blur: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cv2.Sobel(blur, CV_32F, 1, 0, ksize=3) and (0, 1), from one
    cv2.spatialGradient pass: a 3x3 Sobel of uint8 pixels is a small integer, the
    same in int16 as in float32, and one pass over the image costs less than two
    (0.09 against 0.12 ms at 640x360)."""
    dx, dy = cv2.spatialGradient(blur, ksize=3)
    return dx.astype(np.float32), dy.astype(np.float32)


def _median_colour(px: np.ndarray) -> np.ndarray:
    """np.median(px, axis=0) of (N, 3) uint8 pixels as float32, the same figures
    (the middle value of each channel, or the mean of the middle two), from each
    channel's histogram: a fifth of the cost of numpy's partition."""
    n = len(px)
    if n == 0:
        return np.full(3, np.nan, dtype=np.float32)
    out = np.empty(3, dtype=np.float32)
    for c in range(3):
        cum = np.cumsum(np.bincount(px[:, c], minlength=256))
        lo = int(np.searchsorted(cum, (n - 1) // 2, side="right"))  # sorted[(n - 1) // 2]
        hi = int(np.searchsorted(cum, n // 2, side="right"))  # sorted[n // 2]
        out[c] = (lo + hi) / 2.0
    return out


def darkest_edges(darkest: np.ndarray, hi: float) -> np.ndarray:
    """Strong edges of the darkest of B, G, R (`darkest`); `hi`: the grey edges'
    Canny high threshold.

    Why: card paper is bright in all three channels, a coloured cloth (pink or
    green gingham, cream paper, warm wood) is dark in at least one, so a white card
    that hardly differs from such a table in grey stands out here. Only the
    strongest steps are kept (Canny's high threshold PAPER_EDGE_STEP x the grey
    edges'), so that the cloth's own pattern does not join the card's border as it
    does in the grey edges. (Half the work scale was cheaper but its coarse
    outlines gave worse quads: fewer cards read than with none.)
    """
    blur = cv2.GaussianBlur(darkest, (5, 5), 0)
    top = PAPER_EDGE_STEP * hi
    return cv2.Canny(blur, top * 0.4, top, L2gradient=True)


def canny_level(gx: np.ndarray, gy: np.ndarray) -> float:
    """Canny's high threshold from the gradient statistics (92nd percentile of the
    magnitude over every third pixel, kept within 40..400): a fixed pair fails
    either on dim warm light (misses card borders) or on carpet (drowns in texture).

    The magnitudes go into a 64-byte aligned array: cv2.magnitude's last bit
    depends on where its output lies in memory (SIMD head and tail), so the same
    frame got levels one ulp apart from call to call, and now and then other
    edges and cards (a real test photo: 2 or 4 cards).
    """
    sx, sy = np.ascontiguousarray(gx[::3, ::3]), np.ascontiguousarray(gy[::3, ::3])
    mag = cv2.magnitude(sx, sy, _aligned_f32(sx.shape)).ravel()
    k = int(0.92 * (len(mag) - 1))
    return float(np.clip(np.partition(mag, k)[k], 40.0, 400.0))


def _aligned_f32(shape: tuple[int, ...]) -> np.ndarray:
    """An uninitialised float32 array starting on a 64-byte boundary."""
    n = int(np.prod(shape)) * 4
    buf = np.empty(n + 64, dtype=np.uint8)
    start = (-buf.ctypes.data) % 64
    return buf[start:start + n].view(np.float32).reshape(shape)


#: Edge orientations are binned into this many bins over 180 degrees.
ORIENT_BINS = 8
#: Raw bin number (0..255, from convertScaleAbs) -> that bin's bit, modulo ORIENT_BINS.
_BIN_BIT = np.array([1 << (v % ORIENT_BINS) for v in range(256)], dtype=np.uint8)


def orientation_bits(edges: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Per pixel, a bit for each orientation bin that has an edge pixel within 2 px.

    Why: a card border is a straight edge *along* the border. Textured surfaces (a
    patterned back, a court picture, carpet) have edges everywhere but in every
    direction, so testing "is there an edge here running this way" rejects lines that
    merely cross texture, which a plain distance-to-edge test cannot.

    How: each edge pixel gets its own bin's bit, then a 5x5 OR spreads the bits
    (five shifted ORs along rows, five along columns): the same as dilating each
    bin's mask on its own, in a quarter of the time.
    """
    # The edge runs perpendicular to the gradient; phase is in [0, 360).
    phase = cv2.phase(gx, gy, angleInDegrees=True)
    width = 180.0 / ORIENT_BINS
    # bin = floor((phase + 90) / width) mod 8, with OpenCV's saturating uint8
    # conversion (rounds, hence the -0.5) and a lookup table for the modulo.
    raw = cv2.convertScaleAbs(phase, alpha=1.0 / width, beta=90.0 / width - 0.5)
    own = cv2.bitwise_and(cv2.LUT(raw, _BIN_BIT), edges)
    h, w = own.shape
    pad = np.asarray(cv2.copyMakeBorder(own, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0), dtype=np.uint8)
    rows = pad[:, 0:w] | pad[:, 1:w + 1] | pad[:, 2:w + 2] | pad[:, 3:w + 3] | pad[:, 4:w + 4]
    return np.ascontiguousarray(
        rows[0:h] | rows[1:h + 1] | rows[2:h + 2] | rows[3:h + 3] | rows[4:h + 4])


def side_mask(angle_deg: float) -> int:
    """Bits of the orientation bins accepted for a line at `angle_deg` (the bin it
    falls in and both neighbours: about +-22 degrees or more)."""
    k = int((angle_deg % 180.0) // (180.0 / ORIENT_BINS)) % ORIENT_BINS
    m = 0
    for d in (-1, 0, 1):
        m |= 1 << ((k + d) % ORIENT_BINS)
    return m


def side_masks(angles_deg: np.ndarray) -> np.ndarray:
    """`side_mask` for an array of angles (vectorised: the bin's mask from a table
    of the eight, as int64; the detector asks this of a dozen small arrays a frame,
    where numpy's per-call cost was most of the time)."""
    k = ((np.asarray(angles_deg) % 180.0) // (180.0 / ORIENT_BINS)).astype(np.int64) % ORIENT_BINS
    return _SIDE_MASKS[k]


#: `side_mask` of each orientation bin (int64: the dtype the masks always had).
_SIDE_MASKS = np.array([(1 << k) | (1 << ((k + 1) % ORIENT_BINS)) | (1 << ((k - 1) % ORIENT_BINS))
                        for k in range(ORIENT_BINS)], dtype=np.int64)


def line_angle(a: np.ndarray, b: np.ndarray) -> float:
    """Direction of the line a->b in degrees, image coordinates."""
    return float(np.degrees(np.arctan2(b[1] - a[1], b[0] - a[0])))


def on_edge(ev: Evidence, pts: np.ndarray, angle_deg: float) -> np.ndarray:
    """For points (N, 2) on a line of direction `angle_deg`: is an edge running
    that way within 2 px? Points outside the image count as False."""
    v = sample(ev.bits, pts)
    ok = ~np.isnan(v)
    out = np.zeros(len(pts), dtype=bool)
    out[ok] = (v[ok].astype(np.int64) & side_mask(angle_deg)) != 0
    return out


def paper_mask(small: np.ndarray) -> np.ndarray:
    """Pixels that look like card paper: the brightest, least coloured part of the
    image. A card face is mostly white paper; a table rarely is (and when the cloth
    is light, the edge evidence carries the detection instead)."""
    return paper_and_darkest(small)[0]


def paper_and_darkest(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`paper_mask` of the image, and the darkest of B, G, R per pixel, which it
    is built on (gather needs both)."""
    b, g, r = cv2.split(small)
    mn = cv2.min(cv2.min(b, g), r)
    mx = cv2.max(cv2.max(b, g), r)
    sat = cv2.subtract(mx, mn)
    level, _ = cv2.threshold(mn, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(level, 90.0)
    bright = cv2.compare(mn, level, cv2.CMP_GE)
    grey_ish = cv2.compare(sat, 70, cv2.CMP_LT)
    return cv2.bitwise_and(bright, grey_ish), mn


def sample(arr: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Nearest-pixel values of `arr` at float points (N, 2) (x, y), as float32;
    points outside the image read 0 (no edge, no gradient).

    cv2.remap does the lookup: much cheaper than numpy fancy indexing for the tens of
    thousands of points a frame's hypotheses sample."""
    n = len(pts)
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    cols = 1024
    rows = (n + cols - 1) // cols
    m = np.zeros((rows * cols, 2), dtype=np.float32)
    m[:n] = pts
    m[n:] = -10.0
    out = cv2.remap(arr, m.reshape(rows, cols, 2), None, cv2.INTER_NEAREST,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out.reshape(-1)[:n].astype(np.float32)

def sample_bgr(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Nearest-pixel BGR values (N, 3) float32 of a colour image at points (N, 2);
    outside the image 0. One remap for all three channels."""
    n, cols = len(pts), 1024  # remap maps must stay under 32767 wide
    rows = max(1, -(-n // cols))
    m = np.full((rows * cols, 2), -10.0, dtype=np.float32)
    m[:n] = pts
    out = cv2.remap(image, m.reshape(rows, cols, 2), None, cv2.INTER_NEAREST,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out.reshape(-1, 3)[:n].astype(np.float32)
