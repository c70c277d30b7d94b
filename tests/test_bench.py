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


@pytest.mark.device
def test_a_tiny_bench_reports_flop_rates_and_their_share_of_the_peak(tmp_path, capsys):
    out = bench.run_bench(steps=3, warmup=1, repeats=1, cases=["fcn1x256"], results_dir=tmp_path, peak_size=128,
                          target_s=0.01)
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
    table = capsys.readouterr().out
    assert "GFLOP/s" in table and "%peak" in table and "peak: float32 matmul" in table
