"""Graph-build-time constant folding for shape inference (TF's `tensor_util.constant_value`).

Shape rules use this to see through `tf.shape(x)`, `tf.stack([...])`, `tf.concat`, casts
and slices of shapes, so `tf.reshape(x, [tf.shape(x)[0], -1])` keeps a static shape as TF.
What each op contributes is declared with it (`declare(static_value=..., shape_value=...)`,
see framework/op_def.py); this module holds the generic walk: declared values first, then
small pure subgraphs evaluated by running their kernels, as TF's C++ shape inference does.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.framework.op_def import FOLD_ELEMENT_LIMIT
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["constant_value", "constant_value_as_shape", "is_constant"]

def constant_value(tensor: Any, partial: bool = False) -> Optional[np.ndarray]:
    """The tensor's value if it can be computed at graph build, else None.

    The op's declared `static_value` first (Shape of a static shape, Pack, Concat, ...);
    then, as TF's C++ shape inference does, any small stateless subgraph of constants is
    evaluated by running its kernels on the CPU (so `tf.range(tf.reduce_max([1, 5]))` has
    shape (5,)).
    """
    if isinstance(tensor, np.ndarray):
        return tensor
    if not isinstance(tensor, Tensor):
        return None
    if tensor._is_eager_tensor:
        # Eager: the value itself, for small integer tensors (what shape rules and
        # kernels bake in); see tf1compat/runtime/eager_tensor.py.
        return tensor._static_value()
    fold = tensor.op._op_def.static_value
    if fold is not None:
        try:
            value = fold(tensor)
        except (ValueError, TypeError, IndexError):
            value = None
        if value is not None:
            return value
    return _evaluate(tensor, _FOLD_NODE_LIMIT)


# TF evaluates constant subgraphs of limited size for shape inference; so do we.
_FOLD_NODE_LIMIT = 32


def _evaluate(tensor: Tensor, budget: int) -> Optional[np.ndarray]:
    op = tensor.op
    if budget <= 0 or not op._op_def.foldable or op._control_flow_context is not None or \
            op._control_inputs:
        return None
    if tensor.shape.num_elements() is None or tensor.shape.num_elements() > FOLD_ELEMENT_LIMIT:
        return None
    cache = op._graph._extras.setdefault("constant_folding", {})
    if tensor in cache:
        return cache[tensor]
    inputs = []
    for t in op._inputs:
        value = constant_value(t) if t.op._op_def.static_value is not None \
            else _evaluate(t, budget - 1)
        if value is None:
            cache[tensor] = None
            return None
        inputs.append(value)
    cache[tensor] = result = _run_kernel(op, inputs, tensor.value_index)
    return result


def _run_kernel(op: Any, inputs: list, index: int) -> Optional[np.ndarray]:
    import torch

    from tf1compat.framework import dtypes
    from tf1compat.framework.constant_op import value_to_torch

    cpu = torch.device("cpu")

    class _FoldingContext:
        device = cpu
        node = op

        @property
        def runtime(self) -> Any:
            raise RuntimeError("constant folding has no session")

    try:
        args = [value_to_torch(np.asarray(v), t.dtype.base_dtype, cpu)
                for v, t in zip(inputs, op._inputs)]
        with torch.no_grad():
            out = op._op_def.kernel(op, _FoldingContext())(*args)
        if len(op._outputs) > 1:
            out = out[index]
        if isinstance(out, torch.Tensor):
            if out.dtype == torch.bfloat16:
                return None
            return out.numpy().copy()
        if isinstance(out, np.ndarray):
            return out.copy()
        if op._outputs[index].dtype.base_dtype == dtypes.string:
            return np.asarray(out, dtype=object)
        return None
    except Exception:  # noqa: BLE001 - anything that cannot fold is simply not constant
        return None


def is_constant(tensor: Any) -> bool:
    return constant_value(tensor) is not None


def constant_value_as_shape(tensor: Tensor) -> TensorShape:
    """A 1-D shape tensor's value as a (partial) TensorShape; -1 entries are unknown."""
    if tensor.shape.rank == 0:
        value = constant_value(tensor)
        if value is None:
            raise ValueError("Received a scalar with unknown value as shape; require a "
                             "statically known scalar with value '-1' to describe an "
                             "unknown shape.")
        if int(value) != -1:
            raise ValueError(f"Received a scalar value '{value}' as shape; require a "
                             "statically known scalar with value '-1' to describe an "
                             "unknown shape.")
        return unknown_shape()
    shape = tensor.shape.with_rank(1)
    if shape.as_list() == [0]:
        return TensorShape([])
    if tensor._is_eager_tensor:
        value = constant_value(tensor)
        if value is None:
            return unknown_shape(shape.as_list()[0])
        return TensorShape([int(d) if d >= 0 else None for d in value])
    rule = tensor.op._op_def.shape_value
    if rule is not None:
        described = rule(tensor)
        if described is not None:
            return described
    result = unknown_shape(shape.as_list()[0])
    value = constant_value(tensor)
    if value is not None:
        result = result.merge_with(TensorShape([int(d) if d >= 0 else None for d in value]))
    return result
