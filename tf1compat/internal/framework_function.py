"""`tensorflow.python.framework.function`: TF 1.x's `Defun` graph functions.

Sonnet v1 imports this module at load time (its MovingAverage and optimization
constraints build pass-through-gradient ops with `function.Defun(..., python_grad_func=...)`),
so the module exists and everything else in such a library works; defining a function
with `Defun` raises NotImplementedError naming it (a function call op per definition, with
its own library entry and gradient function, is not part of tf1compat; `tf.custom_gradient`
expresses the same pass-through gradients).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Defun"]


class Defun:
    """`function.Defun(*input_types, func_name=None, grad_func=None, python_grad_func=None,
    out_names=None, **kwargs)`: not supported (raises on definition)."""

    def __init__(self, *input_types: Any, **kwargs: Any) -> None:
        self._input_types = input_types
        self._kwargs = kwargs

    def __call__(self, func: Any) -> Any:
        name = self._kwargs.get("func_name") or getattr(func, "__name__", "function")
        raise NotImplementedError(
            f"tensorflow.python.framework.function.Defun ({name!r}) is not supported by "
            "tf1compat: TF 1.x graph functions with their own gradient functions are not "
            "implemented; use tf.custom_gradient for a custom gradient")
