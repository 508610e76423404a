"""`tf.custom_gradient` under eager execution: the user's grad_fn as a torch autograd
Function between the function's inputs (and the variables it read) and its results, so a
recording `GradientTape` differentiates through grad_fn instead of through f's ops."""

from __future__ import annotations

import inspect
from typing import Any, Callable, List, Sequence

import torch

from tf1compat.autodiff.tape import (_TAPES, VariableWatcher, _set_grad_enabled, _value_of,
                                     variable_accessed)
from tf1compat.runtime import eager_executor as _ex
from tf1compat.runtime.eager_tensor import EagerTensor

__all__ = ["eager_custom_gradient"]


class _CustomGradFunction(torch.autograd.Function):
    """Connects f's results to its inputs (and variables) through the user's grad_fn."""

    @staticmethod
    def forward(ctx: Any, spec: "_CustomSpec", *inputs: torch.Tensor) -> Any:
        ctx.spec = spec
        return tuple(r.view_as(r) for r in spec.results)

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> Any:
        spec: _CustomSpec = ctx.spec
        return (None, *spec.backward(grads))


class _CustomSpec:
    def __init__(self, result: Any, flat_results: list, grad_fn: Callable[..., Any],
                 n_args: int, variables: list, inputs: list):
        self.result = result
        self.results = [r._value for r in flat_results]
        self.dtypes = [r._dtype for r in flat_results]
        self.grad_fn = grad_fn
        self.n_args = n_args
        self.variables = variables
        self.inputs = inputs

    def backward(self, grads: Sequence[torch.Tensor]) -> list:
        from tf1compat.util import nest
        eager_grads = [EagerTensor(g if g is not None else torch.zeros_like(r), d)
                       for g, r, d in zip(grads, self.results, self.dtypes)]
        packed = nest.pack_sequence_as(self.result, eager_grads) \
            if nest.is_nested(self.result) else eager_grads
        from tf1compat.framework import context as _context
        old = _context._state["eager"]
        _context._state["eager"] = True
        try:
            if self.variables:
                input_grads, variable_grads = self.grad_fn(*packed, variables=self.variables)
                if len(variable_grads) != len(self.variables):
                    raise ValueError("Must return gradient for each variable from "
                                     "@custom_gradient grad_fn.")
            else:
                input_grads = self.grad_fn(*packed)
                variable_grads = []
        finally:
            _context._state["eager"] = old
        flat = nest.flatten(input_grads)
        if len(flat) != self.n_args:
            raise ValueError(f"custom_gradient function expected to return {self.n_args} "
                             f"gradients but returned {len(flat)} instead.")
        out = []
        for g, x in zip(list(flat) + list(variable_grads), self.inputs):
            if g is None:
                out.append(None)
                continue
            value = _value_of(g)
            out.append(value.to(x.dtype) if value.dtype != x.dtype else value)
        return out


def eager_custom_gradient(f: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """`tf.custom_gradient` under eager execution (installed into autodiff)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.util import nest
    with VariableWatcher() as watcher:
        result, grad_fn = f(*args, **kwargs)
    flat_args = [convert_to_tensor(a) for a in nest.flatten(args)]
    variables = [v for v in watcher.watched_variables()
                 if all(v is not a for a in nest.flatten(args))]
    spec_args = inspect.getfullargspec(grad_fn)
    if variables and "variables" not in spec_args.args and \
            "variables" not in spec_args.kwonlyargs and not spec_args.varkw:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    flat_results = [convert_to_tensor(r) for r in nest.flatten(result)]
    if not _TAPES:
        return result
    inputs: List[torch.Tensor] = [a._value for a in flat_args]
    for v in variables:
        variable_accessed(v._handle._value)
        inputs.append(_ex.RUNTIME.state[v._handle._value])
    if not any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs):
        return result
    spec = _CustomSpec(result, flat_results, grad_fn, len(flat_args), variables, inputs)
    previous = torch.is_grad_enabled()
    _set_grad_enabled(True)
    try:
        outs = _CustomGradFunction.apply(spec, *inputs)
    finally:
        _set_grad_enabled(previous)
    wrapped = [EagerTensor(o, r._dtype) for o, r in zip(outs, flat_results)]
    return nest.pack_sequence_as(result, wrapped) if nest.is_nested(result) else wrapped[0]

