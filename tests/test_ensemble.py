"""fit_many trains M models as one computation; each must match its own serial fit."""
import functools

import pytest
import torch

from memlib import ensemble, models
from memlib.ensemble import choose_strategy, clip_per_model_
from memlib.harness.store import build_model
from memlib.train import fit, fit_many


def _serial_and_batched(build, x, seeds, strategy="batched", **kw):
    serial = [build_model(build, seed=s) for s in seeds]
    hist_serial = [fit(m, x, progress=False, **kw) for m in serial]
    batched = [build_model(build, seed=s) for s in seeds]
    hist_batched = fit_many(batched, x, progress=False, strategy=strategy, **kw)
    return serial, batched, hist_serial, hist_batched


@pytest.mark.device
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


@pytest.mark.device
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


@pytest.mark.device
def test_until_loss_stops_each_model_where_its_own_fit_would():
    build = functools.partial(models.fcn, 8, 0, bias=False)
    x = torch.randn(1, 8)
    serial, batched, hs, hb = _serial_and_batched(build, x, [0, 1, 2], steps=2000, lr=0.05, until_loss=1e-4)
    stops = [h.stopped_at for h in hs]
    assert all(s is not None for s in stops) and len(set(stops)) > 1    # they stop at different steps
    assert [h.stopped_at for h in hb] == stops
    for a, b in zip(serial, batched):
        for p, q in zip(a.parameters(), b.parameters()):
            torch.testing.assert_close(q, p, rtol=1e-5, atol=1e-6)
    for a, b in zip(hs, hb):
        assert a.steps == b.steps


def _bn_net():
    return torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))


@pytest.mark.device
def test_what_cannot_be_stacked_is_trained_serially_with_its_reason(capsys):
    x = torch.randn(8, 3)
    ensemble._warned.clear()                                          # said once per reason per session
    hb = fit_many([build_model(_bn_net, seed=s) for s in (0, 1)], x, steps=5, lr=0.1, progress=False,
                  seeds=[0, 1])
    assert "models one after another" in capsys.readouterr().out     # information, not a warning box
    hs = [fit(build_model(_bn_net, seed=s), x, steps=5, lr=0.1, progress=False, seed=s) for s in (0, 1)]
    assert [h.loss for h in hb] == [h.loss for h in hs]
    assert choose_strategy([_bn_net()])[0] == "serial"
    assert choose_strategy([models.convnet(2, channels=3)] * 2, batch_size=4) == (
        "serial", "minibatch orders are per-model (seeded by each model's seed)")
    assert choose_strategy([models.convnet(2, channels=3), models.convnet(2, channels=4)])[1] == \
        "the models differ in architecture"
    with pytest.raises(ValueError, match="cannot be trained batched: BatchNorm"):
        fit_many([_bn_net(), _bn_net()], x, steps=1, lr=0.1, strategy="batched")
    with pytest.raises(ValueError, match="strategy"):
        fit_many([_bn_net()], x, steps=1, lr=0.1, strategy="fast")


def test_auto_strategy_trains_big_models_serially(monkeypatch):
    small, big = [models.convnet(2, channels=3)] * 2, [models.fcn(64, 1, width=64)] * 2
    wide_fcn = [models.fcn(784, 3, width=2048)] * 2                      # the bench's fcn3x2048
    assert choose_strategy(wide_fcn) == ("serial", None) and choose_strategy(small) == ("batched", None)
    assert choose_strategy([models.convnet(20, channels=32, kernel=5)] * 3) == ("batched", None)   # grouped
    assert choose_strategy([models.convnet(5, channels=128)] * 3) == ("serial", None)             # too wide
    monkeypatch.setitem(ensemble.BATCHED_LIMITS, "cpu", dict(params=1000, linear_params=1000, conv_channels=2))
    assert choose_strategy(small) == ("serial", None) and choose_strategy(big) == ("serial", None)
    assert choose_strategy(big, "batched") == ("batched", None)


