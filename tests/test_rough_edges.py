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
