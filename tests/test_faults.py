"""Faults a user or a machine injects: failed and interrupted runs, full disks, read-only folders, corrupted
cache bytes, bad inputs. Each must give one clear line (or a recomputation with a warning), lose nothing,
and never show older results as current."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from memlib import claims, models, runtime
from memlib.harness import fileio, store
from memlib.harness.run import Run
from memlib.cli.common import resolve_names
from memlib.cli.main import main
from memlib.cli.notebooks import swap_in
from memlib.claims import NOT_RUN

NB1 = claims.NOTEBOOKS[1]


def _finished(base: Path, metrics: dict, nb=NB1):
    d = base / "quick" / nb
    d.mkdir(parents=True, exist_ok=True)
    (d / "metrics.json").write_text(json.dumps(metrics))
    (d / "provenance.json").write_text(json.dumps({"notebook": nb, "resolved_device": "cpu"}))
    return d


def test_a_failed_notebook_replaces_its_old_results_and_is_a_regression(tmp_path):
    final = _finished(tmp_path, {"fig2.linear1_vs_eq1_rel_err": 1e-6})
    (final / "old_figure.png").write_bytes(b"png")
    stage = tmp_path / "quick" / f".{NB1}.running-1"
    stage.mkdir()
    (stage / f"{NB1}.ipynb").write_text("{}")
    (stage / "metrics.json").write_text(json.dumps({"fig2.linear1_vs_eq1_rel_err": 1e-6}))   # partial, unfinished
    swap_in(stage, final, "failed in cell 3: RuntimeError: boom")
    assert not (final / "old_figure.png").exists() and not (final / "provenance.json").exists()
    assert json.loads((final / "failed.json").read_text())["reason"].startswith("failed in cell 3")
    report = claims.check(tmp_path, "quick")
    rows = [r for r in report["claims"] if r["notebook"] == NB1]
    assert all(r["outcome"] == NOT_RUN and "the notebook failed: failed in cell 3" in r["reason"] for r in rows)
    assert any(line.startswith(f"notebook {NB1} failed") for line in report["regressions"])
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 1


def test_a_successful_run_swaps_in_as_a_whole(tmp_path):
    final = _finished(tmp_path, {"a": 1.0})
    (final / "stale.png").write_bytes(b"x")
    stage = tmp_path / "quick" / f".{NB1}.running-2"
    _finished(tmp_path, {"a": 2.0}, nb=stage.name)
    swap_in(stage, final, None)
    assert json.loads((final / "metrics.json").read_text()) == {"a": 2.0} and not (final / "stale.png").exists()
    assert not list((tmp_path / "quick").glob(".*"))                     # no staging or old folder left


def test_metrics_written_before_a_crash_are_no_finished_run(tmp_path):
    run = Run(NB1, profile="quick", device="cpu", results_dir=tmp_path)
    run.log(**{"fig2.linear1_vs_eq1_rel_err": 1e-6})                     # ... and the kernel dies here
    report = claims.check(tmp_path, "quick")
    assert all(r["outcome"] == NOT_RUN for r in report["claims"] if r["notebook"] == NB1)


def test_check_on_an_empty_results_folder_fails(tmp_path, capsys):
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2     # no run found there
    assert "no run found in" in capsys.readouterr().err


def test_a_full_disk_keeps_the_old_file_and_leaves_no_stray_one(tmp_path, monkeypatch, full_disk):
    target = tmp_path / "report.json"
    target.write_text("old")
    full_disk(written=10)
    with pytest.raises(OSError, match="No space"):
        fileio.atomic_write_text(target, "new " * 1000)
    monkeypatch.undo()
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_read_only_results_folder_is_one_line_before_any_work(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    if os.access(ro, os.W_OK):
        pytest.skip("running as a user who can write anywhere (root): no read-only folder to test")
    try:
        assert main(["run", "--only", "04", "--results-dir", str(ro), "--device", "cpu"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "cannot write to" in err and str(ro) in err
    finally:
        ro.chmod(0o700)


def test_an_unwritable_results_path_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["run", "--only", "04", "--results-dir", str(blocker / "results"), "--device", "cpu"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot write to" in err


def test_flipped_bytes_in_a_cache_entry_are_recomputed_and_reported(tmp_path):
    cache = store.Cache(tmp_path / "cache")
    cfg = {"k": 1}
    cache.save(cfg, {"w": torch.ones(64)})
    path = cache.path(cfg)
    raw = bytearray(path.read_bytes())
    raw[-200] ^= 0x40                                                    # one bit inside the tensor's data
    path.write_bytes(bytes(raw))
    with pytest.warns(UserWarning, match="checksum mismatch"):
        assert cache.load(cfg) is None
    assert "checksum mismatch" in (tmp_path / "cache" / "corrupt.log").read_text()
    assert not path.exists()
    calls = []
    value = cache.get_or_compute(cfg, lambda: calls.append(1) or {"w": torch.ones(64)})
    assert calls == [1] and torch.equal(value["w"], torch.ones(64)) and cache.load(cfg) is not None


@pytest.mark.parametrize("argv,expect", [
    (["run", "--device", "cuda", "--only", "04"], "torch sees no GPU"),
    (["run", "--profile", "paper", "--only", "04", "--data-root", "none"], "pass --data-root"),
    (["run", "--profile", "full", "--only", "04", "--data-root", "none"], "the full profile trains on the papers' datasets: fetch MNIST"),
    (["bench", "--case", "bogus"], "unknown bench case 'bogus'"),
    (["bench", "--models", "0"], "must be at least 1"),
    (["bench", "--steps", "0"], "must be at least 1"),
])
def test_bad_run_and_bench_inputs_are_one_line_before_any_work(tmp_path, capsys, argv, expect):
    if "cuda" in argv and torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    before = set(tmp_path.rglob("*"))
    assert main(argv + ["--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert expect in err and len(err.splitlines()) == 1
    assert set(tmp_path.rglob("*")) == before                            # nothing written (no empty bench.json)


def test_the_same_notebook_named_twice_runs_once():
    assert resolve_names(["04", "04_rho_dynamics"]) == ["04_rho_dynamics"]


def test_metrics_json_stays_valid_json_with_nan_and_inf(tmp_path):
    run = Run(NB1, profile="quick", device="cpu", results_dir=tmp_path)
    run.log(a=float("nan"), b=[1.0, float("inf")], c=float("-inf"))
    text = (run.dir / "metrics.json").read_text()
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    run.finish()
    m = claims.check(tmp_path, "quick")["notebooks"][NB1]["metrics"]
    assert m["b"][1] == float("inf") and m["c"] == float("-inf") and m["a"] != m["a"]


def test_a_relative_cache_path_is_the_users_not_the_kernels(tmp_path):
    """`MEMLIB_CACHE=cache python -m memlib run` from a folder: the cache is that folder's, made absolute before
    the kernels (which run in the repository) start."""
    code = ("import os, sys\nfrom memlib.cli import main, notebooks as m\nimport papermill\n"
            "papermill.execute_notebook = lambda *a, **k: (_ for _ in ()).throw(SystemExit(k['parameters']['cache_dir']))\n"
            "m.ensure_kernel = lambda: 'memlib'\nmain.main(['run', '--only', '04', '--results-dir', 'res', '--device', 'cpu'])\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "MEMLIB_CACHE": "mycache"})
    assert out.stderr.strip().splitlines()[-1] == str(tmp_path / "mycache")


def test_fit_blames_the_data_not_the_learning_rate_for_nan_inputs():
    with pytest.raises(ValueError, match="x holds 1 NaN"):
        from memlib.train import fit
        fit(models.fcn(4, 0), torch.tensor([[0.0, float("nan"), 1.0, 2.0]]), steps=3, lr=0.1, progress=False)


# ---- malformed dataset files: one error naming the file -----------------------------------------------------

import gzip  # noqa: E402
import pickle  # noqa: E402

import numpy as np  # noqa: E402

from memlib import data  # noqa: E402


def _idx(arr: np.ndarray, type_byte=0x08) -> bytes:
    return bytes([0, 0, type_byte, arr.ndim]) + b"".join(d.to_bytes(4, "big") for d in arr.shape) + arr.tobytes()


def _mnist(root: Path, images: bytes, labels: bytes, gz=False):
    raw = root / "MNIST" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for name, blob in (("train-images-idx3-ubyte", images), ("train-labels-idx1-ubyte", labels)):
        (raw / (name + (".gz" if gz else ""))).write_bytes(gzip.compress(blob) if gz else blob)
    return raw


IMAGES = np.zeros((3, 4, 4), np.uint8)
LABELS = np.array([7, 2, 1], np.uint8)


def test_a_good_idx_pair_loads(tmp_path):
    _mnist(tmp_path, _idx(IMAGES), _idx(LABELS))
    x, y = data.load_images("mnist", root=tmp_path)
    assert x.shape == (3, 1, 4, 4) and y.tolist() == [7, 2, 1] and "mnist" in data.used


@pytest.mark.parametrize("images,labels,gz,message", [
    (_idx(IMAGES)[:9], _idx(LABELS), False, "cut inside its header"),
    (_idx(IMAGES)[:-1], _idx(LABELS), False, "is truncated"),
    (_idx(IMAGES) + b"\0", _idx(LABELS), False, "longer than its header says"),
    (_idx(IMAGES, type_byte=0x07), _idx(LABELS), False, "unknown IDX type byte 0x07"),
    (b"PK\3\4 a zip", _idx(LABELS), False, "bad magic number"),
    (_idx(IMAGES), _idx(LABELS[:2]), False, "has 2 labels for the 3 images"),
    (_idx(IMAGES), _idx(IMAGES), False, "not labels"),
    (_idx(IMAGES[0]), _idx(LABELS), False, "not images"),
    (_idx(IMAGES), _idx(np.array([7, 200, 1], np.uint8)), False, "labels outside 0..9"),
])
def test_malformed_idx_files_are_named(tmp_path, images, labels, gz, message):
    raw = _mnist(tmp_path, images, labels, gz)
    with pytest.raises(data.DatasetCorrupt, match=message) as e:
        data.load_images("mnist", root=tmp_path)
    assert str(raw) in str(e.value)


def test_broken_gzip_files_are_named(tmp_path):
    raw = _mnist(tmp_path, _idx(IMAGES), _idx(LABELS), gz=True)
    blob = (raw / "train-images-idx3-ubyte.gz").read_bytes()
    (raw / "train-images-idx3-ubyte.gz").write_bytes(blob[:len(blob) // 2])          # cut
    with pytest.raises(data.DatasetCorrupt, match="train-images-idx3-ubyte.gz cannot be read"):
        data.load_images("mnist", root=tmp_path)
    (raw / "train-images-idx3-ubyte.gz").write_bytes(_idx(IMAGES))                    # not gzipped at all
    with pytest.raises(data.DatasetCorrupt, match="train-images-idx3-ubyte.gz cannot be read"):
        data.load_images("mnist", root=tmp_path)


def _cifar(root: Path, blob: bytes, name="test_batch"):
    base = root / "cifar-10-batches-py"
    base.mkdir(parents=True, exist_ok=True)
    (base / name).write_bytes(blob)
    return base / name


def test_a_cifar_batch_loads_with_the_restricted_unpickler(tmp_path):
    batch = {b"data": np.arange(2 * 3072, dtype=np.uint8).reshape(2, 3072), b"labels": [3, 9],
             b"batch_label": b"testing batch 1 of 1", b"filenames": [b"a.png", b"b.png"]}
    _cifar(tmp_path, pickle.dumps(batch, protocol=2))
    x, y = data.load_images("cifar10", split="test", root=tmp_path)
    assert x.shape == (2, 3, 32, 32) and y.tolist() == [3, 9]


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


@pytest.mark.parametrize("blob,message", [
    (pickle.dumps({b"data": _Evil(), b"labels": [1]}), "refused to load"),
    (b"this is a text file, not a pickle\n", "is not a CIFAR-10 batch"),
    (b"", "is not a CIFAR-10 batch"),
    (pickle.dumps({b"data": np.zeros((2, 3072), np.uint8), b"labels": [1, 2]})[:-40], "is not a CIFAR-10 batch"),
    (pickle.dumps({b"images": np.zeros((2, 3072), np.uint8)}), "no b'data' and b'labels'"),
    (pickle.dumps({b"data": np.zeros((2, 3072), np.uint8), b"labels": [1]}), "1 labels"),
])
def test_malformed_or_malicious_cifar_batches_are_refused(tmp_path, monkeypatch, blob, message):
    monkeypatch.chdir(tmp_path)
    path = _cifar(tmp_path, blob)
    with pytest.raises(data.DatasetCorrupt, match=message) as e:
        data.load_images("cifar10", split="test", root=tmp_path)
    assert str(path) in str(e.value) and not (tmp_path / "PWNED").exists()


def test_a_data_root_without_mnist_is_an_error_not_another_set(tmp_path):
    with pytest.raises(data.DatasetMissing, match="mnist"):
        data.training_digit(root=tmp_path)
    x, source = data.training_digit()
    assert source == "digits" and x.shape == (1, 1, 28, 28)


def test_constant_image_has_no_correlated_probes():
    with pytest.raises(ValueError, match="not constant"):
        data.correlated_probes(torch.ones(1, 1, 4, 4), 0.5, 3)


@pytest.mark.parametrize("call", [lambda: models.convnet(2.5), lambda: models.convnet(3, channels=0),
                                  lambda: models.fcn(784, -1), lambda: models.fcn(784, 1, width=0)])
def test_bad_model_sizes_are_one_clear_error(call):
    with pytest.raises(ValueError, match="must be an integer"):
        call()


def test_provenance_names_the_datasets_loaded(tmp_path):
    run = Run(NB1, profile="quick", device="cpu", results_dir=tmp_path)
    data.load_images("digits")
    run.finish()
    assert json.loads((run.dir / "provenance.json").read_text())["datasets"] == ["digits"]


def test_require_names_what_a_data_root_lacks(tmp_path):
    with pytest.raises(data.DatasetMissing, match=r"lacks mnist: expected .*train-images-idx3-ubyte"):
        data.require(tmp_path, "mnist")
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for stem in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte"):
        (raw / stem).write_bytes(b"")
    with pytest.raises(data.DatasetMissing, match="t10k-labels") as e:
        data.require(tmp_path, "mnist", "digits")
    assert "train-images" not in str(e.value)
    (raw / "t10k-labels-idx1-ubyte.gz").write_bytes(b"")
    data.require(tmp_path, "mnist", "digits")            # all present (contents are the readers' job)
    with pytest.raises(data.DatasetMissing, match="lacks cifar10: expected .*data_batch_1"):
        data.require(tmp_path, "cifar10")


def test_a_notebook_with_a_data_root_lacking_its_set_stops_before_training(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--only", "02",
                           "--device", "cpu", "--data-root", str(empty), "--results-dir", str(tmp_path / "r")],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "lacks mnist" in out, out[-3000:]
    import nbformat
    nb = nbformat.read(tmp_path / "r" / "smoke" / "02_attractors" / "02_attractors.ipynb", as_version=4)
    failed = [c for c in nb.cells if c.cell_type == "code"
              and any(o.get("output_type") == "error" for o in c.get("outputs", []))]
    assert len(failed) == 1 and "run.dataset(" in failed[0].source and "fit_cached(" not in failed[0].source


def test_atomic_writes_have_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        fileio.atomic_write_text(tmp_path / "report.json", "{}")
    finally:
        os.umask(old)
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == 0o644      # not mkstemp's 0600


def test_half_written_entries_of_dead_writers_are_removed_and_those_of_live_ones_kept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()                                              # its pid names no running process now
    orphan = tmp_path / f".abc.pt.{dead.pid}.x1y2z3w4.tmp"
    live = tmp_path / f".abc.pt.{os.getppid()}.q1w2e3r4.tmp"  # the test runner's parent runs
    foreign = tmp_path / ".notes.txt.tmp"                    # no pid in its name: not ours to judge
    for f in (orphan, live, foreign):
        f.write_bytes(b"half")
    assert fileio.remove_orphaned_temporaries(tmp_path) == 1
    assert not orphan.exists() and live.exists() and foreign.exists()
    store.Cache(tmp_path)                                    # opening a cache sweeps too
    assert live.exists()


def test_an_atomic_write_names_its_temporary_after_the_writer(tmp_path, monkeypatch):
    seen = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (seen.append(Path(a).name), real(a, b)))
    fileio.atomic_write_text(tmp_path / "m.json", "{}")
    assert seen[0].startswith(f".m.json.{os.getpid()}.") and seen[0].endswith(".tmp")


NB4 = claims.NOTEBOOKS[4]


def _smoke_04(results: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--only", "04",
                             "--device", "cpu", "--results-dir", str(results)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def _no_leftovers(results: Path):
    assert not list((results / "smoke").glob(".*")), "a staging or old folder was left behind"
    assert not list((results / "cache").glob(".*.tmp")), "a half-written cache entry was left behind"
    assert not (results / "cache" / "corrupt.log").exists()


def test_ctrl_c_mid_notebook_marks_it_failed_and_a_rerun_recovers(tmp_path):
    import signal
    import time
    proc = _smoke_04(tmp_path)
    deadline = time.monotonic() + 240
    while not list((tmp_path / "cache").glob("*.pt")):      # wait until the kernel is training (a model cached)
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended before training started"
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in out, out[-2000:]
    final = tmp_path / "smoke" / NB4
    assert "interrupted" in json.loads((final / "failed.json").read_text())["reason"]
    assert not (final / "provenance.json").exists()
    _no_leftovers(tmp_path)
    assert main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)]) == 1   # a failed notebook
    proc = _smoke_04(tmp_path)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out[-2000:]
    assert (final / "provenance.json").exists() and not (final / "failed.json").exists()
    _no_leftovers(tmp_path)


def test_two_concurrent_runs_of_a_notebook_both_finish_and_lose_nothing(tmp_path):
    procs = [_smoke_04(tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=400)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(o[-1500:] for o in outs)
    final = tmp_path / "smoke" / NB4
    assert (final / "provenance.json").exists() and json.loads((final / "metrics.json").read_text())
    _no_leftovers(tmp_path)
    for f in (tmp_path / "cache").glob("*.pt"):              # every entry either run wrote checks out
        raw = f.read_bytes()
        head, _, payload = raw.partition(b"\n")
        assert head.startswith(store.MAGIC) and hashlib.sha256(payload).hexdigest().encode() == head[len(store.MAGIC):]


# ---- issue 30: SIGTERM / SIGHUP as Ctrl-C, a full disk at the swap, dead runs' folders --------------------------

def _kernels_of(results: Path) -> list[int]:
    """The live processes started with MEMLIB_CACHE under `results` in their environment (the suite's, conftest:
    `run` passes it on to its kernels unchanged): a run's kernels."""
    mine = f"MEMLIB_CACHE={results / 'cache'}".encode()
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            try:
                if mine in (d / "environ").read_bytes().split(b"\0") and fileio._alive(int(d.name)):
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


