"""The claims ledger and the report: three outcomes, fit gates, seed-band margins, regressions, baselines."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memlib import claims
from memlib.claims import NOT_REPRODUCED, NOT_RUN, REPRODUCED, Claim
from memlib.cli.common import notebooks
from memlib.cli.main import main

# the papers' text: shared/papers beside this checkout (or beside a folder above it, for git worktrees)
PAPERS = next((p / "shared" / "papers" for p in Path(__file__).resolve().parents if (p / "shared" / "papers").is_dir()),
              Path("/nonexistent"))


def _claim(**kw):
    base = dict(id="t", paper=1, figure="Fig 0", quote="The net learns the identity map on every input.",
                statement="x is big", metric="x", op=">", threshold=0.5, fit=("x.loss_ratio < 0.05",),
                expect={"quick": REPRODUCED, "paper": REPRODUCED})
    return Claim(**{**base, **kw})


def test_every_claim_is_well_formed():
    ids = [c.id for c in claims.CLAIMS]
    assert len(ids) == len(set(ids)), "duplicate claim ids"
    problems = {c.id: c.problems() for c in claims.CLAIMS if c.problems()}
    assert not problems, problems


def test_problems_catch_a_claim_without_quote_gate_or_ledger():
    c = _claim(quote="", fit=(), expect={"quick": NOT_REPRODUCED})
    text = " ".join(c.problems())
    assert "quote" in text and "fit gate" in text and "'paper'" in text and "say why" in text
    assert _claim(about="init", fit=()).problems() == []


def _normal(text):
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' text (../shared/papers) is not beside this checkout")
def test_quotes_are_the_papers_words():
    texts = {int(p.name[0]): _normal(p.read_text()) for p in PAPERS.glob("[1-4]_*.txt")}
    wrong = [c.id for c in claims.CLAIMS
             if not all(_normal(part) in texts[c.paper] for part in c.quote.split(" ... ") if part.strip())]
    assert not wrong, f"quotes not found verbatim in the paper: {wrong}"


def test_three_outcomes_and_the_fit_gate():
    c = _claim()
    fitted = {"x": 0.9, "x.loss_ratio": 0.01}
    assert claims.evaluate(c, fitted, "quick")["outcome"] == REPRODUCED
    row = claims.evaluate(c, {"x": 0.1, "x.loss_ratio": 0.01}, "quick")
    assert row["outcome"] == NOT_REPRODUCED and row["regression"] and "0.1" in row["reason"]
    row = claims.evaluate(c, {"x": 0.9, "x.loss_ratio": 0.4}, "quick")        # right answer, net never fitted
    assert row["outcome"] == NOT_REPRODUCED and row["reason"].startswith("did not fit")
    row = claims.evaluate(c, {"x": 0.9}, "quick")                             # the gate's metric is missing
    assert row["outcome"] == NOT_REPRODUCED and "fit not measured" in row["reason"]
    assert claims.evaluate(c, {}, "quick")["outcome"] == NOT_RUN
    assert claims.evaluate(c, None, "quick")["outcome"] == NOT_RUN
    smoke = claims.evaluate(c, fitted, "smoke")                               # code paths only
    assert smoke["outcome"] == NOT_RUN and not smoke["regression"]
    rel = _claim(threshold="y", fit=())
    rel = Claim(**{**rel.__dict__, "about": "init"})
    assert claims.evaluate(rel, {"x": 1, "y": 2}, "quick")["outcome"] == NOT_REPRODUCED


def test_ledger_regressions_in_both_directions():
    expected_failure = _claim(expect={"quick": NOT_REPRODUCED, "paper": REPRODUCED}, why="measured 0.3 at quick scale")
    good = {"x": 0.9, "x.loss_ratio": 0.01}
    row = claims.evaluate(expected_failure, good, "quick")                    # an unexpected pass is a regression too
    assert row["outcome"] == REPRODUCED and row["regression"]
    assert not claims.evaluate(expected_failure, {"x": 0.3, "x.loss_ratio": 0.01}, "quick")["regression"]


def test_seed_bands_need_every_seed_and_a_margin():
    c = _claim(threshold=0.8)
    ok = {"x": [0.90, 0.92, 0.91], "x.loss_ratio": [0.01, 0.01, 0.02]}
    assert claims.evaluate(c, ok, "quick")["outcome"] == REPRODUCED
    one_seed_fails = {**ok, "x": [0.90, 0.79, 0.95]}
    assert "fails for 1 of 3 seeds" in claims.evaluate(c, one_seed_fails, "quick")["reason"]
    on_the_line = {**ok, "x": [0.801, 0.9, 0.81]}                            # every seed passes, the mean is too close
    row = claims.evaluate(c, on_the_line, "quick")
    assert row["outcome"] == NOT_REPRODUCED and "standard errors" in row["reason"]
    one_seed_unfitted = {**ok, "x.loss_ratio": [0.01, 0.3, 0.01]}
    assert claims.evaluate(c, one_seed_unfitted, "quick")["reason"].startswith("did not fit")
    paired = _claim(threshold="y")                                            # per-seed pairs: x_i > y_i
    assert claims.evaluate(paired, {**ok, "y": [0.5, 0.5, 0.5]}, "quick")["outcome"] == REPRODUCED
    assert claims.evaluate(paired, {**ok, "y": [0.5, 0.95, 0.5]}, "quick")["outcome"] == NOT_REPRODUCED
    assert claims.band_holds([0.2, 0.1, 0.15], "<", 0.5)[0] and not claims.band_holds([0.2, float("nan")], "<", 0.5)[0]


def test_an_inclusive_bound_holds_for_a_band_that_sits_on_it():
    """">= 1" (e.g. every training digit an attractor) holds when every seed is exactly 1: no spread, no margin
    to lose; a strict bound does not, and one seed below fails either way."""
    assert claims.band_holds([1.0, 1.0, 1.0], ">=", 1.0)[0] and claims.band_holds([0.0, 0.0, 0.0], "<=", 0.0)[0]
    assert not claims.band_holds([1.0, 1.0, 1.0], ">", 1.0)[0]
    assert not claims.band_holds([1.0, 1.0, 0.95], ">=", 1.0)[0]
    assert not claims.band_holds([1.0, 1.0, 1.01, 1.0], ">=", 1.02)[0]


def _results(tmp_path, metrics, profile="quick", nb=claims.NOTEBOOKS[1]):
    d = tmp_path / profile / nb
    d.mkdir(parents=True, exist_ok=True)
    (d / "metrics.json").write_text(json.dumps(metrics))
    (d / "provenance.json").write_text(json.dumps({"notebook": nb, "resolved_device": "cpu",
                                                   "numerics": {"policy": "float32, TF32 off"}}))
    return d


def test_report_files_and_headline(tmp_path):
    _results(tmp_path, {"fig2.linear1_vs_eq1_rel_err": 0.5})
    report = claims.check(tmp_path, "quick")
    assert report["regressions"]                                            # almost everything "not run"
    text = (tmp_path / "quick" / "report.md").read_text()
    assert text.startswith("# Reproduction report") and "| paper | reproduced | not reproduced | unstable | not run |" in text
    assert "Regressions:" in text and "float32, TF32 off" in text
    assert json.loads((tmp_path / "quick" / "report.json").read_text())["profile"] == "quick"


def test_unfinished_run_is_not_counted(tmp_path):
    d = _results(tmp_path, {"fig2.linear1_vs_eq1_rel_err": 1e-6})
    (d / "provenance.json").unlink()                                          # metrics of a run that did not finish
    report = claims.check(tmp_path, "quick")
    assert all(r["outcome"] == NOT_RUN for r in report["claims"])


def test_against_a_doctored_baseline_lists_flips_and_drifts(tmp_path):
    nb = claims.NOTEBOOKS[1]
    c = next(c for c in claims.CLAIMS if c.notebook == nb and c.expected("quick") == REPRODUCED)
    metrics = {c.metric: 0.0, "other.metric": 0.5}
    for g in c.gates:
        metrics[g.metric] = 0.0
    if isinstance(c.threshold, str):
        metrics[c.threshold] = 0.0
    _results(tmp_path, metrics)
    report = claims.check(tmp_path, "quick")
    baseline = tmp_path / "baseline.json"
    doctored = json.loads(json.dumps(report))
    doctored["notebooks"][nb]["metrics"]["other.metric"] = 0.9                # a drift of a metric no claim reads
    doctored["notebooks"][nb]["metrics"][c.metric] = 10.0                     # a drift of a claim's metric
    flipped = next(r for r in doctored["claims"] if r["id"] == c.id)
    flipped["outcome"] = REPRODUCED if flipped["outcome"] != REPRODUCED else NOT_REPRODUCED
    baseline.write_text(json.dumps(doctored))
    again = claims.check(tmp_path, "quick", against=baseline)
    comp = again["comparison"]
    assert [f["id"] for f in comp["flips"]] == [c.id]
    assert {d["metric"] for d in comp["drifts"]} == {c.metric, "other.metric"}
    assert any(c.metric in line for line in again["regressions"])
    assert not any("other.metric" in line for line in again["regressions"])  # listed, not a regression
    same = tmp_path / "same.json"
    same.write_text(json.dumps(report))
    comp = claims.check(tmp_path, "quick", against=same)["comparison"]
    assert not comp["flips"] and not comp["drifts"]


def test_tolerances_are_per_metric():
    from memlib.claims.report import drifted
    assert not drifted("fig9.depth5.corr_identity", 0.91, 0.90)
    assert drifted("fig9.depth5.corr_identity", 0.80, 0.90)
    assert drifted("fig6.D.k1.rank", 2, 1) and not drifted("fig6.D.k1.rank", 1, 1)
    assert not drifted("fig3a.depth5.final_loss", [1e-5, 2e-5], [1.5e-5, 1.5e-5])


@pytest.mark.parametrize("argv,expect", [
    (["run", "--profile", "fast"], "unknown profile 'fast'; choose one of: smoke, quick, full, paper"),
    (["run", "--only", "99_nothing"], "unknown notebook '99_nothing'; choose one of: 01_identity_vs_constant"),
    (["run", "--device", "tpu"], "unknown device 'tpu'"),
    (["run", "--data-root", "/no/such/dir"], "is not a directory"),
    (["check", "--against", "/no/such/report.json"], "no such file"),
])
def test_cli_bad_input_is_one_clear_line(capsys, argv, expect):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert expect in err and len(err.splitlines()) == 1


def test_cli_against_a_report_of_another_profile(tmp_path, capsys):
    other = tmp_path / "smoke.json"
    other.write_text(json.dumps({"profile": "smoke", "claims": []}))
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path), "--against", str(other)]) == 2
    assert "'smoke' report" in capsys.readouterr().err


def test_cli_check_exits_nonzero_on_regressions(tmp_path):
    _results(tmp_path, {})                                      # one notebook finished, logging nothing
    out = subprocess.run([sys.executable, "-m", "memlib", "check", "--profile", "quick", "--results-dir", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "REGRESSION" in out.stdout       # nothing measured: every expected outcome missed
    assert (tmp_path / "quick" / "report.md").exists()
    assert "01_identity_vs_constant" in notebooks()


def test_report_rows_keep_their_columns_when_a_claim_contains_a_pipe():
    import re
    rows = json.loads(Path(__file__).resolve().parents[1].joinpath("baselines", "quick-cpu.json").read_text())["claims"]
    assert any("|" in r["statement"] for r in rows)                  # e.g. max |f'(x_i)| < 1
    for line in claims.markdown(rows).splitlines()[2:]:
        assert len(re.findall(r"(?<!\\)\|", line)) == 7, line       # 6 columns: 7 unescaped bars


# ---- issue 30: a metrics.json of the wrong shape, a mistyped or file results path ------------------------------

def _finished_run(base: Path, metrics_text: str, nb=None, provenance='{"notebook": "x"}') -> Path:
    d = base / "quick" / (nb or claims.NOTEBOOKS[1])
    d.mkdir(parents=True, exist_ok=True)
    (d / "metrics.json").write_text(metrics_text)
    (d / "provenance.json").write_text(provenance)
    return d


@pytest.mark.parametrize("text,problem", [
    ('[1, 2]', "holds a list"),
    ('{"fig2.a": 1.0, "fig2.b": "fast"}', "metric 'fig2.b' is a string"),
    ('{"fig2.a": {"mean": 1.0}}', "metric 'fig2.a' is an object"),
    ('{"fig2.a": [1.0, "x"]}', "metric 'fig2.a' is a string"),
    ('{"fig2.a": [1.0, null]}', "metric 'fig2.a' is null"),
    ('{"fig2.a": true}', "metric 'fig2.a' is true"),
    ('"nan"', "holds a string"),
])
def test_check_names_the_file_and_key_of_a_malformed_metrics_json(tmp_path, capsys, text, problem):
    d = _finished_run(tmp_path, text)
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(d / "metrics.json") in err and problem in err, err


def test_check_reads_nan_inf_and_bands_as_before(tmp_path):
    _finished_run(tmp_path, '{"fig2.a": "nan", "fig2.b": ["inf", 1, 2.5], "fig2.c": -3}')
    m = claims.check(tmp_path, "quick")["notebooks"][claims.NOTEBOOKS[1]]["metrics"]
    assert m["fig2.a"] != m["fig2.a"] and m["fig2.b"] == [float("inf"), 1, 2.5] and m["fig2.c"] == -3


@pytest.mark.parametrize("name,text", [("provenance.json", "[]"), ("failed.json", '"boom"')])
def test_check_names_a_provenance_or_failed_json_that_is_no_object(tmp_path, capsys, name, text):
    d = _finished_run(tmp_path, "{}")
    (d / name).write_text(text)
    assert main(["check", "--profile", "quick", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(d / name) in err and "not a JSON object" in err, err


def test_check_refuses_a_results_folder_that_does_not_exist_and_creates_nothing(tmp_path, capsys):
    missing = tmp_path / "resutls"
    assert main(["check", "--profile", "quick", "--results-dir", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"no results in {missing}" in err and not missing.exists()


def test_check_on_a_results_path_that_is_a_file_says_so(tmp_path, capsys):
    f = tmp_path / "results"
    f.write_text("not a folder")
    assert main(["check", "--profile", "quick", "--results-dir", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is a file, not a folder" in err and "write" not in err, err
