"""A black card's suit told by a tiny network looking at its pips one by one.

Why: pipsuit.py tells clubs from spades by hand-made shape features and strict bars,
and abstains on many whole black number cards whose rank is sure: small or soft
spades its spade bars refuse (a looser spade bar let blurred clubs through), clubs
scoring weakly. On held-out seed 1234 (true quads) 8 of the 24 unread cards were
such whole black number cards, their pips large. A small convolutional network on
one pip at a time learns the shape from many decks' pips under blur, perspective,
JPEG and uneven light, and from random sign shapes (training/suitshapes.py), so it
does not lean on any one deck's glyph.

How: each pip pips.py counted is cut at its own size from the upright card's soft
ink (pipsuit.upright_pips: the lower half's pips already turned), normalised to its
own ink depth, padded square and shrunk to CROP x CROP (`pip_crops`). The network
(vision/models/pipnet.onnx, trained by vision/training/pipnet.py) gives club-vs-spade
log-odds for a pip; each pip is scored both ways up (decks print the middle row
either way, and it was trained on both) and the card's score is the mean over its
pips. `PipNet.suit` gives "C" or "S" only when that mean is beyond the side's bar
and every pip lies on the same side (two suits' pips, or an odd pip, abstain).

Where: pipcheck.pip_verdict, only for a whole black number card the pips counted,
whose corners vouch for the count, and pipsuit left without a suit; the network
runs once per such card (a few pips, ~0.1 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

#: Side of the square crop a pip is shrunk to (canonical pips are 8-22 px across).
CROP = 24

#: Where the trained network lies (vision/training/pipnet.py writes it).
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "pipnet.onnx"

#: Bars on the mean club-minus-spade log-odds over a card's pips (both ways up):
#: clubs above CLUB_BAR, spades below -SPADE_BAR; see vision/training/pipnet.py for
#: how they were read (calibration decks and decks left out of training, zero wrong
#: with margin).
CLUB_BAR = 4.0
SPADE_BAR = 4.0


def crop_pip(soft: np.ndarray) -> np.ndarray:
    """One upright pip's soft ink (share below paper, 0 off the pip) as a CROP x CROP
    float32 image in [0, 1]: divided by its own ink depth (the 80th percentile of its
    inked pixels, as pipsuit.shape_of), centred on a square canvas one pixel wider
    than its longer side, resized. Why its own size: the pip's shape, not its size
    in the card, tells the suit."""
    inked = soft[soft > 0]
    if inked.size < 4:
        return np.zeros((CROP, CROP), np.float32)
    k = int(0.8 * (inked.size - 1))
    depth = max(float(np.partition(inked, k)[k]), 0.05)
    norm = np.minimum(soft * np.float32(1.0 / depth), np.float32(1.0)).astype(np.float32)
    h, w = norm.shape
    side = max(h, w) + 2
    canvas = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    canvas[y0:y0 + h, x0:x0 + w] = norm
    shrink = cv2.INTER_AREA if side > CROP else cv2.INTER_LINEAR
    return cv2.resize(canvas, (CROP, CROP), interpolation=shrink)


def pip_crops(softs: Sequence[np.ndarray]) -> np.ndarray:
    """The crops (n, CROP, CROP) float32 of upright pips' soft inks (see crop_pip)."""
    if not softs:
        return np.zeros((0, CROP, CROP), np.float32)
    return np.stack([crop_pip(s) for s in softs])


class PipNet:
    """The club/spade pip network (ONNX, onnxruntime or cv2.dnn), one thread."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.path = path
        try:
            import onnxruntime as ort  # noqa: PLC0415 (optional, as runtime.py)
        except ImportError:
            self._sess = None
            self._dnn = cv2.dnn.readNetFromONNX(str(path))
        else:
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1
            opts.inter_op_num_threads = 1
            self._sess = ort.InferenceSession(str(path), opts,
                                              providers=["CPUExecutionProvider"])
            self._input = self._sess.get_inputs()[0].name

    def log_odds(self, crops: np.ndarray) -> np.ndarray:
        """Club-minus-spade log-odds per crop (n,), each the mean of the crop upright
        and turned by 180 degrees (one network call for both)."""
        both = np.concatenate([crops, crops[:, ::-1, ::-1]])[:, None].astype(np.float32)
        if self._sess is not None:
            logits = self._sess.run(None, {self._input: both})[0]
        else:
            self._dnn.setInput(both)
            logits = self._dnn.forward()
        z = logits[:, 0] - logits[:, 1]
        n = crops.shape[0]
        return (z[:n] + z[n:]) / 2.0

    def suit(self, crops: np.ndarray | None) -> str | None:
        """"C" or "S" when the pips' mean log-odds passes its side's bar and every pip
        agrees in sign; None otherwise (no crops, too few pips, unsure)."""
        if crops is None or crops.shape[0] < 2:
            return None
        return suit_from(self.log_odds(crops))


def suit_from(z: np.ndarray) -> str | None:
    """The suit the pips' log-odds `z` show by the bars (see PipNet.suit)."""
    mean = float(z.mean())
    if mean > CLUB_BAR and float(z.min()) > 0.0:
        return "C"
    if mean < -SPADE_BAR and float(z.max()) < 0.0:
        return "S"
    return None


@cache
def load_pipnet(path: Path = MODEL_PATH) -> PipNet | None:
    """The pip network, loaded once per path (an immutable resource, like a module
    constant); None when its file is missing (the pips then give no suit)."""
    return PipNet(path) if path.exists() else None
