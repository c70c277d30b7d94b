"""Datasets and probes.

`load_images(name)` returns `(x, y)`: `x` float32 (N, C, H, W) in [0, 1], `y` int64. The papers'
datasets are read from their standard files under a data root; the embedded sets ship with
scikit-learn / scikit-image and need no network. Probes are the test inputs of the papers:
generated images at an exact correlation with a training image (paper 1, App. E.3), noise,
squares and patterns.
"""
from __future__ import annotations

import gzip
import math
import os
import pickle
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from .paths import REPO   # the checkout memlib runs from (store.results_root reads it here)
from .runtime import MemlibError, check_choice

MNIST_MEAN, MNIST_STD = 0.1307, 0.3081  # paper 1, App. B: standardization of every input

DATASETS = ("mnist", "fashion_mnist", "cifar10", "digits", "faces", "photos")
SPLITS = ("train", "test")
_IDX_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
              "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
_IDX_DIRS = {"mnist": "MNIST", "fashion_mnist": "FashionMNIST"}
_HOW_TO_GET = ("download the standard files (e.g. with torchvision.datasets.{cls}(root, download=True) "
               "on a machine with network) and pass their parent directory as data_root / --data-root")


class DatasetMissing(MemlibError, FileNotFoundError):
    """A dataset's files are not where they should be."""


used: set = set()   # the datasets loaded in this session (run.Run writes them into provenance.json)


def load_images(name: str, *, split: str = "train", root=None, download: bool = False):
    """Load a dataset as `(x, y)`; see the module docstring for the names."""
    check_choice(name, DATASETS, "dataset")
    check_choice(split, SPLITS, "split")
    if name in _IDX_DIRS:
        return _load_idx_dataset(name, split, root, download)
    if name == "cifar10":
        return _load_cifar10(split, root, download)
    used.add(name)
    return {"digits": _digits, "faces": _faces, "photos": _photos}[name](split)


AUTO = "auto"   # a notebook's `data_root = "auto"`: $MEMLIB_DATA_ROOT, else data/ in the repo when it exists


def default_root() -> Path | None:
    """Where the papers' datasets are looked for when no data root is given: `$MEMLIB_DATA_ROOT`, else
    the repo's `data/` (what `python -m memlib data fetch mnist` fills) when it exists, else None. Installed
    from a wheel (no checkout): `data/` in the working folder, where `data fetch` puts it by default."""
    env = os.environ.get("MEMLIB_DATA_ROOT")
    if env:
        return Path(env).expanduser().resolve()
    base = REPO if (REPO / "run_all.sh").exists() else Path.cwd()     # the checkout: as store.results_root
    return base / "data" if (base / "data").is_dir() else None


def resolve_root(data_root) -> tuple[Path | None, bool]:
    """`(root, explicit)` for a notebook's `data_root` parameter: "auto" -> (default_root(), False);
    None or "" -> (None, False), the embedded sets only; a folder -> (it, True), which must hold every
    dataset the notebook asks for."""
    if data_root is None or data_root == "":
        return None, False
    if data_root == AUTO:
        return default_root(), False
    root = Path(data_root).expanduser().resolve()
    if not root.is_dir():
        raise DatasetMissing(f"data root {data_root} is not a directory: pass a folder holding MNIST/raw/..., "
                             f"or data_root='auto' (data/ in the repo) or None (the embedded sets)")
    return root, True


def holds(root, name: str) -> bool:
    """Whether `root` holds the files of dataset `name` (embedded sets: always)."""
    try:
        require(root, name)
    except DatasetMissing:
        return False
    return True


