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

    @property
    def final_loss(self) -> float:
        return self.loss[-1] if self.loss else math.nan

    def as_dict(self) -> dict:
        return dict(steps=self.steps, loss=self.loss, lr=self.lr, records=self.records,
                    wall_time=self.wall_time, stopped_at=self.stopped_at)

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
