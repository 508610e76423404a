"""Helpers shared by kernel factories."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch
from torch._subclasses.fake_tensor import is_fake

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value

__all__ = ["static_ints", "is_string", "torch_or_numpy", "as_int_list", "identity_kernel",
           "any_true", "is_fake_tensor"]


def static_ints(node: Any, index: int) -> Optional[List[int]]:
    """Input `index` as a list of Python ints when known at graph build, else None.

    Kernels bake such values in (a reshape's target shape, a transpose's perm), so the
    hot path never converts a tensor to Python or synchronises with a GPU for them.
    """
    value = constant_value(node.inputs[index])
    if value is None:
        return None
    return [int(v) for v in np.asarray(value).reshape(-1)]


def as_int_list(value: Any) -> List[int]:
    """A run-time int tensor (or numpy/list) as Python ints."""
    if isinstance(value, torch.Tensor):
        return [int(v) for v in value.reshape(-1).tolist()]
    if isinstance(value, list):
        # A shape a compiled plan baked in (runtime/compiled_steps.py): read as is, so
        # torch.compile sees Python ints, not a numpy array it would trace as a tensor.
        return [int(v) for v in value]
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _dynamo_tracing_check() -> Callable[[], bool]:
    check = getattr(torch.compiler, "is_dynamo_compiling", None)
    if check is None:   # torch < 2.3
        from torch import _dynamo
        check = _dynamo.is_compiling
    return check


# Whether Dynamo is tracing the calling kernel (True only inside its trace, False in plain
# Python). Not torch.compiler.is_compiling(): that reads a process-wide flag which a
# compile in another thread holds for seconds (hot plans compile in the background), so
# kernels running op by op in the user's thread meanwhile took their traced branches
# (asserts instead of TF's errors, torch.matmul for the oneDNN product). Other tracers
# (AOTAutograd, torch.export's non-strict mode) run kernels on fake tensors, which
# `is_fake_tensor` tells.
dynamo_tracing = _dynamo_tracing_check()


_is_functional = torch._is_functional_tensor
_is_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor


def is_fake_tensor(value: Any) -> bool:
    """torch's `is_fake`, with the common case - a plain tensor that no functional or
    functorch wrapper hides a fake tensor in - decided by three C-level checks; `is_fake`
    itself costs a few microseconds per call, which kernels checking on every run felt."""
    if type(value) is torch.Tensor and not _is_functional(value) and \
            not _is_functorch_wrapped(value):
        return False
    return is_fake(value)


def any_true(flags: torch.Tensor,
             what: str = "a kernel's input validation failed (out-of-range indices or "
                         "labels)") -> bool:
    """Whether any of `flags` holds: a kernel's input validation (out-of-range indices,
    labels, `tf.Assert`), after which it raises TF's InvalidArgumentError.

    Under torch's tracers (torch.compile, torch.export), where a tensor's value cannot
    decide Python control flow, the check becomes a run-time assertion of the traced
    program (`torch._assert_async`, failing with `what`) and validation passes here.
    """
    if dynamo_tracing() or is_fake_tensor(flags):
        torch._assert_async(torch.logical_not(flags.any()), f"tf1compat: {what}")
        return False
    return bool(flags.any())


def is_string(node: Any, attr: str = "T") -> bool:
    return node.attrs.get(attr) == D.string


def torch_or_numpy(node: Any, torch_fn: Callable[..., Any], numpy_fn: Callable[..., Any],
                   attr: str = "T") -> Callable[..., Any]:
    """Picks the numpy implementation for string tensors (object arrays of bytes)."""
    return numpy_fn if is_string(node, attr) else torch_fn


def identity_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    return _identity


def _identity(x: Any) -> Any:
    return x
