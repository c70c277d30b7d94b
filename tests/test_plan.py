"""Trainings as data (memlib.harness.plan) and running them elsewhere (memlib.harness.engine): a planned job, trained in
another process, stores exactly what the notebook's own `fit_cached` would have stored."""
import functools
import io
import json
import re
import subprocess
import sys

from pathlib import Path

import pytest
import torch

from memlib.harness import context, engine, jobfile, plan, store
from memlib import models
from memlib.harness.context import RunContext
from memlib.runtime import MemlibError

BUILD = functools.partial(models.convnet, 2, channels=4)
FIT = dict(steps=12, lr=0.01, momentum=0.9, progress=False)


def _entry(path) -> dict:
    """One cache entry's stored value (its header line skipped)."""
    return torch.load(io.BytesIO(path.read_bytes().partition(b"\n")[2]), weights_only=True)["value"]


def _states_equal(a, b) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_planning_lists_a_miss_trains_nothing_and_the_job_trains_as_fit_cached_would(tmp_path, monkeypatch):
    x = torch.randn(2, 1, 8, 8)
    reference, ref_hist = store.fit_cached(BUILD, x, seed=3, cache=store.Cache(tmp_path / "ref"), **FIT)

    context.activate(RunContext(plan_dir=tmp_path / "plan", notebook="nb"))     # as Run(..., plan_dir=...) does
    cache = store.Cache(tmp_path / "cache")
    placeholder, hist = store.fit_cached(BUILD, x, seed=3, cache=cache, **FIT)
    store.fit_cached(BUILD, x, seed=3, cache=cache, **FIT)             # asked twice: one job
    assert not list(cache.root.glob("*.pt")) and len(hist.loss) <= 1    # nothing trained (0 steps), nothing cached
    assert _states_equal(placeholder.state_dict(), store.build_model(BUILD, seed=3).state_dict())
    (job,) = plan.jobs(tmp_path / "plan")
    assert (job.notebook, job.kind, job.seeds, job.steps) == ("nb", "one", [3], 12)
    assert job.builder == "memlib.models.convnet(2, channels=4)" and job.keys == [cache.key(
        store._config(BUILD, x, None, 3, "default", FIT))]

    payload = jobfile.load_payload(tmp_path / "plan" / "jobs" / job.file)
    with pytest.raises(MemlibError, match="while planning"):
        engine.train_job(payload, "cpu")                               # it would train 0 steps
    context.activate(RunContext())                     # planning ends
    for config, entry in engine.train_job(payload, "cpu"):
        cache.save(config, entry)
    model, hist = store.fit_cached(BUILD, x, seed=3, cache=cache, **FIT)
    assert cache.hits == 1 and cache.misses == 2                         # read, not trained
    assert _states_equal(model.state_dict(), reference.state_dict()) and hist.loss == ref_hist.loss


def test_a_diverged_training_is_a_cached_result_that_the_engine_counts_done(tmp_path):
    """Issue 41: a training that diverges (paper 4's no-BN nets from norm 30) is stored as a result: the next
    fit_cached raises TrainingDiverged from the cache without training, and a plan's job that diverges returns that
    entry (a job done, not a failed one)."""
    from memlib.train import TrainingDiverged
    x = torch.randn(2, 1, 8, 8)
    blow_up = dict(FIT, lr=1e6)                                            # SGD at lr 1e6 diverges at once
    cache = store.Cache(tmp_path / "cache")
    with pytest.raises(TrainingDiverged) as first:
        store.fit_cached(BUILD, x, seed=3, cache=cache, **blow_up)
    assert "from the model cache" not in str(first.value) and cache.misses == 1 and len(list(cache.root.glob("*.pt"))) == 1  # stored
    with pytest.raises(TrainingDiverged, match="read from the model cache"):
        store.fit_cached(BUILD, x, seed=3, cache=cache, **blow_up)
    assert cache.hits == 1 and cache.misses == 1                         # read, not trained again
    with pytest.raises(TrainingDiverged, match="read from the model cache"):
        store.fit_cached_seeds(BUILD, x, seeds=[3], cache=cache, **blow_up)   # the band shares the key
    store.fit_cached(BUILD, x, seed=3, cache=cache, **FIT)              # a training that does not diverge is kept
    context.activate(RunContext(plan_dir=tmp_path / "plan", notebook="nb"))
    store.fit_cached(BUILD, x, seed=4, cache=cache, **blow_up)          # planned (0 steps: nothing diverges)
    context.activate(RunContext())
    (job,) = plan.jobs(tmp_path / "plan")
    ((config, entry),) = engine.train_job(jobfile.load_payload(tmp_path / "plan" / "jobs" / job.file), "cpu")
    assert set(entry) == {"diverged"} and "diverged" in entry["diverged"]


