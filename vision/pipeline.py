"""Frames in, readings out: detection plus recognition, with a change cache.

Why a cache: at a card table nothing moves most of the time, and the referee asks for
every frame. Comparing a small grey thumbnail of the new frame with the last one costs
about a millisecond; when nothing changed beyond the noise (and a global brightness
drift, e.g. a cloud or the camera's auto-exposure), the previous reading is returned
as is, marked `changed=False`. When something changed, detection runs again, but a
card found at the same place as before whose part of the thumbnail did not change
keeps its earlier reading instead of being read again. What counts as a change, the
thumbnail and where it changed are in vision/framechange.py.

OpenCV runs on one thread once a Pipeline is made (`Pipeline(opencv_threads=...)`):
on more, some of its loops give other edges, and a frame would read otherwise than
where it was measured.

The recogniser is passed in (composition root: referee/), anything with
`classify(patches) -> list[Reading]`, `calibration` and `deck` like
`vision.recognize.IndexClassifier` (and its `wants_second_look`/`look_again_many` for
the second look); with none, cards are located but not read. Cards are read by
vision.recognize.reader's rule, the same as for still images. Opt-in
(`keep_signs=True`), one thing a still has not: the sure black cards' suit signs
of earlier frames (one deck is played all game), kept in a GameSigns and passed on
(vision.recognize.decksuits: an unsure spade or club told by them); `reset_deck()`
forgets them. Off by default: on held-out rendered games (vision.evaluate_game,
seed 1234) it read two kde/jolly-royal clubs as spades: a blurred club's sign, a
round blob, was nearer the frame's own blurred spades than the sharp clubs kept
from earlier frames (kept signs come from other sharpness than the card asked).

Opt-in (`settle=SettleConfig(...)`), the settled look (vision.settle): once the frame
stayed unchanged for a few frames after a change, it is read once by the stills
chain and that reading, merged with the live one, is reported (`settled=True`) until
the next change. The referee records cards that were laid down and stayed, which is
what a settled frame shows; the look reads more of them than the live read's 30 ms
allow. `read` takes it inline, or a worker does (`claim_settle`, `settle`) and `read`
never waits for it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any, Protocol

import cv2
import numpy as np

from vision.detect import CardCandidate, DetectorConfig, check_image, detect_cards
from vision.detect import geometry as g
from vision.framechange import ChangeConfig, changed_mask, region_moved, thumbnail
from vision.recognize import inkcolour
from vision.recognize.decksuits import SuitSigns
from vision.recognize.gamesigns import GameSigns
from vision.recognize.reader import one_of_each, read_candidates, without_doubles
from vision.settle import SettleConfig, merge, same_place, settled_look
from vision.types import CardSighting, Frame, FrameReading

__all__ = ["ChangeConfig", "Pipeline", "Recognizer", "SettleConfig"]


class Recognizer(Protocol):
    """What the pipeline needs of a recogniser (vision.recognize.IndexClassifier)."""

    calibration: Any
    deck: Any

    def classify(self, patches: list[np.ndarray]) -> list[Any]: ...


@dataclass(frozen=True, slots=True, eq=False)
class _Memo:
    thumb: np.ndarray  # float32 grey thumbnail
    shape: tuple[int, int]  # frame (height, width)
    cards: tuple[CardSighting, ...]


@dataclass(slots=True, eq=False)
class _Settling:
    """The settled look's state for one layout (the frames since a change): a new
    one at each change, so that a look taken for an earlier layout is told apart
    (identity) and dropped."""

    layout: int = 0
    still: int = 0  # unchanged frames read since the change
    claimed: bool = False  # a settle() was claimed for this layout
    look: tuple[CardSighting, ...] | None = None  # the settled reading
    told: bool = False  # the settled reading was reported by read()


#: The live detector's default: a camera's frames are never resized non-uniformly,
#: so no second look at a frame unsqueezed (DetectorConfig.unsqueeze, for photos).
#: A slanted camera looks squeezed to that test and paid 17-26 ms a frame for it,
#: with no card more on held-out rendered tables (294 of 436 either way).
LIVE_DETECTOR = DetectorConfig(unsqueeze=False)


#: OpenCV's thread count a Pipeline sets when made (see Pipeline).
OPENCV_THREADS = 1


class Pipeline:
    """Frame -> FrameReading. Keep one per camera: it remembers the last frame.

    `detector` defaults to LIVE_DETECTOR (camera frames, not photos).

    `opencv_threads` (default OPENCV_THREADS = 1) is set as OpenCV's thread count
    when the pipeline is made: cv2.setNumThreads, which is process-wide (every
    OpenCV call of the process runs with it from then on). Why: some of OpenCV's
    parallel loops give other outputs on more threads. cv2.Canny (the detector's
    edge maps, vision.detect.evidence) gave other edges on two threads than on one
    for the same input in 14 of 551 calls over the real train photos (and
    cv2.magnitude in 2 of 331), which moved the sightings of 2 of the 296 photos
    through this pipeline (IMG_2421's king of spades: its outline a pixel off,
    tests/vision/test_pipeline_threads.py): a frame read on a Pi's four cores
    could read otherwise than where it was measured. One is the count it is
    measured with: `python -m bench vision` times the pipeline on one core (its
    30 ms budget), evaluation and `cardtable recognize` read on one thread too
    (cv2.dnn, the network's runtime where onnxruntime is missing, runs on it
    alike), and the camera loop and the referee share the Pi's other cores. `opencv_threads=None` leaves OpenCV's setting alone (a
    caller that manages threads itself, knowing its readings may then differ).

    `keep_signs` (default off, see module): keep the deck's sure suit signs over
    the frames (`signs`, a GameSigns) for decksuits; `reset_deck()` forgets them.

    `settle` (default None: off, see module and vision.settle.SettleConfig): the
    settled look. `read` may then run on the camera thread while `settle` runs on
    one worker; the state they share is swapped under a lock.
    """

    def __init__(
        self,
        recognizer: Recognizer | None = None,
        *,
        detector: DetectorConfig | None = None,
        change: ChangeConfig | None = None,
        opencv_threads: int | None = OPENCV_THREADS,
        keep_signs: bool = False,
        settle: SettleConfig | None = None,
    ) -> None:
        self.recognizer = recognizer
        self.detector = detector or LIVE_DETECTOR
        self.change = change or ChangeConfig()
        self.settle_config = settle
        self._memo: _Memo | None = None
        self._state = _Settling()
        self._lock = threading.Lock()  # the settling state, shared with a settle() worker
        self.signs = GameSigns()
        self.keep_signs = keep_signs
        if opencv_threads is not None:
            cv2.setNumThreads(opencv_threads)

    def reset(self) -> None:
        """Forget the last frame (the next one is read in full). The deck's suit
        signs are kept: see reset_deck."""
        with self._lock:
            self._memo = None
            self._state = _Settling(self._state.layout + 1)

    def reset_deck(self) -> None:
        """A new game or another deck: forget the last frame and the suit signs kept
        from the earlier frames (another deck's spade may look like this one's club)."""
        self.reset()
        self.signs.clear()

    def read(self, frame: Frame) -> FrameReading:
        """Everything seen in `frame`.

        Raises:
            vision.detect.BadFrame: the frame's image is not an image array.
        """
        image = check_image(frame.image)
        thumb = thumbnail(image, self.change.thumb)
        memo = self._memo
        if memo is not None and memo.shape == image.shape[:2]:
            moved = changed_mask(memo.thumb, thumb, self.change.pixel_delta)
            if int(moved.sum()) <= self.change.max_changed:
                return self._unchanged(frame, memo)
        else:
            moved = None
        cands = detect_cards(image, self.detector)
        cards = self._read(image, cands, memo, moved)
        with self._lock:
            self._memo = _Memo(thumb, image.shape[:2], cards)
            self._state = _Settling(self._state.layout + 1)
        return FrameReading(frame.seq, frame.t, cards, changed=True)

    # -- the settled look (vision.settle) ----------------------------------------

    def _unchanged(self, frame: Frame, memo: _Memo) -> FrameReading:
        """An unchanged frame's reading: the settled one once there is one (its first
        report `changed=True`: the cards may differ from the live read's), else the
        last frame's; the settled look taken here when it falls due (inline)."""
        with self._lock:
            st = self._state
            st.still += 1
        cfg = self.settle_config
        if st.look is None and cfg is not None and cfg.inline and self.claim_settle():
            self.settle(frame)
        with self._lock:
            st = self._state
            if st.look is None:
                return FrameReading(frame.seq, frame.t, memo.cards, changed=False)
            news, st.told = not st.told, True
            return FrameReading(frame.seq, frame.t, st.look, changed=news, settled=True)

    def claim_settle(self) -> bool:
        """Is a settled look due (the frame stayed unchanged for `settle.after`
        frames since the last change, and none was taken or claimed since)? True
        claims it: call `settle` with the frame just read (e.g. on a worker thread).
        Always False without `settle` config or a recogniser."""
        cfg = self.settle_config
        if cfg is None or self.recognizer is None:
            return False
        with self._lock:
            st = self._state
            if self._memo is None or st.look is not None or st.claimed or st.still < cfg.after:
                return False
            st.claimed = True
            return True

    def settle(self, frame: Frame) -> FrameReading | None:
        """Take the settled look at `frame` (vision.settle: the stills chain,
        merged with the live reading) and keep it for the unchanged frames to come.
        None when it no longer applies: `frame` is not the layout last read (a
        change came first), or a change was read while it ran.

        May run on another thread than `read` (which then never waits for it: the
        look's result is reported by the first `read` after it is kept). The
        recogniser is then used by both threads at once: onnxruntime's sessions
        allow that, OpenCV's dnn networks (the runtime where onnxruntime is
        missing) do not: with those, take the look inline (SettleConfig.inline).
        """
        if self.recognizer is None:
            return None
        image = check_image(frame.image)
        with self._lock:
            memo, st = self._memo, self._state
        try:
            if memo is None or memo.shape != image.shape[:2] or int(changed_mask(
                    memo.thumb, thumbnail(image, self.change.thumb),
                    self.change.pixel_delta).sum()) > self.change.max_changed:
                return None
            cfg = self.settle_config or SettleConfig()
            detect = None if cfg.detector is None else _detector(cfg.detector)
            cards = merge(settled_look(self.recognizer, image, detect), memo.cards)
            with self._lock:
                if self._state is not st:
                    return None
                st.look, st.told = cards, False
                self._memo = replace(memo, cards=cards)
            return FrameReading(frame.seq, frame.t, cards, changed=True, settled=True)
        finally:
            with self._lock:
                if st.look is None:
                    st.claimed = False

    # -- recognition ------------------------------------------------------------

    def _read(
        self, image: np.ndarray, cands: list[CardCandidate], memo: _Memo | None,
        moved: np.ndarray | None,
    ) -> tuple[CardSighting, ...]:
        out: list[CardSighting | None] = [None] * len(cands)
        todo: list[int] = []
        for i, c in enumerate(cands):
            again = self._unchanged_card(c, memo, moved, image.shape[:2])
            if again is not None:
                out[i] = again
            else:
                todo.append(i)
        if self.recognizer is None:
            for i in todo:
                out[i] = _unread(cands[i])
            return tuple(o for o in out if o is not None)
        # The reader's rule: one network call for all patches of all cards to read
        # (and one more for the second looks, if any), backs as backs; the game's
        # kept suit signs in, this frame's sure ones out.
        found: list[SuitSigns] = []
        kept: dict[str, Any] = {"known": self.signs.known, "found": found} \
            if self.keep_signs else {}
        for i, s in zip(todo, read_candidates(self.recognizer, image, [cands[i] for i in todo],
                                              ink_certain=inkcolour.CERTAIN, lattice=False,
                                              sign_cuts=False, sign_veto=False, zoom=False,
                                              **kept)):
            out[i] = s
        # A card kept from the last frame and one read now may be read as the same.
        cards = one_of_each([o for o in out if o is not None],
                            [c.index_visible for c in cands],
                            [c.face_down for c in cands])
        # One card found twice, read once: the referee would see a second, unread
        # card where there is one (12 such in 120 training-deck scenes, live path).
        cards = without_doubles(cards)
        if self.settle_config is not None and memo is not None and moved is not None:
            cards = _carried(cards, memo.cards, moved, image.shape[:2])
        if found:  # only signs of cards this frame reports (not unread by the rules after)
            self.signs.add(found[0], reported={c.card for c in cards if c.card})
        return tuple(cards)

    def _unchanged_card(
        self, cand: CardCandidate, memo: _Memo | None, moved: np.ndarray | None,
        shape: tuple[int, int],
    ) -> CardSighting | None:
        """The previous sighting of this card, if it lies where it lay and nothing
        changed over it; else None (read it again)."""
        if memo is None or moved is None:
            return None
        q = cand.quad
        for prev in memo.cards:
            pq = np.asarray(prev.corners, dtype=np.float32)
            if g.iou(q, pq) < self.change.reuse_iou:
                continue
            if region_moved(moved, pq, shape):
                return None
            return CardSighting(cand.corners, prev.face_down, prev.card, prev.confidence,
                                prev.rank, prev.suit)
        return None


