"""A run's departures from the paper (Run.departure): recorded in provenance.json, rendered as a table in the
notebook and in the report; a departure without a reason is refused."""
import json

import pytest

from memlib import MemlibError, claims
from memlib.harness.run import Run


def test_departures_are_recorded_rendered_and_reported(tmp_path, monkeypatch):
    run = Run("04_rho_dynamics", profile="quick", device="cpu", results_dir=str(tmp_path), data_root=None)
    run.departure("SGD steps", "2,000,000", "1,500", "cost: a laptop CPU")
    run.departure("gradient clipping", "none", "norm 1", "the paper's lr diverges at this depth in PyTorch")
    run.departure("SGD steps", "2,000,000", "2,000", "cost: a laptop CPU")          # the same setting: replaced
    with pytest.raises(MemlibError, match="say why"):
        run.departure("width", 2048, 256, " ")
    table = run.departures_table().data
    assert "| SGD steps | 2,000,000 | 2,000 | cost: a laptop CPU |" in table and "1,500" not in table
    run.finish()
    prov = json.loads((tmp_path / "quick" / "04_rho_dynamics" / "provenance.json").read_text())
    assert [d["setting"] for d in prov["departures"]] == ["gradient clipping", "SGD steps"]
    report = claims.check(tmp_path, "quick")
    assert "| gradient clipping | none | norm 1 |" in (tmp_path / "quick" / "report.md").read_text()
    assert report["notebooks"]["04_rho_dynamics"]["provenance"]["departures"]