def test_a_seed_band_plans_only_its_missing_seeds_as_one_job(tmp_path, monkeypatch):
    x = torch.randn(2, 1, 8, 8)
    ref_cache = store.Cache(tmp_path / "ref")                          # the notebook's own path, same cache state
    store.fit_cached_seeds(BUILD, x, seeds=[1], cache=ref_cache, **FIT)
    ref = store.fit_cached_seeds(BUILD, x, seeds=[0, 1, 2], cache=ref_cache, **FIT)
    cache = store.Cache(tmp_path / "cache")
    store.fit_cached_seeds(BUILD, x, seeds=[1], cache=cache, **FIT)     # seed 1 trained already
    context.activate(RunContext(plan_dir=tmp_path / "plan"))
    store.fit_cached_seeds(BUILD, x, seeds=[0, 1, 2], cache=cache, **FIT)
    (job,) = plan.jobs(tmp_path / "plan")
    assert job.kind == "band" and job.seeds == [0, 2] and len(job.keys) == 2
    context.activate(RunContext())                     # planning ends
    for config, entry in engine.train_job(jobfile.load_payload(tmp_path / "plan" / "jobs" / job.file), "cpu"):
        cache.save(config, entry)
    got = store.fit_cached_seeds(BUILD, x, seeds=[0, 1, 2], cache=cache, **FIT)
    assert all(_states_equal(m.state_dict(), r.state_dict()) for (m, _), (r, _) in zip(got, ref))


def test_planning_a_band_holds_one_untrained_model_for_its_missing_seeds(tmp_path, monkeypatch):
    """Paper 1's plan ran out of 23 GB holding 5 seeds of every paper-scale band: while planning, the first
    missing seed's untrained model stands for every missing seed (its outputs are thrown away); a cached seed
    is read as always."""
    x = torch.randn(2, 1, 8, 8)
    cache = store.Cache(tmp_path / "cache")
    (trained, _), = store.fit_cached_seeds(BUILD, x, seeds=[1], cache=cache, **FIT)
    context.activate(RunContext(plan_dir=tmp_path / "plan"))
    got = store.fit_cached_seeds(BUILD, x, seeds=[0, 1, 2], cache=cache, **FIT)
    (m0, h0), (m1, _), (m2, h2) = got
    assert m0 is m2 and m1 is not m0 and h0.loss == h2.loss and len(h0.loss) <= 1
    assert _states_equal(m0.state_dict(), store.build_model(BUILD, seed=0).state_dict())      # untrained, seed 0
    assert _states_equal(m1.state_dict(), trained.state_dict())                                 # read from the cache
    assert [j.seeds for j in plan.jobs(tmp_path / "plan")] == [[0, 2]]                          # the job has both


def test_flops_per_step_counts_a_linear_layer_in_closed_form():
    build = functools.partial(torch.nn.Linear, 10, 5, bias=False)
    x = torch.randn(8, 10)
    # forward x W^T: 2 N in out; backward, the weight's gradient only (x needs none): 2 N in out
    assert engine.flops_per_step(build, x) == 4 * 8 * 10 * 5
    assert engine.flops_per_step(build, x, batch_size=2) == 4 * 2 * 10 * 5        # a minibatch step