def _old_finished_04(results: Path) -> Path:
    """A finished run of notebook 04 from before: what a stopped run must not leave reported as current."""
    d = results / "smoke" / NB4
    d.mkdir(parents=True)
    (d / "metrics.json").write_text(json.dumps({"fig1.rho_final": 0.5}))
    (d / "provenance.json").write_text(json.dumps({"notebook": NB4, "resolved_device": "cpu"}))
    return d


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "timeout"])
def test_sigterm_or_sighup_mid_notebook_is_handled_as_ctrl_c(tmp_path, how):
    """kill, a closed terminal, `timeout` (which sends SIGTERM to the run and again to its whole process group)
    or a batch scheduler: the notebook is marked failed, the older results are withdrawn, the kernel is stopped
    and no staging folder is left."""
    import shutil
    import signal
    import time
    if not Path("/proc").is_dir() or (how == "timeout" and shutil.which("timeout") is None):
        pytest.skip("needs /proc (to find the kernel) and, for this case, coreutils' timeout")
    final = _old_finished_04(tmp_path)
    cmd = [sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--only", "04", "--device", "cpu",
           "--results-dir", str(tmp_path)]
    proc = subprocess.Popen((["timeout", "600"] if how == "timeout" else []) + cmd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 240
    while not list((tmp_path / "cache").glob("*.pt")) or not _kernels_of(tmp_path):   # the kernel is training
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended before training started"
        time.sleep(0.2)
    kernels = _kernels_of(tmp_path)
    sig = signal.SIGHUP if how == "SIGHUP" else signal.SIGTERM
    proc.send_signal(sig)                                    # to `timeout`: it signals the run, then the group
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 128 + sig and f"interrupted ({sig.name})" in out, out[-2000:]
    assert json.loads((final / "failed.json").read_text())["reason"] == f"interrupted ({sig.name})"
    assert not (final / "provenance.json").exists()
    rows = [r for r in claims.check(tmp_path, "smoke")["claims"] if r["notebook"] == NB4]
    assert rows and all(r["outcome"] == NOT_RUN for r in rows)          # the old run is not reported as current
    assert main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)]) == 1
    _no_leftovers(tmp_path)
    deadline = time.monotonic() + 30
    while any(fileio._alive(k) for k in kernels) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(fileio._alive(k) for k in kernels), "the kernel outlived the run"


