"""Compiled (numba) loops of the detector's hottest per-quad steps, by the module
that calls them (fits: refine/whole; lines: whole's robust side fits;
outline: select; paper: faces; quads: whole; splits; blank; seams; sides:
refine; printed).

Why compiled: after every exact numpy speed-up, what was left of these steps was
numpy's per-call overhead on small arrays (a few dozen quads, sides of 24 points,
outlines of a few hundred points) and masks built only to be reduced again. Plain
loops compiled by numba do the same arithmetic in the same order, so the detector's
output is bit for bit what the numpy code gave (same single/double precision steps,
numpy's pairwise summation order where it summed in double precision).

Why eager signatures: every kernel is compiled (or loaded from numba's on-disk cache)
when this module is imported, never inside the first frame. The cache lives next to
this file (`__pycache__`, numba's default); where that is not writable numba uses the
user cache directory, and where no cache can be written at all the kernels are
compiled without one (slower start, same results). Without numba (no wheel for
32-bit Raspberry Pi OS) or with CARDTABLE_NO_JIT=1 the same loops run as plain Python:
same results, several times slower.
"""

from vision.detect.kernels._jit import COMPILED, _compiled, _inner  # noqa: F401
from vision.detect.kernels.blank import blank_sheet
from vision.detect.kernels.fits import cross_sides, polish_sides, select_side_points
from vision.detect.kernels.lines import huber_lines
from vision.detect.kernels.outline import (
    corner_overshoot,
    cover_outlines,
    mark_inside,
    outline_flags,
    outline_polarity,
    outline_state,
    side_support,
    table_share,
)
from vision.detect.kernels.paper import corner_asymmetry, paper_share_bgr
from vision.detect.kernels.printed import printed_flags
from vision.detect.kernels.quads import card_shaped, order_quad, order_quads
from vision.detect.kernels.seams import seam_busy, seam_cut, seam_scan
from vision.detect.kernels.sides import side_samples
from vision.detect.kernels.splits import SPLIT_SIDES, split_scan

__all__ = [
    "COMPILED",
    "SPLIT_SIDES",
    "blank_sheet",
    "card_shaped",
    "corner_asymmetry",
    "corner_overshoot",
    "cover_outlines",
    "cross_sides",
    "huber_lines",
    "mark_inside",
    "order_quad",
    "order_quads",
    "outline_flags",
    "outline_polarity",
    "outline_state",
    "paper_share_bgr",
    "polish_sides",
    "printed_flags",
    "seam_busy",
    "seam_cut",
    "seam_scan",
    "select_side_points",
    "side_samples",
    "side_support",
    "split_scan",
    "table_share",
]
