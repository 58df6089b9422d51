"""Cheap on-the-fly augmentation of cached training patches (torch, per batch).

Why: synthesising a view costs ~20 ms of CPU, so the cached views are reused for
many epochs; without fresh variety each epoch the network memorises them and stays
under-confident on decks it never saw. What is varied here is what differs between
the synthetic views and a real table and detector:

* geometry: the detector's quads are a few pixels / degrees off, so the index sits
  shifted, scaled and turned a little inside the patch;
* resolution: small phone photos and far cameras give index patches cut from a dozen
  pixels (downscale then upscale), and focus blur;
* photometry: exposure, contrast, gamma, white balance, sensor noise, greyscale.

Labels are unchanged by all of it (shifts stay small enough to keep the index in).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _u(n: int, lo: float, hi: float, gen: torch.Generator) -> torch.Tensor:
    return lo + (hi - lo) * torch.rand(n, generator=gen)


def _pick(n: int, p: float, gen: torch.Generator) -> torch.Tensor:
    return torch.rand(n, generator=gen) < p


def _with_rows(x: torch.Tensor, sel: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """A copy of the batch `x` whose rows `sel` are replaced by `rows` (the others kept)."""
    out = x.clone()
    out[sel] = rows
    return out


def geometric(x: torch.Tensor, gen: torch.Generator, p: float = 0.7,
              max_shift_px: float = 2.0, max_deg: float = 4.0,
              scale: tuple[float, float] = (0.9, 1.1)) -> torch.Tensor:
    """Shift by up to `max_shift_px`, turn by up to `max_deg`, zoom within `scale`."""
    n, _, h, w = x.shape
    sel = _pick(n, p, gen)
    if not sel.any():
        return x
    k = int(sel.sum())
    a = _u(k, -max_deg, max_deg, gen) * math.pi / 180
    s = _u(k, scale[0], scale[1], gen)
    tx = _u(k, -max_shift_px, max_shift_px, gen) * 2 / w
    ty = _u(k, -max_shift_px, max_shift_px, gen) * 2 / h
    cos, sin = torch.cos(a) / s, torch.sin(a) / s
    # affine_grid works in [-1, 1] per axis; the patch is twice as tall as wide, so
    # a true rotation mixes the axes with the aspect ratio.
    ar = h / w
    theta = torch.stack([torch.stack([cos, -sin * ar, tx], 1),
                         torch.stack([sin / ar, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, [k, x.shape[1], h, w], align_corners=False)
    return _with_rows(x, sel, F.grid_sample(x[sel], grid, mode="bilinear",
                                            padding_mode="border", align_corners=False))


def low_resolution(x: torch.Tensor, gen: torch.Generator, p: float = 0.3,
                   factor: tuple[float, float] = (0.35, 0.8)) -> torch.Tensor:
    """Down- then upsample a random share `p` of the batch (one factor per batch)."""
    n, _, h, w = x.shape
    sel = _pick(n, p, gen)
    if not sel.any():
        return x
    f = float(_u(1, factor[0], factor[1], gen))
    small = F.interpolate(x[sel], size=(max(8, round(h * f)), max(4, round(w * f))),
                          mode="area")
    return _with_rows(x, sel, F.interpolate(small, size=(h, w), mode="bilinear",
                                            align_corners=False))


def blur(x: torch.Tensor, gen: torch.Generator, p: float = 0.25,
         sigma: tuple[float, float] = (0.5, 1.2)) -> torch.Tensor:
    """Gaussian focus blur (5-tap, one sigma per batch) on a share `p` of the batch."""
    n, c, _, _ = x.shape
    sel = _pick(n, p, gen)
    if not sel.any():
        return x
    sg = float(_u(1, sigma[0], sigma[1], gen))
    t = torch.arange(-2, 3, dtype=x.dtype)
    k1 = torch.exp(-t * t / (2 * sg * sg))
    k1 = k1 / k1.sum()
    k2 = (k1[:, None] * k1[None, :]).expand(c, 1, 5, 5).contiguous()
    return _with_rows(x, sel, F.conv2d(F.pad(x[sel], (2, 2, 2, 2), mode="replicate"), k2,
                                       groups=c))


def photometric(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Exposure, contrast, gamma, white balance, noise, greyscale (all per sample)."""
    n = x.shape[0]
    gain = _u(n, 0.75, 1.25, gen).view(n, 1, 1, 1)
    wb = _u(n * 3, 0.9, 1.1, gen).view(n, 3, 1, 1)
    x = (x * gain * wb).clamp(0, 1)
    gamma = torch.exp(_u(n, -0.4, 0.4, gen)).view(n, 1, 1, 1)
    x = x.clamp_min(1e-4) ** gamma
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = _u(n, 0.65, 1.3, gen).view(n, 1, 1, 1)
    x = (x - mean) * contrast + mean
    noisy = _pick(n, 0.4, gen).view(n, 1, 1, 1).to(x.dtype)
    sigma = _u(n, 0.0, 0.04, gen).view(n, 1, 1, 1) * noisy
    x = x + torch.randn(x.shape, generator=gen) * sigma
    grey = _pick(n, 0.25, gen)
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    return x.clamp(0, 1)


def augment(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """All of the above on a float NCHW batch in 0..1 (BGR, 64x32 patches)."""
    x = geometric(x, gen)
    x = low_resolution(x, gen)
    x = blur(x, gen)
    return photometric(x, gen)