def _carried(cards: list[CardSighting], before: tuple[CardSighting, ...], moved: np.ndarray,
             shape: tuple[int, int]) -> list[CardSighting]:
    """`cards` (a changed frame's) with the cards read in the last reading (`before`,
    the settled look's once there was one) where nothing changed over them: added
    where nothing was found now, given to what was found there unread; not when
    the card is read elsewhere now (a deck holds it once).

    Why: the settled look reads cards the live read cannot; without this, a card
    laid elsewhere would take them away until the table settles again, and the
    referee would see them go and come back."""
    out: list[CardSighting | None] = list(cards)
    read = {c.card for c in cards if c.card}
    for prev in before:
        if (not prev.card or prev.card in read
                or region_moved(moved, np.asarray(prev.corners, np.float32), shape)):
            continue
        at = [i for i, c in enumerate(out) if c is not None and same_place(prev, c)]
        if any((c := out[i]) is not None and c.card for i in at):
            continue
        for i in at:
            out[i] = None
        out.append(prev)
        read.add(prev.card)
    return [c for c in out if c is not None]


def _detector(config: DetectorConfig) -> Any:
    def detect(image: np.ndarray) -> list[CardCandidate]:
        return detect_cards(image, config)
    return detect


def _unread(cand: CardCandidate) -> CardSighting:
    return CardSighting(cand.corners, face_down=cand.face_down)
