"""The variation envelope (memlib.harness.envelope) and the comparison against it (claims.report.compare): a metric inside
its range over the variations is no drift, outside it (beyond tolerance) is; an outcome the envelope took is no
flip; a claim that took two outcomes must be expected 'unstable'. Also: whys rendered from metrics."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from memlib import claims
from memlib.harness import envelope, machine
from memlib.claims import core, report, text
from memlib.runtime import MemlibError

ROOT = Path(__file__).resolve().parents[1]


def _claim(**kw):
    base = dict(id="t.c", paper=4, figure="Fig 1", quote="a sentence of the paper long enough to count",
                statement="s", metric="m", op=">", threshold=0.5, expect={"quick": claims.REPRODUCED,
                                                                         "paper": claims.REPRODUCED},
                fit=("g.loss_ratio < 0.05",))
    base.update(kw)
    return core.Claim(**base)


def _baseline(metrics: dict, outcomes: dict | None = None, ranges: dict | None = None):
    nb = "04_rho_dynamics"
    base = {"profile": "quick", "notebooks": {nb: {"metrics": metrics, "provenance": {}}},
            "claims": [{"id": "t.c", "notebook": nb, "outcome": claims.REPRODUCED}]}
    if outcomes is not None:
        base["envelope"] = {"variations": [{"name": "base"}, {"name": "seed+1"}], "outcomes": outcomes,
                            "metrics": {nb: ranges or {}}}
    return base


def _rows(claim, metrics):
    return [core.evaluate(claim, metrics, "quick")]


def _results(metrics):
    return {"04_rho_dynamics": {"metrics": metrics, "provenance": {}}}


def test_a_metric_inside_its_envelope_is_no_drift_and_outside_it_is():
    c = _claim()
    now = {"m": 0.8, "g.loss_ratio": 0.01}
    base = _baseline({"m": 0.6, "g.loss_ratio": 0.01}, {"t.c": {"base": "reproduced", "seed+1": "reproduced"}},
                     {"m": [0.6, 0.9], "g.loss_ratio": [0.01, 0.01]})
    comp = report.compare(_rows(c, now), _results(now), base)
    assert comp["drifts"] == [] and comp["flips"] == []
    # the same value against a point baseline (no envelope) drifts: 0.8 vs 0.6 is beyond 0.02 + 5 %
    comp = report.compare(_rows(c, now), _results(now), _baseline({"m": 0.6, "g.loss_ratio": 0.01}))
    assert [d["metric"] for d in comp["drifts"]] == ["m"]
    # outside the envelope widened by its tolerance (0.9 + 0.02 + 0.05 x 0.9 = 0.965): drifted, read by the claim
    far = {"m": 0.99, "g.loss_ratio": 0.01}
    comp = report.compare(_rows(c, far), _results(far), base)
    assert [(d["metric"], d["claims"]) for d in comp["drifts"]] == [("m", ["t.c"])]
    assert any("envelope 0.6 .. 0.9" in line for line in report.regressions(_rows(c, far), comp))


def test_an_outcome_the_envelope_took_is_no_flip_one_it_never_took_is():
    c = _claim(expect={"quick": claims.UNSTABLE, "paper": claims.REPRODUCED}, why="moves with the seed, see the envelope")
    fails = {"m": 0.2, "g.loss_ratio": 0.01}
    seen = {"t.c": {"base": "reproduced", "seed+1": "not reproduced"}}
    comp = report.compare(_rows(c, fails), _results(fails), _baseline(fails, seen, {}))
    assert comp["flips"] == [] and comp["unstable_not_in_ledger"] == []
    only_r = {"t.c": {"base": "reproduced", "seed+1": "reproduced"}}
    comp = report.compare(_rows(c, fails), _results(fails), _baseline(fails, only_r, {}))
    assert comp["flips"] == [{"id": "t.c", "baseline": "reproduced", "now": "not reproduced"}]


def test_a_claim_that_moved_in_the_envelope_must_be_expected_unstable():
    c = _claim()                                  # the ledger expects reproduced
    ok = {"m": 0.8, "g.loss_ratio": 0.01}
    seen = {"t.c": {"base": "reproduced", "seed+1": "not reproduced"}}
    comp = report.compare(_rows(c, ok), _results(ok), _baseline(ok, seen, {}))
    assert [u["id"] for u in comp["unstable_not_in_ledger"]] == ["t.c"]
    assert any("expect it unstable" in line for line in report.regressions(_rows(c, ok), comp))


def test_unstable_claims_show_the_run_outcome_and_are_never_counted_as_reproduced():
    c = _claim(expect={"quick": claims.UNSTABLE, "paper": claims.REPRODUCED}, why="moves with the seed, see the envelope")
    row = core.evaluate(c, {"m": 0.8, "g.loss_ratio": 0.01}, "quick")
    assert row["outcome"] == claims.UNSTABLE and row["run_outcome"] == claims.REPRODUCED and not row["regression"]
    assert report.counts([row])[claims.REPRODUCED] == 0 and report.counts([row])[claims.UNSTABLE] == 1
    row = core.evaluate(c, {"m": 0.8, "g.loss_ratio": 0.01}, "quick")
    unfit = core.evaluate(c, {"m": 0.8, "g.loss_ratio": 0.5}, "quick")
    assert unfit["outcome"] == claims.UNSTABLE and unfit["run_outcome"] == claims.NOT_REPRODUCED
    assert core.evaluate(c, {}, "quick")["outcome"] == claims.NOT_RUN            # not run stays a regression
    assert core.evaluate(c, {}, "quick")["regression"]


def test_nan_is_inside_an_envelope_that_measured_nan_only():
    assert not report.outside("x", float("nan"), 1.0, 2.0, nan_inside=True)
    assert report.outside("x", float("nan"), 1.0, 2.0)
    assert not report.outside("x", float("nan"), float("nan"), float("nan"))
    assert report.outside("x", 1.5, float("nan"), float("nan"))
    assert envelope._range([1.0, float("nan"), 3.0]) == [1.0, 3.0, "nan"]
    assert envelope._range([2.0, 1.0]) == [1.0, 2.0]


def test_summarize_takes_the_range_of_band_means_and_each_variations_outcome():
    per = {"base": {"nb": {"metrics": {"a": [1.0, 3.0], "b": 5.0}}}, "seed+1": {"nb": {"metrics": {"a": [4.0, 6.0], "b": 4.0}}}}
    rows = {"base": [{"id": "x", "outcome": "unstable", "run_outcome": "reproduced"}],
            "seed+1": [{"id": "x", "outcome": "unstable", "run_outcome": "not reproduced"}]}
    s = envelope.summarize(per, rows)
    assert s["metrics"] == {"nb": {"a": [2.0, 5.0], "b": [4.0, 5.0]}}
    assert s["outcomes"] == {"x": {"base": "reproduced", "seed+1": "not reproduced"}}
    assert s["seeds"] == {"nb": {"a": 2, "b": 1}}      # a band of 2 seeds, a number
    assert s["held"] == {}                              # rows without per-seed values


def test_seeds_held_counts_the_statement_seed_by_seed_on_the_claims_scale():
    """How many of a band's seeds hold the statement (fit gates and the band's margin aside): the count an unstable
    claim's pooled rate over the envelope's disjoint bands is made of."""
    row = {"value": [0.9, 0.48, 0.7], "threshold_value": 0.5, "op": ">", "scale": "linear"}
    assert envelope.seeds_held(row) == [2, 3]
    assert envelope.seeds_held({**row, "threshold_value": [0.95, 0.4, 0.6]}) == [2, 3]     # paired per seed
    assert envelope.seeds_held({**row, "op": ">=", "value": [0.5, 0.5]}) == [2, 2]          # a tie holds for >=
    assert envelope.seeds_held({**row, "op": ">", "value": [0.5, 0.5]}) == [0, 2]           # and fails for >
    assert envelope.seeds_held({**row, "scale": "log", "value": [0.4, 2.0], "op": "<"}) == [1, 2]
    for bad in ({**row, "value": 0.9}, {**row, "value": None}, {**row, "threshold_value": None},
                {**row, "value": [0.9, float("nan")]}, {**row, "scale": "log", "value": [-1.0, 2.0]},
                {**row, "threshold_value": [0.5, 0.5]}):                                    # 3 seeds, 2 thresholds
        assert envelope.seeds_held(bad) is None, bad
    per = {"base": {"nb": {"metrics": {}}}, "seeds+10": {"nb": {"metrics": {}}}}
    rows = {"base": [{"id": "x", "outcome": "reproduced", **row, "value": [0.9, 0.8, 0.7]}],
            "seeds+10": [{"id": "x", "outcome": "not reproduced", **row}]}
    s = envelope.summarize(per, rows)
    assert s["held"] == {"x": {"base": [3, 3], "seeds+10": [2, 3]}}
    text = envelope.describe({"claims": [], "envelope": {"variations": [], "metrics": {}, **s}})
    assert "x: base reproduced, seeds+10 not reproduced; the statement per seed: 5 of 6 seeds" in text


def test_merging_a_notebooks_part_replaces_its_claims_and_drops_removed_ones():
    """A rebuilt notebook's outcomes and wall times replace its old ones; another notebook's stay; a claim that no
    longer exists (its id in no module of memlib/claims) leaves the envelope instead of lingering under the old
    variations."""
    nb4, nb2 = claims.NOTEBOOKS[4], claims.NOTEBOOKS[2]
    p4 = next(c.id for c in claims.CLAIMS if c.notebook == nb4)
    p2 = next(c.id for c in claims.CLAIMS if c.notebook == nb2)
    old = {"notebooks": {nb4: {}, nb2: {}}, "claims": [],
           "envelope": {"variations": [{"name": "base", "seed": 0, "arithmetic": {nb4: {}, nb2: {}}, "wall_s": 17.0,
                                        "wall_s_by_notebook": {nb4: 10.0, nb2: 7.0}}],
                        "metrics": {nb4: {"a": [0, 1]}, nb2: {"b": [0, 1]}},
                        "outcomes": {p4: {"base": "reproduced"}, p2: {"base": "reproduced"},
                                     "p4.removed_long_ago": {"base": "reproduced"}},
                        "seeds": {}, "built": {}}}
    new = {"notebooks": {nb4: {}}, "claims": []}
    env = {"variations": [{"name": "base", "seed": 30, "arithmetic": {nb4: {}}, "seed_by_notebook": {nb4: 30},
                           "wall_s": 5.0, "wall_s_by_notebook": {nb4: 5.0}}],
           "metrics": {nb4: {"a": [2, 3]}},
           "outcomes": {p4: {"base": "not reproduced"}}, "seeds": {}}
    merged = envelope._merge(old, new, [nb4], env)["envelope"]
    assert merged["outcomes"] == {p4: {"base": "not reproduced"}, p2: {"base": "reproduced"}}
    assert merged["metrics"] == {nb2: {"b": [0, 1]}, nb4: {"a": [2, 3]}}
    # the rebuilt notebook's wall time replaces its old one (it used to be added to it)
    assert merged["variations"][0]["wall_s_by_notebook"] == {nb4: 5.0, nb2: 7.0}
    assert merged["variations"][0]["wall_s"] == 12.0
    # a part built with --seed 30 records its own base seed; the variation's seed stays the other notebooks' (0)
    assert merged["variations"][0]["seed_by_notebook"] == {nb4: 30, nb2: 0} and merged["variations"][0]["seed"] == 0
    # a variation the rebuild left out no longer claims the rebuilt notebook (its run was of the old code), and one
    # that judges no claim leaves the envelope
    old["envelope"]["variations"] += [
        {"name": "1thread-avx2", "arithmetic": {nb4: {}, nb2: {}}, "wall_s_by_notebook": {nb4: 3.0, nb2: 4.0}},
        {"name": "seed+1", "arithmetic": {nb4: {}, nb2: {}}, "wall_s_by_notebook": {nb4: 2.0}}]
    old["envelope"]["outcomes"][p2]["1thread-avx2"] = "reproduced"
    kept = {v["name"]: v for v in envelope._merge(old, new, [nb4], env)["envelope"]["variations"]}
    assert set(kept) == {"base", "1thread-avx2"}
    assert kept["1thread-avx2"]["wall_s_by_notebook"] == {nb2: 4.0} and kept["1thread-avx2"]["wall_s"] == 4.0
    assert set(kept["1thread-avx2"]["arithmetic"]) == {nb2}
    old["envelope"]["variations"][-2]["wall_s_by_notebook"] = {nb4: 3.0}     # its other notebook's time not kept
    kept = {v["name"]: v for v in envelope._merge(old, new, [nb4], env)["envelope"]["variations"]}
    assert kept["1thread-avx2"]["wall_s"] is None
    assert "1thread-avx2 (time not kept)" in envelope.describe({"envelope": {"variations": list(kept.values())}})


def test_joining_an_earlier_envelope_adds_its_bands_so_a_claim_that_moved_across_them_is_unstable(tmp_path):
    """`envelope --join`: the earlier build's variations join the new one's (renamed, marked earlier) for the notebooks
    the new one judges; a claim that took one outcome on the new bands and another on the earlier ones has moved; the
    metric ranges hold both builds (NaN inside where either measured it); a notebook the new build does not judge
    does not come back with the earlier bands; a second join does not collide with the first's names."""
    nb4, nb2 = claims.NOTEBOOKS[4], claims.NOTEBOOKS[2]
    p4, q4 = [c.id for c in claims.CLAIMS if c.notebook == nb4][:2]
    p2 = next(c.id for c in claims.CLAIMS if c.notebook == nb2)
    new = {"profile": "quick", "claims": [], "notebooks": {nb4: {"metrics": {}, "provenance": {}}},
           "envelope": {"variations": [{"name": "base", "arithmetic": {nb4: {"cpu": "AMD"}},
                                        "wall_s_by_notebook": {nb4: 5.0}, "seed_by_notebook": {nb4: 1000}}],
                        "metrics": {nb4: {"a": [2.0, 3.0], "b": [1.0, 1.0], "new": [0.0, 1.0]}},
                        "outcomes": {p4: {"base": "reproduced"}, q4: {"base": "reproduced"}},
                        "held": {p4: {"base": [3, 3]}}, "seeds": {nb4: {"a": 3}}}}
    old = {"profile": "quick", "envelope": {
        "variations": [{"name": "base", "arithmetic": {nb4: {"cpu": "Xeon"}, nb2: {}},
                        "wall_s_by_notebook": {nb4: 7.0, nb2: 1.0}, "seed_by_notebook": {nb4: 0, nb2: 200}}],
        "metrics": {nb4: {"a": [0.0, 1.0], "b": [float("nan"), float("nan")], "gone": [5.0, 6.0]}, nb2: {"c": [0, 1]}},
        "outcomes": {p4: {"base": "not reproduced"}, q4: {"base": "reproduced"}, p2: {"base": "reproduced"}},
        "held": {p4: {"base": [2, 3]}}, "seeds": {nb4: {"a": 5}}, "built": {nb4: "2026-11-28"}}}
    env = envelope.join(new, old)["envelope"]
    assert env["outcomes"][p4] == {"base": "reproduced", "earlier base": "not reproduced"}
    assert env["outcomes"][q4] == {"base": "reproduced", "earlier base": "reproduced"} and p2 not in env["outcomes"]
    assert env["held"][p4] == {"base": [3, 3], "earlier base": [2, 3]}
    assert env["metrics"][nb4]["a"] == [0.0, 3.0] and env["metrics"][nb4]["b"] == [1.0, 1.0, "nan"]
    assert env["metrics"][nb4]["new"] == [0.0, 1.0] and "gone" not in env["metrics"][nb4] and nb2 not in env["metrics"]
    assert env["seeds"][nb4]["a"] == 5 and env["joined"] == {nb4: "2026-11-28"}
    earlier = {v["name"]: v for v in env["variations"]}["earlier base"]
    assert earlier["earlier"] and set(earlier["arithmetic"]) == {nb4} and earlier["seed_by_notebook"] == {nb4: 0}
    assert earlier["wall_s"] == 7.0
    moved = [c for c, o in env["outcomes"].items() if len(set(o.values())) > 1]
    assert moved == [p4]
    with pytest.raises(MemlibError, match="twice"):          # the same earlier runs again: evidence counted twice
        envelope.join({**new, "envelope": env}, old)
    with pytest.raises(MemlibError, match="twice"):          # a file joined into itself
        envelope.join(new, new)
    other = {**old, "envelope": {**old["envelope"], "variations": [{**old["envelope"]["variations"][0],
                                                                    "wall_s_by_notebook": {nb4: 9.0}}]}}
    again = envelope.join({**new, "envelope": env}, other)["envelope"]     # another run: its name does not collide
    assert set(again["outcomes"][p4]) == {"base", "earlier base", "earlier base (2)"}
    # a build of other code joins only when asked, the error naming the commits
    coded = lambda b, c: {**b, "notebooks": {nb4: {"metrics": {}, "provenance": {"git_commit": c}}}}   # noqa: E731
    with pytest.raises(MemlibError, match="other code.*aaaaaaaa there, bbbbbbbb here.*--across-code"):
        envelope.join(coded(new, "b" * 40), coded(old, "a" * 40))
    crossed = envelope.join(coded(new, "b" * 40), coded(old, "a" * 40), across_code=True)["envelope"]
    assert crossed["across_code"] == {nb4: ["b" * 40, "a" * 40]}
    # the file form: both must be envelopes of one profile; the result is judged again and written
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(new))
    with pytest.raises(MemlibError, match="not found"):
        envelope.join_file(a, b)
    b.write_text(json.dumps({**old, "profile": "full"}))
    with pytest.raises(MemlibError, match="one profile"):
        envelope.join_file(a, b)
    b.write_text(json.dumps(old))
    body = envelope.join_file(a, b)
    assert json.loads(a.read_text())["envelope"]["outcomes"][p4] == body["envelope"]["outcomes"][p4]
    assert body["counts"] == json.loads(a.read_text())["counts"]


