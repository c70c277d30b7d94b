"""Paper 4's BatchNorm, both readings of Fig 1-4's.

Fig 1 (the nets of Fig 1-4): "Batch normalization is used", beside Fig 5's "Batch normalization is used without
parameters (affine=False in PyTorch)". Fig 1-4's nets are built with PyTorch's default BatchNorm (its scale and
shift, trained with weight decay), Fig 5's without; the parameter-free Fig 1-4 net is a departure notebook 04 trains
beside. Checked on the built modules, as notebook 04 and its explorer build them, and rho as the text defines it:
"the product of the Frobenius norms of the weight matrices of the L layers", BN's scale not among them.
"""
import json
from pathlib import Path

import pytest
import torch
from torch import nn

from memlib import models, rho as R
from memlib.recipes import paper4 as recipe
from memlib.runtime import PROFILES, set_device

NB4 = Path(__file__).parents[1] / "notebooks" / "04_rho_dynamics.ipynb"


@pytest.fixture(autouse=True)
def _cpu():
    set_device("cpu")


def _code() -> str:
    nb = json.loads(NB4.read_text())
    return "".join("".join(c["source"]) + "\n" for c in nb["cells"] if c["cell_type"] == "code")


def _settings(name: str) -> dict:
    """One of notebook 04's training settings (BNWD, BNWD_NO_AFFINE, BN), its set-up lines run with the recipe's
    values (quick's rates; a small width)."""
    code = _code()
    block = code[code.index("BNWD_NO_AFFINE = "):code.index("\nNONE = ")]           # BNWD_NO_AFFINE, BNWD, BN
    ns = dict(recipe=recipe, LR_WD=0.1, WD=recipe.WD, WIDTH=8, LR_BN=recipe.LR_BN, CHANNELS=4)
    exec(block, ns)
    return ns[name]


def _bns(net) -> list[nn.Module]:
    return [m for m in net.modules() if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d))]


def _build(settings: dict, **kw):
    keep = {k: v for k, v in settings.items() if k in ("width", "batchnorm", "conv", "bn_affine")}
    return models.classifier((1, 8, 8), layers=4, init_norm=1.0, **keep, **kw)


def test_fig1_4s_batchnorm_has_its_parameters_and_fig5s_has_none():
    """Paper 4, Fig 1: "Batch normalization is used" (PyTorch's default: affine); Fig 5: "without parameters"."""
    assert recipe.BN_AFFINE_WD is True and recipe.BN_AFFINE_NOWD is False
    bnwd = _bns(_build(_settings("BNWD")))
    assert len(bnwd) == 3 and all(m.affine and m.weight.requires_grad and m.bias.requires_grad for m in bnwd)
    fig5 = _bns(_build(_settings("BN")))
    assert len(fig5) == 3 and not any(m.affine for m in fig5)
    departure = _bns(_build(_settings("BNWD_NO_AFFINE")))
    assert len(departure) == 3 and not any(m.affine for m in departure)
    # the two Fig 1-4 builds differ by BatchNorm's parameters only
    assert {k: v for k, v in _settings("BNWD").items() if k != "bn_affine"} == _settings("BNWD_NO_AFFINE")


def test_the_explorer_builds_fig1_4_as_the_notebook_does():
    from memlib.widgets import rho as explore
    kw = explore.run_settings(True, recipe.WD, 0.1, epochs=1, width=8, channels=4)
    assert kw.get("bn_affine") is True and kw["weight_decay"] == recipe.WD
    assert "bn_affine" not in explore.run_settings(True, 0.0, 0.1, epochs=1, width=8, channels=4)     # Fig 5: none


def test_rho_is_the_weight_matrices_product_batchnorms_scale_left_out():
    """The text's rho counts the L layers' weight matrices; with BN's scale set to 3 the output triples, rho does
    not (either reading)."""
    net = _build(_settings("BNWD")).double().train()
    x = torch.randn(16, 1, 8, 8, dtype=torch.float64)
    before = (R.rho(net), R.rho(net, reading="bn"), net(x).detach())
    with torch.no_grad():
        _bns(net)[-1].weight.fill_(3.0)
        _bns(net)[-1].bias.zero_()
    assert (R.rho(net), R.rho(net, reading="bn")) == before[:2]
    assert torch.allclose(net(x).detach(), 3 * before[2], rtol=1e-9, atol=1e-12)


def test_the_parameter_free_build_is_the_departure_in_notebook_04s_table():
    for profile in PROFILES:
        rows = {r["setting"]: r for r in recipe.SETTINGS.departures(profile)}
        assert "BatchNorm's parameters, BN + weight decay (Fig 1-4)" not in rows     # the text's: no departure
        row = rows["BatchNorm without parameters, BN + weight decay (Fig 1-4), measured beside"]
        assert "Batch normalization is used" in row["paper"] and "affine=False" in row["ours"] and row["why"]
    code = _code()
    assert "run.departures_from(recipe.SETTINGS)" in code
    assert code.count("**BNWD_NO_AFFINE)") == 2                         # its init bands and its group
    table = recipe.bn_table()
    for _, claim, *keys in recipe.BN_ROWS:
        for k in keys:
            assert "{" + k.format(bn="bnwd") + "}" in table and "{" + k.format(bn=recipe.BNWD_OTHER) + "}" in table