def require(root, *names: str) -> None:
    """Check, before any training, that `root` holds the files of each dataset in `names` (both splits):
    a notebook asked to use a data root says at once what is missing there, instead of failing minutes
    later or silently using another set. Only presence is checked; the readers validate the contents."""
    for name in names:
        check_choice(name, DATASETS, "dataset")
        if name in _IDX_DIRS:
            base = _require_root(root, name) / _IDX_DIRS[name] / "raw"
            stems = [s for split in SPLITS for s in _IDX_FILES[split]]
            missing = [str(base / s) + "[.gz]" for s in stems if _find(base, s) is None]
            cls = _IDX_DIRS[name]
        elif name == "cifar10":
            base = _require_root(root, name) / "cifar-10-batches-py"
            missing = [str(base / f) for f in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
                       if not (base / f).exists()]
            cls = "CIFAR10"
        else:
            continue                                   # embedded sets are always there
        if missing:
            raise DatasetMissing(f"data root {root} lacks {name}: expected {', '.join(missing)}; "
                                 + _HOW_TO_GET.format(cls=cls))


# ---------------------------------------------------------------- the papers' datasets (files)

IDX_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


class DatasetCorrupt(MemlibError):
    """A dataset file exists but does not hold what its format says."""


def read_idx(path) -> np.ndarray:
    """Read an IDX file (MNIST's format), gzipped or not; every problem is a DatasetCorrupt naming the file."""
    path = Path(path)
    try:
        with (gzip.open if path.suffix == ".gz" else open)(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as e:             # BadGzipFile is an OSError; a cut .gz ends in EOFError
        raise DatasetCorrupt(f"{path} cannot be read ({type(e).__name__}: {e}); fetch the file again") from None
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise DatasetCorrupt(f"{path} is not an IDX file (bad magic number)")
    if data[2] not in IDX_TYPES:
        raise DatasetCorrupt(f"{path} has an unknown IDX type byte 0x{data[2]:02x}")
    dtype, ndim = np.dtype(IDX_TYPES[data[2]]), data[3]
    if len(data) < 4 + 4 * ndim:
        raise DatasetCorrupt(f"{path} is cut inside its header ({len(data)} bytes for {ndim} dimensions)")
    shape = tuple(int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))
    expected = math.prod(shape) * dtype.itemsize       # Python integers: numpy's int64 product wraps (2^31 x 2^31 x 4)
    body = len(data) - 4 - 4 * ndim
    if body != expected:
        what = "truncated" if body < expected else "longer than its header says"
        raise DatasetCorrupt(f"{path} is {what}: its header says {shape} ({expected} bytes), it holds {body} bytes")
    return np.frombuffer(data, dtype=dtype, offset=4 + 4 * ndim).reshape(shape)


def check_idx_pair(images: np.ndarray, labels: np.ndarray, img_path, lbl_path, *, classes: int = 10) -> None:
    """MNIST-style images (N >= 1, H, W) of integer pixels in 0..255 and integer labels (N,) in 0..classes-1,
    or a DatasetCorrupt naming the file."""
    if images.ndim != 3:
        raise DatasetCorrupt(f"{img_path} holds an array of shape {images.shape}, not images (N, H, W)")
    if labels.ndim != 1:
        raise DatasetCorrupt(f"{lbl_path} holds an array of shape {labels.shape}, not labels (N,)")
    if len(images) == 0 or images.shape[1] == 0 or images.shape[2] == 0:
        raise DatasetCorrupt(f"{img_path} holds no images (its header says {images.shape})")
    if images.dtype.kind not in "iu":
        raise DatasetCorrupt(f"{img_path} holds {images.dtype.name} pixels; the format's are bytes 0..255 (IDX type 0x08)")
    if images.dtype != np.uint8 and (images.min() < 0 or images.max() > 255):
        raise DatasetCorrupt(f"{img_path} has pixels outside 0..255 (min {images.min()}, max {images.max()}, "
                             f"{images.dtype.name}); the format's are bytes 0..255 (IDX type 0x08)")
    if labels.dtype.kind not in "iu":
        raise DatasetCorrupt(f"{lbl_path} holds {labels.dtype.name} labels, not integers 0..{classes - 1} "
                             "(IDX type 0x08)")
    if len(labels) != len(images):
        raise DatasetCorrupt(f"{lbl_path} has {len(labels)} labels for the {len(images)} images of {img_path}")
    if len(labels) and (labels.min() < 0 or labels.max() >= classes):
        raise DatasetCorrupt(f"{lbl_path} has labels outside 0..{classes - 1} (min {labels.min()}, max {labels.max()})")