def test_evaluate_counts_the_seeds_a_claim_was_judged_on():
    c = _claim()
    assert core.evaluate(c, {"m": 0.8, "g.loss_ratio": 0.01}, "quick")["seeds"] == 1
    band = core.evaluate(c, {"m": [0.8, 0.9, 0.85], "g.loss_ratio": [0.01] * 3}, "quick")
    assert band["seeds"] == 3 and band["outcome"] == claims.REPRODUCED
    assert core.evaluate(c, {"g.loss_ratio": 0.01}, "quick")["seeds"] is None        # not run
    assert core.evaluate(c, None, "quick")["seeds"] is None
    assert "(3 seeds)" in report.markdown([band]) and "(1 seed)" in report.markdown(
        [core.evaluate(c, {"m": 0.8, "g.loss_ratio": 0.01}, "quick")])


def test_a_one_seed_reason_is_for_trained_nets_and_says_enough():
    reason = "costs minutes per seed at quick; a band needs a GPU"
    assert _claim(one_seed=reason).problems() == []
    assert any("one_seed" in p for p in _claim(one_seed=reason, about="init", fit=()).problems())
    assert any("one_seed" in p for p in _claim(one_seed="too costly").problems())


def test_every_trained_claim_is_judged_on_a_seed_band_or_says_why_not():
    """Issue 26: a claim about trained nets whose metric the committed baseline measured at quick is judged on at
    least `core.MIN_BAND` seeds, or carries a `one_seed` reason; a `one_seed` reason on a band is stale."""
    env = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text()).get("envelope") or {}
    if "seeds" not in env:
        pytest.skip("the committed baseline records no seed counts yet (envelope 'seeds'): rebuild it with "
                    "`python -m memlib envelope` (memlib/harness/envelope.py) to run this test")
    one_seed, stale = [], []
    for c in claims.CLAIMS:
        n = env["seeds"].get(c.notebook, {}).get(c.metric)
        if c.about != "trained" or n is None:
            continue                                 # sanity / init claims, or not measured at quick
        if n < core.MIN_BAND and not c.one_seed:
            one_seed.append(f"{c.id} ({c.metric}: {n} seed{'s' if n != 1 else ''})")
        if n >= core.MIN_BAND and c.one_seed:
            stale.append(f"{c.id} ({c.metric}: {n} seeds)")
    assert one_seed == [], f"judged on fewer than {core.MIN_BAND} seeds with no one_seed reason: {one_seed}"
    assert stale == [], f"a one_seed reason on a claim judged on a seed band (drop it): {stale}"


