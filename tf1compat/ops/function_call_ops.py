"""Ops that call functions of a graph's library: TF 2.x's functional control flow and calls.

`If`/`StatelessIf`, `Case`/`StatelessCase`, `While`/`StatelessWhile` and
`PartitionedCall`/`StatefulPartitionedCall` name functions in attrs (`then_branch`,
`body`, `f`, ...). In graphs tf1compat imports, those attrs hold the library's functions
(graphdef/function_library.py), objects with `bind(kctx) -> call(values) -> outputs`
that compile once per session. The kernels here run them: only the taken branch, the
body while the condition holds (a Python loop, so autograd sees every iteration), the
called function.

tf1compat's own `tf.cond`/`tf.while_loop` build `If`/`Case`/`While` ops whose attrs are
traced regions (cond.py, while_loop.py); those kernels hand ops with function attrs to
the factories below.

TF 1.x calls a library function through an op whose type is the function's name
(`function.Defun`, and the FunctionDefs of graphs TF 1.x wrote): `declare_call_op` declares
that op type for one function, with the function's signature as inputs and outputs.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.op_def import REQUIRED, TypeList, Type, declare
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["if_function_kernel", "case_function_kernel", "while_function_kernel",
           "declared_output_shapes", "truth", "declare_call_op"]


def truth(value: Any) -> bool:
    """TF's ToBool for a predicate: a scalar's value, else whether it has elements."""
    if isinstance(value, torch.Tensor):
        return bool(value.item()) if value.numel() == 1 and value.dim() == 0 else \
            value.numel() > 0
    array = np.asarray(value)
    if array.ndim == 0:
        value = array[()]
        return bool(len(value)) if isinstance(value, bytes) else bool(value)
    return array.size > 0


def declared_output_shapes(ctx: Any, types_attr: str) -> List[TensorShape]:
    """The `output_shapes` attr, or unknown shapes where a graph gives none."""
    shapes = list(ctx.attrs.get("output_shapes") or [])
    n = len(ctx.attrs[types_attr])
    if len(shapes) != n:
        return [unknown_shape() for _ in range(n)]
    return [as_shape(s) for s in shapes]


def _lazy(function: Any, kctx: Any) -> Callable[[tuple], tuple]:
    """`function` bound on its first call (a branch never taken never compiles)."""
    bound: List[Optional[Callable[[tuple], tuple]]] = [None]

    def call(values: tuple) -> tuple:
        fn = bound[0]
        if fn is None:
            fn = bound[0] = function.bind(kctx)
        return fn(values)
    return call


def _result(outputs: tuple, n: int) -> Any:
    if n == 1:
        return outputs[0]
    return tuple(outputs) if n else None


def if_function_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    then_fn = _lazy(node.attrs["then_branch"], kctx)
    else_fn = _lazy(node.attrs["else_branch"], kctx)
    n = len(node.outputs)

    def if_(pred: Any, *values: Any) -> Any:
        return _result((then_fn if truth(pred) else else_fn)(values), n)
    return if_


def case_function_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    branches = [_lazy(f, kctx) for f in node.attrs["branches"]]
    last = len(branches) - 1
    n = len(node.outputs)

    def case_(index: Any, *values: Any) -> Any:
        k = int(index)
        return _result(branches[k if 0 <= k <= last else last](values), n)
    return case_


def while_function_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    cond_fn = _lazy(node.attrs["cond"], kctx)
    body_fn = _lazy(node.attrs["body"], kctx)
    n = len(node.outputs)

    def while_(*values: Any) -> Any:
        while truth(cond_fn(values)[0]):
            values = tuple(body_fn(values))
        return _result(values, n)
    return while_


def _call_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    function = node.attrs["f"]
    if not hasattr(function, "bind"):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"{node.type} {node.name}: attr f is not a function")
    return _function_kernel(function, node, kctx)


def _function_kernel(function: Any, node: Any, kctx: Any) -> Callable[..., Any]:
    call = _lazy(function, kctx)
    n = len(node.outputs)
    grad_func = getattr(function, "grad_func", None)
    if grad_func is not None:
        grad_call = _lazy(grad_func, kctx)
        return lambda *args: _result(_GradFunctionCall.apply(call, grad_call, *args), n)
    return lambda *args: _result(call(args), n)


class _GradFunctionCall(torch.autograd.Function):
    """A call of a function that has a gradient function (a GradientDef): autograd's
    backward calls that function on the inputs and the outputs' gradients, as TF's
    SymbolicGradient does (the body itself is not differentiated)."""

    @staticmethod
    def forward(ctx: Any, call: Callable[[tuple], tuple], grad_call: Callable[[tuple], tuple],
                *args: Any) -> Any:
        ctx.grad_call = grad_call
        ctx.args = args
        outputs = tuple(call(args))
        for out in outputs:
            if isinstance(out, torch.Tensor) and not (out.dtype.is_floating_point or
                                                      out.dtype.is_complex):
                ctx.mark_non_differentiable(out)
        return outputs

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        with torch.enable_grad():
            in_grads = tuple(ctx.grad_call(tuple(ctx.args) + grads))
        in_grads = tuple(g if isinstance(a, torch.Tensor) and (
            a.dtype.is_floating_point or a.dtype.is_complex) else None
            for g, a in zip(in_grads, ctx.args))
        return (None, None) + in_grads


def _symbolic_gradient_names(op: Any) -> List[Any]:
    """TF differentiates a function call op with one SymbolicGradient op whose output k is
    the gradient of input k (`<op>_grad/SymbolicGradient:k`)."""
    from tf1compat.framework.grad_names import is_trainable
    return [(f"SymbolicGradient:{k}" if k else "SymbolicGradient") if is_trainable(t)
            else None for k, t in enumerate(op.inputs)]


def declare_call_op(function: Any) -> Any:
    """Declares the call op of a graph function: op type `function.name`, one input per
    argument and one output per result (`function.input_names`/`input_dtypes`,
    `output_names`/`output_dtypes`), output shapes unknown (TF sets
    `_disable_call_shape_inference`); the kernel runs `function.bind(kctx)`."""
    inputs = [f"{n}: {d.base_dtype.name}" for n, d in
              zip(function.input_names, function.input_dtypes)]
    outputs = [f"{n}: {d.base_dtype.name}" for n, d in
               zip(function.output_names, function.output_dtypes)]
    return declare(function.name, inputs=inputs, outputs=outputs, attrs={},
                   shape=lambda ctx: [unknown_shape() for _ in function.output_dtypes],
                   kernel=lambda node, kctx: _function_kernel(function, node, kctx),
                   stateful=function.stateful, view=True,
                   keeps_devices=True, grad_names=_symbolic_gradient_names,
                   function=function, doc=f"Calls the graph function {function.name}.")


_CALL_ATTRS = {"Tin": TypeList(), "Tout": TypeList(), "f": REQUIRED, "config": "",
               "config_proto": "", "executor_type": ""}

for _type, _stateful in (("PartitionedCall", False), ("StatefulPartitionedCall", True)):
    declare(_type, inputs=["args: Tin"], outputs=["output: Tout"], attrs=dict(_CALL_ATTRS),
            shape=lambda ctx: [unknown_shape() for _ in ctx.attrs["Tout"]],
            kernel=_call_kernel, stateful=_stateful, view=True, keeps_devices=True,
            doc="Calls the library function f on args.")

declare("StatelessIf", inputs=["cond: Tcond", "input: Tin"], outputs=["output: Tout"],
        attrs={"Tcond": Type(), "Tin": TypeList(), "Tout": TypeList(),
               "then_branch": REQUIRED, "else_branch": REQUIRED, "output_shapes": []},
        shape=lambda ctx: declared_output_shapes(ctx, "Tout"), kernel=if_function_kernel,
        view=True, keeps_devices=True,
        doc="Calls then_branch or else_branch (library functions without side effects).")
declare("StatelessCase", inputs=["branch_index: int32", "input: Tin"],
        outputs=["output: Tout"],
        attrs={"Tin": TypeList(), "Tout": TypeList(), "branches": REQUIRED,
               "output_shapes": []},
        shape=lambda ctx: declared_output_shapes(ctx, "Tout"), kernel=case_function_kernel,
        view=True, keeps_devices=True,
        doc="Calls branches[branch_index] (the last one when out of range).")
declare("StatelessWhile", inputs=["input: T"], outputs=["output: T"],
        attrs={"T": TypeList(), "cond": REQUIRED, "body": REQUIRED, "output_shapes": [],
               "parallel_iterations": 10},
        shape=lambda ctx: declared_output_shapes(ctx, "T"), kernel=while_function_kernel,
        view=True, keeps_devices=True,
        doc="Calls body while cond holds (library functions without side effects).")
