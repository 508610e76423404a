"""`tf.contrib.layers.RevBlock` / `rev_block` (TF 1.15 contrib/layers/python/layers/
rev_block_lib.py): a stack of reversible residual layers (Gomez et al., "The Reversible
Residual Network"), `y1 = x1 + f(x2)`, `y2 = x2 + g(y1)`.

Layer `i`'s `f` and `g` run in the variable scopes `revlayer_<i>/f` and `revlayer_<i>/g`
(resource variables). With efficient backprop (training) the forward pass goes through
`custom_gradient`, whose gradient walks the layers backwards, recomputing each layer's
inputs from its outputs (`x2 = y2 - g(y1)`, `x1 = y1 - f(x2)`) instead of keeping the
activations, and routes the variable gradients to their layer by the variable names.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1compat.autodiff.custom_gradient import custom_gradient
from tf1compat.autodiff.gradients import gradients
from tf1compat.layers.base import Layer
from tf1compat.ops.array_ops import stop_gradient
from tf1compat.ops.control_flow_ops import tuple as tuple_with_deps
from tf1compat.ops.math_ops import add_n
from tf1compat.util import nest, tf_logging
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope

__all__ = ["RevBlock", "rev_block"]

LAYER_RE = re.compile(".*revlayer_([0-9]*)/([fg])/.*")


def _acc_grads(*lists_of_grads: Sequence[Any]) -> List[Any]:
    """Elementwise sums of gradient lists (None where all are None)."""
    out = []
    for grads in zip(*lists_of_grads):
        present = [g for g in grads if g is not None]
        out.append(add_n(present) if present else None)
    return out


def _call(fn: Callable, x: Any, side_input: List[Any]) -> Any:
    return fn(x, side_input) if side_input else fn(x)


def _rev_layer_forward(xs: Tuple[Any, Any], f: Callable, g: Callable, f_side_input: List[Any],
                       g_side_input: List[Any], gate_outputs: bool = False) -> Any:
    x1, x2 = xs
    y1 = x1 + _call(f, x2, f_side_input)
    y2 = x2 + _call(g, y1, g_side_input)
    return tuple_with_deps([y1, y2]) if gate_outputs else (y1, y2)


def _rev_layer_backward(ys: Any, grad_ys: Any, f: Callable, g: Callable, f_vars: List[Any],
                        f_side_input: List[Any], g_vars: List[Any],
                        g_side_input: List[Any]) -> Any:
    """One layer backwards: its recomputed inputs, their gradients, and the gradients of
    f's and g's variables and side inputs."""
    y1, y2 = ys
    grad_y1, grad_y2 = grad_ys
    y1_stop = stop_gradient(y1)
    g_side_input = [stop_gradient(t) for t in g_side_input]
    gy1 = _call(g, y1_stop, g_side_input)
    x2 = y2 - gy1
    x2_stop = stop_gradient(x2)
    f_side_input = [stop_gradient(t) for t in f_side_input]
    fx2 = _call(f, x2_stop, f_side_input)
    x1 = y1 - fx2

    grad_gy1_y2 = gradients(gy1, y1_stop, grad_y2)[0]
    grad_x1 = grad_y1 + grad_gy1_y2
    grad_x2 = (gradients(fx2, x2_stop, grad_y1)[0] + grad_y2 +
               gradients(fx2, x2_stop, grad_gy1_y2)[0])
    g_grads = gradients(gy1, g_vars + g_side_input, grad_y2)
    f_grads_1 = gradients(fx2, f_vars + f_side_input, grad_y1)
    f_grads_2 = gradients(fx2, f_vars + f_side_input, grad_gy1_y2)
    n_f, n_g = len(f_vars), len(g_vars)
    outputs = ((x1, x2), (grad_x1, grad_x2),
               (_acc_grads(f_grads_1[:n_f], f_grads_2[:n_f]),
                _acc_grads(f_grads_1[n_f:], f_grads_2[n_f:])),
               (g_grads[:n_g], g_grads[n_g:]))
    return nest.pack_sequence_as(outputs, tuple_with_deps(nest.flatten(outputs)))


def _scope_wrap(fn: Callable, scope: str) -> Callable:
    """`fn` run inside `variable_scope(scope, use_resource=True)`."""
    def wrap(*args: Any, **kwargs: Any) -> Any:
        with variable_scope(scope, use_resource=True):
            return fn(*args, **kwargs)
    return wrap if isinstance(fn, functools.partial) else functools.wraps(fn)(wrap)


class RevBlock(Layer):
    """`num_layers` reversible layers; `f` / `g` are functions (or one per layer) of a
    tensor (and the side inputs, when given) returning a tensor of the same shape."""

    def __init__(self, f: Any, g: Any, num_layers: int = 1,
                 f_side_input: Optional[List[Any]] = None,
                 g_side_input: Optional[List[Any]] = None,
                 use_efficient_backprop: bool = True, name: str = "revblock", **kwargs: Any):
        super().__init__(name=name, **kwargs)
        if isinstance(f, list):
            assert len(f) == num_layers
        else:
            f = [f] * num_layers
        if isinstance(g, list):
            assert len(g) == num_layers
        else:
            g = [g] * num_layers
        self.f = [_scope_wrap(fn, "revlayer_%d/f" % i) for i, fn in enumerate(f)]
        self.g = [_scope_wrap(fn, "revlayer_%d/g" % i) for i, fn in enumerate(g)]
        self.num_layers = num_layers
        self.f_side_input = f_side_input or []
        self.g_side_input = g_side_input or []
        self._use_efficient_backprop = use_efficient_backprop

    def call(self, inputs: Any, forward: bool = True) -> Any:
        scope = get_variable_scope()
        before = scope.global_variables()
        out = self._forward(*inputs) if forward else self._backward(*inputs)
        trainable = scope.trainable_variables()
        for variable in scope.global_variables()[len(before):]:
            if variable in trainable:
                self._trainable_weights.append(variable)
            else:
                self._non_trainable_weights.append(variable)
        return out

    def forward(self, x1: Any, x2: Any) -> Any:
        """`(y1, y2)` of the inputs."""
        return self.apply([x1, x2])

    def backward(self, y1: Any, y2: Any) -> Any:
        """`(x1, x2)` recomputed from the outputs."""
        return self.apply([y1, y2], forward=False)

    def build(self, _: Any) -> None:
        tf_logging.warning("RevBlock constructs its variables on first call, not on build.")
        self.built = True

    def _make_efficient_grad_fn(self, inputs: Sequence[Any], ys: Any) -> Callable:
        def efficient_grad_fn(*grad_ys: Any, **kwargs: Any) -> Any:
            variables = kwargs["variables"]
            side_inputs = list(inputs[2:])
            assert len(side_inputs) == len(self.f_side_input) + len(self.g_side_input)
            f_side_idxs = [side_inputs.index(t) for t in self.f_side_input]
            g_side_idxs = [side_inputs.index(t) for t in self.g_side_input]
            # Each variable belongs to layer i's f or g, by its scope name.
            layer_vars = {"f": [[] for _ in range(self.num_layers)],
                          "g": [[] for _ in range(self.num_layers)]}
            layer_idxs = {"f": [[] for _ in range(self.num_layers)],
                          "g": [[] for _ in range(self.num_layers)]}
            for i, ref in enumerate(variables):
                match = LAYER_RE.match(ref.name)
                layer_vars[match.group(2)][int(match.group(1))].append(ref)
                layer_idxs[match.group(2)][int(match.group(1))].append(i)

            results = []
            outputs, output_grads = ys, grad_ys
            with variable_scope(self.scope_name, reuse=True):
                for i in reversed(range(self.num_layers)):
                    outputs, output_grads, f_ret, g_ret = _rev_layer_backward(
                        outputs, output_grads, self.f[i], self.g[i], layer_vars["f"][i],
                        self.f_side_input, layer_vars["g"][i], self.g_side_input)
                    results.append((f_ret, g_ret))
            results.reverse()
            variable_grads: List[Any] = [None] * len(variables)
            for part, position in (("f", 0), ("g", 1)):
                for idxs, ret in zip(layer_idxs[part], results):
                    for i, grad in zip(idxs, ret[position][0]):
                        variable_grads[i] = grad
            side_input_grads: List[Any] = [None] * len(side_inputs)
            for idxs, position in ((f_side_idxs, 0), (g_side_idxs, 1)):
                acc = _acc_grads(*[ret[position][1] for ret in results])
                for i, grad in zip(idxs, acc):
                    side_input_grads[i] = grad
            return list(output_grads) + side_input_grads, variable_grads
        return efficient_grad_fn

    def _forward(self, x1: Any, x2: Any) -> Any:
        side_inputs = [self.f_side_input, self.g_side_input]

        def forward_wrap(x1_: Any, x2_: Any, *flat_side: Any) -> Any:
            f_side, g_side = nest.pack_sequence_as(side_inputs, list(flat_side))
            out = (x1_, x2_)
            for i in range(self.num_layers):
                out = _rev_layer_forward(out, self.f[i], self.g[i], f_side, g_side,
                                         gate_outputs=self._use_efficient_backprop)
            return tuple(out)

        @custom_gradient
        def forward_with_custom_grad(*args: Any) -> Any:
            out = forward_wrap(*args)
            return out, self._make_efficient_grad_fn(args, out)

        flat = nest.flatten(side_inputs)
        if self._use_efficient_backprop:
            return forward_with_custom_grad(x1, x2, *flat)
        return forward_wrap(x1, x2, *flat)

    def _backward(self, y1: Any, y2: Any) -> Any:
        for i in reversed(range(self.num_layers)):
            gy1 = _call(self.g[i], y1, self.g_side_input)
            x2 = y2 - gy1
            x1 = y1 - _call(self.f[i], x2, self.f_side_input)
            y1, y2 = x1, x2
        return y1, y2


def rev_block(x1: Any, x2: Any, f: Any, g: Any, num_layers: int = 1,
              f_side_input: Optional[List[Any]] = None,
              g_side_input: Optional[List[Any]] = None, is_training: bool = True) -> Any:
    """`RevBlock(...).forward(x1, x2)`, efficient backprop when `is_training`."""
    block = RevBlock(f=f, g=g, num_layers=num_layers, f_side_input=f_side_input,
                     g_side_input=g_side_input, use_efficient_backprop=is_training,
                     _reuse=get_variable_scope().reuse)
    return block.forward(x1, x2)
