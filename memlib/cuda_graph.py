"""One training step captured in a CUDA graph and replayed: no kernel-launch or Python overhead per step.

On a GPU, paper-scale runs of this package are millions of tiny steps (one image, batch 1): eager
PyTorch spends most of each step launching kernels. `GraphedStep` wraps a step function
(`zero_grad -> forward -> backward -> [clip] -> optimizer.step`, returning the loss tensor) that reads
its inputs from fixed ("static") tensors, runs it eagerly a few times on a side stream (CUDA's
recipe for capture), captures it once and then replays it. The learning rate is baked into the
graph, so a schedule change calls `invalidate()` and the next step captures again.

`graph_blocker(...)` says why a run cannot use a graph (CPU, changing batch shapes, an optimizer
without a capturable implementation); `fit` and `fit_many` then stay eager. Capture failures are
reported once and the run continues eagerly: a graph is a speed-up, never a requirement.
"""
from __future__ import annotations

import warnings

import torch

CAPTURABLE = ("sgd", "adam", "rmsprop")   # optimizers whose step can be captured (Adam, RMSprop: capturable=True)
WARMUP = 3                     # eager steps on a side stream before capture (PyTorch's recipe)


def graph_blocker(device: torch.device, *, optimizer: str, static_shapes: bool) -> str | None:
    """None when a CUDA graph can run this training; otherwise the reason it cannot."""
    if device.type != "cuda":
        return "not on a CUDA device"
    if optimizer not in CAPTURABLE:
        return f"optimizer {optimizer!r} has no capturable step (graphs support {', '.join(CAPTURABLE)})"
    if not static_shapes:
        return "the minibatch size changes within an epoch (len(x) is not a multiple of batch_size)"
    return None


class GraphedStep:
    """`step_fn()` -> loss tensor, replayed from a CUDA graph after `WARMUP` eager calls."""

    def __init__(self, step_fn, *, enabled: bool = True):
        self.step_fn = step_fn
        self.enabled = enabled
        self.graph = None
        self.static_loss = None
        self.warm = 0
        self.captures = 0

    def invalidate(self) -> None:
        """Forget the captured graph (e.g. the learning rate changed): the next call captures again."""
        self.graph = None

    def __call__(self) -> torch.Tensor:
        if not self.enabled:
            return self.step_fn()
        if self.warm < WARMUP:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                loss = self.step_fn()
            torch.cuda.current_stream().wait_stream(side)
            self.warm += 1
            return loss
        if self.graph is None:
            try:
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    self.static_loss = self.step_fn()
                self.graph = graph
                self.captures += 1
            except Exception as e:  # noqa: BLE001 - fall back to eager, say so once
                warnings.warn(f"CUDA graph capture failed ({type(e).__name__}: {str(e).splitlines()[0][:100]}); "
                              "training continues eagerly", stacklevel=2)
                self.enabled = False
                torch.cuda.synchronize()
                return self.step_fn()
        self.graph.replay()
        return self.static_loss
