"""Issue 42, item 2, for papers 2 and 3: every claim that is not a sanity check carries a control (a run its own
comparison must fail: docs/CLAIM_RULES.md, step 4), or is listed in its module's NO_CONTROL with the reason; and the
paper's notebook logs every control it names. The notebook's keys are read from its source (string literals and
f-strings, with the `.untrained` / `.bar` pair `dynamics.untrained_bar` adds); `missing_controls` checks a run's metrics
(the suite's shared smoke run: tests/test_notebooks.py)."""
from __future__ import annotations

import ast
import inspect
import re
import textwrap

import nbformat
import pytest

from memlib import dynamics, metrics
from memlib.claims import PAPER2, PAPER3, core
from memlib.claims import paper2, paper2_conv, paper3_sec5
from memlib.cli.common import NOTEBOOK_DIR

# paper -> (its claims, its notebook, the claims without a control and why, memlib functions whose returned metrics
# the notebook logs as they are (`run.log(**f(...))`): their keys are read too)
PAPERS = {
    2: (PAPER2, "02_attractors", {**paper2.NO_CONTROL, **paper2_conv.NO_CONTROL}, (dynamics.table1_summary,)),
    3: (PAPER3, "03_downsampling_eigenvectors", paper3_sec5.NO_CONTROL, (metrics.fig6_rank_metrics,)),
}
NO_CONTROL = PAPERS[2][2]
# Controls the smoke profile does not measure although it measures their claim: (control key -> why)
NOT_AT_SMOKE = {"table2.s3.n3.rest_max": "smoke's Table 2 has only the 2x2 row (T2_ROWS); quick and paper run the 3x3 rows"}


def _control_keys(c: core.Claim) -> list[str]:
    return [c.control] + ([c.control_threshold] if isinstance(c.control_threshold, str) else [])


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_claim_but_the_sanity_checks_has_a_control_or_a_reason(paper):
    claims, _, no_control, _ = PAPERS[paper]
    ids = {c.id for c in claims}
    assert set(no_control) <= ids, f"NO_CONTROL names claims that do not exist: {sorted(set(no_control) - ids)}"
    for c in claims:
        assert not c.problems(), (c.id, c.problems())
        if c.about == "sanity":
            assert not c.control and c.id not in no_control, f"{c.id}: a sanity check needs no control"
        elif c.id in no_control:
            assert not c.control, f"{c.id} has a control and is listed without one"
            assert len(no_control[c.id]) > 60, f"{c.id}: say why no control exists"
        else:
            assert c.control and len(c.control_is) >= 10, f"{c.id} has no control (a run its comparison must fail)"
            assert c.control != c.metric, f"{c.id}: its control is the claim's own metric"


def _notebook_key_patterns(paper: int = 2) -> list[re.Pattern]:
    """Every metric key paper `paper`'s notebook can log, as patterns: its string constants and f-strings ({...} -> any
    text) that name something, and those of its LOGGED_BY functions, each also with `.untrained` and `.bar` appended
    (`dynamics.untrained_bar(key, ...)` logs those two). A superset (any string of the notebook), so the check is that
    a control's key can be built there."""
    _, name, _, logged_by = PAPERS[paper]
    nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    sources = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    sources += [textwrap.dedent(inspect.getsource(f)) for f in logged_by]
    patterns = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("untrained_bars"):
                patterns.update(_untrained_bars_keys(node))     # `{prefix}.{key}` of dynamics.untrained_bars
            if isinstance(node, ast.JoinedStr):
                text = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+?" for v in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value:
                text = re.escape(node.value)
            else:
                continue
            if re.search(r"[a-z]{2}", text.replace(".+?", "")):     # a name, not a bare placeholder ("{x}", "{a}.{b}")
                patterns.add(text)
    return [re.compile(p + suffix) for p in patterns for suffix in ("", r"\.untrained", r"\.bar")]


def _pattern(node: ast.expr) -> str:
    """A string constant or an f-string as a regular expression ({...} -> any text)."""
    if isinstance(node, ast.JoinedStr):
        return "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+?" for v in node.values)
    return re.escape(node.value) if isinstance(node, ast.Constant) and isinstance(node.value, str) else ".+?"


def _untrained_bars_keys(call: ast.Call) -> set[str]:
    """The keys `dynamics.untrained_bars(prefix, rows, {key: bar}, also=(key, ...))` logs, less their suffixes."""
    prefix = _pattern(call.args[0])
    keys = [k for k in (call.args[2].keys if len(call.args) > 2 and isinstance(call.args[2], ast.Dict) else [])]
    keys += [e for kw in call.keywords if kw.arg == "also" and isinstance(kw.value, ast.Tuple) for e in kw.value.elts]
    return {prefix + r"\." + _pattern(k) for k in keys}


