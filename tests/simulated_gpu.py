"""A second device on the CPU, for tests: tensors that say they live on cuda:0 and hold real CPU values.

`OnGPU` is a CPU tensor whose `.device` reads cuda:0. Every operation on OnGPU tensors goes through its
`__torch_dispatch__`, which raises PyTorch's "Expected all tensors to be on the same device" error when
an OnGPU tensor meets a (non-scalar) CPU tensor, as a real GPU would, computes on the CPU data, and
returns OnGPU results, so gradients, optimizer state and everything derived stays "on the GPU". Under
`SimulatedGPU()` (a TorchFunctionMode, so that none of PyTorch's CUDA code runs) factories asked for
`device="cuda"` make OnGPU tensors and `.to("cuda")` / `.cuda()` / `.cpu()` move between the two
"devices". Values are real, so functions run to their end, autograd and training included.
"""
from __future__ import annotations

import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree as pytree
from torch.utils._mode_utils import no_dispatch

CUDA = torch.device("cuda", 0)
CPU = torch.device("cpu")
aten = torch.ops.aten
# operations that take CPU operands beside CUDA ones on a real GPU: copies, and CPU index tensors
MIXABLE = {aten.copy_.default, aten.index.Tensor, aten.index_put_.default, aten.index_put.default,
           aten._index_put_impl_.default, aten._to_copy.default}


class OnGPU(torch.Tensor):
    """A CPU tensor that reports device cuda:0."""

    @staticmethod
    def __new__(cls, data: torch.Tensor):
        return torch.Tensor._make_subclass(cls, data, data.requires_grad)

    @property
    def device(self):
        return CUDA

    @property
    def is_cuda(self):
        return True

    def numpy(self, *args, **kwargs):
        raise TypeError("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor "
                        "to host memory first.")

    def __repr__(self, **kwargs):
        with no_dispatch():
            return f"OnGPU({torch.Tensor.__repr__(self)})"

    __torch_function__ = torch._C._disabled_torch_function_impl

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        leaves = pytree.tree_leaves((args, kwargs))
        if func not in MIXABLE and not _in_transform() and any(_is_cpu(t) for t in leaves):
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"cuda:0 and cpu! (in {func})")
        with no_dispatch():
            out = func(*args, **kwargs)
        if func is aten._local_scalar_dense.default:
            return out
        if func is aten._to_copy.default and kwargs.get("device") is not None and torch.device(kwargs["device"]).type == "cpu":
            return out
        return pytree.tree_map_only(torch.Tensor, _wrap, out)


def _in_transform() -> bool:
    """Inside torch.func's jacrev/jvp/vmap, values are wrapped and unwrapped by functorch: not tracked here."""
    return torch._C._functorch.maybe_current_level() is not None


def _wrap(t: torch.Tensor) -> torch.Tensor:
    return t if isinstance(t, OnGPU) else OnGPU(t)


def _is_cpu(t) -> bool:
    """A plain CPU tensor of at least one dimension (0-dim CPU tensors mix with CUDA ones, as on a GPU).
    Tensors inside a torch.func transform (jacrev, vmap) are wrappers whose device is not tracked here, and
    forward-mode AD makes its zero tangents in C++ on the data's real device."""
    from torch._C._functorch import is_functorch_wrapped_tensor
    return (isinstance(t, torch.Tensor) and not isinstance(t, OnGPU) and t.dim() > 0
            and not is_functorch_wrapped_tensor(t) and not t._is_zerotensor())   # forward AD's zero tangents


def on_gpu(t: torch.Tensor) -> torch.Tensor:
    """`t` moved to the simulated GPU, keeping its autograd history."""
    from torch._C._functorch import is_functorch_wrapped_tensor
    if isinstance(t, OnGPU) or is_functorch_wrapped_tensor(t):
        return t
    return t.as_subclass(OnGPU)


def _device_type(d):
    if isinstance(d, (str, torch.device)) or (isinstance(d, int) and not isinstance(d, bool)):
        try:
            return torch.device(d).type
        except (RuntimeError, TypeError):
            return None
    return None


T = torch.Tensor


class SimulatedGPU(TorchFunctionMode):
    """Factories and moves to "cuda" make OnGPU tensors; `.cpu()` / `.to("cpu")` make plain ones."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        others = [a for a in list(args[1:]) + [kwargs.get("device")] if _device_type(a) not in (None, "cpu", "cuda")]
        if func in (T.to, T.cuda, T.cpu) and not others:                  # (a move to "meta" is left alone)
            src, target = args[0], {T.cuda: "cuda", T.cpu: "cpu"}.get(func)
            rest = []
            for a in list(args[1:]) + [kwargs.pop("device", None)]:
                if isinstance(a, torch.Tensor):                           # .to(other): its device and dtype
                    target = "cuda" if isinstance(a, OnGPU) else "cpu"
                    rest.append(a.dtype)
                elif _device_type(a) in ("cpu", "cuda"):
                    target = _device_type(a)
                elif a is not None:
                    rest.append(a)                                        # dtype, non_blocking, copy
            if func is not T.to:
                rest = []
            flags = [a for a in rest if isinstance(a, bool)]                  # non_blocking, copy (positional)
            rest = [a for a in rest if not isinstance(a, bool)]
            for name, flag in zip(("non_blocking", "copy"), flags):
                kwargs.setdefault(name, flag)
            if target == "cpu" and isinstance(src, OnGPU):
                kwargs["copy"] = True                                     # a real move: a plain result
                return T.to(src, CPU, *rest, **kwargs)
            if target is None:                                            # a dtype change stays where it is
                return T.to(src, *rest, **kwargs) if rest or kwargs else src
            out = T.to(src, CPU, *rest, **kwargs)
            return on_gpu(out) if target == "cuda" else out
        if _device_type(kwargs.get("device")) == "cuda":                  # a factory: torch.zeros(..., device="cuda")
            kwargs["device"] = CPU
            return pytree.tree_map_only(torch.Tensor, on_gpu, func(*args, **kwargs))
        return func(*args, **kwargs)


import contextlib  # noqa: E402


@contextlib.contextmanager
def simulated_gpu_session():
    """Inside: `SimulatedGPU()` is on, and `Module.to("cuda")` gives a module whose parameters are OnGPU
    Parameters (PyTorch's option to replace parameters on conversion instead of swapping their data)."""
    saved = torch.__future__.get_overwrite_module_params_on_conversion()
    torch.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        with SimulatedGPU():
            yield
    finally:
        torch.__future__.set_overwrite_module_params_on_conversion(saved)


def move_to_simulated_gpu(model: torch.nn.Module) -> torch.nn.Module:
    """The model's parameters and buffers on the simulated GPU (parameters stay Parameters)."""
    for m in model.modules():
        for name, p in list(m._parameters.items()):
            if p is not None:
                m._parameters[name] = torch.nn.Parameter(OnGPU(p.detach()), requires_grad=p.requires_grad)
        for name, b in list(m._buffers.items()):
            if b is not None:
                m._buffers[name] = OnGPU(b)
    return model