def _find(base: Path, stem: str):
    for p in (base / stem, base / (stem + ".gz")):
        if p.exists():
            return p
    return None


def _require_root(root, name):
    if root is None:
        raise DatasetMissing(f"dataset {name!r} needs a data root: pass data_root=DIR (--data-root DIR) "
                             f"holding the standard files, or use an embedded set ('digits', 'faces', 'photos')")
    return Path(root).expanduser()


def _maybe_download(name, root, cls):
    try:
        import torchvision.datasets as tvd  # optional: torchvision may not import against this torch
    except Exception as e:  # noqa: BLE001 - any import failure means "not available"
        raise DatasetMissing(f"download=True needs torchvision, which does not import here ({type(e).__name__}); "
                             + _HOW_TO_GET.format(cls=cls)) from None
    for train in (True, False):
        getattr(tvd, cls)(str(root), train=train, download=True)


def _load_idx_dataset(name, split, root, download):
    root = _require_root(root, name)
    cls = _IDX_DIRS[name]
    base = root / cls / "raw"
    img_stem, lbl_stem = _IDX_FILES[split]
    if download and (_find(base, img_stem) is None or _find(base, lbl_stem) is None):
        _maybe_download(name, root, cls)
    img, lbl = _find(base, img_stem), _find(base, lbl_stem)
    if img is None or lbl is None:
        raise DatasetMissing(f"{name} ({split}) not found: expected {base / img_stem}[.gz] and "
                             f"{base / lbl_stem}[.gz]; " + _HOW_TO_GET.format(cls=cls))
    images, labels = read_idx(img), read_idx(lbl)
    check_idx_pair(images, labels, img, lbl)
    x = torch.from_numpy(images.astype(np.float32) / 255.0).unsqueeze(1)
    y = torch.from_numpy(labels.astype(np.int64))
    used.add(name)
    return x, y


def _load_cifar10(split, root, download):
    root = _require_root(root, "cifar10")
    base = root / "cifar-10-batches-py"
    files = [f"data_batch_{i}" for i in range(1, 6)] if split == "train" else ["test_batch"]
    if download and not all((base / f).exists() for f in files):
        _maybe_download("cifar10", root, "CIFAR10")
    missing = [f for f in files if not (base / f).exists()]
    if missing:
        raise DatasetMissing(f"cifar10 ({split}) not found: expected {', '.join(str(base / f) for f in missing)}; "
                             + _HOW_TO_GET.format(cls="CIFAR10"))
    xs, ys = [], []
    for f in files:
        x, y = read_cifar_batch(base / f)
        xs.append(x)
        ys.append(y)
    x = torch.from_numpy(np.concatenate(xs).astype(np.float32) / 255.0)
    used.add("cifar10")
    return x, torch.from_numpy(np.concatenate(ys))