def test_flops_per_step_counts_paper2s_conv_net_in_closed_form():
    """Paper 2's conv nets run `models.small_conv2d` (PyTorch's native kernel) on a CPU, which torch's
    FlopCounterMode could not count (`plan` raised); under the counter they take `conv(x)`."""
    from memlib import models
    build = functools.partial(models.linear_conv_ae, 1, 1)              # one 3x3 conv, 1 -> 1 channel, no bias
    x = torch.randn(4, 1, 3, 3)
    # forward: 2 N Cout H W Cin k k; backward: the weight's gradient only, the same count
    assert engine.flops_per_step(build, x) == 4 * 4 * 1 * 3 * 3 * 1 * 3 * 3


def test_ray_retries_a_failing_job_reports_it_and_trains_the_others(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    x = torch.randn(2, 1, 8, 8)
    context.activate(RunContext(plan_dir=tmp_path / "plan"))
    cache = store.Cache(tmp_path / "cache")
    store.fit_cached(BUILD, x, seed=0, cache=cache, **FIT)
    good = plan.jobs(tmp_path / "plan")[0]
    payload = jobfile.load_payload(tmp_path / "plan" / "jobs" / good.file)
    payload["build"], payload["keys"] = functools.partial(models.convnet, 0, channels=4), ["f" * 24]   # no layers
    payload["job"] = {**payload["job"], "key": "f" * 24, "keys": ["f" * 24], "file": "f" * 24 + ".pt"}
    torch.save(payload, tmp_path / "plan" / "jobs" / ("f" * 24 + ".pt"))
    context.activate(RunContext())                     # planning ends
    jobs = plan.jobs(tmp_path / "plan")
    out = engine.run_ray(tmp_path / "plan", jobs, cache, num_cpus=2, progress=False)
    assert out["trained"] == [good.key] and list(out["failed"]) == ["f" * 24]
    assert "layers" in out["failed"]["f" * 24]
    assert (cache.root / f"{good.key}.pt").exists()
    again = engine.run_ray(tmp_path / "plan", [good], cache, num_cpus=2, progress=False)
    assert again == {"trained": [], "failed": {}, "skipped": 1}          # in the cache: not sent again


def test_plan_cli_lists_a_notebooks_trainings_with_costs_and_trains_nothing(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "memlib", "plan", "--profile", "smoke", "--only", "04",
                           "--device", "cpu", "--results-dir", str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    doc = json.loads((tmp_path / "plan-smoke.json").read_text())
    assert doc["jobs"] and all(j["notebook"] == "04_rho_dynamics" and j["est_s"] > 0 and j["h100_gpu_h"] > 0
                               for j in doc["jobs"])
    assert doc["totals"]["04_rho_dynamics"]["jobs"] == len(doc["jobs"]) and "04_rho_dynamics" in proc.stdout
    assert not list((tmp_path / "cache").glob("*.pt"))                   # planning trains nothing


def test_ray_options_are_refused_in_one_line_before_anything_runs(tmp_path, capsys):
    from memlib.cli.main import main
    base = ["run", "--profile", "smoke", "--only", "04", "--results-dir", str(tmp_path)]
    assert main(base + ["--address", "auto"]) == 2
    assert "go with --engine ray" in capsys.readouterr().err
    pytest.importorskip("ray")
    assert main(base + ["--engine", "ray", "--untrained"]) == 2
    assert "no plan" in capsys.readouterr().err
    assert not (tmp_path / "smoke").exists()


def test_a_planning_pass_evaluates_one_input_for_all_and_an_ordinary_run_every_input(tmp_path, monkeypatch):
    """Planning the paper profile must not evaluate untrained nets on 60,000 images: while planning, predict,
    layer_activations and iterate run the model on the first input only and return the shapes of the
    ordinary run (N rows); without planning they run every input (and return the same shapes). The planner does
    this from outside (`plan.substitute_evaluations`, which `Run(...)` calls): the science modules are unchanged."""
    from memlib import dynamics, metrics
    net = models.convnet(3, channels=4)
    seen = []
    net.register_forward_pre_hook(lambda _m, args: seen.append(len(args[0])))
    x = torch.randn(7, 1, 8, 8)
    ordinary = (metrics.predict(net, x), [a.shape for a in metrics.layer_activations(net, x)],
                dynamics.iterate(net, x, 3, record=[0, 3]))
    assert seen == [7, 7, 7, 7, 7]                                     # predict, activations, 3 iterations
    seen.clear()
    context.activate(RunContext(plan_dir=tmp_path / "plan"))
    plan.substitute_evaluations()                                      # as Run(..., plan_dir=...) does
    planned = (metrics.predict(net, x), [a.shape for a in metrics.layer_activations(net, x)],
               dynamics.iterate(net, x, 3, record=[0, 3]))
    assert seen == [1, 1, 1, 1, 1]                                     # one input stands for all
    assert metrics.recovery_probability(net, x[:2], x, steps=2, eps=0.1).shape == (3,) and seen[5:] == [1, 1]
    assert planned[0].shape == ordinary[0].shape and planned[1] == ordinary[1]
    assert planned[2].shape == ordinary[2].shape == (2, 7, 1, 8, 8)
    assert torch.equal(planned[0][3], ordinary[0][0])                  # every row: the first input's output
    seen.clear()                                                       # Fig 10's classifier: one of each set
    err = metrics.layerwise_error(net, x, torch.arange(7) % 3, x[:5], torch.arange(5) % 3)
    assert err.shape == (4,) and seen == [1, 1]
    context.activate(RunContext())                                     # planning ends: every input again
    seen.clear()
    assert torch.equal(metrics.predict(net, x), ordinary[0]) and seen == [7]


def test_run_starts_a_planning_pass_with_the_planned_evaluations_and_no_science_module_mentions_planning(tmp_path):
    """Issue 43: the planner substitutes the science's inputs from outside; `Run(..., plan_dir=...)` puts the planned
    versions in place, and metrics, layerwise and dynamics neither import the harness's modes nor say 'planning'."""
    from memlib import dynamics, layerwise, metrics
    from memlib.harness.run import Run
    Run("nb", profile="smoke", device="cpu", results_dir=tmp_path, plan_dir=tmp_path / "plan")
    try:
        assert all(hasattr(getattr(m, n), "__planned__") for m, n, _, _ in plan.PLANNED_EVALUATIONS)
        assert metrics.layer_activations is layerwise.layer_activations and metrics.iterate is dynamics.iterate
    finally:
        context.activate(RunContext())
    science = [p for p in Path(metrics.__file__).parent.rglob("*.py")
               if not {"harness", "cli", "claims"} & set(p.relative_to(Path(metrics.__file__).parent).parts)]
    assert len(science) > 20
    mention = [str(p) for p in science if re.search(r"\bplanning", p.read_text())]
    assert not mention, f"science modules that know of planning: {mention}"


def test_a_configuration_that_diverges_is_still_timed():
    """`plan` measures each job's step time with a few `fit` steps; a job that diverges within them (paper 4's
    large initial norms at lr 0.1) must be timed, not end the plan (it did, measuring the paper profile)."""
    from memlib.harness import estimate
    from memlib import train
    x = torch.randn(4, 1, 8, 8)
    with pytest.raises(train.TrainingDiverged):
        train.fit(store.build_model(BUILD, seed=0), x, steps=6, lr=1e12, progress=False)
    assert estimate.step_time(BUILD, x, probe_steps=2, lr=1e12) > 0


def test_jobs_trained_together_are_planned_with_the_one_thread_each_trains_with(tmp_path, monkeypatch):
    """`estimate.train_together` trains each job with one intra-op thread; planned, those jobs carry that
    thread count, so a Ray worker (memlib.harness.engine.train_job) stores the same weights and losses bit for bit
    (CI's Ray run, with the kernel's 2 threads, differed from the serial run in the last bits)."""
    from memlib.harness import estimate
    saved = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        x = torch.randn(16, 1, 8, 8)
        jobs = [estimate.Job(f"fcn {h}", functools.partial(models.fcn, 64, h, width=48), x, 20, [0, 1],
                             fit_kwargs=dict(lr=0.01, momentum=0.9)) for h in (2, 3)]
        monkeypatch.setattr(store, "_default_cache", store.Cache(tmp_path / "serial"))
        estimate.train_together(jobs, workers=2, progress=False)
        serial = {p.name: _entry(p) for p in (tmp_path / "serial").glob("*.pt")}
        monkeypatch.setattr(store, "_default_cache", store.Cache(tmp_path / "cache"))
        context.activate(RunContext(plan_dir=tmp_path / "plan"))
        estimate.train_together(jobs, workers=2, progress=False)
        for j in jobs:
            j.train(progress=False)                                           # the notebook's loop: no new job
        planned = plan.jobs(tmp_path / "plan")
        assert len(planned) == 2 and not list((tmp_path / "cache").glob("*.pt"))
        context.activate(RunContext())                     # planning ends
        cache = store.default_cache()
        for job in planned:
            payload = jobfile.load_payload(tmp_path / "plan" / "jobs" / job.file)
            assert payload["threads"] == 1
            for config, entry in engine.train_job(payload, "cpu"):
                cache.save(config, entry)
        assert torch.get_num_threads() == 1                                   # train_job set the payload's
    finally:
        torch.set_num_threads(saved)
    ray_like = {p.name: _entry(p) for p in (tmp_path / "cache").glob("*.pt")}
    assert sorted(ray_like) == sorted(serial) and len(serial) == 4
    for name, entry in serial.items():
        assert entry["history"]["loss"] == ray_like[name]["history"]["loss"]
        assert _states_equal(entry["state"], ray_like[name]["state"])


def test_a_recorded_plan_gives_the_profiles_gpu_estimate_per_notebook_and_none_without_one(tmp_path):
    jobs = [plan.Job(f"k{i}", None, None, 10, [0], keys=[f"k{i}"], notebook=nb, kind="one", builder="b",
                     n_params=1, x_shape=[1], file=f"k{i}.pt") for i, nb in enumerate(["01_a", "01_a", "02_b"])]
    costs = {"k0": {"h100_gpu_h": 0.25}, "k1": {"h100_gpu_h": 0.5}, "k2": {"h100_gpu_h": 0.1}}
    plan.record_totals("full", jobs[2:], costs, notebooks=["01_a", "02_b"], folder=tmp_path)   # 01 planned nothing
    plan.record_totals("full", jobs[:2], costs, notebooks=["01_a"], folder=tmp_path)          # 01 alone: 02 is kept
    line = plan.recorded_estimate("full", ["01_a", "02_b", "03_c"], folder=tmp_path)
    assert line.startswith("full profile: training estimated at 51 min on one H100 (01 45 min (2 models), "
                           "02 6 min (1 model);")
    assert plan.recorded_estimate("full", ["02_b"], folder=tmp_path).startswith("full profile: training estimated at 6 min")
    assert plan.recorded_estimate("paper", ["01_a"], folder=tmp_path) is None        # nothing recorded
    (tmp_path / "plan-paper.json").write_text("{not json")
    assert plan.recorded_estimate("paper", ["01_a"], folder=tmp_path) is None


def test_estimates_read_in_minutes_or_hours():
    assert plan._minutes(16 / 3600) == "under 1 min"            # paper 4's whole plan: 16 s
    assert plan._minutes(0.1) == "6 min"
    assert plan._minutes(1086.44) == "1,086 h"


def test_one_job_class_serves_the_notebooks_and_the_plan(tmp_path, monkeypatch):
    """`estimate.Job` (what a notebook writes) is `plan.Job` (what a plan reads back): a planned job's record
    round-trips through its file unchanged, and plan.json's rows keep the record's fields in their order."""
    from memlib.harness import estimate
    assert estimate.Job is plan.Job
    x = torch.randn(2, 1, 8, 8)
    context.activate(RunContext(plan_dir=tmp_path / "plan", notebook="nb"))     # as Run(..., plan_dir=...) does
    estimate.Job("band", BUILD, x, 12, [0, 1], fit_kwargs={k: v for k, v in FIT.items() if k != "steps"}).band()
    (job,) = plan.jobs(tmp_path / "plan")
    record = jobfile.load_payload(tmp_path / "plan" / "jobs" / job.file)["job"]
    assert list(record) == list(plan.RECORD) and job.record() == record and plan.Job.from_record(record) == job
    assert (job.name, job.key, job.build, job.x, job.n_models, job.model_steps) == (job.keys[0], job.keys[0], None,
                                                                                    None, 2, 24)
    plan.write_json(tmp_path / "plan.json", [job], profile="smoke", costs={job.key: {"est_s": 1.0}})
    (row,) = json.loads((tmp_path / "plan.json").read_text())["jobs"]
    assert list(row) == [*plan.RECORD, "est_s"]


def test_train_until_stable_halves_the_rate_past_gradient_descents_limit(tmp_path, capsys):
    # one weight w on the input x = 10: the loss (w x - x)^2 has curvature 2 x^2 = 200, so gradient descent is
    # stable only for lr < 2 / 200 = 0.01 (closed form): 0.015 diverges, its half 0.0075 trains to w = 1
    x = torch.full((1, 1), 10.0)
    job = plan.Job("one weight", functools.partial(torch.nn.Linear, 1, 1, bias=False), x, 400, [0],
                   fit_kwargs=dict(optimizer="sgd", lr=0.015, progress=False))
    ((model, hist),), lr = job.train_until_stable(cache=store.Cache(tmp_path))
    assert lr == 0.0075 and "again at half the rate" in capsys.readouterr().out
    assert abs(model.weight.item() - 1) < 1e-4 and hist.final_loss < 1e-6
    stable = plan.Job("one weight", job.build, x, 400, [0], fit_kwargs=dict(optimizer="sgd", lr=0.005, progress=False))
    assert stable.train_until_stable(cache=store.Cache(tmp_path))[1] == 0.005          # no divergence: its own rate
    never = plan.Job("one weight", job.build, x, 400, [0], fit_kwargs=dict(optimizer="sgd", lr=1.0, progress=False))
    with pytest.raises(Exception, match="diverged"):                                   # 1 / 8 still past 0.01
        never.train_until_stable(cache=store.Cache(tmp_path), halvings=3)


def test_train_together_leaves_a_diverging_job_to_where_it_is_used(tmp_path, monkeypatch):
    from memlib.harness import estimate
    monkeypatch.setattr(store, "_default_cache", store.Cache(tmp_path))
    x = torch.full((1, 1), 10.0)                      # gradient descent stable below lr 0.01 (see the test above)
    build = functools.partial(torch.nn.Linear, 1, 1, bias=False)
    jobs = [plan.Job(f"lr {lr}", build, x, 400, [0], fit_kwargs=dict(optimizer="sgd", lr=lr))
            for lr in (0.015, 0.005)]
    estimate.train_together(jobs, workers=2, progress=False)       # the first diverges: no exception here
    assert jobs[1].train(progress=False)[0][1].final_loss < 1e-6
    assert jobs[0].train_until_stable(progress=False)[1] == 0.0075
