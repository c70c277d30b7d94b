"""What a training leaves behind and what its callbacks see: `History` (the logged loss curve, the learning rate,
the callbacks' records; the model cache stores it as `as_dict` and reads it back with `from_dict`) and `State`
(a callback's view of the training at a logged step). `memlib.train` fills both; it re-exports `History`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch


@dataclass
class History:
    """What a run leaves behind: the logged loss curve and anything callbacks recorded."""
    steps: list = field(default_factory=list)      # optimizer steps at which the loss was logged
    loss: list = field(default_factory=list)       # loss before that step's update
    lr: list = field(default_factory=list)
    records: dict = field(default_factory=dict)    # callbacks' own series, by name
    wall_time: float = 0.0
    stopped_at: int | None = None                  # the step at which until_loss/a callback stopped it
    snapshots: dict = field(default_factory=dict)  # step -> {parameter name: tensor}: the weights after that
                                                   # many updates (`fit(..., weights_at=steps)`), for trajectories

    @property
    def final_loss(self) -> float:
        return self.loss[-1] if self.loss else math.nan

    def as_dict(self) -> dict:
        return dict(steps=self.steps, loss=self.loss, lr=self.lr, records=self.records,
                    wall_time=self.wall_time, stopped_at=self.stopped_at, snapshots=self.snapshots)

    def model_at(self, model: torch.nn.Module, step: int) -> torch.nn.Module:
        """A copy of `model` (the trained net, or any of its architecture) holding the weights it had after `step`
        updates; `step` must be one of `snapshots` (`fit(..., weights_at=...)`)."""
        import copy
        if step not in self.snapshots:
            raise KeyError(f"no snapshot at step {step}; this training kept {sorted(self.snapshots)}")
        twin = copy.deepcopy(model)
        device = next(twin.parameters()).device
        with torch.no_grad():
            for name, p in twin.named_parameters():
                p.copy_(self.snapshots[step][name].to(device))
        return twin.eval()

    @classmethod
    def from_dict(cls, d: dict) -> "History":
        return cls(**d)


@dataclass
class State:
    """What a callback sees."""
    step: int
    model: torch.nn.Module
    loss: float
    history: History
    optimizer: torch.optim.Optimizer
    steps_per_epoch: int

    @property
    def epoch(self) -> float:
        return self.step / self.steps_per_epoch
