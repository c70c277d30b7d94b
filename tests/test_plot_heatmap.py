"""One annotated heatmap (memlib.plot.heatmap): the seed-band panels and paper 3's operator matrices draw through
it, each cell coloured by its value and written in (`fmt`, with "±std" for a seed band)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from memlib import linalg, plot  # noqa: E402


def _cells(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_operator_heatmaps_draw_each_matrix_through_the_one_heatmap_with_one_shared_colour_bar():
    a = np.array([[0.5, -0.25], [1.0, 0.0]])
    mats = {"A": a, "I": np.eye(2), "Z": np.zeros((2, 2))}
    fig = plot.operator_heatmaps(mats, title="ops", ncols=2,
                                 ranks={k: linalg.numerical_rank(m, rtol=1e-6) for k, m in mats.items()})
    panels = [ax for ax in fig.axes if ax.texts]
    assert [ax.get_title() for ax in panels] == ["A: rank 2", "I: rank 2", "Z: rank 0"]
    assert _cells(panels[0]) == ["0.50", "-0.25", "1.00", "0.00"]                  # row by row, .2f
    mesh = panels[0].collections[0]
    assert np.array_equal(np.asarray(mesh.get_array()).reshape(2, 2), a) and mesh.get_clim() == (-1, 1)
    assert mesh.get_cmap().name == "RdBu_r"
    assert [t.get_text() for t in panels[0].get_xticklabels()] == ["0", "1"]
    assert len(fig.axes) == 5 and not fig.axes[3].axison                         # 4 panels (1 off) + 1 colour bar
    plt.close(fig)


def test_band_heatmaps_write_mean_and_spread_in_each_cell():
    band = {"corr_identity": 0.9, "corr_identity_std": 0.05, "corr_constant": 0.1, "corr_constant_std": 0.02}
    fig = plot.band_heatmaps([[band, band]], row_labels=[3], col_labels=["a", "b"])
    identity, constant = [ax for ax in fig.axes if ax.texts]
    assert len(fig.axes) == 4                                                     # each panel with its colour bar
    assert _cells(identity) == ["0.90\n±0.05"] * 2 and _cells(constant) == ["0.10\n±0.02"] * 2
    assert identity.get_title() == "correlation to the identity" and identity.collections[0].get_clim() == (0, 1)
    plt.close(fig)
