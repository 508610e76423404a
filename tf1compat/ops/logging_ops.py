"""`tf.Print` and `tf.Assert`: the Print and Assert ops, with TF's value summaries.

Both are stateful ops that run only when something depends on them (a fetch or a
control dependency), as in TF1. Values are summarized as TF's `Tensor::SummarizeValue`
does (`[1 2 -3...]`, `[[1 2][3...]...]`: the first `summarize` elements, default 3),
so Print's stderr lines and Assert's InvalidArgumentError messages read like TF's.
`tf.Assert` builds TF's `Assert/AssertGuard` cond unless all data are int32 or strings,
exactly as TF's wrapper does, so the guarded Assert op runs only when the condition fails.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Type, TypeList, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops._kernels import any_true

__all__ = ["Print", "Assert", "summarize_value"]


# -- TF's value summaries ------------------------------------------------------------------------

def _format_float(v: float, single: bool) -> str:
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    # Shortest of TF's two precisions that reads back as the same value.
    short, long_ = (6, 9) if single else (15, 17)
    text = "%.*g" % (short, v)
    back = np.float32(text) if single else float(text)
    if (np.float32(v) if single else v) != back:
        text = "%.*g" % (long_, v)
    return text


def _escape(b: Any) -> str:
    if isinstance(b, str):
        b = b.encode()
    out = []
    for c in bytes(b):
        if c == 0x0A:
            out.append("\\n")
        elif c == 0x0D:
            out.append("\\r")
        elif c == 0x09:
            out.append("\\t")
        elif c in (0x22, 0x27, 0x5C):
            out.append("\\" + chr(c))
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return "".join(out)


def _element_printer(value: Any) -> Callable[[Any], str]:
    if isinstance(value, np.ndarray) and value.dtype == object:
        return _escape
    dtype = value.dtype
    if dtype == torch.bool:
        return lambda v: "1" if v else "0"
    if dtype.is_complex:
        single = dtype == torch.complex64
        return lambda v: f"({_format_float(v.real, single)},{_format_float(v.imag, single)})"
    if dtype.is_floating_point:
        single = dtype != torch.float64
        return lambda v: _format_float(float(v), single)
    return lambda v: str(int(v))


def summarize_value(value: Any, max_entries: int = 3) -> str:
    """TF's Tensor::SummarizeValue: the first `max_entries` elements, nested in brackets."""
    if isinstance(value, torch.Tensor):
        printer = _element_printer(value)
        arr = value.detach().cpu()
        if arr.dtype in (torch.bfloat16, torch.float16):
            arr = arr.float()
        flat = arr.reshape(-1).tolist()
        shape = list(value.shape)
    else:
        arr = np.asarray(value, dtype=object)
        printer = _escape
        flat = list(arr.reshape(-1))
        shape = list(arr.shape)
    num = len(flat)
    limit = num if max_entries < 0 else min(max_entries, num)
    if not shape:
        text = " ".join(printer(flat[i]) for i in range(limit))
        return text + ("..." if num > limit else "")
    out: List[str] = []
    index = [0]

    def one_dim(dim: int) -> None:
        if index[0] >= limit:
            return
        count = shape[dim]
        if dim == len(shape) - 1:
            for i in range(count):
                if index[0] >= limit:
                    if dim != 0:
                        out.append("...")
                    return
                if i > 0:
                    out.append(" ")
                out.append(printer(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(count):
            opened = False
            if index[0] < limit:
                out.append("[")
                opened = True
            one_dim(dim + 1)
            if index[0] < limit or opened:
                out.append("]")
    one_dim(0)
    if num > limit:
        out.append("...")
    return "".join(out)


# -- Print ----------------------------------------------------------------------------------------

class _PrintCounter:
    """How many times one Print op has printed in a session (for `first_n`)."""
    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


def _print_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    message = node.attrs["message"]
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    first_n = int(node.attrs["first_n"])
    summarize = int(node.attrs["summarize"])
    counter = kctx.op_resource(_PrintCounter) if first_n >= 0 else None

    def print_(x: Any, *data: Any) -> Any:
        if counter is not None:
            if counter.count >= first_n:
                return x
            counter.count += 1
        text = message + "".join(f"[{summarize_value(d, summarize)}]" for d in data)
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
        return x
    return print_


declare("Print", inputs=["input: T", "data: U"], outputs=["output: T"],
        attrs={"T": Type(), "U": TypeList(), "message": "", "first_n": -1, "summarize": 3},
        shape=lambda ctx: [ctx.shape(0)], kernel=_print_kernel, stateful=True, view=True,
        cpu_only=False, autograd_only_kernel=lambda node, kctx: lambda x, *data: x,
        doc="Identity that prints `data` to stderr when it runs.")


def Print(input_: Any, data: Sequence[Any], message: Optional[str] = None,  # noqa: N802
          first_n: Optional[int] = None, summarize: Optional[int] = None,
          name: Optional[str] = None) -> Tensor:
    """`tf.Print`: `input_` unchanged, printing `data` to stderr each time it is evaluated."""
    attrs = {"message": message or "", "first_n": -1 if first_n is None else int(first_n),
             "summarize": 3 if summarize is None else int(summarize)}
    return apply_op("Print", [input_, list(data)], attrs, name=name)._outputs[0]


# -- Assert ---------------------------------------------------------------------------------------

def _assert_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    summarize = int(node.attrs["summarize"])

    def assert_(condition: Any, *data: Any) -> None:
        if tuple(condition.shape) not in ((), (1,)):
            raise errors.InvalidArgumentError(
                None, None, f"In[0] should be a scalar: {list(condition.shape)}")
        if not any_true(torch.logical_not(condition.reshape(())),
                        f"assertion failed ({node.name})"):
            return None
        text = " ".join(f"[{summarize_value(d, summarize)}]" for d in data)
        raise errors.InvalidArgumentError(None, None, f"assertion failed: {text}")
    return assert_


declare("Assert", inputs=["condition: bool", "data: T"], outputs=[],
        attrs={"T": TypeList(), "summarize": 3}, shape=lambda ctx: [],
        kernel=_assert_kernel, stateful=True, grad="none", only_checks=lambda node: True,
        doc="Raises InvalidArgumentError (printing `data`) when `condition` is false.")


def _assert_op(condition: Any, data: Sequence[Any], summarize: Optional[int]) -> Operation:
    """The Assert op named `Assert` in the current scope, its data named data_0, data_1..."""
    with name_scope("Assert") as scope:
        values = [convert_to_tensor(d, name=f"data_{i}") for i, d in enumerate(data)]
        return apply_op("Assert", [condition, values],
                        {"summarize": 3 if summarize is None else int(summarize)}, name=scope)


def Assert(condition: Any, data: Sequence[Any], summarize: Optional[int] = None,  # noqa: N802
           name: Optional[str] = None) -> Optional[Operation]:
    """`tf.Assert`: an op that raises InvalidArgumentError when `condition` is false.

    In graph mode it runs only when fetched or used as a control dependency.
    """
    if _context.executing_eagerly():
        if not bool(condition):
            xs = [convert_to_tensor(d) for d in data]
            text = "\n".join(summarize_value(_eager_value(x), summarize or 3) for x in xs)
            raise errors.InvalidArgumentError(
                None, None, f"Expected '{condition}' to be true. Summarized data: {text}")
        return None
    from tf1compat.ops.cond import cond
    from tf1compat.ops.control_flow_ops import no_op
    with name_scope(name, "Assert", [condition, data]):
        xs = [convert_to_tensor(d) for d in data]
        if all(x.dtype.base_dtype in (D.string, D.int32) for x in xs):
            return _assert_op(condition, data, summarize)
        condition = convert_to_tensor(condition, name="Condition")
        guarded = cond(condition, no_op, lambda: _assert_op(condition, data, summarize),
                       name="AssertGuard")
        return guarded.op


def _eager_value(x: Any) -> Any:
    value = getattr(x, "_value", None)
    if value is not None:
        return value
    return torch.as_tensor(np.asarray(x.numpy()))
