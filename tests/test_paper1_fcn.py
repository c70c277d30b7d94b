"""Paper 1, worker A: seed-band scores, multi-example scores, run-time estimates."""
import functools

import pytest
import torch

from memlib.harness import estimate
from memlib import metrics, models
from memlib.harness.store import Cache, fit_cached, set_default_cache


class Const(torch.nn.Module):
    """Maps every input to a fixed image (the constant map)."""

    def __init__(self, img):
        super().__init__()
        self.img = torch.nn.Parameter(img.clone())

    def forward(self, x):
        return self.img.expand(len(x), *self.img.shape[1:])


class Ident(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(()))

    def forward(self, x):
        return self.w * x


def test_band_scores_mean_and_std_against_numpy():
    g = torch.Generator().manual_seed(0)
    x_train = torch.randn(1, 1, 6, 6, generator=g)
    probes = torch.randn(5, 1, 6, 6, generator=g)
    band = [Ident(), Const(x_train), Const(torch.randn(1, 1, 6, 6, generator=g))]
    singles = [metrics.identity_constant_scores(m, probes, x_train) for m in band]
    s = metrics.band_scores(band, probes, x_train)
    for k in singles[0]:
        vals = torch.tensor([d[k] for d in singles], dtype=torch.float64)
        assert s[k] == pytest.approx(vals.mean().item())
        assert s[k + "_std"] == pytest.approx(vals.std(unbiased=False).item())   # population std
    assert singles[1]["corr_constant"] == pytest.approx(1.0)   # the second model is exactly the constant map
    assert metrics.band_scores([Ident()], probes, x_train)["corr_identity_std"] == 0.0


def test_multi_example_scores_identity_and_memorizer():
    g = torch.Generator().manual_seed(1)
    train = torch.randn(3, 1, 5, 5, generator=g)
    probes = torch.randn(7, 1, 5, 5, generator=g)
    s = metrics.multi_example_scores(Ident(), probes, train)
    assert s["corr_identity"] == pytest.approx(1.0, abs=1e-6)
    # brute force: the largest |Pearson| ... here signed max over the training examples
    brute = []
    for p in probes.reshape(7, -1):
        brute.append(max(torch.corrcoef(torch.stack([p, t]))[0, 1].item() for t in train.reshape(3, -1)))
    assert s["corr_nearest_train"] == pytest.approx(sum(brute) / len(brute), abs=1e-5)
    s = metrics.multi_example_scores(Const(train[1:2]), probes, train)   # memorizes example 1
    assert s["corr_nearest_train"] == pytest.approx(1.0, abs=1e-6)


def test_format_duration():
    assert estimate.format_duration(4.24) == "4.2 s"
    assert estimate.format_duration(75) == "1 min 15 s"
    assert estimate.format_duration(3725) == "1 h 02 min"
    assert estimate.format_duration(3 * 86400) == "3.0 days"


def test_estimate_runtime_scales_and_skips_cached(tmp_path):
    set_default_cache(Cache(tmp_path))
    try:
        x = torch.randn(1, 1, 4, 4)
        build = functools.partial(models.fcn, 16, 1, width=8)
        calls = []

        def timer(build, x, target, *, probe_steps, **kw):
            calls.append(kw)
            return 0.01                                   # seconds per step, fixed
        jobs = [estimate.Job("a", build, x, steps=1000, seeds=[0, 1, 2], fit_kwargs=dict(lr=0.01)),
                estimate.Job("b", build, x, steps=2000, seeds=[0], fit_kwargs=dict(lr=0.01))]
        est = estimate.estimate_runtime(jobs, timer=timer)
        assert est["a"] == pytest.approx(30.0) and est["b"] == pytest.approx(20.0)
        assert est["total"] == pytest.approx(50.0)
        fit_cached(build, x, seed=1, steps=1000, lr=0.01, progress=False)   # seed 1 of job a is now cached
        est = estimate.estimate_runtime(jobs, timer=timer)
        assert est["a"] == pytest.approx(20.0)
        # the real timer runs: a positive per-step time
        assert estimate.step_time(build, x, probe_steps=2, lr=0.01) > 0
    finally:
        set_default_cache(None)


def test_band_summary_population_std():
    s = metrics.band_summary([{"a": 1.0, "b": 0.0}, {"a": 3.0, "b": 0.0}])
    assert s == {"a": 2.0, "a_std": 1.0, "a_seeds": [1.0, 3.0], "b": 0.0, "b_std": 0.0, "b_seeds": [0.0, 0.0]}
    assert metrics.seed_metrics("fig5.x", s) == {"fig5.x.a": [1.0, 3.0], "fig5.x.b": [0.0, 0.0]}
    with pytest.raises(ValueError):
        metrics.band_summary([])


def test_job_train_bottom_only_keeps_top_layer_and_matches_fit_cached(tmp_path):
    """Paper 1, Fig 6a: with parameters=bottom layer, the top layer stays at its initial value; a
    Job trains each seed exactly as fit_cached would (same cache entry)."""
    set_default_cache(Cache(tmp_path))
    try:
        x = torch.randn(1, 1, 4, 4, generator=torch.Generator().manual_seed(3))
        build = functools.partial(models.fcn, 16, 1, width=8)
        job = estimate.Job("bottom", build, x, steps=20, seeds=[0, 1],
                           fit_kwargs=dict(lr=0.01, momentum=0.9, parameters=["net.0.weight", "net.0.bias"]))
        fitted = job.train(progress=False)
        for seed, (model, hist) in zip([0, 1], fitted):
            init = models.fcn(16, 1, width=8) if torch.manual_seed(seed) else None
            assert torch.equal(model.net[2].weight.cpu(), init.net[2].weight)          # top layer untouched
            assert not torch.equal(model.net[0].weight.cpu(), init.net[0].weight)      # bottom layer trained
        again, _ = fit_cached(build, x, seed=1, steps=20, lr=0.01, momentum=0.9,
                              parameters=["net.0.weight", "net.0.bias"], progress=False)
        assert torch.equal(again.net[0].weight, fitted[1][0].net[0].weight)
        band = estimate.Job("band", build, x, steps=20, seeds=[0, 1], fit_kwargs=dict(lr=0.01)).train(progress=False)
        assert len(band) == 2 and band[0][1].final_loss < band[0][1].loss[0]
    finally:
        set_default_cache(None)
