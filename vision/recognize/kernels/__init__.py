"""Compiled (numba) loops of the reading's per-card steps (pipsplit: the k-means
that parts touching pips; quads: patch.py's quad normalisation and edge lengths).

Why compiled: what pipsplit.py's k-means spent was numpy's overhead on a few hundred
pixel positions, a dozen small arrays a Lloyd step. The loops here do the same
arithmetic in the same order (float64 throughout; the parts' means are sums of whole
pixel positions, exact in any order), so the parts are bit for bit numpy's.

The decorators are the detector's (vision.detect.kernels._jit): eager signatures,
numba's on-disk cache, the same loops as plain Python without numba or with
CARDTABLE_NO_JIT=1.
"""

from vision.detect.kernels._jit import COMPILED
from vision.recognize.kernels.kmeans import split_pixels
from vision.recognize.kernels.quads import edge_lengths, normalized_quad

__all__ = ["COMPILED", "edge_lengths", "normalized_quad", "split_pixels"]
