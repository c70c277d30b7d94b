"""Issue 44: the rough edges a user still met after issue 30's probes. Each is one clear line naming what is
wrong (and the file or folder) and what to do: an empty metric, model-cache faults, run_all.sh's relative
paths, advice that led nowhere, the kernel's noise at Ctrl-C, a run killed with SIGKILL, and wording."""
import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memlib import claims
from memlib.claims import NOT_REPRODUCED
from memlib.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
NB3 = claims.NOTEBOOKS[3]
NB4 = claims.NOTEBOOKS[4]


@pytest.fixture
def no_kernel(monkeypatch):
    """A command that gets past its checks fails the test instead of starting a kernel."""
    import memlib.cli.notebooks as notebooks       # cli.commands imports it from there when a command runs
    monkeypatch.setattr(notebooks, "ensure_kernel", lambda: pytest.fail("a kernel was started"))


SMOKE_04 = ["--profile", "smoke", "--only", "04", "--device", "cpu"]


def _finished(base: Path, metrics: dict, nb=NB3, profile="quick") -> Path:
    d = base / profile / nb
    d.mkdir(parents=True, exist_ok=True)
    (d / "metrics.json").write_text(json.dumps(metrics))
    (d / "provenance.json").write_text(json.dumps({"notebook": nb, "resolved_device": "cpu"}))
    return d


# ---- 1. an empty seed band ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value,threshold", [([], 1e-6), ([], [1.0, 2.0]), ([1.0, 2.0], []), ([], [])])
def test_band_holds_an_empty_list_is_no_value_not_a_crash(value, threshold):
    ok, account = claims.band_holds(value, "<", threshold)
    assert ok is False and "holds no value (an empty list)" in account, account


def test_check_reports_an_empty_metric_instead_of_crashing(tmp_path, capsys):
    _finished(tmp_path, {"fig4.identity_init.operator_err": []})
    main(["check", "--profile", "quick", "--results-dir", str(tmp_path)])
    rows = json.loads((tmp_path / "quick" / "report.json").read_text())["claims"]
    row = next(r for r in rows if r["metric"] == "fig4.identity_init.operator_err")
    assert row["outcome"] == NOT_REPRODUCED and "holds no value (an empty list)" in row["reason"], row["reason"]
    assert "Traceback" not in capsys.readouterr().err


# ---- 2. the model cache checked up front, and named when a write fails -------------------------------------------

