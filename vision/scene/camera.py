"""Table-plane to image homographies for a pinhole camera (no lens distortion).

Built from a physical camera (distance, tilt, roll) rather than from random corner
jitter, so that the perspective foreshortening of cards is one a real camera can
produce: far cards smaller and squeezed along the viewing direction.
"""

from __future__ import annotations

import math

import numpy as np

from vision.scene.spec import CameraSpec


def table_to_image(cam: CameraSpec, size: tuple[int, int]) -> np.ndarray:
    """3x3 homography mapping table millimetres (X right, Y away) to image pixels."""
    w, h = size
    cx, cy = cam.center_px if cam.center_px is not None else (w / 2.0, h / 2.0)
    f = cam.px_per_mm * cam.distance_mm
    k = np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])
    # Looking straight down: camera x = world X, camera y (image down) = world -Y,
    # camera z (forward) = world -Z.
    r0 = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    t = math.radians(cam.tilt_deg)
    rx = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(t), -math.sin(t)],
                   [0.0, math.sin(t), math.cos(t)]])
    g = math.radians(cam.roll_deg)
    rz = np.array([[math.cos(g), -math.sin(g), 0.0], [math.sin(g), math.cos(g), 0.0],
                   [0.0, 0.0, 1.0]])
    r = rz @ rx @ r0
    # The table origin sits on the optical axis at depth `distance_mm`.
    m = np.column_stack([r[:, 0], r[:, 1], [0.0, 0.0, cam.distance_mm]])
    hom = k @ m
    return hom / hom[2, 2]


def project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to (N, 2) points."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ hom.T
    return q[:, :2] / q[:, 2:3]