def _fake_run(tmp_path: Path, argv: list, prelude: str = "", notebook: str = "") -> subprocess.CompletedProcess:
    """`python -m memlib run ARGV` in a fresh process with papermill's execute_notebook replaced by `notebook`
    (Python run with `out`, the executed notebook's path; default: a finished run) and `prelude` run first."""
    body = notebook or ("d = Path(out).parent\n(d / 'metrics.json').write_text('{\"fig1.rho_final\": 0.9}')\n"
                        "(d / 'provenance.json').write_text('{\"notebook\": \"x\"}')\nPath(out).write_text('{}')\n")
    code = ("import os, sys\nfrom pathlib import Path\nimport papermill\nfrom memlib.cli import main, notebooks as m, signals\n"
            "m.ensure_kernel = lambda: 'memlib'\n" + prelude +
            "def execute(inp, out, **kw):\n" + "".join(f"    {line}\n" for line in body.splitlines()) +
            "papermill.execute_notebook = execute\n"
            f"sys.exit(main.main({argv!r}))\n")
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)


FULL_DISK = ("import errno\nreal = m.atomic_write_text\n"
             "def full(path, text):\n    raise OSError(errno.ENOSPC, 'No space left on device', str(path))\n")


@pytest.mark.parametrize("where", ["the notebook and failed.json", "the swap's rename"])
def test_a_full_disk_at_the_swap_withdraws_the_old_results_and_leaves_no_staging_folder(tmp_path, where):
    """The disk fills while a run swaps its notebook in: the run stops with one line, and `check` (even after
    space is freed) never reports the older finished run as current; the staging folder's space is given back."""
    final = _old_finished_04(tmp_path)
    (final / "old.png").write_bytes(b"png")
    if where == "the swap's rename":                  # the notebook finished; moving its folder in fails
        prelude = ("import errno\nreal_replace = os.replace\n"
                   "def replace(a, b):\n"
                   "    if '.running-' in Path(a).name:\n"     # the staging folder itself, not a file in it
                   "        raise OSError(errno.ENOSPC, 'No space left on device', str(b))\n"
                   "    return real_replace(a, b)\n"
                   "m.os.replace = replace\n")
        notebook = ""
    else:                                             # the executed notebook cannot be written, nor failed.json
        prelude = FULL_DISK + "m.atomic_write_text = full\n"
        notebook = "raise OSError(28, 'No space left on device', out)"
    out = _fake_run(tmp_path, ["run", "--profile", "smoke", "--only", "04", "--device", "cpu",
                               "--results-dir", str(tmp_path)], prelude, notebook)
    err = out.stderr.strip()
    assert out.returncode == 2 and "No space left on device" in err and "Traceback" not in err, out.stdout + err
    assert not (final / "provenance.json").exists()
    assert not list((tmp_path / "smoke").glob(".*")), "a staging or old folder was left behind"
    rows = [r for r in claims.check(tmp_path, "smoke")["claims"] if r["notebook"] == NB4]
    assert rows and all(r["outcome"] == NOT_RUN for r in rows)
    if where == "the swap's rename":                  # failed.json could be written: it says why
        assert "could not be saved" in json.loads((final / "failed.json").read_text())["reason"]


