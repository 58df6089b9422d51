"""The index classifier at run time: ONNX through OpenCV's DNN module.

`IndexClassifier.load()` reads the committed model (vision/models/index.onnx) and its
calibration (index.json: thresholds picked on calibration decks so that wrong readings
stay <= 0.1%). `classify(patches)` gives, per patch, the most likely rank and suit with
their probabilities, or None where the network says "not an index". `read_card` cuts
both corner indices of a card and combines them, abstaining when unsure: a wrong card
is far worse for the referee than "cannot read". The network runs in onnxruntime when
it is installed, else in cv2.dnn (vision.recognize.runtime: same outputs, the former
about twice as fast).

With `deck=NAME` the classifier also loads an enrolled deck (vision.enroll) and reads
cards by nearest neighbour among its templates in the network's embedding space.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np

from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.recognize.readings import (  # noqa: F401 (their home before readings.py)
    CONTRADICT,
    CONTRADICT_NONE,
    Calibration,
    CardReading,
    Reading,
    combine,
    contradicts,
    joint_prob,
    least_reading,
    readings_from_rows,
)
from vision.recognize.runtime import NetRunner, open_runner
from vision.types import Quad, VisionError

if TYPE_CHECKING:
    from vision.enroll import EnrolledDeck
    from vision.recognize.fallback import SecondOpinion

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODEL_DIR / "index.onnx"


class ModelMissing(VisionError, FileNotFoundError):
    """The ONNX model file is not there (run `make model`)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"no recogniser model at {path}: run `make model` to train one")
        self.path = path


