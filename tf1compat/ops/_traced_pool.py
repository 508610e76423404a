"""2-D max pooling as opaque custom ops, for plans that torch.compile traces.

Traced as `aten.max_pool2d_with_indices`, inductor lowers max pooling and its gradient
to its own loops: on the CPU the gradient is a gather over every window holding each
input position, and the benchmark CNN's compiled training step took 20.0 ms of CPU at one
thread with them against 18.7 ms with ATen's kernels (docs/performance.md, "Thirteenth
session: CNN"). Behind these custom ops the compiled graph
calls ATen's forward and backward kernels, the ones op by op (and a hand-written torch
step) run, so values are the same and inductor still fuses what surrounds them.
Windows that tile the input (a CNN's 2x2 stride-2 VALID pools) are the exception:
ops/_tiled_pool.py writes them as elementwise ops, which inductor turns into loops faster
than these kernels, fused with the ReLU gradient beside them. Only the MaxPool kernel
uses the custom ops: while torch.compile traces (`in_compiled_graph`; a
program torch.export captures keeps ATen's op, so that it runs without tf1compat), and op
by op for the rare input where TF's rule for NaN and -inf (`tf_window_input`) changes the
result.

TF's CPU max pooling (Eigen's and oneDNN's kernels alike) starts each window's maximum at
the dtype's lowest finite value and takes only strictly greater values: NaN never wins,
and a window of only NaN and -inf gives the lowest finite value, its gradient going to
the window's first position. ATen's kernels let NaN win. The custom op applies TF's rule
when ATen's result shows such a window (a NaN or -inf output): the check reads the
output, a quarter of the input for a 2x2 pool, and the rule's extra pass runs only then.
"""

from __future__ import annotations

import math
from typing import Any, List, Tuple

import torch

from tf1compat.ops._kernels import dynamo_tracing, is_fake_tensor
from tf1compat.ops._tiled_pool import tiled_max_pool2d, tiles

__all__ = ["max_pool2d", "in_compiled_graph", "has_non_finite_window", "tf_window_input"]


def has_non_finite_window(y: torch.Tensor, floor: float = -math.inf) -> bool:
    """Whether a max pool's floating-point CPU output shows a window where TF's rule
    may differ from ATen's: a NaN maximum, or one not above `floor` (-inf by default;
    a pool that pads with the lowest finite value passes that). Never under torch's
    tracers, where a value cannot decide Python control flow: a program torch.export
    captures keeps ATen's rule (compiled plans apply TF's inside the custom op, at run
    time)."""
    if dynamo_tracing() or is_fake_tensor(y):
        return False
    # NaN compares false: `not amin > floor` holds for a NaN minimum too.
    return (y.is_floating_point() and not y.is_cuda and y.numel() > 0 and
            not float(y.detach().amin()) > floor)


def tf_window_input(x: torch.Tensor) -> torch.Tensor:
    """`x` with NaN and -inf replaced by the dtype's lowest finite value: ATen's maximum
    over it is TF's over `x` (ties keep the first position, as TF's)."""
    lowest = torch.finfo(x.dtype).min
    return torch.where(torch.isnan(x) | (x == float("-inf")), lowest, x)


@torch.library.custom_op("tf1compat::max_pool2d", mutates_args=())
def _max_pool2d(x: torch.Tensor, ksize: List[int], strides: List[int],
                padding: List[int]) -> Tuple[torch.Tensor, torch.Tensor]:
    y, indices = torch.ops.aten.max_pool2d_with_indices(x, ksize, strides, padding)
    if has_non_finite_window(y):
        y, indices = torch.ops.aten.max_pool2d_with_indices(tf_window_input(x), ksize,
                                                            strides, padding)
    return y, indices


@_max_pool2d.register_fake
def _max_pool2d_fake(x: torch.Tensor, ksize: List[int], strides: List[int],
                     padding: List[int]) -> Tuple[torch.Tensor, torch.Tensor]:
    return torch.ops.aten.max_pool2d_with_indices(x, ksize, strides, padding)