def test_swap_in_withdraws_the_old_results_when_failed_json_cannot_be_written(tmp_path, monkeypatch):
    import memlib.cli.notebooks as cli
    final = _finished(tmp_path, {"fig2.linear1_vs_eq1_rel_err": 1e-6})
    stage = tmp_path / "quick" / f".{NB1}.running-3"
    stage.mkdir()
    (stage / f"{NB1}.ipynb").write_text("{}")

    def full(path, text):
        raise OSError(28, "No space left on device", str(path))
    monkeypatch.setattr(cli, "atomic_write_text", full)
    with pytest.raises(OSError, match="No space"):
        swap_in(stage, final, "failed in cell 3: RuntimeError: boom")
    monkeypatch.undo()                                           # space freed
    assert not stage.exists() and not (final / "provenance.json").exists()
    assert all(r["outcome"] == NOT_RUN for r in claims.check(tmp_path, "quick")["claims"] if r["notebook"] == NB1)


def test_a_run_removes_the_folders_of_dead_runs_and_says_so(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()                                                   # its pid names no running process now
    smoke = tmp_path / "smoke"
    stale = [smoke / f".{NB4}.running-{dead.pid}", smoke / f".{NB1}.old-{dead.pid}"]
    live = smoke / f".{NB4}.running-{os.getppid()}"               # the test runner's parent runs
    for d in (*stale, live):
        d.mkdir(parents=True)
        (d / "metrics.json").write_text("{}")
    out = _fake_run(tmp_path, ["run", "--profile", "smoke", "--only", "04", "--device", "cpu",
                               "--results-dir", str(tmp_path)])
    # the dead run's staging folder is swapped in marked failed (issue 44), the other dead folder removed
    assert f"{NB4}: a run (pid {dead.pid}) died before it finished" in out.stdout, out.stdout + out.stderr
    assert "removed 1 folder(s)" in out.stdout and stale[1].name in out.stdout, out.stdout + out.stderr
    assert not any(d.exists() for d in stale) and live.exists()
    assert (smoke / NB4 / "provenance.json").exists()
    assert fileio.remove_dead_run_folders(smoke) == [] and live.exists()


def test_a_signal_during_the_swap_waits_for_it_to_finish(tmp_path):
    """SIGTERM while a finished notebook is moved in: the swap completes, then the run stops (143), with the
    finished results in place and no staging or old folder."""
    prelude = ("import signal\nsignals.interrupt_on_signals()\nreal_lock = m.swap_lock\n"
               "def lock(folder):\n    os.kill(os.getpid(), signal.SIGTERM)\n    return real_lock(folder)\n"
               "m.swap_lock = lock\n")
    _old_finished_04(tmp_path)
    out = _fake_run(tmp_path, ["run", "--profile", "smoke", "--only", "04", "--device", "cpu",
                               "--results-dir", str(tmp_path)], prelude)
    assert out.returncode == 143 and "Traceback" not in out.stderr, out.stdout + out.stderr
    final = tmp_path / "smoke" / NB4
    assert json.loads((final / "metrics.json").read_text()) == {"fig1.rho_final": 0.9}
    assert (final / "provenance.json").exists() and not (final / "failed.json").exists()
    assert not list((tmp_path / "smoke").glob(".*"))


# ---- issue 30: dataset files that are well-formed IDX but impossible or outside the format ---------------------

def _idx_header(shape, type_byte=0x08) -> bytes:
    return bytes([0, 0, type_byte, len(shape)]) + b"".join(int(d).to_bytes(4, "big") for d in shape)


@pytest.mark.parametrize("images,labels,message", [
    # 2^31 x 2^31 x 4 bytes wraps to 0 in numpy's int64 product: the empty body then passed the size check
    (_idx_header((2**31, 2**31, 4)), _idx(LABELS),
     r"train-images-idx3-ubyte is truncated: its header says \(2147483648, 2147483648, 4\) \(18446744073709551616 "),
    (_idx_header((2**31, 2**31, 4), 0x0C), _idx(LABELS), "is truncated"),
    (_idx(np.zeros((0, 4, 4), np.uint8)), _idx(np.zeros(0, np.uint8)), r"holds no images \(its header says \(0, 4, 4\)\)"),
    (_idx(np.zeros((3, 0, 4), np.uint8)), _idx(LABELS), "holds no images"),
    (_idx(np.full((3, 4, 4), -5, np.int8), 0x09), _idx(LABELS), r"has pixels outside 0..255 \(min -5"),
    (_idx(np.full((3, 4, 4), 300, ">i2"), 0x0B), _idx(LABELS), "has pixels outside 0..255"),
    (_idx(IMAGES.astype(">f4"), 0x0D), _idx(LABELS), "holds float32 pixels"),
    (_idx(IMAGES), _idx(np.array([7.5, 2, 1], ">f4"), 0x0D), "train-labels-idx1-ubyte holds float32 labels, not integers"),
    (_idx(IMAGES), _idx(np.array([7, 2, 1], ">f8"), 0x0E), "holds float64 labels"),
])
def test_impossible_or_out_of_format_idx_files_are_named(tmp_path, images, labels, message):
    raw = _mnist(tmp_path, images, labels)
    with pytest.raises(data.DatasetCorrupt, match=message) as e:
        data.load_images("mnist", root=tmp_path)
    assert str(raw) in str(e.value) and len(str(e.value).splitlines()) == 1


def test_int8_pixels_within_the_format_still_load(tmp_path):
    _mnist(tmp_path, _idx(np.full((3, 4, 4), 100, np.int8), 0x09), _idx(LABELS))
    x, _ = data.load_images("mnist", root=tmp_path)
    assert float(x.min()) == pytest.approx(100 / 255)


def test_a_training_set_without_the_digit_paper_1_trains_on_is_named(tmp_path):
    raw = _mnist(tmp_path, _idx(IMAGES), _idx(np.array([1, 2, 1], np.uint8)))
    with pytest.raises(data.DatasetCorrupt, match="holds no 7 among its 3 training labels") as e:
        data.training_digit(root=tmp_path)
    assert str(raw / "train-labels-idx1-ubyte") in str(e.value)
    with pytest.raises(runtime.MemlibError, match=r"no example of class 5 \(they hold 1, 2\)"):
        data.first_of_each(torch.tensor([1, 2, 1]), (2, 5))


# ---- issue 30: messages that named the wrong problem ---------------------------------------------------------

def test_against_a_folder_says_it_is_a_folder(tmp_path, capsys):
    for argv in (["check", "--results-dir", str(tmp_path)],
                 ["run", "--only", "04", "--device", "cpu", "--results-dir", str(tmp_path / "r")]):
        assert main(argv + ["--profile", "quick", "--against", str(tmp_path)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and f"--against {tmp_path} is a folder" in err, err
        assert "--results-dir" not in err and "cannot write" not in err


def test_bench_with_a_results_path_that_is_a_file_says_so(tmp_path, capsys):
    f = tmp_path / "results"
    f.write_text("x")
    assert main(["bench", "--device", "cpu", "--results-dir", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{f} is a file, not a folder" in err and "File exists" not in err, err
    assert main(["bench", "--device", "cpu", "--results-dir", str(f / "sub")]) == 2       # a file above it
    err = capsys.readouterr().err.strip()
    assert f"{f} is a file, not a folder" in err and "Not a directory" not in err, err


@pytest.mark.parametrize("port", ["70000", "-1", "0", "65536"])
def test_serve_refuses_a_port_outside_1_to_65535_before_starting_anything(tmp_path, capsys, monkeypatch, port):
    import memlib.cli.serve as cli
    monkeypatch.chdir(tmp_path)                                  # serve changes folder before it execs Voila
    monkeypatch.setattr(cli, "ensure_kernel", lambda: "memlib")
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail(f"Voila was started: {a}"))
    assert main(["serve", "--no-browser", "--port", port, "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"--port {port}" in err and "1..65535" in err, err


def test_run_all_data_accepts_the_words_of_python_m_memlib_data(tmp_path):
    """`./run_all.sh data fetch mnist` (as `python -m memlib data fetch mnist`) is the same as `data mnist`."""
    root = Path(__file__).resolve().parent.parent
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text('#!/bin/sh\necho "$*" >> "$STUB_LOG"\nexit 0\n')
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".installed").touch()
    os.utime(venv / ".installed", (2**31, 2**31))                # newer than pyproject.toml: installed
    log = tmp_path / "log"
    env = {**os.environ, "MEMLIB_VENV": str(venv), "STUB_LOG": str(log), "MEMLIB_NO_FETCH": "1"}
    env.pop("MEMLIB_EXTRAS", None)
    d = tmp_path / "d"
    for args, want in ((["data", "fetch", "mnist", "--data-root", str(d)], f"-m memlib data fetch mnist --data-root {d}"),
                       (["data", "fetch", "--data-root", str(d)], f"-m memlib data fetch mnist --data-root {d}"),
                       (["data", "fetch", "cifar10"], "-m memlib data fetch cifar10"),
                       (["data", "fashion_mnist"], "-m memlib data fetch fashion_mnist")):
        out = subprocess.run([str(root / "run_all.sh"), *args], capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 0, out.stderr
        assert log.read_text().splitlines()[-1] == want


def test_serve_gives_the_tour_its_cache_and_profile_in_voilas_environment_only(tmp_path, monkeypatch):
    """`serve` passes the cache and the tour's profile to Voila's kernels in the environment it execs Voila with
    (Voila has no parameters); its own process environment is not changed."""
    import memlib.cli.serve as cli
    monkeypatch.chdir(tmp_path)
    for key in ("MEMLIB_TOUR_PROFILE", "MEMLIB_CACHE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(cli, "ensure_kernel", lambda: "memlib")
    started = {}

    def fake_execve(path, cmd, env):
        started.update(cmd=cmd, env=env)
        raise SystemExit(0)
    monkeypatch.setattr(os, "execve", fake_execve)
    with pytest.raises(SystemExit):
        main(["serve", "--no-browser", "--no-train", "--profile", "smoke", "--results-dir", str(tmp_path / "res")])
    assert started["env"]["MEMLIB_TOUR_PROFILE"] == "smoke"
    assert started["env"]["MEMLIB_CACHE"] == str((tmp_path / "res" / "cache").resolve())
    assert "MEMLIB_TOUR_PROFILE" not in os.environ and "MEMLIB_CACHE" not in os.environ
    assert any("voila" in c for c in started["cmd"])
