"""Issue 40: a training's trajectory (memlib.trajectory) from the weights it kept (fit(..., weights_at=...))."""
import pytest
import torch

from memlib import metrics, models, train, trajectory


def test_log_steps_are_log_spaced_from_zero_to_the_budget():
    assert trajectory.log_steps(1000) == [0, 10, 22, 46, 100, 215, 464, 1000]
    assert trajectory.log_steps(0) == [0] and trajectory.log_steps(5) == [0, 5]
    s = trajectory.log_steps(2_000_000, per_decade=2)
    assert s[0] == 0 and s[-1] == 2_000_000 and len(s) == len(set(s)) and s == sorted(s)


def test_still_moving_reads_the_last_kept_stretch_towards_the_map():
    assert trajectory.still_moving([0, 10, 100], [0.1, 0.5, 0.7])                  # +0.2 towards 1
    assert not trajectory.still_moving([0, 10, 100], [0.1, 0.5, 0.52])             # settled
    assert not trajectory.still_moving([0, 10, 100], [0.9, 0.7, 0.5])              # moving away
    assert trajectory.still_moving([0, 10], [[0.1, 0.2], [0.1, 0.4]])              # one seed of a band moves
    assert trajectory.still_moving([0, 10], [0.5, 0.2], towards=0.0)


def test_a_band_trajectory_scores_each_kept_step_as_the_net_held_then():
    torch.manual_seed(0)
    x = torch.randn(1, 1, 8, 8)
    probes = torch.randn(4, 1, 8, 8)
    nets = [models.convnet(2, channels=4) for _ in range(2)]
    hists = train.fit(nets, x, steps=30, lr=0.05, momentum=0.9, weights_at=[0, 10, 30], progress=False)
    road = trajectory.band_trajectory(list(zip(nets, hists)), probes, x)
    assert road["steps"] == [0, 10, 30] and len(road["corr_constant"]) == 2
    end = metrics.identity_constant_scores(nets[1], probes, x)           # the trained net is the last kept step
    assert road["corr_constant"][1][-1] == pytest.approx(end["corr_constant"], abs=1e-6)
    assert road["corr_identity"][1][-1] == pytest.approx(end["corr_identity"], abs=1e-6)
    rows, kept = trajectory.heatmap_rows({2: road})
    assert kept == [0, 10, 30] and rows[0][2]["corr_constant_seeds"] == pytest.approx([c[-1] for c in road["corr_constant"]])
    with pytest.raises(ValueError, match="kept no weights"):
        trajectory.map_trajectory(nets[0], train.History(), probes, x)


def test_heatmap_rows_end_each_row_at_its_own_budget_where_the_budgets_differ():
    """The depth sweep trains each depth for its own budget: the columns are the steps every row kept below the
    smallest budget, then each row's own last step (the one its claims read), not only the steps all rows share."""
    def road(steps, last):
        return {"steps": steps, "corr_constant": [[0.0] * (len(steps) - 1) + [last]] * 2,
                "corr_identity": [[1.0] * len(steps)] * 2}
    rows, cols = trajectory.heatmap_rows({1: road([0, 10, 100, 1000, 60000], 0.1), 20: road([0, 10, 100, 1000, 4642,
                                                                                            10800], 0.9)})
    assert trajectory.step_labels(cols) == ["0", "10", "100", "1,000", "end"]
    assert cols == [0, 10, 100, 1000, "end"]                                     # 4,642: not kept by both
    assert rows[0][-1]["corr_constant_seeds"] == [0.1, 0.1] and rows[1][-1]["corr_constant_seeds"] == [0.9, 0.9]
    assert rows[1][2]["corr_constant_seeds"] == [0.0, 0.0]                       # step 100, not the end
    same, cols = trajectory.heatmap_rows({1: road([0, 10, 30], 0.1), 2: road([0, 10, 30], 0.2)})
    assert cols == [0, 10, 30]                                                   # one budget: the steps themselves


def test_road_ends_reads_the_step_before_the_end_and_survives_one_kept_step():
    from memlib.trajectory import road_ends
    road = {"steps": [10, 100, 1000], "corr_constant": [[0.1, 0.2, 0.5], [0.0, 0.1, 0.12]],
            "corr_identity": [[0.9, 0.8, 0.3], [0.9, 0.9, 0.85]]}
    m = road_ends({"rho0": {20: road}, "test": {20: road}})
    assert m["fig3a.depth20.road.rho0.corr_constant.before_end"] == [0.2, 0.1]
    assert m["fig3a.depth20.road.test.corr_identity.end"] == [0.3, 0.85]
    assert m["fig3a.depth20.road.before_end_step"] == 100
    assert m["fig3a.depth20.road.still_moving_to_constant"] == 1.0          # seed 0 gained 0.3 in its last stretch
    one = {"steps": [0], "corr_constant": [[0.0]], "corr_identity": [[0.4]]}   # an untrained audit keeps step 0 only
    m = road_ends({"rho0": {8: one}})
    assert m["fig3a.depth8.road.rho0.corr_identity.before_end"] == [0.4] and m["fig3a.depth8.road.before_end_step"] == 0
    assert m["fig3a.depth8.road.still_moving_to_constant"] == 0.0