def test_whys_are_rendered_from_the_runs_metrics_and_may_not_state_numbers():
    assert text.render_text("ends at {a.loss:%} ({b})", {"a.loss": [0.345, 0.081], "b": 0.4312}) == \
        "ends at 34.5 % / 8.1 % (0.431)"
    assert "not measured" in text.render_text("{missing.key}", {})
    assert text.stated_numbers("measured 34.5 / 8.1 % and 0.43; 20 layers, 1,500 steps, Fig 3a") == ["34.5", "8.1", "0.43"]
    assert text.stated_numbers("it fits 4 of 10, at 20 %") == ["20 %"]
    assert text.stated_numbers("below the bar 0.9 {x:%}", settings=[0.9]) == []
    bad = _claim(expect={"quick": claims.NOT_REPRODUCED, "paper": claims.REPRODUCED},
                 why="the net ends at 34.5 % of the zero loss")
    assert any("placeholders" in p for p in bad.problems())
    row = core.evaluate(_claim(expect={"quick": claims.NOT_REPRODUCED, "paper": claims.REPRODUCED},
                               why="it ends at {g.loss_ratio:%} of the zero loss"), {"m": 0.1, "g.loss_ratio": 0.02}, "quick")
    assert row["why"] == "it ends at 2 % of the zero loss" and "2 % of the zero loss" in row["reason"]


