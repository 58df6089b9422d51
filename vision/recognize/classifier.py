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

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np

from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.recognize.runtime import NetRunner, open_runner
from vision.types import RANKS, SUITS, Quad, VisionError

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


@dataclass(frozen=True, slots=True)
class Calibration:
    """Abstention thresholds (chosen by vision.training.calibrate on calibration decks).

    The network's logits are divided by `temperature` (fitted on the calibration
    decks) before the softmax. A card read from one corner is accepted when its rank
    probability reaches `min_prob` and its suit probability the suit's bar. Two
    agreeing corners are two looks at the same index, so their evidence multiplies
    (`joint_prob`): the joint rank probability must reach `min_prob_pair`, the joint
    suit probability the suit's pair bar. In both cases the "not an index" probability
    must stay below `max_none` and no visible corner may disagree confidently
    (> `disagree_prob`). Enrolled decks are accepted when the cosine similarity to the
    best template reaches `min_similarity` and beats the best other card by
    `min_margin`.

    Suit bars are per suit read (`suit_min_prob`, `suit_min_prob_pair`, in SUITS
    order; empty = the rank bars) because the network's suit mistakes are lopsided:
    on unfamiliar decks clubs are read as spades with near-certainty while nothing is
    read as a heart that is not one, so "spade" needs far more evidence than "heart".
    """

    min_prob: float = 0.9
    min_prob_pair: float = 0.9  # on the joint probability of two agreeing corners
    max_none: float = 0.3
    disagree_prob: float = 0.5
    min_similarity: float = 0.8
    min_margin: float = 0.05
    temperature: float = 1.0
    suit_min_prob: tuple[float, ...] = ()  # per suit (SUITS order) for one corner
    suit_min_prob_pair: tuple[float, ...] = ()  # per suit, on two pooled corners
    #: Bars for the second look (`IndexClassifier.look_again`) at a card the first did
    #: not settle; None: no second look.
    second_look: Calibration | None = None

    def suit_bar(self, suit: str, pooled: bool) -> float:
        """The probability the suit `suit` must reach (pooled: two agreeing corners)."""
        bars = self.suit_min_prob_pair if pooled else self.suit_min_prob
        if bars:
            return bars[SUITS.index(suit)]
        return self.min_prob_pair if pooled else self.min_prob

    @classmethod
    def from_json(cls, path: Path) -> Calibration:
        if not path.is_file():
            return cls()
        return cls.from_dict(json.loads(path.read_text()).get("calibration", {}))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """From index.json's "calibration" object (unknown keys ignored)."""
        fields: dict[str, Any] = {}
        for k, v in data.items():
            if k not in cls.__dataclass_fields__:
                continue
            if k == "second_look":
                fields[k] = None if v is None else cls.from_dict(v)
            elif isinstance(v, list):
                fields[k] = tuple(float(x) for x in v)
            else:
                fields[k] = float(v)
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """For index.json (the inverse of `from_dict`)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = v.to_dict() if isinstance(v, Calibration) else \
                list(v) if isinstance(v, tuple) else v
        return out


@dataclass(frozen=True, slots=True)
class Reading:
    """What one patch shows: rank/suit (None = "not an index") with probabilities.

    `none_prob` is the network's probability that the patch is no index at all
    (the larger of the rank and suit heads' "none" outputs). `probs`: the rank and
    suit heads' whole rows (after the temperature), kept so that a second look need
    not run this cut through the network again.
    """

    rank: str | None
    suit: str | None
    confidence: float
    rank_prob: float = 0.0
    suit_prob: float = 0.0
    none_prob: float = 0.0
    probs: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False,
                                                        repr=False)


@dataclass(frozen=True, slots=True)
class CardReading:
    """A card's verdict: `card` when accepted, else None (rank/suit may still be sure)."""

    card: str | None
    confidence: float
    rank: str | None
    suit: str | None

    def __iter__(self):  # unpack as (card, confidence, rank, suit)
        return iter((self.card, self.confidence, self.rank, self.suit))


class HasQuad(Protocol):
    corners: Quad


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def to_blob(patches: list[np.ndarray]) -> np.ndarray:
    """Patches (H, W, 3) BGR uint8 (grey accepted) -> float32 NCHW in 0..1."""
    arr = []
    for p in patches:
        if p.ndim == 2:
            p = cv2.cvtColor(p, cv2.COLOR_GRAY2BGR)
        if p.shape[:2] != (PATCH_H, PATCH_W):
            p = cv2.resize(p, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
        arr.append(p)
    x = np.stack(arr).astype(np.float32) / 255.0
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


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


def readings_from_rows(pr: np.ndarray, ps: np.ndarray) -> list[Reading]:
    """One Reading per pair of rank (N, 14) and suit (N, 5) probability rows: the most
    likely rank and suit, or None for both where a head's "not an index" wins."""
    out = []
    for r, s in zip(pr, ps):
        ri, si = int(r[:13].argmax()), int(s[:4].argmax())
        none = float(max(r[13], s[4]))
        is_none = r[13] > r[ri] or s[4] > s[si]
        out.append(Reading(
            None if is_none else RANKS[ri], None if is_none else SUITS[si],
            float(min(r[ri], s[si])), float(r[ri]), float(s[si]), none, (r, s)))
    return out


def joint_prob(probs: list[float]) -> float:
    """Probability that independent looks agreeing on one class are right, from each
    look's probability: their odds multiply (naive Bayes, the alternatives lumped, a
    flat prior). Two corners at 0.9 give 0.988; one corner gives its own probability.
    """
    if len(probs) == 1:
        return float(probs[0])
    log_odds = 0.0
    for p in probs:
        p = min(max(p, 1e-7), 1 - 1e-7)
        log_odds += float(np.log(p / (1 - p)))
    return float(1.0 / (1.0 + np.exp(-log_odds)))


#: The second look at a card the first did not settle: its quad scaled about its
#: centre by these factors (the index crop a few per cent tighter and looser).
SECOND_LOOK_SCALES: tuple[float, ...] = (0.97, 1.03)


def look_quads(quad: Quad | np.ndarray, scales: tuple[float, ...] = SECOND_LOOK_SCALES
               ) -> list[np.ndarray]:
    """The card quad scaled about its centre by each of `scales` (float32 (4, 2))."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    return [((q - c) * s + c).astype(np.float32) for s in scales]


def least_reading(rank_probs: np.ndarray, suit_probs: np.ndarray) -> Reading:
    """One corner's Reading from several cuts of it (rows; the usual cut first).

    The class is what the first cut reads; its probability is the least any cut gives
    it, so the cuts must agree: a cut reading something else pulls it down. Why not a
    mean: the network's doubt on a card is mostly about where the crop sits, and a
    class that survives every crop is the one the index shows. "Not an index" as the
    first cut sees it.
    """
    r0, s0 = rank_probs[0], suit_probs[0]
    ri, si = int(r0[:13].argmax()), int(s0[:4].argmax())
    rp, sp = float(rank_probs[:, ri].min()), float(suit_probs[:, si].min())
    none = float(max(r0[13], s0[4]))
    if r0[13] > rp or s0[4] > sp:
        return Reading(None, None, min(rp, sp), rp, sp, none)
    return Reading(RANKS[ri], SUITS[si], min(rp, sp), rp, sp, none)


#: A corner that surely shows an index (its "not an index" probability at most
#: CONTRADICT_NONE) and gives a card's rank less than CONTRADICT shows another card.
CONTRADICT, CONTRADICT_NONE = 0.01, 0.05


def contradicts(r: Reading, rank: str | None) -> bool:
    """Does corner reading `r` show an index that is surely not of rank `rank`?

    Why: an unsure corner (best rank under `disagree_prob`) does not block a card
    read from the other corner, so that a blurred index costs no card. But an
    outline drawn round two cards shows each card's index at one corner: the
    network may be unsure *which* other rank it sees (Q 0.49, 9 0.28, J 0.16 for a
    nine's index) and still sure it is not the rank the other corner reads (A: 0.000).
    Seen on a training-deck scene with the two-network model: AH given through a
    quad round AH and 9H.
    """
    if rank is None or r.probs is None or r.none_prob > CONTRADICT_NONE:
        return False
    return bool(r.probs[0][RANKS.index(rank)] < CONTRADICT)


def combine(readings: list[Reading], calib: Calibration, enrolled: bool = False
            ) -> CardReading:
    """Merge the readings of one card's corners into a verdict (see `read_card`).

    A corner that sees "not an index" (covered, glare) neither votes for nor against;
    two corners that read different cards make the whole card unreadable. Agreeing
    corners pool their evidence (`joint_prob`) and face the pair bars, a lone corner
    the single ones (`Calibration`: a rank bar and per-suit bars). The verdict's
    confidence is the pooled min(rank, suit) probability. Readings from an enrolled
    deck were already thresholded (by similarity) per corner.
    """
    if enrolled:
        calib = Calibration(min_prob=0.0, min_prob_pair=0.0, max_none=1.0, disagree_prob=0.0)
    votes = [r for r in readings if r.rank is not None and r.suit is not None]
    if not votes:
        return CardReading(None, 0.0, None, None)
    best = max(votes, key=lambda r: r.confidence)
    for r in votes:
        if (r.rank, r.suit) != (best.rank, best.suit) and (
                r.confidence > calib.disagree_prob or contradicts(r, best.rank)):
            return CardReading(None, 0.0, None, None)
    agree = [r for r in votes if (r.rank, r.suit) == (best.rank, best.suit)]
    rank_p = joint_prob([r.rank_prob for r in agree])
    suit_p = joint_prob([r.suit_prob for r in agree])
    none_p = float(min(r.none_prob for r in agree))
    conf = min(rank_p, suit_p)
    if enrolled:
        conf = float(np.mean([r.confidence for r in agree]))
    pooled = len(agree) >= 2
    assert best.suit is not None  # votes all carry a suit
    need = calib.min_prob_pair if pooled else calib.min_prob
    rank = best.rank if rank_p >= need else None
    suit = best.suit if suit_p >= calib.suit_bar(best.suit, pooled) else None
    if rank is None or suit is None or none_p > calib.max_none:
        return CardReading(None, 0.0, rank, suit)
    return CardReading(f"{rank}{suit}", conf, rank, suit)
