"""`tf.nondifferentiable_batch_function` and its op, `BatchFunction`.

TF's decorator turns each call of the function into one `BatchFunction` op (named
`batch/BatchFunction`) whose attr `f` is the function traced on the call's arguments.
In TF Serving, concurrent `Session.run` calls that reach the same op have their inputs
concatenated along the first axis, run through `f` once and split back: batching is a
throughput optimisation whose outputs equal calling the function on each call's inputs.
tf1compat runs each call's batch through the traced function directly (no cross-call
queue, no padding up to `allowed_batch_sizes`: for functions that treat rows
independently, which batching presumes, the results are the same) and keeps TF's
checks: at build time the arguments must be tensors; at run time TF's errors for the
attrs (`max_batch_size` positive, `allowed_batch_sizes` increasing and, without large
batch splitting, ending at `max_batch_size`), for the inputs (rank >= 1, equal first
dimensions, at most `max_batch_size` rows) and for the outputs (rank >= 1, one row per
input row); an empty batch gives empty vectors without calling the function, as in
TF. `BatchFunction` has no gradient (TF registers none: tf.gradients raises
LookupError), hence the decorator's name.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, get_default_graph, name_scope
from tf1compat.framework.op_def import REQUIRED, TypeList, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import unknown_shape
from tf1compat.ops._regions import CondRegion
from tf1compat.ops.cond import Branch, build_branch, finish_branches
from tf1compat.ops.function_call_ops import _call_kernel
from tf1compat.util import nest

__all__ = ["batch_function"]


def _attr_errors(node: Any) -> Optional[str]:
    """TF's message for invalid batching attrs, else None."""
    attrs = node.attrs
    limit = int(attrs["max_batch_size"])
    if limit <= 0:
        return f"input_batch_size_limit must be positive; was {limit}"
    sizes = [int(s) for s in attrs["allowed_batch_sizes"] or []]
    if any(b <= a for a, b in zip(sizes, sizes[1:])):
        return "allowed_batch_sizes entries must be monotonically increasing"
    if sizes and not attrs["enable_large_batch_splitting"] and sizes[-1] != limit:
        return ("final entry in allowed_batch_sizes must equal max_batch_size when "
                "enable_large_batch_splitting is False")
    return None


def _batch_size(node: Any, inputs: Sequence[Any]) -> int:
    """The common first dimension of the batched inputs (TF's checks and messages)."""
    names = [t.name for t in node.inputs[:len(inputs)]]
    if any(len(v.shape) == 0 for v in inputs):
        listing = "".join(f"\n - {n} has shape {list(v.shape)}"
                          for n, v in zip(names, inputs))
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "Batching input tensors must have at least one dimension."
                              "\nBelow are the input tensors: " + listing)
    sizes = {int(v.shape[0]) for v in inputs}
    if len(sizes) != 1:
        listing = "".join(f"\n - {n} has shape {list(v.shape)}"
                          for n, v in zip(names, inputs))
        raise errors.op_error(errors.InvalidArgumentError, node,
                              "Batching input tensors supplied in a given op invocation "
                              "must have equal 0th-dimension size.\nBelow are the input "
                              "tensors: " + listing)
    size = sizes.pop()
    limit = int(node.attrs["max_batch_size"])
    if size > limit:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"Task size {size} is larger than maximum input batch size "
                              f"{limit}")
    return size


def _check_outputs(node: Any, outputs: Sequence[Any], size: int) -> None:
    for value in outputs:
        if len(value.shape) == 0:
            raise errors.op_error(errors.FailedPreconditionError, node,
                                  "Batched output tensor has 0 dimensions")
        if int(value.shape[0]) != size:
            raise errors.op_error(
                errors.FailedPreconditionError, node,
                f"Batched output tensor's 0th dimension does not equal the sum of the 0th "
                f"dimension sizes of the input tensors. 0th dimension size: "
                f"{int(value.shape[0])}; batch size: {size}; unbatched tasks size: 0; "
                f"padding size: 0")


def _empty_vector(dtype: Any, kctx: Any) -> Any:
    if dtype == D.string:
        return np.zeros((0,), dtype=object)
    return torch.zeros((0,), dtype=dtype.torch_dtype, device=kctx.device)