def test_the_arithmetic_is_recorded_and_described():
    a = machine.arithmetic()
    assert a["cpu"] and a["cpu_capability"] and a["intra_op_threads"] >= 1
    assert a["cpu_capability"] in machine.describe(a)


def test_a_rebuild_judges_every_stored_notebook_again_with_the_claims_as_they_stand():
    """The rows of a notebook the rebuild did not run are judged again from its stored base metrics: a row the old
    ledger called unstable is judged as the claim now stands, and a claim reading a metric the stored run never
    logged reads 'not run' instead of the old outcome."""
    c = next(c for c in claims.CLAIMS if c.notebook == claims.NOTEBOOKS[4] and c.about != "sanity")
    body = {"profile": "quick", "notebooks": {c.notebook: {"metrics": {}, "provenance": {}}},
            "claims": [{"id": c.id, "notebook": c.notebook, "outcome": claims.UNSTABLE}]}
    rows = {r["id"]: r for r in envelope.rejudge(body)["claims"]}
    assert rows[c.id]["outcome"] == claims.NOT_RUN and "not among its notebook's stored metrics" in rows[c.id]["reason"]
    assert set(rows) == {x.id for x in claims.CLAIMS if x.notebook == c.notebook}
    # a notebook the baseline holds no metrics for keeps no rows (the envelope is built part by part)
    assert envelope.rejudge({**body, "notebooks": {c.notebook: {"metrics": None}}})["claims"] == []


