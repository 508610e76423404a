"""`tf.contrib.layers.recompute_grad` (TF 1.15 contrib/layers/python/layers/
rev_block_lib.py): a function whose activations are not kept for the backward pass but
recomputed there.

The forward call goes through `custom_gradient`; its gradient function calls `fn` again
on identities of the inputs, under control dependencies on the incoming gradients (so
the recomputation happens in the backward pass), in the forward call's variable scope
(`reuse=True`) and arg_scope, and differentiates that copy. `fn` may take
`is_recomputing` to tell the two calls apart. As in TF, the variables `fn` reads must be
resource variables and must be the same in both calls.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1compat.autodiff.custom_gradient import _dependent_variables, custom_gradient
from tf1compat.autodiff.gradients import gradients
from tf1compat.contrib.framework.arg_scope import arg_scope, current_arg_scope
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import identity
from tf1compat.ops.control_flow_ops import tuple as tuple_with_deps
from tf1compat.util import nest, tf_inspect
from tf1compat.variables.resource_variable import BaseResourceVariable
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope
from tf1compat.variables.variables import Variable

__all__ = ["recompute_grad"]

_USE_DEFAULT = "__recompute_grad_use_default__"
_WRONG_VARS_ERR = """\
The variables used on recompute were different than the variables originally
used. The function wrapped with @recompute_grad likley creates its own variable
scope with a default name and has been called twice in the same enclosing scope.
To fix, ensure each call to the function happens in its own unique variable
scope.
"""


def recompute_grad(fn: Optional[Callable] = None, use_data_dep: Any = _USE_DEFAULT,
                   tupleize_grads: bool = False) -> Callable:
    """`fn` with its forward pass recomputed for the gradient; usable as `@recompute_grad`
    or `@recompute_grad(tupleize_grads=True)`. `fn` takes Tensors only and must not close
    over Tensors or Variables (their gradients would be lost)."""
    if fn is None:
        return lambda f: recompute_grad(f, use_data_dep, tupleize_grads)
    if not callable(fn):  # the options given positionally: (use_data_dep, tupleize_grads)
        tupleize = use_data_dep if use_data_dep is not _USE_DEFAULT else False
        return lambda f: recompute_grad(f, fn, tupleize)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        value = cell.cell_contents
        if isinstance(value, (Tensor, Variable)):
            raise ValueError(
                "fn decorated with @recompute_grad closes over Tensor %s (local variable "
                "name: %s). The decorated fn must not close over Tensors or Variables "
                "because gradients will NOT be computed for them through fn. To ensure "
                "correct gradients, make the Tensor an input to fn." % (value.name, name))

    @functools.wraps(fn)
    def wrapped(*args: Any) -> Any:
        return _recompute_grad(fn, args, use_data_dep, tupleize_grads)
    return wrapped


def _recompute_grad(fn: Callable, args: Sequence[Any], use_data_dep: Any,
                    tupleize_grads: bool) -> Any:
    takes_flag = "is_recomputing" in tf_inspect.getfullargspec(fn).args
    if any(not isinstance(arg, Tensor) for arg in args):
        raise ValueError("All inputs to function must be Tensors")
    if use_data_dep is True:
        # TF builds a fake data dependency for XLA/TPU, where control dependencies are
        # not kept; tf1compat runs neither.
        raise NotImplementedError("recompute_grad(use_data_dep=True) (the data dependency "
                                  "TF builds for TPUs) is not supported by tf1compat")

    @custom_gradient
    def fn_with_recompute(*inputs: Tensor) -> Tuple[Any, Callable]:
        scope = get_variable_scope()
        scoped_args = current_arg_scope()
        outputs = fn(*inputs, **({"is_recomputing": False} if takes_flag else {}))
        used = _dependent_variables(list(inputs), nest.flatten(outputs))
        if any(not isinstance(v, BaseResourceVariable) for v in used):
            raise TypeError("All variables used by a function wrapped with @custom_gradient "
                            "must be `ResourceVariable`s. Ensure that no `variable_scope` is "
                            "created with `use_resource=False`.")

        def grad_fn(*output_grads: Any, variables: Optional[List[Any]] = None) -> Any:
            if used and set(variables or ()) != set(used):
                raise ValueError(_WRONG_VARS_ERR)
            input_grads, variable_grads = _recomputed_gradients(
                fn, inputs, used, list(output_grads), tupleize_grads, scoped_args, scope,
                takes_flag)
            return (input_grads, variable_grads) if used else input_grads
        return outputs, grad_fn
    return fn_with_recompute(*args)


def _recomputed_gradients(fn: Callable, args: Sequence[Tensor], variables: List[Any],
                          output_grads: List[Any], tupleize_grads: bool, scoped_args: Any,
                          scope: Any, takes_flag: bool) -> Tuple[List[Any], List[Any]]:
    """The gradients of a second call of `fn` (made after the output gradients exist)
    with respect to its inputs and `variables`."""
    inputs = [identity(x) for x in args]  # the gradient walk stops at these
    with control_dependencies([g for g in output_grads if g is not None]):
        with arg_scope(scoped_args):
            with variable_scope(scope, reuse=True):
                outputs = fn(*inputs, **({"is_recomputing": True} if takes_flag else {}))
                if set(_dependent_variables(inputs, nest.flatten(outputs))) != set(variables):
                    raise ValueError(_WRONG_VARS_ERR)
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    grads = gradients(outputs, inputs + variables, output_grads)
    if tupleize_grads:
        grads = tuple_with_deps(grads)
    return grads[:len(inputs)], grads[len(inputs):]