@pytest.mark.parametrize("command", ["run", "plan"])
def test_a_model_cache_that_is_a_file_is_one_line_before_any_kernel(tmp_path, capsys, monkeypatch, no_kernel,
                                                                    command):
    blocker = tmp_path / "cachefile"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MEMLIB_CACHE", str(blocker))
    assert main([command, *SMOKE_04, "--results-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"cannot write to the model cache {blocker}: {blocker} is a file" in err, err
    assert "set MEMLIB_CACHE to another folder" in err


@pytest.mark.parametrize("code,text,advice", [
    (errno.ENOSPC, "No space left on device", "free some space there or set MEMLIB_CACHE to another folder"),
    (errno.EROFS, "Read-only file system", "set MEMLIB_CACHE to another folder"),
    (errno.EACCES, "Permission denied", "make it writable or set MEMLIB_CACHE to another folder"),
])
def test_a_full_or_read_only_model_cache_is_one_line_before_any_kernel(tmp_path, capsys, monkeypatch, no_kernel,
                                                                       code, text, advice):
    cache = tmp_path / "full" / "cache"
    monkeypatch.setenv("MEMLIB_CACHE", str(cache))
    _refuse(monkeypatch, code, text, lambda p: str(p).startswith(str(cache)))
    assert main(["run", *SMOKE_04, "--results-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"cannot write to the model cache {cache}: {text}" in err, err
    assert advice in err
    assert code == errno.ENOSPC or "free some space" not in err


def test_a_cache_write_that_fails_names_the_cache_and_what_to_do(tmp_path, monkeypatch):
    """The disk fills while a kernel saves a model: the cell's error names the cache, not a bare errno 28."""
    from memlib.harness import store
    monkeypatch.delenv("MEMLIB_CACHE", raising=False)
    cache = store.Cache(tmp_path / "cache")

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(store, "atomic_write_bytes", full)
    with pytest.raises(store.CacheUnwritable) as e:
        cache.save({"k": 1}, {"w": 1})
    line = str(e.value)
    assert line.startswith(f"cannot write the model cache {tmp_path / 'cache'} (") and "No space left on device" in line
    assert "free some space there or choose another --results-dir" in line and isinstance(e.value, OSError)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(store.CacheUnwritable, match=f"the model cache {blocker} is a file, not a folder"):
        store.Cache(blocker)


# ---- 3. run_all.sh: relative paths are the caller's ------------------------------------------------------------

@pytest.mark.parametrize("args,want", [
    (["--profile", "smoke", "--data-root", "../data", "--results-dir", "res", "--against", "b.json"],
     "[-m][memlib][run][--profile][smoke][--data-root][{here}/../data][--results-dir][{here}/res][--against][{here}/b.json]"),
    (["run", "--data-root=d", "--results-dir=/abs/res"], "[-m][memlib][run][--data-root={here}/d][--results-dir=/abs/res]"),
    (["--data-root", "auto"], "[-m][memlib][run][--data-root][auto]"),
    (["--data-root", "none", "--only", "01"], "[-m][memlib][run][--data-root][none][--only][01]"),
    (["check", "--results-dir", "my results"], "[-m][memlib][check][--results-dir][{here}/my results]"),
    (["plan", "--out", "p.json"], "[-m][memlib][plan][--out][{here}/p.json]"),
    (["data", "fetch", "mnist", "--data-root", "d"], "[-m][memlib][data][fetch][mnist][--data-root][{here}/d]"),
])
def test_run_all_sh_resolves_relative_paths_against_the_callers_folder(tmp_path, args, want):
    """`./run_all.sh --data-root ../data` from a folder means that folder's ../data, as `python -m memlib` reads it
    (run_all.sh changes into the repository before it runs anything)."""
    venv = _stub_venv(tmp_path)
    here = tmp_path / "work" / "here"
    here.mkdir(parents=True)
    log = tmp_path / "log"
    out = subprocess.run([str(ROOT / "run_all.sh"), *args], cwd=here, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "MEMLIB_VENV": str(venv), "STUB_LOG": str(log), "MEMLIB_NO_FETCH": "1",
                              "MEMLIB_CACHE": "mycache"})
    assert out.returncode == 0, out.stderr
    line = log.read_text().splitlines()[-1]
    assert line == want.format(here=here) + f" cache={here / 'mycache'}", line


# ---- 5. the kernel's noise after Ctrl-C -------------------------------------------------------------------------

KERNEL_NOISE = r"""
import sys
from pathlib import Path
import nbformat
from memlib.cli import common, main, notebooks
params = nbformat.v4.new_code_cell("\n".join(f"{k} = None" for k in (   # what `run` passes
    "profile", "device", "seed", "results_dir", "data_root", "run_dir", "cache_dir", "plan_dir", "max_steps",
    "headless")))
params.metadata["tags"] = ["parameters"]
cell = nbformat.v4.new_code_cell(
    'import os, signal, time\n'
    'os.write(2, b"kernel: a line before the stop\\n")\n'
    'time.sleep(2)\n'
    'os.kill(os.getppid(), signal.SIGINT)\n'              # the run is stopped (a Ctrl-C) while the cell runs
    'time.sleep(1)\n'
    'os.write(2, b"Traceback (most recent call last):\\nzmq.error.ZMQError: Socket operation on non-socket\\n")\n'
    'time.sleep(60)\n')
nb = nbformat.v4.new_notebook(cells=[params, cell])
nb.metadata["kernelspec"] = {"name": "memlib", "display_name": "Python (memlib)", "language": "python"}
Path("nb").mkdir()
nbformat.write(nb, "nb/04_rho_dynamics.ipynb")                # `run` executes this notebook in place of 04
common.NOTEBOOK_DIR = notebooks.NOTEBOOK_DIR = Path("nb").resolve()
sys.exit(main.main(["run", "--profile", "smoke", "--only", "04", "--device", "cpu", "--results-dir", "res"]))
"""


def test_a_kernels_noise_after_ctrl_c_never_reaches_the_terminal(tmp_path):
    """Ctrl-C while a kernel starts or runs a cell: what the kernel then prints on its stderr (ipykernel's account
    of its shutdown, a ZMQError traceback) and asyncio's account of papermill's pending tasks never reach the
    terminal; the run's own line does, and what the kernel printed before the stop."""
    out = subprocess.run([sys.executable, "-c", KERNEL_NOISE], cwd=tmp_path, capture_output=True, text=True,
                         timeout=400)
    err = out.stderr
    assert out.returncode == 130 and "interrupted (Ctrl-C); marked as failed" in out.stdout, out.stdout + err
    assert "kernel: a line before the stop" in err, err[-3000:]
    for noise in ("ZMQError", "Traceback", "Task was destroyed", "was never awaited"):
        assert noise not in err, err[-3000:]


QUIET_KERNEL = KERNEL_NOISE.split("cell = nbformat")[0] + r"""cell = nbformat.v4.new_code_cell(
    'import json, os\n'
    'from ipykernel.connect import get_connection_info\n'
    'info = json.loads(get_connection_info())\n'                 # what this kernel was started to talk over
    'os.write(2, f"kernel: {info[\'transport\']} {info[\'ip\']}\\n".encode())\n')
""" + "nb = nbformat" + KERNEL_NOISE.split("nb = nbformat")[1]


def test_a_run_s_kernels_talk_over_ipc_without_the_tcp_warning_and_leave_no_socket_folder(tmp_path):
    """Every kernel ipykernel starts on TCP prints "Kernel is running over TCP without encryption" into the run's
    output; `run`'s kernels use IPC sockets in a private folder, removed when the notebook ends."""
    import shutil
    import tempfile
    tmp = tempfile.mkdtemp(prefix="t", dir="/tmp")                     # short: sockets' paths are at most 107 bytes
    try:
        out = subprocess.run([sys.executable, "-c", QUIET_KERNEL], cwd=tmp_path, capture_output=True, text=True,
                             timeout=400, env={**os.environ, "TMPDIR": tmp})
        err = out.stderr
        lines = [line for line in err.splitlines() if line.startswith("kernel: ")]
        assert len(lines) == 1, out.stdout + err                        # the cell ran, its stderr relayed
        transport, ip = lines[0].split()[1:]
        assert transport == "ipc" and Path(ip).parent.parent == Path(tmp), lines
        assert Path(ip).parent.name.startswith("memlib-kernel-")
        assert "without encryption" not in err and "over TCP" not in err, err[-3000:]
        assert os.listdir(tmp) == [], os.listdir(tmp)                   # the sockets' folder is gone
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_the_sockets_folder_is_private_and_short_even_under_a_deep_tmpdir(tmp_path, monkeypatch):
    import stat
    from memlib.cli import kernels
    deep = tmp_path / ("d" * 60)
    deep.mkdir()
    monkeypatch.setattr(kernels.tempfile, "tempdir", str(deep))
    folder = kernels.ipc_folder()
    try:
        assert folder is not None and Path(folder).parent == Path("/tmp") and Path(folder).is_dir()
        assert len(str(Path(folder) / "kernel-99999")) <= kernels.IPC_PATH_MAX
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        assert list(deep.iterdir()) == []                               # the too-deep try left nothing
    finally:
        os.rmdir(folder)


def test_the_relay_drops_what_comes_after_a_stop(monkeypatch):
    import io
    import threading
    import time
    from memlib.cli import kernels, signals
    monkeypatch.setattr(signals, "_stopped_at", None)
    r, w = os.pipe()
    out = io.StringIO()
    relay = threading.Thread(target=kernels._relay, args=(r, time.monotonic(), out))
    relay.start()
    os.write(w, b"a warning before\n")
    time.sleep(0.3)
    signals._stopping(2)                                   # a Ctrl-C stops the run
    os.write(w, b"Traceback (most recent call last):\nzmq.error.ZMQError: Socket operation on non-socket\n")
    os.close(w)
    relay.join(5)
    assert out.getvalue() == "a warning before\n"
    assert not signals.stopped_since(time.monotonic() + 1)  # a stop before a kernel started is not that kernel's


# ---- 6. a run killed with SIGKILL ------------------------------------------------------------------------------

def _dead_pid() -> int:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()                                                   # its pid names no running process now
    return dead.pid


def test_check_withdraws_the_older_results_of_a_run_killed_with_sigkill(tmp_path, capsys):
    """SIGKILL leaves `.NAME.running-PID` and the older finished run in place: `check` says so in one line and
    marks the notebook failed, so the report never shows the older results as current."""
    final = _finished(tmp_path, {"fig1.rho_final": 0.5}, nb=NB4, profile="smoke")
    pid = _dead_pid()
    stage = tmp_path / "smoke" / f".{NB4}.running-{pid}"
    stage.mkdir()
    (stage / "metrics.json").write_text("{}")                    # partial, unfinished
    assert main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    warning = [line for line in out.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and f"pid {pid}" in warning[0] and stage.name in warning[0] and NB4 in warning[0], out
    assert "died before it finished" in warning[0] and "run it again" in warning[0]
    assert not stage.exists() and not (final / "provenance.json").exists()
    assert "killed" in json.loads((final / "failed.json").read_text())["reason"]
    rows = [r for r in json.loads((tmp_path / "smoke" / "report.json").read_text())["claims"] if r["notebook"] == NB4]
    assert rows and all(r["outcome"] == "not run" and "killed" in r["reason"] for r in rows)


def test_check_leaves_a_live_runs_staging_folder_alone(tmp_path, capsys):
    _finished(tmp_path, {"fig1.rho_final": 0.5}, nb=NB4, profile="smoke")
    live = tmp_path / "smoke" / f".{NB4}.running-{os.getppid()}"   # the test runner's parent runs
    live.mkdir()
    main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)])
    assert live.exists() and "warning:" not in capsys.readouterr().out
    assert (tmp_path / "smoke" / NB4 / "provenance.json").exists()


# ---- 7. wording --------------------------------------------------------------------------------------------------

def test_check_on_an_empty_folder_says_no_run_was_found_and_writes_no_report(tmp_path, capsys):
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"no run found in {tmp_path / 'quick'}" in err, err
    assert "python -m memlib run --profile quick" in err
    assert not (tmp_path / "quick" / "report.json").exists() and not (tmp_path / "quick" / "report.md").exists()
    _finished(tmp_path, {"fig1.rho_final": 0.5}, nb=NB4, profile="smoke")          # another profile's run
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2
    assert "holds runs of the smoke profile" in capsys.readouterr().err


def _refuse(monkeypatch, code: int, text: str, when):
    """Path.write_text and tempfile.mkstemp raise OSError(code) where `when(path)`: a read-only folder or a full
    disk for this user, whoever runs the suite (root writes anywhere)."""
    import pathlib
    import tempfile
    real_write, real_mkstemp = pathlib.Path.write_text, tempfile.mkstemp

    def write_text(self, *a, **k):
        if when(self):
            raise OSError(code, text, str(self))
        return real_write(self, *a, **k)

    def mkstemp(suffix=None, prefix=None, dir=None, **k):
        tmp = Path(dir) / f"{prefix}x1y2z3{suffix}"
        if when(tmp):
            raise OSError(code, text, str(tmp))                  # as mkstemp names it: the temporary
        return real_mkstemp(suffix=suffix, prefix=prefix, dir=dir, **k)
    monkeypatch.setattr(pathlib.Path, "write_text", write_text)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


@pytest.mark.parametrize("code,text", [(errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied")])
def test_a_read_only_results_folder_is_not_told_to_free_space(tmp_path, capsys, monkeypatch, no_kernel, code, text):
    ro = tmp_path / "ro"
    _refuse(monkeypatch, code, text, lambda p: str(p).startswith(str(ro)))
    assert main(["run", *SMOKE_04, "--results-dir", str(ro)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"cannot write to {ro / 'smoke'}" in err and text in err, err
    assert "free some space" not in err and "choose another --results-dir" in err


@pytest.mark.parametrize("code,text", [(errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied")])
def test_check_on_a_read_only_folder_names_report_json_not_its_temporary(tmp_path, capsys, monkeypatch, code, text):
    """It cannot keep the report there: it prints it instead, with one note naming report.json (not its temporary),
    and exits by the regressions, as a check that could write."""
    _finished(tmp_path, {"fig1.rho_final": 0.5}, nb=NB4)
    _refuse(monkeypatch, code, text, lambda p: p.parent == tmp_path / "quick")
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) in (0, 1)
    out = capsys.readouterr().out
    note = [line for line in out.splitlines() if line.startswith("note: cannot write")]
    assert len(note) == 1 and f"cannot write {tmp_path / 'quick' / 'report.json'}: {text}" in note[0], out[-800:]
    assert ".tmp" not in note[0] and "free some space" not in out and "# Reproduction report" in out


def test_a_full_disk_names_the_file_being_written(tmp_path, full_disk):
    """A write that fails on a full disk raises an OSError without a file name: it is named, not its temporary."""
    from memlib.harness import fileio
    full_disk()
    with pytest.raises(OSError) as e:
        fileio.atomic_write_text(tmp_path / "metrics.json", "{}")
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(tmp_path / "metrics.json")
    assert list(tmp_path.iterdir()) == []


def test_cannot_write_the_results_folder_names_the_file_or_the_folder(tmp_path, capsys, monkeypatch):
    import memlib.cli.report as report                 # `check` imports print_report from there when it runs
    _finished(tmp_path, {"fig1.rho_final": 0.5}, nb=NB4)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")     # no file name (e.g. a write deep in a library)
    monkeypatch.setattr(report, "print_report", full)
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"cannot write in the results folder {tmp_path}:" in err, err
    assert "free some space" in err


def test_run_all_sh_names_an_unknown_command_and_the_usage(tmp_path):
    venv = _stub_venv(tmp_path)
    out = subprocess.run([str(ROOT / "run_all.sh"), "bogus"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "MEMLIB_VENV": str(venv), "STUB_LOG": str(tmp_path / "log"),
                              "MEMLIB_NO_FETCH": "1"})
    err = out.stderr.strip()
    assert out.returncode == 2 and len(err.splitlines()) == 1, err
    assert "unknown command 'bogus'" in err and "usage: ./run_all.sh" in err and "--help" in err
    assert not (tmp_path / "log").exists()                           # refused before anything ran


def _stub_venv(tmp_path: Path) -> Path:
    """A venv whose python logs its arguments (one line per call, each quoted) and exits 0: run_all.sh's set-up
    finds it installed."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text('#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done >> "$STUB_LOG"\n'
                                         'echo " cache=${MEMLIB_CACHE:-}" >> "$STUB_LOG"\nexit 0\n')
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".installed").touch()
    os.utime(venv / ".installed", (2**31, 2**31))                    # newer than pyproject.toml: installed
    return venv


def test_a_kernelspec_of_another_venv_is_not_this_python(tmp_path):
    """The "memlib" kernelspec counted as this Python when its interpreter resolved to the same file, and every venv's
    `python` is a symlink to its base interpreter: a kernelspec another venv left would pass, and its notebooks run on
    that venv's packages. A symlink to this interpreter in another folder is another environment."""
    from memlib.cli.notebooks import runs_this_python
    assert runs_this_python(sys.executable)
    other = tmp_path / "venv" / "bin"
    other.mkdir(parents=True)
    (other / "python").symlink_to(Path(sys.executable).resolve())
    assert (other / "python").resolve() == Path(sys.executable).resolve()
    assert not runs_this_python(str(other / "python"))
    assert not runs_this_python("python")                  # a bare name (the stock python3 spec) says nothing


def test_check_on_a_results_folder_it_cannot_write_prints_the_report_instead(tmp_path, monkeypatch, capsys):
    """A read-only results folder (a colleague's, a mounted archive): `check` cannot keep report.md there, so it
    prints the report, says why, and still exits by the regressions (root ignores file modes: the write is made to
    fail as a read-only file system fails it)."""
    import errno
    import json as _json
    from memlib import claims
    from memlib.cli.main import main
    nb = claims.NOTEBOOKS[4]
    folder = tmp_path / "res" / "smoke" / nb
    folder.mkdir(parents=True)
    (folder / "metrics.json").write_text(_json.dumps({}))
    (folder / "provenance.json").write_text(_json.dumps({"finished": "now", "parameters": {"seed": 0}}))

    def read_only(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(claims.report, "write", read_only)
    code = main(["check", "--profile", "smoke", "--results-dir", str(tmp_path / "res")])
    out = capsys.readouterr().out
    assert "# Reproduction report" in out and "Read-only file system; the report is printed above" in out
    assert "report: printed above" in out and code in (0, 1)
    assert not (tmp_path / "res" / "smoke" / "report.md").exists()


def test_ctrl_c_while_python_m_memlib_loads_torch_is_one_line_and_exit_130(tmp_path):
    """A SIGINT while `python -m memlib` is still importing torch: one line and exit status 130, no traceback. The
    interrupt is raised from inside the import, as the signal would (a stand-in `torch` that raises it)."""
    import subprocess
    import sys as _sys
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise KeyboardInterrupt\n")
    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    env = {**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{root}"}
    proc = subprocess.run([_sys.executable, "-m", "memlib", "check"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 130
    assert proc.stderr.strip().splitlines() == ["memlib: interrupted while loading (before anything ran); nothing "
                                                "was written"]
    # an import in a program keeps its KeyboardInterrupt
    proc = subprocess.run([_sys.executable, "-c", "import memlib"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode != 0 and "KeyboardInterrupt" in proc.stderr


def test_a_kernel_is_shut_down_without_the_sigint_ipykernel_logs_as_a_keyboard_interrupt(monkeypatch):
    """jupyter_client interrupts every kernel before its shutdown request, which ipykernel logs as "ERROR |
    KeyboardInterrupt caught in kernel" when it lands in its event loop: `run`'s manager sends no interrupt while
    shutting down, and still sends the ones asked for at other times (a cell's timeout)."""
    import asyncio

    from jupyter_client import AsyncKernelManager

    from memlib.cli import kernels
    sent = []

    async def interrupt(self):
        sent.append(self.shutting_down)
    monkeypatch.setattr(AsyncKernelManager, "_async_interrupt_kernel", interrupt)
    km = kernels.manager_class()()
    asyncio.run(km._async_interrupt_kernel())                         # a timeout's interrupt: sent
    km.shutting_down = True
    asyncio.run(km._async_interrupt_kernel())                         # the one before a shutdown: not
    assert sent == [False]
    monkeypatch.setattr(AsyncKernelManager, "has_kernel", property(lambda self: True))
    for step in ("_async_request_shutdown", "_async_finish_shutdown", "_async_cleanup_resources"):
        async def nothing(self, *a, **k):
            return None
        monkeypatch.setattr(AsyncKernelManager, step, nothing)
    km.shutting_down = False
    asyncio.run(km._async_shutdown_kernel())                          # jupyter_client's own shutdown path
    assert sent == [False] and km.shutting_down