def test_the_committed_baseline_rows_say_what_the_claims_now_say():
    """Every row of the committed baseline is what judging its stored base metrics with today's claims gives: after a
    claim or the ledger changes, `python -m memlib envelope --rejudge` rewrites it (trains nothing)."""
    base = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    now = {r["id"]: (r["outcome"], r["expected"]) for r in base["claims"]}
    again = {r["id"]: (r["outcome"], r["expected"]) for r in envelope.rejudge(base)["claims"]}
    assert {k: (now.get(k), v) for k, v in again.items() if now.get(k) != v} == {}
    assert set(now) == set(again)


def test_rejudge_file_rewrites_a_baseline_and_refuses_what_is_not_one(tmp_path):
    c = next(c for c in claims.CLAIMS if c.notebook == claims.NOTEBOOKS[4])
    f = tmp_path / "b.json"
    with pytest.raises(MemlibError, match="not found"):
        envelope.rejudge_file(f)
    f.write_text(json.dumps({"profile": "quick", "notebooks": {}, "claims": []}))
    with pytest.raises(MemlibError, match="no envelope"):
        envelope.rejudge_file(f)
    f.write_text(json.dumps({"profile": "quick", "envelope": {"variations": []}, "claims": [],
                             "notebooks": {c.notebook: {"metrics": {}, "provenance": {}}}}))
    body = envelope.rejudge_file(f)
    assert json.loads(f.read_text())["counts"] == body["counts"] and body["counts"]["not run"] > 0


def test_rejudge_says_a_claim_newer_than_its_notebooks_stored_run_was_not_judged_there():
    """A claim whose test changed after its notebook's part was built reads a metric the stored run never logged: the
    row is "not run", and its reason says the baseline predates the test (not that the profile does not measure it)."""
    c = next(c for c in claims.CLAIMS if c.expected("quick") not in (core.NOT_RUN,) and c.notebook == claims.NOTEBOOKS[4])
    body = {"profile": "quick", "claims": [], "envelope": {"variations": [], "built": {c.notebook: "2026-01-02"}},
            "notebooks": {c.notebook: {"metrics": {}, "provenance": {}}}}
    row = next(r for r in envelope.rejudge(body)["claims"] if r["id"] == c.id)
    assert row["outcome"] == core.NOT_RUN and row["reason"].startswith("not judged in this baseline: ")
    assert "built 2026-01-02, before this test changed" in row["reason"] and "at this profile" not in row["reason"]


def test_the_committed_baseline_is_an_envelope_the_ledger_agrees_with():
    base = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    env = base.get("envelope")
    assert env and {v["name"] for v in env["variations"]} >= {"base"}
    ledger = {c.id: c.expected("quick") for c in claims.CLAIMS}
    moved = [cid for cid, o in env["outcomes"].items() if len(set(o.values())) > 1]
    assert [cid for cid in moved if ledger.get(cid) != claims.UNSTABLE] == []
    stable_unstable = [cid for cid in _stable(env) if ledger.get(cid) == claims.UNSTABLE]
    assert stable_unstable == [], "the ledger calls these unstable, but every variation gave one outcome"


def _stable(env: dict) -> dict:
    """{claim id: its one outcome} for the claims that took one outcome on every variation that measured their
    notebook (a notebook's part may be built from fewer variations than the file lists: a rebuild with --variation)."""
    notebook = {c.id: c.notebook for c in claims.CLAIMS}
    measured = {}
    for cid, o in env["outcomes"].items():
        measured[notebook.get(cid)] = max(measured.get(notebook.get(cid), 0), len(o))
    return {cid: next(iter(o.values())) for cid, o in env["outcomes"].items()
            if len(set(o.values())) == 1 and len(o) == measured[notebook.get(cid)]}


