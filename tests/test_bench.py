"""`python -m memlib bench`'s FLOP accounting: the counted FLOPs of a small net against a closed form, and the
share-of-peak fields of a tiny bench run (a few steps: the rates are not measurements)."""
from __future__ import annotations

import functools
import json

import pytest
import torch

from memlib.harness import bench
from memlib import models


def test_flop_count_of_a_one_hidden_layer_fcn_is_the_closed_form():
    # Linear(784, 256) -> ReLU -> Linear(256, 784) on a batch of B: each layer's forward is 2 B in out FLOP;
    # backward, the second layer computes its input gradient and its weight gradient (2 B in out each), the
    # first only its weight gradient (x needs no gradient): 5 x 2 B 784 256. Biases and ReLU are not counted.
    for batch in (1, 4):
        x = torch.randn(batch, 1, 28, 28)
        assert bench.flops_per_step(functools.partial(models.fcn, 784, 1, width=256), x) == 5 * 2 * batch * 784 * 256


def test_flop_count_of_a_two_layer_convnet_is_the_closed_form():
    # Conv 1 -> 3 then 3 -> 1, 5x5, 'same' padding, on 8x8: each forward 2 k^2 c_in c_out H W = 2 * 25 * 3 * 64;
    # backward: the second layer both gradients (2x its forward), the first its weight gradient only (1x).
    x = torch.randn(1, 1, 8, 8)
    one_layer = 2 * 25 * 3 * 64
    assert bench.flops_per_step(functools.partial(models.convnet, 2, channels=3), x) == (2 + 3) * one_layer


def test_matmul_peak_is_a_positive_rate():
    peak = bench.matmul_peak(64, repeats=2)
    assert peak["flop"] == 2 * 64 ** 3 and peak["seconds"] > 0
    assert peak["gflop_per_s"] == pytest.approx(peak["flop"] / peak["seconds"] / 1e9, rel=1e-2)


@pytest.mark.parametrize("flop,nbytes,dispatches,bound", [
    (4e9, 1e8, 10, "compute"),         # 40 ms of arithmetic against 10 ms of bytes and 1 ms of dispatches
    (1e9, 8e8, 10, "memory"),          # 80 ms of bytes
    (1e6, 1e6, 2000, "dispatch"),      # 200 ms of dispatches, the arithmetic and the bytes next to nothing
])
def test_the_binding_limit_is_the_largest_time_and_the_share_is_the_rate_over_it(flop, nbytes, dispatches, bound):
    machine = dict(gflop_per_s=100.0, bytes_per_s=1e10, seconds_per_dispatch=1e-4)
    times = {"compute": flop / 100e9, "memory": nbytes / 1e10, "dispatch": dispatches * 1e-4}
    for rate in (0.5 / times[bound], 1 / times[bound], 0.01):              # slower than the roofline, or at it
        r = bench.roofline(rate, flop, nbytes, dispatches, **machine)
        assert r["bound"] == bound == max(times, key=times.get)
        assert r["seconds"] == pytest.approx(times)
        assert 0 < r["share"] <= 1 + 1e-12 and r["share"] == pytest.approx(rate * times[bound])


def test_traffic_counts_each_operator_and_the_bytes_it_reads_and_writes():
    a, b = torch.randn(3, 5), torch.randn(5, 7)
    with bench.Traffic() as t:
        c = torch.mm(a, b)
    assert t.dispatches == 1 and t.bytes == 4 * (3 * 5 + 5 * 7 + 3 * 7) and c.shape == (3, 7)
    with bench.Traffic() as t:
        a.view(15)                                                           # a view moves nothing
        a.add_(1.0)                                                          # in place: read and written
    assert t.dispatches == 2 and t.bytes == 4 * 15 * 2


def test_step_traffic_counts_per_model_step_and_not_what_a_run_does_once():
    def run(m, steps):                       # a set-up of 5 operators, then 2 per model and step
        x = torch.zeros(4)
        for _ in range(5):
            x = x + 1
        for _ in range(m * steps):
            x.mul_(1.0)
            x.add_(1.0)
    out = bench.step_traffic(run, 3, steps=2)
    assert out["dispatches"] == 2 and out["bytes"] == 2 * 4 * 4 * 2         # each reads and writes 4 floats


def test_the_bandwidth_and_the_fixed_cost_are_positive_measurements():
    mem = bench.memory_bandwidth(1 << 16, repeats=2)
    assert mem["bytes"] == 2 * (1 << 16) and mem["seconds"] > 0
    assert mem["gb_per_s"] == pytest.approx(mem["bytes"] / mem["seconds"] / 1e9, rel=1e-2)
    cost = bench.dispatch_cost(steps=5, repeats=1)
    assert cost["dispatches_per_step"] > 5 and cost["seconds_per_dispatch"] > 0
    assert cost["seconds_per_dispatch"] == pytest.approx(cost["seconds_per_step"] / cost["dispatches_per_step"])


@pytest.mark.device
def test_a_tiny_bench_reports_flop_rates_and_their_share_of_the_peak(tmp_path, capsys):
    out = bench.run_bench(steps=3, warmup=1, repeats=1, cases=["fcn1x256"], results_dir=tmp_path, peak_size=128,
                          target_s=0.01, copy_bytes=1 << 20)
    saved = json.loads((tmp_path / "bench.json").read_text())
    assert saved["cases"] == out["cases"] and saved["peak"] == out["peak"] and out["peak"]["gflop_per_s"] > 0
    assert [r["models"] for r in out["cases"]] == [1, 3]                   # the case's own model counts
    for r in out["cases"]:
        assert r["flop_per_model_step"] == 5 * 2 * 784 * 256
        for who in ("naive", "memlib"):
            rate, gflops, pct = (r[f"{who}_model_steps_per_s"], r[f"{who}_gflop_per_s"], r[f"{who}_pct_of_peak"])
            assert rate > 0 and gflops > 0 and pct > 0
            assert gflops == pytest.approx(rate * r["flop_per_model_step"] / 1e9, rel=0.01, abs=1e-3)
            assert pct == pytest.approx(100 * gflops / out["peak"]["gflop_per_s"], rel=0.01, abs=1e-2)
            assert r[f"{who}_bound"] in bench.LIMITS and r[f"{who}_pct_of_roofline"] > 0
            assert r[f"{who}_dispatches_per_model_step"] > 0 and r[f"{who}_bytes_per_model_step"] > 0
            times = r[f"{who}_roofline_seconds"]
            assert r[f"{who}_bound"] == max(times, key=times.get)
    assert out["memory"]["gb_per_s"] > 0 and out["dispatch"]["seconds_per_dispatch"] > 0
    table = capsys.readouterr().out
    assert "GFLOP/s" in table and "%peak" in table and "peak: float32 matmul" in table
    assert "%roof" in table and "bound" in table and "GB/s moved" in table and "per dispatch" in table
