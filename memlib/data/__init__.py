"""Datasets by name, and the data root they are read from.

`load_images(name)` returns `(x, y)`: `x` float32 (N, C, H, W) in [0, 1], `y` int64. The papers'
datasets are read from their standard files (IDX, CIFAR batches) under a data root, checked as they are read;
the embedded sets (`embedded`) ship with scikit-learn / scikit-image and need no network. Also here: paper 1's
training digit and its probe panel, which read datasets. Probes are the test inputs of the papers: generated
images at an exact correlation with a training image (paper 1, App. E.3), noise, squares and patterns
(`probe_images`); `resize` and `standardize` are `transforms`. `data` re-exports those modules' public names.
"""
from __future__ import annotations

import gzip
import math
import os
import pickle
from pathlib import Path

import numpy as np
import torch

from . import embedded
# the embedded sets, the generated probes and the transforms live apart; `data.x` reaches each of their public names
from .embedded import PHOTOS, TEST_PHOTOS, TRAIN_VIEWS, photo_views as _photo_views
from ..harness.paths import REPO   # the checkout memlib runs from (store.results_root reads it here)
from .probe_images import PROBE_KINDS, correlated_probes, probes, swiss_roll
from ..runtime import MemlibError, check_choice
from .transforms import MNIST_MEAN, MNIST_STD, resize, standardize, unstandardize

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
    return {"digits": embedded.digits, "faces": embedded.faces, "photos": embedded.photos}[name](split)


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
        raise DatasetCorrupt(f"{path} cannot be read ({type(e).__name__}: {e})") from None
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


def check_classes(labels: np.ndarray, lbl_path, *, classes: int = 10) -> None:
    """Every class 0..classes-1 among `labels` (each split of MNIST and Fashion-MNIST has them all; paper 1 trains
    on the first 7, its one-per-class sets on the first of each), or a DatasetCorrupt naming the file.
    `python -m memlib data fetch` checks it, so that what a run refuses, the fetch replaces."""
    missing = sorted(set(range(classes)) - set(np.unique(labels).tolist()))
    if missing:
        raise DatasetCorrupt(f"{lbl_path} holds no {', '.join(map(str, missing))} among its {len(labels)} labels "
                             f"(each split of the dataset has every class 0..{classes - 1})")


def refetch_advice(path) -> str:
    """What to do about a dataset file whose contents are wrong, naming it: `data fetch` into its data root, which
    runs the readers' checks and `check_classes` and replaces what fails them, or the original file put there."""
    path = Path(path)
    names = {folder: name for name, folder in _IDX_DIRS.items()}
    if path.parent.name == "raw" and path.parent.parent.name in names:
        name, root = names[path.parent.parent.name], path.parent.parent.parent
    elif path.parent.name == "cifar-10-batches-py":
        name, root = "cifar10", path.parent.parent
    else:
        return f"replace {path} by the original file"
    return (f"fetch {name} again, which replaces it (python -m memlib data fetch {name} --data-root {root}), or "
            f"delete {path} and put the original file there")


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
    try:
        images, labels = read_idx(img), read_idx(lbl)
        check_idx_pair(images, labels, img, lbl)
    except DatasetCorrupt as e:           # what to do: the fetch runs these checks and replaces what fails them
        raise DatasetCorrupt(f"{e}; {refetch_advice(lbl if str(e).startswith(str(lbl)) else img)}") from None
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
        try:
            x, y = read_cifar_batch(base / f)
        except DatasetCorrupt as e:
            raise DatasetCorrupt(f"{e}; {refetch_advice(base / f)}") from None
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


# ---------------------------------------------------------------- the training digit, one example per class

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
        if root is None:
            raise DatasetCorrupt(f"the embedded digits hold no {digit} among their {len(y)} training labels: paper 1 "
                                 f"trains on the first {digit}; reinstall scikit-learn, which ships them")
        where = _find(Path(root).expanduser() / _IDX_DIRS["mnist"] / "raw", _IDX_FILES["train"][1])
        raise DatasetCorrupt(f"{where} holds no {digit} among its {len(y)} training labels: paper 1 trains on the "
                             f"first {digit}; {refetch_advice(where)}")
    img = x[first_of_each(y, [digit])]
    return resize(img, size).clamp(0, 1), src


def first_of_each(y: torch.Tensor, classes=None) -> list[int]:
    """The index of the first example of each class in `classes` (default: every label in `y`, sorted):
    the papers' "one image per class" training sets."""
    return nth_of_each(y, 0, classes)


def nth_of_each(y: torch.Tensor, n: int, classes=None) -> list[int]:
    """The index of the `n`-th example (counted from 0) of each class in `classes` (default: every label in `y`,
    sorted), `n` taken modulo the class's count, so that any seed picks a valid example (paper 2, Theorem 1: a seed
    picks its digits)."""
    classes = y.unique().tolist() if classes is None else list(classes)
    missing = [c for c in classes if not bool((y == c).any())]
    if missing:
        raise MemlibError(f"the labels hold no example of class {', '.join(map(str, missing))} (they hold "
                          f"{', '.join(map(str, y.unique().tolist())) or 'nothing'}): the training set lacks what "
                          "this experiment needs")
    out = []
    for c in classes:
        idx = (y == c).nonzero().flatten()                      # (count of class c,)
        out.append(int(idx[n % len(idx)]))
    return out


# ---------------------------------------------------------------- the probe panel (the probes: probe_images)

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