def test_a_claim_that_took_one_outcome_on_every_band_has_it_as_its_quick_ledger_entry():
    """The other half of the ledger's agreement with the envelope: a claim that left the unstable list (one outcome on
    every variation that measured its notebook) is expected to take that outcome at quick. Session 27 left
    p1.fig24_thin_deep_fails 'not reproduced' in the ledger after three bands measured it reproduced."""
    base = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    ledger = {c.id: c.expected("quick") for c in claims.CLAIMS}
    disagree = {cid: (out, ledger[cid]) for cid, out in _stable(base["envelope"]).items()
                if cid in ledger and ledger[cid] != out}
    assert disagree == {}


def test_the_envelope_command_on_the_smoke_profile(tmp_path):
    out = tmp_path / "smoke-env.json"
    proc = subprocess.run([sys.executable, "-m", "memlib", "envelope", "--profile", "smoke", "--only", "04",
                           "--variation", "base", "--variation", "1thread-avx2", "--workdir", str(tmp_path / "w"),
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    body = json.loads(out.read_text())
    assert [v["name"] for v in body["envelope"]["variations"]] == ["base", "1thread-avx2"]
    pinned = body["envelope"]["variations"][1]["arithmetic"]["04_rho_dynamics"]
    assert pinned["intra_op_threads"] == 1 and pinned["env"]["ATEN_CPU_CAPABILITY"] == "avx2"
    assert pinned["cpu_capability"] == "AVX2"
    # each variation's own results are inside the envelope; one changed metric beyond it is flagged
    for v in ("base", "1thread-avx2"):
        rep = report.build(claims.CLAIMS, tmp_path / "w" / v, "smoke", against=out)
        assert rep["comparison"]["drifts"] == [] and rep["comparison"]["flips"] == []
    metrics = tmp_path / "w" / "base" / "smoke" / "04_rho_dynamics" / "metrics.json"
    m = json.loads(metrics.read_text())
    key = next(k for k, v in m.items() if isinstance(v, float) and v > 0.1)
    lo, hi, *_ = body["envelope"]["metrics"]["04_rho_dynamics"][key]
    m[key] = hi * 3 + 1
    metrics.write_text(json.dumps(m))
    rep = report.build(claims.CLAIMS, tmp_path / "w" / "base", "smoke", against=out)
    assert [d["metric"] for d in rep["comparison"]["drifts"]] == [key]


def test_every_ledger_entry_names_its_basis():
    for c in claims.CLAIMS:
        for p in core.LEDGER_COLUMNS:
            assert c.basis_of(p).startswith(core.BASES), (c.id, p, c.basis_of(p))
    bad = _claim(basis={"paper": "because"})
    assert any("basis" in p for p in bad.problems())
    assert any("no ledger column" in p for p in _claim(basis={"smoke": "measured: x"}).problems())
    row = core.evaluate(_claim(basis={"paper": "expected not reproduced: the 32x32 runs say so"}), {}, "quick")
    assert row["basis"]["paper"].startswith("expected not reproduced") and row["basis"]["full"] == row["basis"]["paper"]


def test_the_unstable_list_names_real_claims_and_renders():
    from memlib.claims import unstable
    ids = {c.id for c in claims.CLAIMS}
    assert set(unstable.UNSTABLE_AT_QUICK) <= ids
    from memlib.harness import deferred
    for c in claims.CLAIMS:
        if c.id in unstable.UNSTABLE_AT_QUICK:
            if deferred.section_of(c, "quick"):       # quick left its section to full: its history stays in the why
                assert c.expected("quick") == claims.NOT_RUN and "Unstable at quick until quick left it to full" in c.why
            else:
                assert c.expected("quick") == claims.UNSTABLE and "Unstable at quick" in c.why
            assert c.expected("paper") != claims.UNSTABLE


@pytest.mark.parametrize("paper", ["paper3", "paper4"])
def test_measured_full_outcomes_name_real_claims_and_become_the_ledger(paper):
    import importlib
    mod = importlib.import_module(f"memlib.claims.{paper}")
    assert set(mod.MEASURED_FULL) <= {c.id for c in mod.CLAIMS}
    for c in mod.CLAIMS:
        if c.id in mod.MEASURED_FULL:
            assert c.expected("full") == mod.MEASURED_FULL[c.id][0] and c.basis_of("full").startswith("measured")
            assert not c.problems(), c.problems()


def test_with_measured_refuses_an_unknown_claim_and_leaves_the_rest():
    from memlib.claims import paper3
    from memlib.claims.core import NOT_REPRODUCED, with_measured
    with pytest.raises(ValueError, match="p3.no_such_claim"):
        with_measured(paper3.CLAIMS, {"p3.no_such_claim": (NOT_REPRODUCED, "x")}, "full", "a run")
    c = paper3.CLAIMS[0]
    (m,) = with_measured([c], {c.id: (NOT_REPRODUCED, "it failed")}, "paper", "a run")
    assert m.expected("paper") == NOT_REPRODUCED and m.basis_of("paper") == "measured: a run: it failed" and m.why
    assert with_measured([c], {}, "paper", "a run") == [c]


def test_the_envelopes_seed_variations_train_disjoint_seed_bands():
    """Issue 42: base, seeds+10 and seeds+20 share no seed, for every band the committed baseline measured."""
    from memlib.harness import envelope
    widest = max(n for nb in (json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())["envelope"]
                              .get("seeds") or {"x": {"y": 5}}).values() for n in nb.values())
    bands = [set(range(v.seed_offset, v.seed_offset + widest)) for v in envelope.VARIATIONS.values()
             if not v.env]                                       # the seed variations (the rest vary arithmetic)
    assert len(bands) == 3
    assert all(a.isdisjoint(b) for i, a in enumerate(bands) for b in bands[i + 1:])


def test_every_band_the_committed_envelope_judges_a_notebook_on_is_disjoint_from_the_others():
    """Issue 42, across joined builds too (`envelope --join`): for each notebook, the seed bands of all the variations
    that judge it (base seed + the widest band it logged) share no seed, so n agreeing variations are n replications.
    A variation that varies the arithmetic (threads, kernels, another machine at the same seeds) is no replication."""
    env = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())["envelope"]
    for nb, widths in env["seeds"].items():
        widest = max(widths.values()) + 1            # + 1: notebook 02's tables train one seed higher
        starts = [v["seed_by_notebook"][nb] for v in env["variations"] if nb in (v.get("seed_by_notebook") or {})
                  and not v.get("env") and not v.get("machine_variation")]     # those vary the arithmetic
        bands = [set(range(s, s + widest)) for s in starts]
        assert len(bands) >= 3, nb
        assert all(a.isdisjoint(b) for i, a in enumerate(bands) for b in bands[i + 1:]), (nb, starts)


