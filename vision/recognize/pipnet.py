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
whose corners vouch for the count and name the network's suit as their own best
(pooled 0.5, short of their bar), and pipsuit left without a suit; the network runs
once per such card (a few pips both ways up, one call).

Aces (pipcheck.read_by_ace): an ace's one big middle pip (acepip.pip_soft) is
scored the same way, alone, at ACE_BAR. The network never saw an ace; its bar was
read off rendered aces (random views as in training, AC and AS of every deck):
calibration decks, final network, 157 of 158 given at 4.0, 0 wrong at any bar
from 1.0; training decks scored by the network of the fold that left their family
out: 1185 of 1207 given at 4.0, 0 wrong from 2.0 but gnome/orell's spades again
(15 of 49 as clubs at 4.0, as on its number cards: the corners must name the
suit too).

Why a witness beside the corners, not alone: trained with a quarter of the
training decks left out (by family), the network read a left-out deck wrong with
certainty: gnome/orell's broad, flat-topped spades as clubs (40 of 48 at the bar;
log-odds +2..+8). Its errors on unseen decks ran spade -> club only (tango's
blurred clubs: 2 as spades at a bar of 1, none from 2), the corner network's run
club -> spade, so the two naming the same suit share no failure seen.

Figures (2026-11-30; vision/training/pipnet.py --bars; counted black number cards
in random views of the decks with blur, perspective, JPEG, uneven light):
calibration decks (never trained on, final network) 596 of 615 given at the bars,
0 wrong (1 wrong at 1.0, none from 2.0); training decks scored by a network that
never saw their family: 0 wrong at 4.0 but gnome/orell's spades (above).
Rendered scenes, whole black number cards counted on true quads, final network:
calibration decks seed 21 (250 scenes) 375 of 379 given, 0 wrong, 36 of the 39
pipsuit left without a suit; training decks seed 22: 299 of 302, 0 wrong, 46 of
48; no card's mean on the wrong side of 0 in either. Readings (ev.py, right
before -> after, 0 wrong in all): train:7:60 truth 402 -> 402, detect 344 -> 344;
train:8:60:detect 351 -> 351; cal:5:60 truth 396 -> 397, detect 344 -> 345;
cal:6:60 truth 397 -> 398, detect 359 -> 360 (its one wrong QC, as before); real
train photos 492/463/484 unchanged. Held-out decks, measured once:
held:1234:60 truth 412 -> 416, detect 372 -> 374; held:99:200:detect 1242 ->
1243; real test 131/130/132 unchanged. Size 95 KB (~25k weights), training ~2.5
min on one thread (data 2 min). Time: crops 0.08 ms a counted black card
pipsuit left unsure; the network ~0.4-0.7 ms a card it is asked about (one call).
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
#: clubs above CLUB_BAR, spades below -SPADE_BAR, every pip on that side. Read off
#: calibration decks and decks left out of training (module figures): the last
#: wrong suit (orell aside) went at 2.0; twice that for margin.
CLUB_BAR = 4.0
SPADE_BAR = 4.0

#: Bar on both sides for an ace's one big middle pip (pipcheck.ace_net_suit): the
#: network never saw an ace; read off rendered aces (module figures: no wrong suit
#: from 2.0 on calibration and left-out training decks, orell aside; twice that).
ACE_BAR = 4.0


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
            import onnxruntime as ort
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


def suit_from(z: np.ndarray, bar: float | None = None) -> str | None:
    """The suit the pips' log-odds `z` show by the bars (see PipNet.suit); `bar`, when
    given, stands for both sides' bars (an ace's pip: ACE_BAR)."""
    mean = float(z.mean())
    club, spade = (CLUB_BAR, SPADE_BAR) if bar is None else (bar, bar)
    if mean > club and float(z.min()) > 0.0:
        return "C"
    if mean < -spade and float(z.max()) < 0.0:
        return "S"
    return None


@cache
def load_pipnet(path: Path = MODEL_PATH) -> PipNet | None:
    """The pip network, loaded once per path (an immutable resource, like a module
    constant); None when its file is missing (the pips then give no suit)."""
    return PipNet(path) if path.exists() else None
