"""fit_many trains M models as one computation; each must match its own serial fit."""
import functools

import pytest
import torch

from memlib import models
from memlib.ensemble import clip_per_model_, fit_many
from memlib.store import build_model
from memlib.train import fit


def _serial_and_batched(build, x, seeds, **kw):
    serial = [build_model(build, seed=s) for s in seeds]
    hist_serial = [fit(m, x, progress=False, **kw) for m in serial]
    batched = [build_model(build, seed=s) for s in seeds]
    hist_batched = fit_many(batched, x, progress=False, **kw)
    return serial, batched, hist_serial, hist_batched


@pytest.mark.parametrize("build,kw", [
    (functools.partial(models.convnet, 3, channels=4), dict(lr=0.01, momentum=0.9, schedule="stagewise")),
    (functools.partial(models.fcn, 36, 2, width=16), dict(lr=0.05, momentum=0.9, clip_grad_norm=0.5)),
    (functools.partial(models.convnet, 2, channels=3), dict(lr=1e-3, optimizer="adam", weight_decay=1e-3)),
])
def test_batched_training_matches_serial_fits(build, kw):
    x = torch.randn(1, 1, 6, 6)
    serial, batched, hs, hb = _serial_and_batched(build, x, [0, 1, 2], steps=25, log_every=5, **kw)
    for a, b in zip(serial, batched):
        for (n, p), q in zip(a.named_parameters(), b.parameters()):
            torch.testing.assert_close(q, p, rtol=1e-4, atol=1e-5, msg=n)
    for a, b in zip(hs, hb):
        assert a.steps == b.steps
        torch.testing.assert_close(torch.tensor(b.loss), torch.tensor(a.loss), rtol=1e-4, atol=1e-6)
    # the seeds gave different models: the comparison above is not between identical nets
    assert not torch.allclose(batched[0][0].weight if isinstance(batched[0], torch.nn.Sequential)
                              else batched[0].net[0].weight,
                              batched[1][0].weight if isinstance(batched[1], torch.nn.Sequential)
                              else batched[1].net[0].weight)


def test_per_model_clipping_equals_torch_clipping():
    g = torch.Generator().manual_seed(0)
    grads = [torch.randn(3, 4, 5, generator=g) * 3, torch.randn(3, 7, generator=g)]
    stacked = [torch.zeros_like(t, requires_grad=True) for t in grads]
    for p, gr in zip(stacked, grads):
        p.grad = gr.clone()
    clip_per_model_(stacked, 1.0)
    for i in range(3):
        ref = [torch.zeros_like(t[i], requires_grad=True) for t in grads]
        for p, gr in zip(ref, grads):
            p.grad = gr[i].clone()
        torch.nn.utils.clip_grad_norm_(ref, 1.0)
        for p, r in zip(stacked, ref):
            torch.testing.assert_close(p.grad[i], r.grad)


def test_refuses_mixed_architectures_and_batchnorm():
    with pytest.raises(ValueError, match="one architecture"):
        fit_many([models.convnet(2, channels=3), models.convnet(2, channels=4)], torch.randn(1, 1, 5, 5),
                 steps=1, lr=0.1)
    bn = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    with pytest.raises(ValueError, match="BatchNorm"):
        fit_many([bn], torch.randn(4, 3), steps=1, lr=0.1)


def test_bench_writes_its_table(tmp_path):
    import json

    from memlib.bench import run_bench
    out = run_bench(model_counts=(1, 2), steps=2, warmup=1, repeats=1, cases=["convnet5x32"], results_dir=tmp_path)
    saved = json.loads((tmp_path / "bench.json").read_text())
    assert saved["cases"] == out["cases"] and [r["models"] for r in out["cases"]] == [1, 2]
    assert all(r["naive_model_steps_per_s"] > 0 and r["memlib_model_steps_per_s"] > 0 for r in out["cases"])
