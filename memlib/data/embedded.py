"""The embedded datasets: images that ship with scikit-learn and scikit-image, read without a network or a data root,
the same on every machine: `digits` (8x8 digits), `faces` (LFW faces and non-faces) and `photos` (colour photographs
as 3x32x32 views). `data.load_images` reads them by name ("digits", "faces", "photos"); `data` re-exports
`PHOTOS`, `TEST_PHOTOS` and `TRAIN_VIEWS`.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F


def _split(x, y, split, n_train):
    return (x[:n_train], y[:n_train]) if split == "train" else (x[n_train:], y[n_train:])


def digits(split):
    """scikit-learn's 8x8 digits (1,797 images, 0..16): first 1,500 train, the rest test."""
    from sklearn.datasets import load_digits
    d = load_digits()
    x = torch.from_numpy(d.images.astype(np.float32) / 16.0).unsqueeze(1)
    return _split(x, torch.from_numpy(d.target.astype(np.int64)), split, 1500)


def faces(split):
    """scikit-image's LFW subset: 100 faces (label 1) and 100 non-faces (label 0), 25x25.

    Interleaved so that both splits hold both classes: 160 train, 40 test.
    """
    from skimage import data as skdata
    imgs = skdata.lfw_subset().astype(np.float32)            # (200, 25, 25), faces first
    order = np.stack([np.arange(100), np.arange(100, 200)], 1).reshape(-1)
    x = torch.from_numpy(imgs[order]).unsqueeze(1).clamp(0, 1)
    y = torch.from_numpy((order < 100).astype(np.int64))
    return _split(x, y, split, 160)


PHOTOS = ("astronaut", "chelsea", "coffee", "rocket", "hubble_deep_field", "immunohistochemistry",
          "retina", "china", "flower")


# The test photos: other photographs, none of them a view of a training photo (paper 3's "new images", paper 2's
# "new images from CIFAR10"). scikit-image ships one more colour photograph (the stereo pair's left view) and
# grey-level ones, which are read as three equal channels. Offline and deterministic, as the training photos.
TEST_PHOTOS = ("motorcycle", "camera", "coins", "moon", "clock", "grass")


def photo(name: str) -> np.ndarray:
    """One embedded photograph as (H, W, 3) uint8 (a grey-level one as three equal channels)."""
    from skimage import data as skdata
    if name in ("china", "flower"):
        from sklearn.datasets import load_sample_images
        img = dict(zip(("china", "flower"), load_sample_images().images))[name]
    elif name == "motorcycle":
        img = skdata.stereo_motorcycle()[0]                   # the left view (the right one is the same scene)
    else:
        img = getattr(skdata, name)()
    img = np.asarray(img)
    return np.repeat(img[..., None], 3, -1) if img.ndim == 2 else img[..., :3]


def photo_views(name: str) -> torch.Tensor:
    """A photo's top-left square as its whole frame and a 3x3 grid of crops, each 3x32x32: (10, 3, 32, 32)."""
    t = torch.from_numpy(np.array(photo(name))).permute(2, 0, 1).float() / 255.0
    side = min(t.shape[1:])
    t = t[:, :side, :side].unsqueeze(0)                      # (1, 3, side, side), top-left square
    views = [t] + [t[..., i * side // 3:(i + 1) * side // 3, j * side // 3:(j + 1) * side // 3]
                   for i in range(3) for j in range(3)]
    return torch.cat([F.interpolate(v, size=(32, 32), mode="bilinear", antialias=True, align_corners=False)
                      for v in views]).clamp(0, 1)


TRAIN_VIEWS = (0, 1, 2, 4, 5, 7, 8)   # the whole frame and 6 of the 9 crops of each training photo


def photos(split):
    """Colour photographs shipped with scikit-image and scikit-learn, as 3x32x32 images; the label is the photo.

    Train: each of the 9 `PHOTOS`' whole frame and 6 of its 3x3 grid of crops (63 images, labels 0-8).
    Test: the whole frame and 9 crops of each of the 6 `TEST_PHOTOS` (60 images, labels 9-14), other
    photographs than the training ones, so no test image shows a training photo. Test images are ordered view
    by view (the whole frames of the 6 photos first), so the first few come from different photos.
    """
    if split == "train":
        xs = [photo_views(name)[list(TRAIN_VIEWS)] for name in PHOTOS]
        ys = [torch.full((len(TRAIN_VIEWS),), label, dtype=torch.int64) for label in range(len(PHOTOS))]
        return torch.cat(xs), torch.cat(ys)
    views = torch.stack([photo_views(name) for name in TEST_PHOTOS], 1)        # (10 views, 6 photos, 3, 32, 32)
    labels = torch.arange(len(PHOTOS), len(PHOTOS) + len(TEST_PHOTOS)).repeat(views.shape[0])
    return views.reshape(-1, *views.shape[2:]), labels
