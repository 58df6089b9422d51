"""Running the index network: onnxruntime when it is installed, else OpenCV's DNN.

Why two: the same ONNX file gives the same outputs in both (raw outputs within about
1e-5, probabilities within 1e-6 on the bench frames), but onnxruntime on one thread
runs this small network about 2.2 times faster than cv2.dnn (a frame's 16 patches:
2.6 vs 6.0 ms on the shared x86 machine) and its fixed cost per call is half. It is
optional (`pip install onnxruntime`; PyPI has cp311 wheels for x86_64 and aarch64, none
for 32-bit Pi OS): without it, or with `CARDTABLE_NN_RUNTIME=opencv`, cv2.dnn runs the
network, as before. `CARDTABLE_NN_RUNTIME=onnxruntime` insists on onnxruntime (an error
if it is missing); unset or `auto`: onnxruntime if it imports.

One thread: a frame's batch is a few dozen 32x64 patches, and the camera loop, the
detector and the referee share the Pi's cores.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.types import VisionError

#: The network's output names (vision/training/export).
OUTPUTS = ("rank", "suit", "embedding")
#: The environment variable choosing the runtime: auto (default), onnxruntime, opencv.
RUNTIME_ENV = "CARDTABLE_NN_RUNTIME"
RUNTIMES = ("auto", "onnxruntime", "opencv")


class UnknownRuntime(VisionError, ValueError):
    """A runtime name that is none of RUNTIMES."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown network runtime {name!r} (set {RUNTIME_ENV} to one of "
                         f"{', '.join(RUNTIMES)})")
        self.name = name


class RuntimeUnavailable(VisionError, ImportError):
    """onnxruntime was asked for by name but cannot be imported."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"the network runtime {name!r} is not installed ({reason}): "
                         f"`pip install onnxruntime`, or unset {RUNTIME_ENV}")
        self.name = name
        self.reason = reason


class NetRunner(Protocol):
    """Runs the index network on an NCHW float32 blob."""

    name: str

    def run(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Raw (rank logits, suit logits, embeddings) for the batch `blob`."""
        ...


class OpenCVRunner:
    """cv2.dnn (always there: opencv is a dependency)."""

    name = "opencv"

    def __init__(self, path: Path) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(path))

    def run(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._net.setInput(blob)
        rank, suit, emb = self._net.forward(list(OUTPUTS))
        return rank, suit, emb


class OrtRunner:
    """onnxruntime's CPU provider on one thread."""

    name = "onnxruntime"

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3  # warnings about unused initialisers are noise here
        self._sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self._input = self._sess.get_inputs()[0].name

    def run(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rank, suit, emb = self._sess.run(list(OUTPUTS), {self._input: blob})
        return rank, suit, emb


def open_runner(path: Path, runtime: str | None = None) -> NetRunner:
    """The runner for the ONNX model at `path`: `runtime` (None: $CARDTABLE_NN_RUNTIME,
    else auto) is "onnxruntime", "opencv", or "auto" (onnxruntime if it imports).

    Raises:
        UnknownRuntime: `runtime` names no runtime.
        RuntimeUnavailable: "onnxruntime" was asked for and does not import.
    """
    name = (runtime or os.environ.get(RUNTIME_ENV) or "auto").strip().lower()
    if name not in RUNTIMES:
        raise UnknownRuntime(name)
    if name == "opencv":
        return OpenCVRunner(path)
    try:
        return OrtRunner(path)
    except ImportError as e:
        if name == "onnxruntime":
            raise RuntimeUnavailable(name, str(e)) from e
        return OpenCVRunner(path)


class MeanRunner:
    """Several networks as one: the mean of their rank and suit logits, the first's
    embedding (enrolled decks keep matching the first network's templates).

    Why the mean of logits: it is what `vision.training.ensemble` bakes into a
    single ONNX graph, so a pair run here reads exactly like the merged file, and the
    networks can be kept apart (the first alone reads most cards; the pair only the
    doubtful ones, vision.recognize.fallback).
    """

    def __init__(self, runners: list[NetRunner]) -> None:
        if not runners:
            raise ValueError("MeanRunner needs at least one network")
        self._runners = list(runners)
        self.name = "+".join(r.name for r in self._runners)

    def run(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        outs = [r.run(blob) for r in self._runners]
        rank = np.mean([o[0] for o in outs], axis=0)
        suit = np.mean([o[1] for o in outs], axis=0)
        return rank, suit, outs[0][2]
