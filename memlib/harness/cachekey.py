"""The cache key: what a training's configuration is, as `store.Cache` keys it.

`config(build, x, target, seed, init, fit_kwargs)` is the dict a cache entry is keyed by (`store.Cache.key`
hashes it): the builder (`describe`), seed, initialization, the data's digests (`tensor_digest`) and the `fit`
arguments but `NOT_KEYED`, each value made the same in every process by `keyed` (a callable by its `cache_key`
or its module-qualified name, or refused). Every configuration the notebooks train keeps the key it had before
callables were keyed (tests/test_cache_key.py pins them): a changed key retrains every cached model.
"""
from __future__ import annotations

import functools
import hashlib
import re
import types

import torch

from .modes import max_steps, planning
from ..runtime import MemlibError


def tensor_digest(t: torch.Tensor) -> str:
    """16 hex digits of sha256 over a tensor's shape, dtype and bytes (on the CPU)."""
    t = t.detach().cpu().contiguous()
    h = hashlib.sha256(f"{tuple(t.shape)}{t.dtype}".encode())
    h.update(t.numpy().tobytes())
    return h.hexdigest()[:16]


def describe(build) -> dict:
    """A JSON description of a model builder: a function (by its `cache_key` where it has one, else its
    module-qualified name) or a functools.partial of one (its arguments as `keyed` writes them)."""
    if isinstance(build, functools.partial):
        return {"fn": describe(build.func)["fn"], "args": keyed(list(build.args), "the builder's arguments"),
                "kwargs": keyed(dict(build.keywords), "the builder's keywords")}
    if isinstance(getattr(build, "cache_key", None), str):      # a builder moved from where it was first keyed
        return {"fn": build.cache_key}
    name = getattr(build, "__qualname__", "")
    if not name or "<lambda>" in name or "<locals>" in name:
        raise MemlibError("fit_cached needs a module-level builder or a functools.partial of one "
                          "(a lambda cannot be keyed); e.g. functools.partial(convnet, 5, channels=32)")
    return {"fn": f"{build.__module__}.{name}"}


NOT_KEYED = ("progress", "desc")     # the `fit` arguments that change how a training shows, not what it computes:
                                     # the one list (the cache key, a plan's job files and step timing leave them out)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")       # in the text of an object that only its memory address names


def keyed(value, where: str):
    """`value` as a cache key holds it, the same in every process. JSON's values, and lists, tuples and dicts of
    keyed items, stay as they are; so do a class and any other value whose text names it without a memory address
    (e.g. a numpy integer: `Cache.key` writes its text). A callable is keyed by its `cache_key` attribute where it
    has one, a module-level function by its module-qualified name, a functools.partial as `describe` writes a
    builder. A lambda, a nested function, a callable object without `cache_key`, and any value whose text holds a
    memory address would never hit the cache (or, keyed by its class, hit another's entry): MemlibError, naming
    `where` (e.g. "fit argument 'schedule'")."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [keyed(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: keyed(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, type):
        return value
    if getattr(value, "cache_key", None) is not None:
        return value.cache_key
    if isinstance(value, functools.partial):
        return {"fn": keyed(value.func, where), "args": keyed(list(value.args), where),
                "kwargs": keyed(dict(value.keywords), where)}
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        name, module = getattr(value, "__qualname__", ""), getattr(value, "__module__", None)
        if name and module and "<lambda>" not in name and "<locals>" not in name:
            return f"{module}.{name}"
        raise MemlibError(f"{where}: {value!r} cannot be keyed in the cache (a lambda or a nested function has no "
                          "name another process can find): use a module-level function, or give it a `cache_key`")
    if callable(value) or _ADDRESS.search(str(value)):
        raise MemlibError(f"{where}: {type(value).__name__} object {_ADDRESS.sub('', str(value))[:80]!r} cannot be "
                          "keyed in the cache (its text does not say everything it computes with): give it a "
                          "`cache_key` attribute, a string that changes whenever what it computes changes")
    return value


def config(build, x, target, seed, init, fit_kwargs) -> dict:
    """What a training's cache key is computed from (`Cache.key`): the builder, seed, initialization, the data's
    digests and the `fit` arguments but `NOT_KEYED`, each `keyed` (callbacks: always a list, empty without)."""
    key_kwargs = {k: keyed(v, f"fit argument {k!r}") for k, v in fit_kwargs.items()
                  if k not in NOT_KEYED and k != "callbacks"}
    key_kwargs["callbacks"] = keyed(list(fit_kwargs.get("callbacks", ())), "fit argument 'callbacks'")
    out = {"build": describe(build), "seed": seed, "init": init, "x": tensor_digest(x),
           "target": None if target is None else tensor_digest(target), "fit": key_kwargs}
    if max_steps() is not None and not planning():  # capped (e.g. untrained) models never pass for the real ones
        out["max_steps"] = max_steps()
    return out