class HasQuad(Protocol):
    corners: Quad


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def to_blob(patches: list[np.ndarray]) -> np.ndarray:
    """Patches (H, W, 3) BGR uint8 (grey accepted) -> float32 NCHW in 0..1.

    The uint8 stack is put in NCHW order before it becomes float32 (then divided in
    place): the same figures (each value divided in float32 either way), a quarter
    of the bytes moved by the transposing copy (a bench frame's blobs: 0.22 ->
    0.18 ms; 30 patches in a fresh loop, where the float copy's pages are new
    each time, 1.27 -> 0.14 ms)."""
    arr = []
    for p in patches:
        if p.ndim == 2:
            p = cv2.cvtColor(p, cv2.COLOR_GRAY2BGR)
        if p.shape[:2] != (PATCH_H, PATCH_W):
            p = cv2.resize(p, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
        arr.append(p)
    x = np.ascontiguousarray(np.stack(arr).transpose(0, 3, 1, 2)).astype(np.float32)
    x /= 255.0
    return x


class IndexClassifier:
    """Rank and suit of corner-index patches. Build with `IndexClassifier.load()`.
    `runtime`: the name of the runtime running the network ("onnxruntime", "opencv")."""

    def __init__(self, net: NetRunner, calibration: Calibration, model_path: Path,
                 deck: EnrolledDeck | None = None) -> None:
        self._net = net
        self.calibration = calibration
        self.model_path = model_path
        self.deck = deck
        #: The pair reading what this network leaves unread (fallback.py), or None.
        self.fallback: SecondOpinion | None = None

    @property
    def runtime(self) -> str:
        return self._net.name

    @classmethod
    def load(cls, path: str | Path | None = None, deck: str | None = None, *,
             runtime: str | None = None) -> IndexClassifier:
        """Load the ONNX model (default: the committed one) and, if named, an enrolled deck.
        `runtime`: "onnxruntime", "opencv" or "auto" (None: $CARDTABLE_NN_RUNTIME, else
        auto), see vision.recognize.runtime.

        Raises:
            ModelMissing: no model file at `path`, or of a network its index.json
                names as the second opinion (fallback.py).
            vision.enroll.UnknownEnrolledDeck: `deck` is not enrolled.
            vision.recognize.runtime.UnknownRuntime, RuntimeUnavailable: a bad `runtime`.
        """
        p = Path(path) if path is not None else DEFAULT_MODEL
        if not p.is_file():
            raise ModelMissing(p)
        net = open_runner(p, runtime)
        calib = Calibration.from_json(p.with_suffix(".json"))
        clf = cls(net, calib, p)
        if deck is not None:
            from vision.enroll import load_deck

            clf.deck = load_deck(deck).with_embeddings(clf)
        else:  # (an enrolled deck is read by its templates: no second opinion)
            from vision.recognize.fallback import load_fallback

            clf.fallback = load_fallback(p, calib.temperature, runtime)
        return clf

    def forward(self, patches: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Raw network outputs: rank probs (N, 14), suit probs (N, 5), embeddings (N, D)."""
        if not patches:
            return np.zeros((0, 14)), np.zeros((0, 5)), np.zeros((0, 64))
        rank, suit, emb = self._net.run(to_blob(patches))
        t = self.calibration.temperature
        return softmax(rank / t), softmax(suit / t), emb

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        """One Reading per patch; rank/suit None where the network sees no index."""
        if self.deck is not None:
            return self._classify_enrolled(patches)
        pr, ps, _ = self.forward(patches)
        return readings_from_rows(pr, ps)

    def classify_looks(self, looks: list[list[np.ndarray]],
                       known: list[tuple[np.ndarray, np.ndarray] | None] | None = None
                       ) -> list[Reading]:
        """One Reading per corner from several cuts of it (the usual one first), all
        classified in one call: see `least_reading`. Where `known[i]` holds the usual
        cut's rows already (`Reading.probs` of the first look), looks[i] holds only the
        other cuts: a third less network work for the same reading."""
        pr, ps, _ = self.forward([p for cuts in looks for p in cuts])
        out, i = [], 0
        for k, cuts in enumerate(looks):
            r, s = pr[i:i + len(cuts)], ps[i:i + len(cuts)]
            first = known[k] if known is not None else None
            if first is not None:
                r, s = np.vstack([first[0], r]), np.vstack([first[1], s])
            out.append(least_reading(r, s))
            i += len(cuts)
        return out

    def wants_second_look(self, first: list[Reading]) -> bool:
        """Whether a card whose corners read `first` and was not accepted deserves a
        second look: one is calibrated, the deck is not enrolled, and the corners do
        agree on a card (only its probability fell short)."""
        cal = self.calibration
        if cal.second_look is None or self.deck is not None:
            return False
        free = replace(cal, min_prob=0.0, min_prob_pair=0.0, suit_min_prob=(),
                       suit_min_prob_pair=())
        return combine(first, free).card is not None

    def look_again(self, image: np.ndarray, quad: Quad | np.ndarray,
                   visible: tuple[bool, ...], first: list[np.ndarray] | None = None
                   ) -> CardReading:
        """The verdict of a second look: each visible corner cut again from the quad
        scaled by SECOND_LOOK_SCALES about its centre, read with `classify_looks` and
        judged by the second-look bars (`Calibration.second_look`). `first`: the usual
        cuts of the visible corners, when already at hand.
        """
        return self.look_again_many(image, [(quad, visible, first)])[0]

    def look_again_many(self, image: np.ndarray, cards: list[tuple[
            Quad | np.ndarray, tuple[bool, ...], list[np.ndarray] | None]],
            first_readings: list[list[Reading]] | None = None) -> list[CardReading]:
        """`look_again` for several cards of one frame, (quad, visible, first cuts or
        None) each, in one network call (the live pipeline's way). `first_readings`:
        the first look's Readings of each card's cuts, when at hand (their `probs`
        spare the network those cuts)."""
        cal = self.calibration.second_look
        if cal is None:
            raise ValueError("this model's calibration has no second look")
        looks: list[list[np.ndarray]] = []
        known: list[tuple[np.ndarray, np.ndarray] | None] = []
        spans = []
        for k, (quad, visible, first) in enumerate(cards):
            cuts = [[p for p, v in zip(extract_index_patches(image, q), visible) if v]
                    for q in look_quads(quad)]
            if first is None:
                first = [p for p, v in zip(extract_index_patches(image, quad), visible) if v]
            seen = first_readings[k] if first_readings is not None else []
            spans.append((len(looks), len(looks) + len(first)))
            for i, p0 in enumerate(first):
                rows = seen[i].probs if i < len(seen) and len(seen) == len(first) else None
                known.append(rows)
                looks.append([*(c[i] for c in cuts)] if rows is not None
                             else [p0, *(c[i] for c in cuts)])
        readings = self.classify_looks(looks, known) if looks else []
        return [combine(readings[a:b], cal) for a, b in spans]

    def _classify_enrolled(self, patches: list[np.ndarray]) -> list[Reading]:
        assert self.deck is not None
        _, _, emb = self.forward(patches)
        return [self.deck.match(e, self.calibration) for e in emb]

    def read_card(self, image: np.ndarray, quad: Quad | HasQuad | np.ndarray,
                  visible: tuple[bool, bool] = (True, True)) -> CardReading:
        """Read the card whose corners are `quad` (or a candidate with `.corners`).

        Both corner indices are cut and classified; corners marked not `visible` (e.g.
        covered by another card) are ignored. Accepted only if every usable corner
        agrees and the calibrated thresholds are met (at the first look or, when the
        corners agreed but fell short, at the second: `look_again`), otherwise `card`
        is None.
        """
        corners: Any = getattr(quad, "corners", quad)
        patches = [p for p, v in zip(extract_index_patches(image, corners), visible) if v]
        readings = self.classify(patches)
        verdict = combine(readings, self.calibration, enrolled=self.deck is not None)
        if verdict.card is None and self.wants_second_look(readings):
            return self.look_again(image, corners, visible, patches)
        return verdict


#: The second look at a card the first did not settle: its quad scaled about its
#: centre by these factors (the index crop a few per cent tighter and looser).
SECOND_LOOK_SCALES: tuple[float, ...] = (0.97, 1.03)


def look_quads(quad: Quad | np.ndarray, scales: tuple[float, ...] = SECOND_LOOK_SCALES
               ) -> list[np.ndarray]:
    """The card quad scaled about its centre by each of `scales` (float32 (4, 2))."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    return [((q - c) * s + c).astype(np.float32) for s in scales]