# ---- verdicts over seeds from the envelope: per-seed values stored, pooled, judged sequentially

def _one_claim_notebook():
    """Notebook 04 and one of its claims with a numeric threshold and a seed band."""
    nb = claims.NOTEBOOKS[4]
    c = next(c for c in claims.CLAIMS if c.notebook == nb and not isinstance(c.threshold, str) and c.fit
             and not c.control and c.rule not in ("some", "more_per_item"))
    return nb, c


def _metrics_for(c, value: float, n: int = 3) -> dict:
    """Metrics that pass the claim's fit gates on every seed and put its metric at `value` on each."""
    m = {c.metric: [value] * n}
    for g in c.gates:
        t = g.threshold if not isinstance(g.threshold, str) else 1.0
        m[g.metric] = [t / 2 if g.op in ("<", "<=") else t * 2 + 1] * n
        if isinstance(g.threshold, str):
            m[g.threshold] = [1.0] * n
    return m


def _write_run(folder, nb, metrics, seed):
    d = folder / "quick" / nb
    d.mkdir(parents=True, exist_ok=True)
    (d / "metrics.json").write_text(json.dumps(metrics))
    (d / "provenance.json").write_text(json.dumps({"wall_time_s": 2.0, "parameters": {"seed": seed},
                                                   "arithmetic": {"cpu": "test"}}))


def test_the_envelope_stores_every_seeds_value_and_a_re_run_on_another_machine_is_the_same_seed():
    nb, c = _one_claim_notebook()
    past = c.threshold * (2 if c.op in (">", ">=") else 0.5) if c.threshold else (1.0 if c.op in (">", ">=") else -1.0)
    runs = {"base": {nb: {"metrics": {**_metrics_for(c, past), c.metric: [past * 1.01, past, past * 0.99]}}},
            "seeds+10": {nb: {"metrics": _metrics_for(c, past)}}}
    summary = envelope.summarize(runs, {"base": [], "seeds+10": []})
    assert summary["values"][nb][c.metric] == {"base": [past * 1.01, past, past * 0.99], "seeds+10": [past] * 3}
    assert "some.metric.no.claim.reads" not in summary["values"][nb]
    body = {"profile": "quick", "envelope": {**summary, "variations": [
        {"name": "base", "seed_by_notebook": {nb: 0}}, {"name": "seeds+10", "seed_by_notebook": {nb: 10}},
        {"name": "1thread-avx2", "seed_by_notebook": {nb: 0}}]}}
    bands = envelope.evidence(body, c)
    assert [[s.seed for s in b] for b in bands] == [[0, 1, 2], [10, 11, 12]]
    assert envelope.verdicts(body)[c.id].n == 3             # quick: the first band decides it at its first look
    assert envelope.verdicts(body, "smoke")[c.id].n == 6    # one look: every band held, pooled
    # the same seeds again on another machine: averaged into them, no new seed
    body["envelope"]["values"][nb] = {k: {**by, "1thread-avx2": by["base"]} for k, by in summary["values"][nb].items()}
    assert envelope.verdicts(body, "smoke")[c.id].n == 6
    assert "verdicts over seeds" in envelope.describe_verdicts(envelope.verdicts(body))


@pytest.mark.parametrize("content,says", [("{not json", "not readable as JSON"), ('{"a": 1', "not readable as JSON"),
                                          ("", "not readable as JSON"), ("[1, 2]", "a JSON list"),
                                          ('{"profile": "quick"}', "holds no envelope")])
def test_a_bad_envelope_file_is_one_clear_line_for_join_rejudge_and_out(tmp_path, content, says):
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(content)
    good.write_text(json.dumps({"profile": "quick", "claims": [], "notebooks": {},
                                "envelope": {"variations": [], "outcomes": {}}}))
    for call, option in ((lambda: envelope.join_file(good, bad), "--join"),
                         (lambda: envelope.rejudge_file(bad), "--rejudge"), (lambda: envelope.check_out(bad), "--out")):
        with pytest.raises(MemlibError, match=says) as e:
            call()
        assert str(e.value).startswith(option) and "\n" not in str(e.value)
    with pytest.raises(MemlibError, match="a folder"):
        envelope.join_file(good, tmp_path)
    with pytest.raises(MemlibError, match="a folder"):
        envelope.check_out(tmp_path)