def test_untrained_bars_keys_are_read_from_the_call():
    call = ast.parse('dynamics.untrained_bars(f"fig{n}.NLD", rows, {"corr": 0.8}, also=("near1",))').body[0].value
    assert {p.replace("\\", "") for p in _untrained_bars_keys(call)} == {"fig.+?.NLD.corr", "fig.+?.NLD.near1"}


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_notebook_logs_every_control_its_claims_name(paper):
    patterns = _notebook_key_patterns(paper)
    for c in PAPERS[paper][0]:
        for key in (_control_keys(c) if c.control else []):
            assert any(p.fullmatch(key) for p in patterns), f"{c.id}: notebook {PAPERS[paper][1]} logs no metric {key!r}"


def test_the_key_patterns_tell_a_logged_key_from_one_that_is_not():
    patterns = _notebook_key_patterns()
    for logged in ("fig11.test_mse.untrained", "fig4.widest.R_final.untrained", "table1.max_depth_spread",
                   "fig2.last.converged_fraction.bar", "thm2.fig3a.attractor_fraction.untrained"):
        assert any(p.fullmatch(logged) for p in patterns), logged
    assert not any(p.fullmatch("table1.no_such_metric") for p in patterns)


def missing_controls(metrics: dict, paper: int = 2) -> list[str]:
    """The controls of paper `paper` a run did not log although it logged their claim's metric (less NOT_AT_SMOKE)."""
    return [f"{c.id}: {key}" for c in PAPERS[paper][0] if c.control and c.metric in metrics
            for key in _control_keys(c) if key not in metrics and key not in NOT_AT_SMOKE]


def test_missing_controls_reads_a_run_metrics():
    claim = next(c for c in PAPER2 if c.id == "p2.fig4_width")
    assert missing_controls({}) == []                                  # nothing measured: nothing missing
    assert missing_controls({claim.metric: [0.5]}) == [f"{claim.id}: {claim.control}", f"{claim.id}: {claim.control_threshold}"]
    assert missing_controls({claim.metric: [0.5], claim.control: [0.0], claim.control_threshold: [0.0]}) == []


# ---- the two measures the controls add (memlib/dynamics.py)

def test_attractor_fraction_asks_a_fixed_point_and_a_radius_below_one():
    import torch
    from memlib import dynamics, metrics
    x = torch.tensor([[0.3], [0.7]])
    towards_03 = lambda z: 0.5 * z + 0.15                         # fixed point 0.3 (slope 0.5); 0.7 is not fixed
    assert dynamics.attractor_fraction(towards_03, x, 0.01) == 0.5
    assert dynamics.attractor_fraction(lambda z: 2.0 * z - 0.3, x, 0.01) == 0.0    # 0.3 fixed, but a repeller (slope 2)
    assert dynamics.attractor_fraction(lambda z: z, x, 0.01) == 0.0                # identity: fixed, radius 1
    assert dynamics.attractor_fraction(lambda z: 0.0 * z, x, 0.01) == 0.0          # contractive, no fixed point


def test_relative_rest_reads_the_rest_against_the_top_n():
    import math
    import torch
    from memlib import dynamics, linalg
    fitted = [1.0, 1.0, 0.01, 0.001]
    assert dynamics.relative_rest(fitted, 2) == pytest.approx(linalg.memorization_spectrum(fitted, 2)[1]) == 0.01
    assert dynamics.relative_rest([3e-3, 1e-3, 1e-4], 1) == pytest.approx(1 / 3)   # small, but not shaped 1, [small]
    assert dynamics.relative_rest(torch.tensor([2j, 1.0, 0.5]), 2) == 0.5      # complex eigenvalues: magnitudes
    assert math.isnan(dynamics.relative_rest([0.0, 0.0, 0.0], 1))


def test_table1s_eigenvalue_against_the_bound_is_judged_on_the_log_scale():
    """Table 1's 'memorization does not occur' (session 27): the smallest third eigenvalue over the nets against Table
    2's bound 1e-2 is a ratio of positive quantities (docs/CLAIM_RULES.md, step 3), judged on the log scale. Session
    26's bands spread over an order of magnitude, so on the linear scale one large seed's spread decided the margin."""
    claim = {c.id: c for c in PAPER2}["p2.table1_no_memorization"]
    assert claim.scale == "log"
    fit = {"table1.max_final_loss": [1e-7] * 3}
    spread = {**fit, claim.metric: [0.0436, 0.162, 0.526]}
    assert core.evaluate(claim, spread, "paper")["outcome"] == core.REPRODUCED
    # the same band on the linear scale misses its margin (mean gap 0.234, standard error 0.147)
    assert not core.band_holds(spread[claim.metric], ">", 0.01)[0]
    # a net at the bound still fails: every seed must hold
    assert core.evaluate(claim, {**fit, claim.metric: [0.3, 0.2, 0.009]}, "paper")["outcome"] == core.NOT_REPRODUCED
