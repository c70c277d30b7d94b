"""The profiles: `pick` (full defaults to the paper's value), and the full profile's parameters resolved in
every notebook on the CPU without training (the GPU run is benchmarks/gpu_check.sh)."""
import ast
import dataclasses
import re
from pathlib import Path

import nbformat
import pytest

from memlib import claims, runtime
from memlib.cli.common import NOTEBOOK_DIR, notebooks

NOTEBOOKS = [NOTEBOOK_DIR / f"{name}.ipynb" for name in notebooks()]     # the reproductions, not the tour
TRAINS = re.compile(r"fit_cached|\.band\(|train_group|train_seed_band|print_estimate|load_images|training_digit")


def test_pick_full_defaults_to_the_paper_value_and_rejects_unknown_profiles():
    assert runtime.pick("full", smoke=1, quick=2, paper=3) == 3
    assert runtime.pick("full", smoke=1, quick=2, full=5, paper=3) == 5
    assert runtime.pick("quick", smoke=1, quick=2, full=5, paper=3) == 2
    with pytest.raises(TypeError, match="missing \\['paper'\\]"):
        runtime.pick("full", smoke=1, quick=2, full=5)
    with pytest.raises(TypeError, match="unknown profiles \\['ful'\\]"):
        runtime.pick("quick", smoke=1, quick=2, ful=5, paper=3)


def test_the_ledger_full_column_is_the_claims_own_or_the_papers():
    c = claims.CLAIMS[0]
    without = dataclasses.replace(c, expect={"quick": claims.NOT_REPRODUCED, "paper": claims.REPRODUCED})
    assert without.expected("full") == claims.REPRODUCED and without.expected("smoke") == claims.NOT_RUN
    own = dataclasses.replace(c, expect={"quick": claims.REPRODUCED, "full": claims.NOT_REPRODUCED,
                                         "paper": claims.REPRODUCED})
    assert own.expected("full") == claims.NOT_REPRODUCED


def _fake_mnist(root: Path) -> Path:
    base = root / "MNIST" / "raw"
    base.mkdir(parents=True)
    for stem in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        (base / stem).write_bytes(b"")
    return root


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_the_full_profile_resolves_every_parameter(path, tmp_path, monkeypatch):
    """The set-up and parameter cells of each notebook under profile "full" (no training): every pick
    resolves, the sweeps' subsets are subsets, and full never exceeds the paper's step counts."""
    nb = nbformat.read(path, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    ns = {}
    exec(code[0], ns)                                                     # the parameters cell
    monkeypatch.setenv("MEMLIB_DATA_ROOT", str(_fake_mnist(tmp_path / "data")))   # "auto" finds MNIST, no CIFAR-10
    ns.update(profile="full", device="cpu", results_dir=str(tmp_path), data_root="auto", run_dir=str(tmp_path / "run"))
    exec(code[1], ns)                                                     # set-up: Run, datasets, shared settings
    assert ns["run"].profile == "full" and ns["run"].sources.get("mnist", "mnist") == "mnist"
    for src in code[2:]:
        if "pick(" in src and not TRAINS.search(src):
            try:
                exec(src, ns)
            except NameError:       # a cell that also uses earlier results: its pick statements alone
                for stmt in ast.parse(src).body:
                    if "pick(" in ast.get_source_segment(src, stmt):
                        exec(compile(ast.Module([stmt], []), "<cell>", "exec"), ns)
    if path.stem.startswith("01"):
        for name in ("VIS_DEPTHS", "FIG4A_DEPTHS", "FIG10_DEPTHS"):
            assert set(ns[name]) <= set(ns["DEPTHS"]), name
        assert ns["STEPS"] < 2_000_000 and ns["CHANNELS"] == 128 and ns["WIDTH"] == 2048   # paper 1, App. B
