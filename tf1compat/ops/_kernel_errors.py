"""TF's messages for kernel failures that torch words its own way.

A kernel runs torch directly; when torch raises (shapes that do not broadcast, a reshape
to the wrong size, ...) the message is torch's. An op declaration's `kernel_error`
(framework/op_def.py) turns the failing inputs into the message TF's kernel gives for
them, which legacy test suites match with `assertRaisesRegex`. These rules run only after
the kernel has raised, so the kernel itself pays nothing for them. Each takes the
failing op (an Operation, or any KernelNode: type, name, attrs) and its input values
and returns the message, or None when the inputs look valid to TF's kernel too (the
kernel's own message is kept then).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.framework import context

__all__ = ["shape_text", "incompatible_shapes", "reshape_error", "matmul_error",
           "batch_matmul_error", "concat_error", "pack_error", "same_shape_error",
           "select_error", "softmax_xent_error", "transpose_error"]


def _dims(value: Any) -> Optional[list]:
    shape = getattr(value, "shape", None)
    return None if shape is None else [int(d) for d in shape]


def _ints(value: Any) -> list:
    """An integer vector input (a tensor on any device, an array or a list) as ints."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return [int(v) for v in np.asarray(value).reshape(-1)]


def shape_text(dims: Sequence[int]) -> str:
    """A shape as TF's messages print it: [2,3]."""
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


def _broadcast(a: list, b: list) -> bool:
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def incompatible_shapes(op: Any, args: Sequence[Any]) -> Optional[str]:
    """Binary element-wise ops (BCast): "Incompatible shapes: [3,3] vs. [4,3]"."""
    a, b = _dims(args[0]), _dims(args[1])
    if a is None or b is None or _broadcast(a, b):
        return None
    return f"Incompatible shapes: {shape_text(a)} vs. {shape_text(b)}"


def reshape_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    dims = _dims(args[0])
    if dims is None:
        return None
    size = int(np.prod(dims, dtype=np.int64))
    target = _ints(args[1])
    known = int(np.prod([d for d in target if d != -1], dtype=np.int64))
    if -1 in target:
        if known and size % known:
            return (f"Input to reshape is a tensor with {size} values, but the requested "
                    f"shape requires a multiple of {known}")
        return None
    if known != size:
        return (f"Input to reshape is a tensor with {size} values, but the requested shape "
                f"has {known}")
    return None


def matmul_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    """MatMul: "Matrix size-incompatible: In[0]: [1,3], In[1]: [2,2]", as TF's MatMul
    kernel words it eagerly; in a graph TF 2 runs its oneDNN matmul, which adds the two
    transpose flags (" 0 0"). A pattern written against TF 1 still finds its text."""
    return _matmul_mismatch(args, "transpose_a", "transpose_b", op,
                            flags=not context.executing_eagerly())


def batch_matmul_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    a, b = _dims(args[0]), _dims(args[1])
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    if not _broadcast(a[:-2], b[:-2]):
        return (f"In[0] and In[1] must have compatible batch dimensions: {shape_text(a)} "
                f"vs. {shape_text(b)}")
    return _matmul_mismatch(args, "adj_x", "adj_y", op, flags=True)


def _matmul_mismatch(args: Sequence[Any], flag_a: str, flag_b: str, op: Any,
                     flags: bool) -> Optional[str]:
    a, b = _dims(args[0]), _dims(args[1])
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    ta, tb = bool(op.attrs.get(flag_a)), bool(op.attrs.get(flag_b))
    inner_a = a[-2] if ta else a[-1]
    inner_b = b[-1] if tb else b[-2]
    if inner_a == inner_b:
        return None
    message = f"Matrix size-incompatible: In[0]: {shape_text(a)}, In[1]: {shape_text(b)}"
    return f"{message} {int(ta)} {int(tb)}" if flags else message


def concat_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    values = list(args[:-1])
    shapes = [_dims(v) for v in values]
    if any(s is None for s in shapes) or not shapes:
        return None
    first = shapes[0]
    axis = _ints(args[-1])[0]
    axis = axis + len(first) if axis < 0 else axis
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != len(first):
            return (f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                    f"{shape_text(first)} vs. shape[{i}] = {shape_text(s)}")
        for d, (x, y) in enumerate(zip(first, s)):
            if d != axis and x != y:
                return (f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = "
                        f"{shape_text(first)} vs. shape[{i}] = {shape_text(s)}")
    return None


def pack_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    shapes = [_dims(v) for v in args]
    if any(s is None for s in shapes) or not shapes:
        return None
    for i, s in enumerate(shapes[1:], 1):
        if s != shapes[0]:
            return (f"Shapes of all inputs must match: values[0].shape = "
                    f"{shape_text(shapes[0])} != values[{i}].shape = {shape_text(s)}")
    return None


def same_shape_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    """Ops whose inputs must all have input 0's shape (AddN, element-wise Select)."""
    shapes = [_dims(v) for v in args]
    if any(s is None for s in shapes):
        return None
    for i, s in enumerate(shapes[1:], 1):
        if s != shapes[0]:
            return (f"Inputs to operation {op.name} of type {op.type} must have the same "
                    f"size and shape.  Input 0: {shape_text(shapes[0])} != input {i}: "
                    f"{shape_text(s)}")
    return None


def select_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    """V1 Select: a scalar or batch-vector condition broadcasts; otherwise every input must
    have the condition's shape."""
    cond, then = _dims(args[0]), _dims(args[1])
    if cond is None or then is None or len(cond) == 0 or (len(cond) == 1 and len(then) > 1):
        return None
    return same_shape_error(op, args)


def softmax_xent_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    logits, labels = _dims(args[0]), _dims(args[1])
    if logits is None or labels is None or _broadcast(logits, labels):
        return None
    return (f"logits and labels must be broadcastable: logits_size={shape_text(logits)} "
            f"labels_size={shape_text(labels)}")


def transpose_error(op: Any, args: Sequence[Any]) -> Optional[str]:
    dims = _dims(args[0])
    perm = _ints(args[1])
    if dims is None or len(perm) == len(dims):
        return None
    return (f"transpose expects a vector of size {len(dims)}. But input(1) is a vector of "
            f"size {len(perm)}")
