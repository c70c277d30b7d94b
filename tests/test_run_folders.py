"""Whether the run that staged a results folder (`.NAME.running-PID`) still runs is judged by its pid, the process's
start time and the boot id it recorded (memlib.harness.fileio.mark_owner): after a reboot the pid can name another
process, and a dead run's folder must not pass for a live one (its older results would be reported as current, and
the folder never cleaned). `check` says when a run of a notebook is in progress."""
import json
import os
import subprocess
import sys

from memlib.claims.core import NOT_RUN
from memlib.cli.main import main
from memlib.harness import fileio

NB4 = "04_rho_dynamics"


def _finished_04(results):
    d = results / "smoke" / NB4
    d.mkdir(parents=True)
    (d / "metrics.json").write_text(json.dumps({"fig1.rho_final": 0.5}))
    (d / "provenance.json").write_text(json.dumps({"notebook": NB4, "resolved_device": "cpu"}))
    return d


def _stage(results, identity):
    stage = results / "smoke" / f".{NB4}.running-{identity['pid']}"
    stage.mkdir(parents=True)
    (stage / "metrics.json").write_text("{}")
    (stage / fileio.OWNER).write_text(json.dumps(identity))
    return stage


def test_a_staging_folder_whose_pid_now_names_another_process_is_a_dead_runs(tmp_path, capsys):
    final = _finished_04(tmp_path)
    pid = os.getppid()                                    # a live process, not this one
    me = fileio.process_identity(pid)
    assert me["start"] is not None and fileio.alive_as(me)
    stage = _stage(tmp_path, {**me, "start": me["start"] + 1})     # the pid, given to it after the run died
    assert [d for d, _n, _p in fileio.dead_run_folders(tmp_path / "smoke")] == [stage]
    assert not fileio.alive_as({**me, "boot_id": "an-earlier-boot"})
    assert main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)]) in (0, 1)
    out = capsys.readouterr().out
    assert f"{NB4}: a run (pid {pid}) died before it finished" in out and "in progress" not in out, out
    assert not stage.exists() and not (final / "provenance.json").exists()      # the older results withdrawn
    assert not (final / fileio.OWNER).exists()
    rows = [r for r in json.loads((tmp_path / "smoke" / "report.json").read_text())["claims"] if r["notebook"] == NB4]
    assert rows and all(r["outcome"] == NOT_RUN for r in rows)


def test_check_says_that_a_run_of_a_notebook_is_in_progress(tmp_path, capsys):
    final = _finished_04(tmp_path)
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        stage = _stage(tmp_path, fileio.process_identity(live.pid))
        assert main(["check", "--profile", "smoke", "--results-dir", str(tmp_path)]) in (0, 1)
        out = capsys.readouterr().out
        lines = [line for line in out.splitlines() if "in progress" in line]
        assert len(lines) == 1 and f"{NB4}: a run (pid {live.pid}) is in progress" in lines[0], out
        assert stage.exists() and (final / "provenance.json").exists()
    finally:
        live.kill()
        live.wait()