@torch.library.custom_op("tf1compat::max_pool2d_grad", mutates_args=())
def _max_pool2d_grad(grad: torch.Tensor, x: torch.Tensor, ksize: List[int],
                     strides: List[int], padding: List[int],
                     indices: torch.Tensor) -> torch.Tensor:
    return torch.ops.aten.max_pool2d_with_indices_backward(grad, x, ksize, strides, padding,
                                                           [1, 1], False, indices)


@_max_pool2d_grad.register_fake
def _max_pool2d_grad_fake(grad: torch.Tensor, x: torch.Tensor, ksize: List[int],
                          strides: List[int], padding: List[int],
                          indices: torch.Tensor) -> torch.Tensor:
    return torch.ops.aten.max_pool2d_with_indices_backward(grad, x, ksize, strides, padding,
                                                           [1, 1], False, indices)


def _setup(ctx: Any, inputs: tuple, output: tuple) -> None:
    x, ksize, strides, padding = inputs
    ctx.save_for_backward(x, output[1])
    ctx.window = (ksize, strides, padding)


def _backward(ctx: Any, grad: torch.Tensor, _grad_indices: Any) -> tuple:
    x, indices = ctx.saved_tensors
    return _max_pool2d_grad(grad, x, *ctx.window, indices), None, None, None


def _setup_grad(ctx: Any, inputs: tuple, output: torch.Tensor) -> None:
    ctx.save_for_backward(inputs[5])


def _grad_backward(ctx: Any, grad_grad: torch.Tensor, *_: Any) -> tuple:
    # The gradient is linear in `grad`: each pooled position takes the value at its
    # argmax (ATen's max_pool_double_backward).
    indices, = ctx.saved_tensors
    taken = grad_grad.flatten(-2).gather(-1, indices.flatten(-2)).view_as(indices)
    return taken, None, None, None, None, None


_max_pool2d.register_autograd(_backward, setup_context=_setup)
_max_pool2d_grad.register_autograd(_grad_backward, setup_context=_setup_grad)


def in_compiled_graph() -> bool:
    """Whether torch.compile (not torch.export) is tracing the calling kernel."""
    exporting = getattr(torch.compiler, "is_exporting", None)
    return dynamo_tracing() and not (exporting is not None and exporting())


# Read once while Dynamo traces, without a guard: the setting is patched only while the
# plan compiles (a guard on it would fail at every run after).
@torch.compiler.assume_constant_result
def _gradient_in_graph() -> bool:
    """Whether Dynamo traces `torch.autograd.grad` into the graph it builds (a merged
    training step, a whole gradient plan: runtime/hot_plans.py), so the pool's gradient
    is computed in the same graph as its forward. Where AOTAutograd splits forward and
    backward instead (a forward segment compiled alone), its partitioner may keep the
    tiled pool's comparisons as bool tensors, whose inductor loop is not vectorized
    (ops/_tiled_pool.py): such graphs keep ATen's kernels."""
    import torch._dynamo.config as dynamo_config
    return bool(getattr(dynamo_config, "trace_autograd_ops", False))


def max_pool2d(x: torch.Tensor, ksize: List[int], strides: List[int],
               padding: List[int]) -> torch.Tensor:
    """`F.max_pool2d(x, ksize, strides, padding)` ([N, C, H, W], symmetric padding) with
    ATen's kernels inside a compiled graph, and TF's rule for NaN and -inf; windows that
    tile `x`, while torch.compile traces a graph that holds their gradient too (or needs
    none), as elementwise ops inductor fuses (ops/_tiled_pool.py)."""
    if tiles(x, ksize, strides, padding) and in_compiled_graph() and (
            _gradient_in_graph() or not (torch.is_grad_enabled() and x.requires_grad)):
        return tiled_max_pool2d(x, ksize)
    return _max_pool2d(x, list(ksize), list(strides), list(padding))[0]