def _batch_function_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    problem = _attr_errors(node)
    n_batched = len(node.attrs["Tin"])
    n_out = len(node.outputs)
    function = node.attrs["f"]
    if isinstance(function, Branch):
        from tf1compat.ops.cond import _branch_runner
        branch_run = _branch_runner(node, kctx, [function], 0)
        run: Callable[[tuple], Any] = lambda values: branch_run(0, values)
    else:                               # an imported graph's library function
        call = _call_kernel(node, kctx)
        run = lambda values: call(*values)

    # An empty batch never reaches f: each output is an empty vector, whatever f returns.
    empties = tuple(_empty_vector(dtype, kctx) for dtype in node.attrs["Tout"])

    def batch_function(*values: Any) -> Any:
        if problem:
            raise errors.op_error(errors.InvalidArgumentError, node, problem)
        size = _batch_size(node, values[:n_batched])
        if size == 0:
            return empties[0] if n_out == 1 else empties
        result = run(values)
        _check_outputs(node, [result] if n_out == 1 else list(result), size)
        return result
    return batch_function


_PRIORITY_POLICIES = ("low_priority_padding_with_max_batch_size",
                      "low_priority_padding_with_next_allowed_batch_size",
                      "priority_isolation", "priority_merge")

declare("BatchFunction", inputs=["in_tensors: Tin", "captured_tensors: Tcaptured"],
        outputs=["out_tensors: Tout"],
        attrs={"f": REQUIRED, "num_batch_threads": REQUIRED, "max_batch_size": REQUIRED,
               "batch_timeout_micros": REQUIRED, "max_enqueued_batches": 10,
               "allowed_batch_sizes": [], "container": "", "shared_name": "",
               "batching_queue": "", "low_priority_max_batch_size": 0,
               "low_priority_batch_timeout_micros": 0,
               "low_priority_allowed_batch_sizes": [],
               "low_priority_max_enqueued_batches": 0,
               "mixed_priority_policy": _PRIORITY_POLICIES[0],
               "batch_padding_policy": "PAD_UP", "enable_large_batch_splitting": False,
               "Tin": TypeList(), "Tcaptured": TypeList(), "Tout": TypeList()},
        shape=lambda ctx: [unknown_shape() for _ in ctx.attrs["Tout"]],
        kernel=_batch_function_kernel, grad="unregistered", stateful=True, view=True,
        keeps_devices=True,
        not_one_node="its function f is a traced region of the graph",
        doc="Runs f on the batched inputs (TF Serving batches concurrent calls first).")


def batch_function(num_batch_threads: int, max_batch_size: int, batch_timeout_micros: int,
                   allowed_batch_sizes: Optional[Sequence[int]] = None,
                   max_enqueued_batches: int = 10, autograph: bool = True,
                   enable_large_batch_splitting: bool = True) -> Callable:
    """`tf.nondifferentiable_batch_function`: a decorator whose calls run the function as
    one `BatchFunction` op on tensors batched along their first axis.

    The outputs equal calling the function on the arguments. Batching concurrent calls
    into one execution is TF Serving's throughput optimisation; tf1compat runs every call
    on its own inputs (see the module docstring for what is checked). All arguments must
    be tensors (ValueError otherwise, as TF); the result has the function's structure of
    tensors, with unknown static shapes as in TF. `autograph` is accepted for TF's
    signature (tf1compat traces the function as written).
    """
    del autograph

    def decorator(fn: Callable) -> Callable:
        def decorated(*args: Any) -> Any:
            with name_scope("batch") as scope:
                for a in args:
                    if not isinstance(a, Tensor):
                        raise ValueError("All arguments to functions decorated with "
                                         "`batch_function`  are supposed to be Tensors; "
                                         f"found {a!r}.")
                if not args:
                    raise ValueError("Attr 'Tin' of 'BatchFunction' Op passed list of "
                                     "length 0 less than minimum 1.")
                region = CondRegion(get_default_graph(), scope + "computation", None,
                                    branch=0)
                original, branch = build_branch(region, lambda: fn(*args), "fn")
                captures, controls = finish_branches([branch])
                batched = list(args)
                batched_ids = {id(t) for t in batched}
                captured = [t for t in captures if id(t) not in batched_ids]
                op = apply_op("BatchFunction", [batched, captured],
                              {"f": branch, "num_batch_threads": num_batch_threads,
                               "max_batch_size": max_batch_size,
                               "batch_timeout_micros": batch_timeout_micros,
                               "allowed_batch_sizes": list(allowed_batch_sizes or []),
                               "max_enqueued_batches": max_enqueued_batches,
                               "shared_name": scope,
                               "enable_large_batch_splitting": enable_large_batch_splitting,
                               "Tout": [t.dtype.base_dtype for t in branch.outputs]},
                              name="BatchFunction")
                if controls:
                    op._add_control_inputs([c for c in controls
                                            if c not in op._control_inputs])
                outputs: List[Tensor] = list(op._outputs)
            if nest.is_nested(original):
                return nest.pack_sequence_as(original, outputs)
            return outputs[0]
        return decorated
    return decorator