def _strided_leaky_convnet():
    return torch.nn.Sequential(torch.nn.Conv2d(3, 5, 3, stride=2, padding=1), torch.nn.LeakyReLU(0.1),
                               torch.nn.Conv2d(5, 4, 3, padding=1, bias=False), torch.nn.Tanh(),
                               torch.nn.Conv2d(4, 3, 1))


@pytest.mark.device
def test_grouped_forward_equals_each_models_own_forward():
    from torch.func import stack_module_state
    nets = [build_model(_strided_leaky_convnet, seed=s) for s in range(3)]
    params, _ = stack_module_state(nets)
    x = torch.randn(2, 3, 8, 8)
    out = ensemble.grouped_forward(nets[0], params, x, 3)              # (N, M, C, H, W)
    assert out.shape == (2, 3, 3, 4, 4)
    for i, net in enumerate(nets):
        torch.testing.assert_close(out[:, i], net(x), rtol=1e-5, atol=1e-6)


def test_what_grouped_forward_accepts():
    assert ensemble.is_plain_convnet(models.convnet(3, channels=4))
    assert ensemble.is_plain_convnet(_strided_leaky_convnet())
    assert not ensemble.is_plain_convnet(models.fcn(36, 2, width=8))
    assert not ensemble.is_plain_convnet(torch.nn.Sequential(torch.nn.Conv2d(2, 2, 3, groups=2)))
    assert not ensemble.is_plain_convnet(torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2)))
    assert not ensemble.is_plain_convnet(torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.Flatten()))


def test_channels_last_weights_are_views_that_change_no_bit_of_training(monkeypatch):
    """On a CPU a band's stacked convolution weights are stored channels-last, so that grouped_forward's
    (M * C_out, C_in, k, k) view of them needs no copy; the trained weights and losses must be those of the plain
    layout (same values, same kernels; bit for bit where oneDNN sums both layouts alike), with clipping, momentum and
    until_loss."""
    w = torch.randn(3, 4, 5, 3, 3)
    cl = ensemble.channels_last_weight(w)
    assert torch.equal(cl, w) and not cl.is_contiguous()
    view = cl.reshape(-1, *cl.shape[2:])
    assert view.data_ptr() == cl.data_ptr() and view.is_contiguous(memory_format=torch.channels_last)
    bias = torch.randn(3, 4)
    assert torch.equal(ensemble.channels_last_weight(bias), bias) and ensemble.channels_last_weight(bias) is not bias

    x = torch.rand(1, 1, 12, 12, generator=torch.Generator().manual_seed(0))
    stacked = ensemble.Stacked([models.convnet(3, channels=4) for _ in range(2)], x, None, torch.nn.functional.mse_loss)
    assert not stacked.named["2.weight"].is_contiguous() and stacked.named["2.bias"].is_contiguous()
    trained = {}
    for layout in ("channels_last", "plain"):
        if layout == "plain":
            monkeypatch.setattr(ensemble, "channels_last_weight", torch.Tensor.clone)
        nets = [build_model(functools.partial(models.convnet, 4, channels=6), seed=s) for s in range(3)]
        hists = fit_many(nets, x, steps=30, lr=0.05, momentum=0.9, clip_grad_norm=0.5, until_loss=1e-3,
                         progress=False, strategy="batched")
        trained[layout] = [torch.cat([p.detach().flatten() for p in m.parameters()]) for m in nets], hists
    (w_cl, h_cl), (w_plain, h_plain) = trained["channels_last"], trained["plain"]
    # Bit for bit on session 15's Xeon (AVX-512, and AVX2 pinned at one thread); on an AMD EPYC with AVX2 (session 16)
    # oneDNN's channels-last kernels sum in another order and the last bits differ: the same values to float32's
    # rounding, carried through 30 steps. The arithmetic a model cache records is the machine's (provenance.json).
    for a, b in zip(w_cl, w_plain):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)
    for a, b in zip(h_cl, h_plain):
        assert a.steps == b.steps
        torch.testing.assert_close(torch.tensor(a.loss), torch.tensor(b.loss), rtol=1e-5, atol=1e-7)


