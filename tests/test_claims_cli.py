import json
import subprocess
import sys

import pytest

from memlib import claims
from memlib.__main__ import main, notebooks


def test_claims_are_well_formed():
    ids = [c.id for c in claims.CLAIMS]
    assert len(ids) == len(set(ids))
    for c in claims.CLAIMS:
        assert c.op in claims.OPS and c.paper in claims.NOTEBOOKS and c.figure and c.statement
        assert set(c.profiles) <= {"smoke", "quick", "paper"} and c.profiles


def test_a_claim_can_fail_and_can_be_missing():
    c = claims.Claim("t", 1, "Fig 0", "x is big", "x", ">", 0.5)
    assert claims.evaluate(c, {"x": 0.9}, "quick")["status"] == "pass"
    assert claims.evaluate(c, {"x": 0.1}, "quick")["status"] == "fail"
    assert claims.evaluate(c, {}, "quick")["status"] == "missing"
    assert claims.evaluate(c, {"x": 0.9}, "smoke")["status"] == "not checked"
    assert claims.evaluate(c, None, "quick")["status"] == "not run"
    rel = claims.Claim("t", 1, "Fig 0", "x above y", "x", ">", "y")
    assert claims.evaluate(rel, {"x": 1, "y": 2}, "quick")["status"] == "fail"


def test_report_files(tmp_path):
    nb = claims.NOTEBOOKS[1]
    (tmp_path / "quick" / nb).mkdir(parents=True)
    (tmp_path / "quick" / nb / "metrics.json").write_text(json.dumps({"fig2.linear1_vs_eq1_rel_err": 0.5}))
    report = claims.check(tmp_path, "quick")
    assert report["counts"]["fail"] >= 1
    text = (tmp_path / "quick" / "report.md").read_text()
    assert "p1.eq1_closed_form" in text and "**fail**" in text
    assert json.loads((tmp_path / "quick" / "report.json").read_text())["profile"] == "quick"


@pytest.mark.parametrize("argv,expect", [
    (["run", "--profile", "fast"], "unknown profile 'fast'; choose one of: smoke, quick, paper"),
    (["run", "--only", "99_nothing"], "unknown notebook '99_nothing'; choose one of: 01_identity_vs_constant"),
    (["run", "--device", "tpu"], "unknown device 'tpu'"),
    (["run", "--data-root", "/no/such/dir"], "is not a directory"),
])
def test_cli_bad_input_is_one_clear_line(capsys, argv, expect):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert expect in err and len(err.splitlines()) == 1


def test_cli_check_runs_as_a_module(tmp_path):
    out = subprocess.run([sys.executable, "-m", "memlib", "check", "--profile", "quick", "--results-dir", str(tmp_path)],
                         capture_output=True, text=True)
    assert "report:" in out.stdout and (tmp_path / "quick" / "report.md").exists()
    assert "01_identity_vs_constant" in notebooks()
