import json
import functools

import pytest
import torch

from memlib import models, runtime, train
from memlib.harness import store
from memlib.harness.run import Run


def test_cache_hit_does_not_retrain(tmp_path, monkeypatch):
    calls = []
    real_fit = train.fit

    def counting_fit(*a, **k):
        calls.append(1)
        return real_fit(*a, **k)

    monkeypatch.setattr(store, "fit", counting_fit)
    cache = store.Cache(tmp_path)
    x = torch.randn(1, 1, 8, 8)
    build = functools.partial(models.convnet, 2, channels=4)
    m1, h1 = store.fit_cached(build, x, seed=3, cache=cache, steps=20, lr=0.01, progress=False)
    m2, h2 = store.fit_cached(build, x, seed=3, cache=cache, steps=20, lr=0.01, progress=False)
    assert len(calls) == 1 and cache.hits == 1 and cache.misses == 1
    assert all(torch.equal(a, b) for a, b in zip(m1.state_dict().values(), m2.state_dict().values()))
    assert h1.loss == h2.loss
    # any change of configuration is a miss: seed, data, training arguments, builder arguments
    store.fit_cached(build, x, seed=4, cache=cache, steps=20, lr=0.01, progress=False)
    store.fit_cached(build, x + 1, seed=3, cache=cache, steps=20, lr=0.01, progress=False)
    store.fit_cached(build, x, seed=3, cache=cache, steps=21, lr=0.01, progress=False)
    store.fit_cached(functools.partial(models.convnet, 2, channels=5), x, seed=3, cache=cache, steps=20, lr=0.01,
                     progress=False)
    assert len(calls) == 5


def test_cached_model_equals_a_fresh_training(tmp_path):
    x = torch.randn(2, 1, 8, 8)
    build = functools.partial(models.convnet, 3, channels=4)
    m, _ = store.fit_cached(build, x, seed=1, cache=store.Cache(tmp_path), steps=15, lr=0.01, momentum=0.9,
                            progress=False)
    ref = store.build_model(build, seed=1)
    train.fit(ref, x, steps=15, lr=0.01, momentum=0.9, seed=1, progress=False)
    assert all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), ref.state_dict().values()))


@pytest.mark.parametrize("damage", ["truncate", "garbage", "wrong_config"])
def test_corrupt_cache_entry_is_recomputed(tmp_path, damage):
    cache = store.Cache(tmp_path)
    cfg = {"a": 1}
    cache.save(cfg, {"v": torch.ones(3)})
    path = cache.path(cfg)
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:40])
    elif damage == "garbage":
        path.write_bytes(b"not a torch file")
    else:
        torch.save({"config": {"a": 2}, "value": {"v": torch.zeros(3)}}, path)
    with pytest.warns(UserWarning, match="corrupt.*recomputing"):
        value = cache.get_or_compute(cfg, lambda: {"v": torch.full((3,), 5.0)})
    assert torch.equal(value["v"], torch.full((3,), 5.0))
    assert torch.equal(cache.load(cfg)["v"], torch.full((3,), 5.0))   # the repaired entry is stored


def test_a_folder_in_place_of_an_entry_is_replaced_by_the_recomputed_entry(tmp_path):
    """A folder at an entry's path holds no trained model: the net is trained (once) and stored in its place, with
    the corrupt-entry warning and corrupt.log line, rather than failing in the notebook's cell on the folder."""
    cache = store.Cache(tmp_path / "cache")
    x = torch.randn(1, 1, 8, 8)
    build = functools.partial(models.convnet, 2, channels=4)
    kw = dict(steps=5, lr=0.01, progress=False)
    path = cache.root / f"{store.cache_key(build, x, seed=2, **kw)}.pt"
    (path / "inside").mkdir(parents=True)
    (path / "inside" / "file").write_text("not a model")
    assert not store.is_cached(build, x, seed=2, cache=cache, **kw)
    with pytest.warns(UserWarning, match=r"corrupt \(a folder, not a memlib cache file\).*recomputing"):
        (model, hist), = store.fit_cached_seeds(build, x, seeds=[2], cache=cache, **kw)
    assert path.is_file() and cache.misses == 1 and hist.steps[-1] == 5          # trained, stored
    assert "is corrupt (a folder" in (cache.root / "corrupt.log").read_text()
    assert store.is_cached(build, x, seed=2, cache=cache, **kw)
    again, _ = store.fit_cached(build, x, seed=2, cache=cache, **kw)
    assert cache.hits == 1 and all(torch.equal(a, b) for a, b in zip(model.state_dict().values(),
                                                                       again.state_dict().values()))


def test_a_folder_in_place_of_an_entry_that_cannot_be_removed_is_one_line_naming_it(tmp_path, monkeypatch):
    cache = store.Cache(tmp_path)
    cfg = {"a": 1}
    cache.path(cfg).mkdir()

    def refuse(path, *a, **k):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(__import__("shutil"), "rmtree", refuse)        # as a folder of another user's files
    calls = []
    with pytest.raises(store.CacheUnwritable) as e:
        cache.get_or_compute(cfg, lambda: calls.append(1) or {"v": torch.ones(1)})
    line = str(e.value)
    assert len(line.splitlines()) == 1 and str(cache.path(cfg)) in line and f"rm -r {cache.path(cfg)}" in line
    assert "Permission denied" in line and calls == []                  # refused before computing