def test_envelope_checks_its_out_before_it_trains_anything(tmp_path, monkeypatch):
    out = tmp_path / "garbage.json"
    out.write_text("{not json")
    monkeypatch.setattr(envelope, "run_variation", lambda *a, **k: pytest.fail("trained before checking --out"))
    with pytest.raises(MemlibError, match="--out .* not readable"):
        envelope.build("quick", names=[claims.NOTEBOOKS[4]], variations=("base",), workdir=tmp_path / "w", out=out)
    with pytest.raises(MemlibError, match="--out .* not readable"):
        envelope.build_sequential("quick", names=[claims.NOTEBOOKS[4]], workdir=tmp_path / "w", out=out)


def test_the_sequential_build_adds_bands_only_where_a_claim_is_undecided(tmp_path, monkeypatch):
    """Two notebooks: one whose claims are all decided on the first band, one whose claim sits inside its noise; the
    second takes bands at the looks 2 and 4, the first never runs again; the file says which claims took more seeds
    and what the added bands cost."""
    nb4, c = _one_claim_notebook()
    nb3 = claims.NOTEBOOKS[3]
    t = float(c.threshold)
    sign = 1 if c.op in (">", ">=") else -1
    runs = []

    def fake_run(v, profile, names, workdir, seed, reuse):
        runs.append((v.name, tuple(names)))
        for nb in names:
            if nb == nb4:      # the claim's metric straddles its threshold: undecided on every band
                m = _metrics_for(c, t)
                m[c.metric] = [t + sign * 0.3, t - sign * 0.3, t + sign * 0.01]
            else:
                m = {}
            _write_run(workdir / v.name, nb, m, seed + v.seed_offset)
        return 1.0
    monkeypatch.setattr(envelope, "run_variation", fake_run)
    out = tmp_path / "env.json"
    body = envelope.build_sequential("quick", names=[nb3, nb4], workdir=tmp_path / "w", out=out)
    assert runs == [("base", (nb3, nb4)), ("seeds+10", (nb4,)), ("seeds+20", (nb4,)), ("seeds+30", (nb4,))]
    seq = body["envelope"]["sequential"]
    assert seq["bands"] == {nb3: 1, nb4: 4} and seq["looks"] == [1, 2, 4]
    assert c.id in seq["took_more_seeds"] and seq["took_more_seeds"][c.id] == 12
    assert seq["added_bands_s"][nb4] == pytest.approx(6.0) and seq["added_bands_s"][nb3] == 0
    stored = json.loads(out.read_text())
    assert set(stored["envelope"]["values"][nb4][c.metric]) == {"base", "seeds+10", "seeds+20", "seeds+30"}
    assert envelope.verdicts(stored)[c.id].n == 12


def test_rejudge_and_plan_say_a_wrong_profile_or_a_folder_in_one_line_before_any_work(tmp_path, capsys):
    """`envelope --rejudge` on a full envelope without --profile full would judge it by quick's ledger: one line
    instead; `plan --out` naming a folder fails before planning, not after it."""
    from memlib.cli.main import main
    full = tmp_path / "full.json"
    full.write_text(json.dumps({"profile": "full", "claims": [], "notebooks": {},
                                "envelope": {"variations": [], "outcomes": {}}}))
    assert main(["envelope", "--rejudge", "--out", str(full)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the 'full' profile, not --profile 'quick'" in err[0] and "--profile full" in err[0]
    assert json.loads(full.read_text())["claims"] == []                # untouched
    folder = tmp_path / "plans"
    folder.mkdir()
    assert main(["plan", "--profile", "smoke", "--only", "04", "--no-costs", "--results-dir", str(tmp_path / "r"),
                 "--out", str(folder)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--out" in err[0] and "a folder" in err[0]
    assert not (tmp_path / "r" / "plan").exists()                      # nothing was planned


def test_withdrawn_metrics_leave_every_stored_run_and_their_claims_are_not_judged_on_another_nets_numbers():
    c = next(c for c in claims.CLAIMS if c.notebook == claims.NOTEBOOKS[4] and not isinstance(c.threshold, str)
             and not c.control)
    other = next(o for o in claims.CLAIMS if o.notebook == c.notebook and o.metric != c.metric)
    nb = c.notebook
    body = {"profile": "quick", "claims": [], "notebooks": {nb: {"metrics": {c.metric: [1.0], other.metric: [2.0]}}},
            "envelope": {"variations": [{"name": "base", "seed_by_notebook": {nb: 0}}],
                         "metrics": {nb: {c.metric: [1.0, 1.0], other.metric: [2.0, 2.0]}},
                         "values": {nb: {c.metric: {"base": [1.0]}, other.metric: {"base": [2.0]}}},
                         "outcomes": {c.id: {"base": "reproduced"}, other.id: {"base": "reproduced"}},
                         "held": {c.id: {"base": [1, 1]}}}}
    out = envelope.withdraw(body, nb, [c.metric], "the net was rebuilt as the text states it")
    assert c.metric not in out["notebooks"][nb]["metrics"] and other.metric in out["notebooks"][nb]["metrics"]
    assert c.metric not in out["envelope"]["metrics"][nb] and c.metric not in out["envelope"]["values"][nb]
    assert c.id not in out["envelope"]["outcomes"] and other.id in out["envelope"]["outcomes"]
    assert c.id not in out["envelope"]["held"]
    assert out["envelope"]["withdrawn"][nb] == {"keys": [c.metric], "why": "the net was rebuilt as the text states it"}
    row = next(r for r in envelope.rejudge(out)["claims"] if r["id"] == c.id)
    assert row["outcome"] == core.NOT_RUN and "not judged in this baseline" in row["reason"]
    assert body["envelope"]["outcomes"][c.id] == {"base": "reproduced"}          # the input is left as it was
