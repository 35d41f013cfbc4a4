"""Semantic similarity (SS): the cosine similarity of two pictures' embeddings, behind a pluggable embedder.

* :class:`ShapeDescriptorEmbedder` (default, offline, deterministic) describes the silhouette (the raster
  protocol's mask) by its radial profile's Fourier magnitudes and its Hu moments. It measures **shape**
  similarity, not semantic similarity: it does not know what a crane looks like. It is invariant to translation,
  scale, rotation (up to pixel effects) and mirroring.
* :class:`OpenClipEmbedder` uses an ``open_clip`` image encoder with weights the user provides (the published
  metric uses CLIP ViT-B/16 fine-tuned on origami pictures; ``scripts/finetune_clip_supcon.py`` is that recipe).
  It needs the ``clip`` extra and is imported only when built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from PIL import Image

from foldbench.errors import MissingDependencyError
from foldbench.origami.metrics import silhouette_mask

__all__ = ["ImageEmbedder", "OpenClipEmbedder", "ShapeDescriptorEmbedder", "semantic_similarity"]

HARMONICS: int = 12
"""Fourier magnitudes of the radial profile kept in the shape descriptor."""
ANGLE_BINS: int = 128


@runtime_checkable
class ImageEmbedder(Protocol):
    """Anything that turns a picture into a vector."""

    name: str

    def embed(self, image: Image.Image) -> np.ndarray:
        """The picture's embedding (1-D)."""
        ...


def _hu_moments(mask: np.ndarray) -> np.ndarray:
    rows, cols = np.nonzero(mask)
    y, x = rows.astype(float), cols.astype(float)
    area = float(len(x))
    dx, dy = x - x.mean(), y - y.mean()

    powers_x = [np.ones_like(dx), dx, dx * dx, dx * dx * dx]
    powers_y = [np.ones_like(dy), dy, dy * dy, dy * dy * dy]

    def eta(p: int, q: int) -> float:
        return float(powers_x[p] @ powers_y[q]) / area ** (1 + (p + q) / 2)

    n20, n02, n11 = eta(2, 0), eta(0, 2), eta(1, 1)
    n30, n03, n21, n12 = eta(3, 0), eta(0, 3), eta(2, 1), eta(1, 2)
    return np.array([
        n20 + n02,
        (n20 - n02) ** 2 + 4 * n11**2,
        (n30 - 3 * n12) ** 2 + (3 * n21 - n03) ** 2,
        (n30 + n12) ** 2 + (n21 + n03) ** 2,
    ])


def _radial_profile(mask: np.ndarray) -> np.ndarray:
    rows, cols = np.nonzero(mask)
    dx, dy = cols - cols.mean(), rows - rows.mean()
    angles = ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * ANGLE_BINS).astype(int) % ANGLE_BINS
    radius = np.hypot(dx, dy)
    profile = np.zeros(ANGLE_BINS)
    np.maximum.at(profile, angles, radius)
    return profile / max(float(profile.mean()), 1e-12)


class ShapeDescriptorEmbedder:
    """Shape, not semantics: the silhouette's radial-profile Fourier magnitudes (harmonics 1..:data:`HARMONICS`,
    relative to the mean radius) and its first four Hu moments (log-scaled), concatenated.

    An empty picture embeds as the zero vector (its similarity to anything is 0).
    """

    name = "shape-descriptor-v1"

    def embed(self, image: Image.Image) -> np.ndarray:
        """The descriptor of the picture's silhouette (see the class docstring)."""
        mask = silhouette_mask(image)
        if mask.sum() < 3:
            return np.zeros(HARMONICS + 4)
        spectrum = np.abs(np.fft.rfft(_radial_profile(mask)))[1 : HARMONICS + 1] / ANGLE_BINS
        hu = _hu_moments(mask)
        hu_scaled = -np.sign(hu) * np.log10(np.abs(hu) + 1e-12) / 10
        return np.concatenate([spectrum * 4, hu_scaled - np.array([0.08, 0.2, 0.3, 0.3])])


class OpenClipEmbedder:
    """An ``open_clip`` image encoder (``model`` architecture, ``weights`` a checkpoint path the user provides).

    Raises:
        MissingDependencyError: ``open_clip`` or ``torch`` is not installed (``pip install 'foldbench[clip]'``).
    """

    def __init__(self, weights: str | Path, model: str = "ViT-B-16", device: str = "cpu") -> None:
        try:
            import open_clip  # type: ignore[import-not-found]
            import torch  # type: ignore[import-not-found]
        except ImportError as error:
            raise MissingDependencyError("open_clip_torch", "clip", "the CLIP similarity") from error
        self.name = f"open_clip:{model}:{Path(weights).name}"
        self._torch = torch
        self._model, _, self._preprocess = open_clip.create_model_and_transforms(model, pretrained=str(weights),
                                                                                 device=device)
        self._model.eval()
        self._device = device

    def embed(self, image: Image.Image) -> np.ndarray:
        """The L2-normalised image embedding."""
        with self._torch.no_grad():
            batch = self._preprocess(image.convert("RGB")).unsqueeze(0).to(self._device)
            features = self._model.encode_image(batch)[0]
        vector = features.cpu().numpy().astype(float)
        return vector / max(float(np.linalg.norm(vector)), 1e-12)


def semantic_similarity(first: Image.Image, second: Image.Image, embedder: ImageEmbedder | None = None) -> float:
    """Cosine similarity of the two pictures' embeddings, in [-1, 1] (0 when either embedding is zero).

    >>> blank = Image.new("RGB", (32, 32), "white")
    >>> semantic_similarity(blank, blank)
    0.0
    """
    model = embedder or ShapeDescriptorEmbedder()
    a, b = model.embed(first), model.embed(second)
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return 0.0 if norm == 0.0 else float(np.clip(a @ b / norm, -1.0, 1.0))