@pytest.mark.device
def test_batched_strided_convnet_matches_serial_fits():
    x = torch.randn(2, 3, 8, 8)
    target = torch.randn(2, 3, 4, 4)
    serial = [build_model(_strided_leaky_convnet, seed=s) for s in (0, 1)]
    hs = [fit(m, x, target, steps=20, lr=0.05, momentum=0.9, progress=False) for m in serial]
    batched = [build_model(_strided_leaky_convnet, seed=s) for s in (0, 1)]
    hb = fit_many(batched, x, target, steps=20, lr=0.05, momentum=0.9, progress=False, strategy="batched")
    for a, b in zip(serial, batched):
        for (n, p), q in zip(a.named_parameters(), b.parameters()):
            torch.testing.assert_close(q, p, rtol=1e-4, atol=1e-5, msg=n)
    for a, b in zip(hs, hb):
        torch.testing.assert_close(torch.tensor(b.loss), torch.tensor(a.loss), rtol=1e-4, atol=1e-6)


@pytest.mark.device
def test_seed_band_cache_matches_single_fits_with_minibatches():
    from memlib.harness.store import fit_cached, fit_cached_seeds
    build = functools.partial(models.fcn, 4, 1, width=8)
    x = torch.randn(10, 4)
    band = fit_cached_seeds(build, x, seeds=[3, 4], steps=12, lr=0.05, batch_size=4, progress=False)
    for s, (m, h) in zip([3, 4], band):
        ref = build_model(build, seed=s)
        hr = fit(ref, x, steps=12, lr=0.05, batch_size=4, seed=s, progress=False)
        assert h.loss == hr.loss
        m2, h2 = fit_cached(build, x, seed=s, steps=12, lr=0.05, batch_size=4, progress=False)
        assert h2.loss == h.loss   # the band's entries are fit_cached's entries


@pytest.mark.device
def test_bench_writes_its_table(tmp_path):
    import json

    from memlib.harness.bench import run_bench
    out = run_bench(model_counts=(1, 2), steps=2, warmup=1, repeats=1, cases=["convnet5x32"], results_dir=tmp_path)
    saved = json.loads((tmp_path / "bench.json").read_text())
    assert saved["cases"] == out["cases"]
    assert [r["models"] for r in out["cases"] if "cuda-graph" not in r["case"]] == [1, 2]   # + graph vs eager on CUDA
    assert all(r["naive_model_steps_per_s"] > 0 and r["memlib_model_steps_per_s"] > 0 for r in out["cases"])


def test_large_ensembles_train_in_groups_like_serial_fits(monkeypatch):
    monkeypatch.setitem(ensemble.BATCHED_LIMITS, "cpu", dict(ensemble.BATCHED_LIMITS["cpu"], group=2))
    build = functools.partial(models.convnet, 2, channels=3)
    serial, batched, hs, hb = _serial_and_batched(build, torch.randn(1, 1, 6, 6), [0, 1, 2, 3, 4], steps=10,
                                                  lr=0.05, momentum=0.9)
    assert len(hb) == 5
    for a, b in zip(serial, batched):
        for p, q in zip(a.parameters(), b.parameters()):
            torch.testing.assert_close(q, p, rtol=1e-4, atol=1e-5)


def test_big_models_in_threads_match_serial_fits_and_restore_threads(monkeypatch):
    monkeypatch.setitem(ensemble.BATCHED_LIMITS, "cpu", dict(ensemble.BATCHED_LIMITS["cpu"], params=10))
    saved = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        build = functools.partial(models.fcn, 36, 2, width=16)
        assert choose_strategy([build()] * 4) == ("serial", None)
        serial, threaded, hs, ht = _serial_and_batched(build, torch.randn(1, 1, 6, 6), [0, 1, 2, 3], strategy="auto",
                                                       steps=15, lr=0.05, momentum=0.9)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(saved)
    for a, b in zip(serial, threaded):
        for p, q in zip(a.parameters(), b.parameters()):
            torch.testing.assert_close(q, p, rtol=1e-5, atol=1e-6)
    for a, b in zip(hs, ht):
        assert a.steps == b.steps and a.loss == pytest.approx(b.loss, rel=1e-5)