def test_lambda_builders_are_refused():
    with pytest.raises(ValueError, match="functools.partial"):
        store.fit_cached(lambda: models.fcn(4, 0), torch.randn(1, 4), steps=1, lr=0.1)


def test_run_writes_metrics_and_provenance(tmp_path):
    run = Run("01_identity_vs_constant", profile="smoke", device="cpu", results_dir=tmp_path)
    run.log(**{"fig2.linear1_vs_eq1_rel_err": 1e-6, "band": torch.tensor([0.5, 0.25]), "one": torch.tensor(2.0)})
    hist = lambda loss: type("H", (), {"final_loss": loss})()
    ratios = run.log_fit("fig3a.depth5", [hist(0.1), hist(0.2)], torch.full((1, 4), 2.0))   # zero prediction's MSE: 4
    assert ratios == [0.025, 0.05] and run.metrics["fig3a.depth5.final_loss"] == [0.1, 0.2]
    assert run.metrics["band"] == [0.5, 0.25] and run.metrics["one"] == 2.0
    assert run.pick(smoke=1, quick=2, paper=3) == 1
    rows = run.finish()
    d = tmp_path / "smoke" / "01_identity_vs_constant"
    assert (d / "metrics.json").exists() and (d / "provenance.json").exists()
    assert json.loads((d / "provenance.json").read_text())["numerics"]["policy"] == runtime.NUMERICS
    assert rows and all(r["outcome"] in ("reproduced", "not reproduced", "not run") for r in rows)
    Run("01_identity_vs_constant", profile="smoke", device="cpu", results_dir=tmp_path)   # a new run starts:
    assert not (d / "provenance.json").exists() and not (d / "metrics.json").exists()         # no stale results
    with pytest.raises(ValueError, match="smoke, quick, full, paper"):
        Run("x", profile="fast", results_dir=tmp_path)


def test_seed_band_trains_misses_together_and_shares_fit_cacheds_keys(tmp_path, monkeypatch):
    cache = store.Cache(tmp_path)
    x = torch.randn(1, 1, 8, 8)
    build = functools.partial(models.convnet, 2, channels=4)
    kw = dict(steps=15, lr=0.01, momentum=0.9, progress=False)
    single, _ = store.fit_cached(build, x, seed=1, cache=cache, **kw)       # seed 1 is now cached
    calls = []
    real_fit, real_fit_many = train.fit, store.fit_many
    monkeypatch.setattr(store, "fit", lambda m, *a, **k: calls.append(1) or real_fit(m, *a, **k))
    monkeypatch.setattr(store, "fit_many", lambda m, *a, **k: calls.append(len(m)) or real_fit_many(m, *a, **k))
    band = store.fit_cached_seeds(build, x, seeds=[0, 1, 2], cache=cache, **kw)
    assert calls == [2]                                                      # seeds 0 and 2, in one call
    assert all(torch.equal(a, b) for a, b in zip(band[1][0].state_dict().values(), single.state_dict().values()))
    ref, _ = store.fit_cached(build, x, seed=2, cache=store.Cache(tmp_path / "fresh"), **kw)
    for a, b in zip(band[2][0].state_dict().values(), ref.state_dict().values()):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)
    store.fit_cached_seeds(build, x, seeds=[0, 1, 2], cache=cache, **kw)
    assert calls == [2, 1]                                                   # (the fresh single fit above)
    store.fit_cached_seeds(build, x, seeds=[0, 1, 2], cache=cache, **kw)
    assert calls == [2, 1]                                                   # everything is a hit now


def test_train_together_stores_what_each_job_would_train_alone_and_a_shared_job_once(tmp_path, monkeypatch):
    """`estimate.train_together` trains the jobs the cache lacks in parallel threads (one intra-op thread each):
    every model must be the one its own `train` gives (initial weights from its seed, though the threads seed
    the global RNG at the same time), a job listed twice trains once, and a cached job is not trained again."""
    from memlib.harness import estimate
    x = torch.randn(3, 1, 8, 8)
    kw = dict(lr=0.01, momentum=0.9)
    jobs = [estimate.Job(f"fcn {h}", functools.partial(models.fcn, 64, h, width=32), x, 30, [0, 1], fit_kwargs=kw)
            for h in (1, 2, 3)]
    monkeypatch.setattr(store, "_default_cache", store.Cache(tmp_path / "alone"))    # restored afterwards
    alone = [j.train(progress=False) for j in jobs]
    monkeypatch.setattr(store, "_default_cache", store.Cache(tmp_path / "together"))
    jobs[2].train(progress=False)                                        # already cached: not trained again
    cache = store.default_cache()
    calls = []
    real_fit_many = store.fit_many
    monkeypatch.setattr(store, "fit_many", lambda *a, **k: calls.append(len(a[0])) or real_fit_many(*a, **k))
    estimate.train_together(jobs + [jobs[0]], workers=2, progress=False)
    assert sorted(calls) == [2, 2]                                       # jobs 0 and 1, each once
    together = [j.train(progress=False) for j in jobs]
    assert cache.hits >= 6
    for band_a, band_t in zip(alone, together):
        for (ma, ha), (mt, ht) in zip(band_a, band_t):
            assert all(torch.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in
                       zip(ma.state_dict().values(), mt.state_dict().values()))
            assert ha.final_loss == pytest.approx(ht.final_loss, rel=1e-4)