class _CifarUnpickler(pickle.Unpickler):
    """Only what a CIFAR-10 batch holds: dicts, lists, bytes, str, ints and numpy uint8 arrays. A pickle that
    names anything else (a crafted file that would run code) is refused. Subclasses narrow or widen `ALLOWED`
    for other pickled datasets and name them in `WHAT` (fetch.py's MNIST pickle)."""
    WHAT = "a CIFAR-10 batch"
    ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
               ("numpy._core.multiarray", "scalar"), ("builtins", "bytes"),
               ("_codecs", "encode")}    # bytes in a protocol-2 pickle written by Python 3 (encodes text only)

    def find_class(self, module, name):
        if (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refused to load {module}.{name}: not part of {self.WHAT}")


def read_cifar_batch(path) -> tuple[np.ndarray, np.ndarray]:
    """One CIFAR-10 python batch: images (N, 3, 32, 32) uint8 and labels (N,) int64, read with a restricted
    unpickler; every problem is a DatasetCorrupt naming the file."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            batch = _CifarUnpickler(fh, encoding="bytes").load()
    except Exception as e:  # noqa: BLE001 - any failure to read: the file is not a CIFAR batch
        raise DatasetCorrupt(f"{path} is not a CIFAR-10 batch ({type(e).__name__}: "
                             f"{(str(e).splitlines() or [''])[0][:160]})") from None
    if not isinstance(batch, dict) or b"data" not in batch or b"labels" not in batch:
        keys = sorted(batch) if isinstance(batch, dict) else type(batch).__name__
        raise DatasetCorrupt(f"{path} is not a CIFAR-10 batch: no b'data' and b'labels' (found {keys})")
    try:
        x = np.asarray(batch[b"data"], dtype=np.uint8).reshape(-1, 3, 32, 32)
        y = np.asarray(batch[b"labels"], dtype=np.int64).reshape(-1)
    except (ValueError, TypeError) as e:
        raise DatasetCorrupt(f"{path}: its data is not N x 3072 bytes of images ({e})") from None
    if len(y) != len(x) or (len(y) and (y.min() < 0 or y.max() > 9)):
        raise DatasetCorrupt(f"{path} has {len(y)} labels (range {y.min() if len(y) else '-'}.."
                             f"{y.max() if len(y) else '-'}) for {len(x)} images")
    return x, y


# ---------------------------------------------------------------- embedded sets (no network)

def _split(x, y, split, n_train):
    return (x[:n_train], y[:n_train]) if split == "train" else (x[n_train:], y[n_train:])


def _digits(split):
    """scikit-learn's 8x8 digits (1,797 images, 0..16): first 1,500 train, the rest test."""
    from sklearn.datasets import load_digits
    d = load_digits()
    x = torch.from_numpy(d.images.astype(np.float32) / 16.0).unsqueeze(1)
    return _split(x, torch.from_numpy(d.target.astype(np.int64)), split, 1500)


def _faces(split):
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


def _photo(name: str) -> np.ndarray:
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


def _photo_views(name: str) -> torch.Tensor:
    """A photo's top-left square as its whole frame and a 3x3 grid of crops, each 3x32x32: (10, 3, 32, 32)."""
    t = torch.from_numpy(np.array(_photo(name))).permute(2, 0, 1).float() / 255.0
    side = min(t.shape[1:])
    t = t[:, :side, :side].unsqueeze(0)                      # (1, 3, side, side), top-left square
    views = [t] + [t[..., i * side // 3:(i + 1) * side // 3, j * side // 3:(j + 1) * side // 3]
                   for i in range(3) for j in range(3)]
    return torch.cat([F.interpolate(v, size=(32, 32), mode="bilinear", antialias=True, align_corners=False)
                      for v in views]).clamp(0, 1)


TRAIN_VIEWS = (0, 1, 2, 4, 5, 7, 8)   # the whole frame and 6 of the 9 crops of each training photo


def _photos(split):
    """Colour photographs shipped with scikit-image and scikit-learn, as 3x32x32 images; the label is the photo.

    Train: each of the 9 `PHOTOS`' whole frame and 6 of its 3x3 grid of crops (63 images, labels 0-8).
    Test: the whole frame and 9 crops of each of the 6 `TEST_PHOTOS` (60 images, labels 9-14), other
    photographs than the training ones, so no test image shows a training photo. Test images are ordered view
    by view (the whole frames of the 6 photos first), so the first few come from different photos.
    """
    if split == "train":
        xs = [_photo_views(name)[list(TRAIN_VIEWS)] for name in PHOTOS]
        ys = [torch.full((len(TRAIN_VIEWS),), label, dtype=torch.int64) for label in range(len(PHOTOS))]
        return torch.cat(xs), torch.cat(ys)
    views = torch.stack([_photo_views(name) for name in TEST_PHOTOS], 1)        # (10 views, 6 photos, 3, 32, 32)
    labels = torch.arange(len(PHOTOS), len(PHOTOS) + len(TEST_PHOTOS)).repeat(views.shape[0])
    return views.reshape(-1, *views.shape[2:]), labels


# ---------------------------------------------------------------- transforms

def resize(x: torch.Tensor, size: int) -> torch.Tensor:
    """Resize (N, C, H, W) images to size x size (bilinear, antialiased when shrinking)."""
    return F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False,
                         antialias=size < x.shape[-1])


def standardize(x: torch.Tensor, mean: float = MNIST_MEAN, std: float = MNIST_STD) -> torch.Tensor:
    return (x - mean) / std


def unstandardize(x: torch.Tensor, mean: float = MNIST_MEAN, std: float = MNIST_STD) -> torch.Tensor:
    return x * std + mean


def training_digit(*, digit: int = 7, size: int = 28, root=None) -> tuple[torch.Tensor, str]:
    """Paper 1's single training example: a "7" from MNIST under `root`; from the embedded `digits` when
    no root is given (a root without MNIST is an error, never silently another set).

    Returns ((1, 1, size, size) in [0, 1], the source's name).
    """
    if root is not None:
        x, y = load_images("mnist", root=root)
        src = "mnist"
    else:
        x, y = load_images("digits")
        src = "digits"
    if not bool((y == digit).any()):
        where = (_find(Path(root).expanduser() / _IDX_DIRS["mnist"] / "raw", _IDX_FILES["train"][1])
                 if root is not None else "the embedded digits")
        raise DatasetCorrupt(f"{where} holds no {digit} among its {len(y)} training labels: paper 1 trains on the "
                             f"first {digit}; fetch the file again (python -m memlib data fetch mnist)")
    img = x[first_of_each(y, [digit])]
    return resize(img, size).clamp(0, 1), src


def first_of_each(y: torch.Tensor, classes=None) -> list[int]:
    """The index of the first example of each class in `classes` (default: every label in `y`, sorted):
    the papers' "one image per class" training sets."""
    classes = y.unique().tolist() if classes is None else list(classes)
    missing = [c for c in classes if not bool((y == c).any())]
    if missing:
        raise MemlibError(f"the labels hold no example of class {', '.join(map(str, missing))} (they hold "
                          f"{', '.join(map(str, y.unique().tolist())) or 'nothing'}): the training set lacks what "
                          "this experiment needs")
    return [int((y == c).nonzero()[0]) for c in classes]


# ---------------------------------------------------------------- probes

PROBE_KINDS = ("noise", "squares", "patterns")


def correlated_probes(x_train: torch.Tensor, rho: float, n: int, *, seed: int = 0) -> torch.Tensor:
    """`n` random images whose Pearson correlation with `x_train` is exactly `rho` and whose
    Euclidean norm equals `x_train`'s (paper 1, App. E.3).

    Random pixels are centred and made orthogonal to the centred training image; then the
    parallel component is added to force correlation `rho`, and the mean and scale are set so the
    norm matches. Returns (n, *x_train.shape[-3:]).
    """
    if not -1.0 <= rho <= 1.0:
        raise MemlibError(f"rho must lie in [-1, 1], got {rho}")
    shape = x_train.shape[-3:]
    x = x_train.reshape(-1).double()
    if x.numel() != int(np.prod(shape)):
        raise MemlibError("correlated_probes takes one training image")
    d = x.numel()
    mean = x.mean()
    xc = x - mean
    if float(xc.norm()) == 0.0:
        raise MemlibError("correlated_probes needs an image that is not constant: a constant image has no "
                          "Pearson correlation with anything")
    u = xc / xc.norm()                                              # (d,) unit, zero mean
    z = torch.randn(n, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    z = z - z.mean(1, keepdim=True)
    z = z - (z @ u)[:, None] * u[None]
    v = z / z.norm(dim=1, keepdim=True)                             # (n, d) unit, zero mean, ⟂ u
    pc = rho * u[None] + (1 - rho ** 2) ** 0.5 * v                  # unit, zero mean, corr = rho
    probes = xc.norm() * pc + mean                                  # ||probe||² = ||xc||² + d·mean² = ||x||²
    assert probes.shape == (n, d)
    return probes.float().reshape(n, *shape)


def probes(kind: str, n: int, shape=(1, 28, 28), *, seed: int = 0) -> torch.Tensor:
    """Generated test images in [0, 1]: uniform "noise", white "squares" on black, or "patterns"
    (stripes, checkerboards, rings, crosses). Returns (n, *shape)."""
    check_choice(kind, PROBE_KINDS, "probe kind")
    c, h, w = shape
    g = torch.Generator().manual_seed(seed)
    if kind == "noise":
        return torch.rand(n, c, h, w, generator=g)
    out = torch.zeros(n, c, h, w)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    for i in range(n):
        r = torch.rand(4, generator=g)
        if kind == "squares":
            side = int(h * (0.25 + 0.5 * r[0]))
            top, left = int((h - side) * r[1]), int((w - side) * r[2])
            out[i, :, top:top + side, left:left + side] = 1.0
            continue
        period = 3 + 6 * r[0]
        pattern = i % 4
        if pattern == 0:    # stripes at a random angle
            a = np.pi * r[1]
            img = torch.sin(2 * np.pi * (xx * torch.cos(a) + yy * torch.sin(a)) / period) > 0
        elif pattern == 1:  # checkerboard
            img = ((xx // (period / 2)) + (yy // (period / 2))) % 2 == 0
        elif pattern == 2:  # rings around a random centre
            cy, cx = h * r[1], w * r[2]
            img = torch.sin(2 * np.pi * ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt() / period) > 0
        else:               # a cross
            t = max(1, int(period / 2))
            cy, cx = int(h * (0.25 + 0.5 * r[1])), int(w * (0.25 + 0.5 * r[2]))
            img = ((yy - cy).abs() < t) | ((xx - cx).abs() < t)
        out[i] = img.float()
    return out


def swiss_roll(n: int, *, seed: int = 0, noise: float = 0.0) -> torch.Tensor:
    """`n` points on the 2-D Swiss roll (paper 2, Fig 2), scaled to [-1, 1]. Returns (n, 2)."""
    g = torch.Generator().manual_seed(seed)
    t = 1.5 * np.pi * (1 + 2 * torch.rand(n, generator=g))
    pts = torch.stack([t * torch.cos(t), t * torch.sin(t)], 1)
    pts = pts + noise * torch.randn(n, 2, generator=g)
    return pts / (1.5 * np.pi * 3)


def probe_panel(x_train: torch.Tensor, *, root=None, n_each: int = 2, seed: int = 0):
    """Paper 1's test row: the training image, test digits, other images, patterns, squares, noise.

    Everything is grayscale at the training image's size, in [0, 1]. Uses MNIST's test digits and
    Fashion-MNIST when `root` holds them, else `digits` and `faces`. Returns (x (N, 1, s, s), names).
    """
    size = x_train.shape[-1]
    try:
        digits = load_images("mnist", split="test", root=root)[0] if root else None
    except DatasetMissing:
        digits = None
    digits = digits if digits is not None else load_images("digits", split="test")[0]
    try:
        other = load_images("fashion_mnist", split="test", root=root)[0] if root else None
    except DatasetMissing:
        other = None
    other = other if other is not None else load_images("faces", split="test")[0][::7]
    groups = [(x_train.reshape(1, 1, size, size), "train"),
              (resize(digits[: 2 * n_each], size), "digit"),
              (resize(other[:n_each], size), "image"),
              (probes("patterns", n_each, (1, size, size), seed=seed), "pattern"),
              (probes("squares", 1, (1, size, size), seed=seed), "square"),
              (probes("noise", 1, (1, size, size), seed=seed), "noise")]
    x = torch.cat([g for g, _ in groups]).clamp(0, 1)
    names = [name for g, name in groups for _ in range(len(g))]
    return x, names
