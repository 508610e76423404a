"""Helpers shared by the Estimator modules: argument inspection and input_fn results."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, List, Tuple

from tf1compat.training.sessions.session_run_hook import SessionRunHook

__all__ = ["fn_args", "parse_input_fn_result", "parse_iterator_result",
           "DatasetInitializerHook"]


def fn_args(fn: Callable) -> Tuple[str, ...]:
    """The names of `fn`'s positional-or-keyword arguments, as TF's function_utils.fn_args
    (partials drop what they bind; `self` of a bound method is left out)."""
    if isinstance(fn, functools.partial):
        args = fn_args(fn.func)
        bound = set(fn.keywords or ())
        return tuple(a for a in args[len(fn.args):] if a not in bound)
    target = fn
    if not (inspect.isfunction(fn) or inspect.ismethod(fn)) and hasattr(fn, "__call__"):
        target = fn.__call__
    params = inspect.signature(target).parameters
    return tuple(name for name, p in params.items()
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


class DatasetInitializerHook(SessionRunHook):
    """Initializes the iterator Estimator made from an input_fn's Dataset."""

    def __init__(self, iterator: Any):
        self._iterator = iterator

    def begin(self) -> None:
        self._initializer = self._iterator.initializer

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self._initializer)


def parse_iterator_result(result: Any) -> Tuple[Any, Any]:
    """`(features, labels)` from what an input_fn (or iterator) produced."""
    if isinstance(result, (list, tuple)):
        if len(result) != 2:
            raise ValueError("input_fn should return (features, labels) as a len 2 tuple.")
        return result[0], result[1]
    return result, None


def parse_input_fn_result(result: Any) -> Tuple[Any, Any, List[SessionRunHook]]:
    """`(features, labels, hooks)`: a Dataset becomes an initializable iterator whose
    initializer runs in a hook, as TF's Estimator does."""
    from tf1compat.data.dataset_ops import DatasetV2
    from tf1compat.data.iterator_ops import make_initializable
    hooks: List[SessionRunHook] = []
    if isinstance(result, DatasetV2):
        iterator = make_initializable(result, None)
        hooks.append(DatasetInitializerHook(iterator))
        result = iterator.get_next()
    features, labels = parse_iterator_result(result)
    return features, labels, hooks


def model_fn_kwargs(args: Tuple[str, ...], labels: Any, mode: str) -> dict:
    """The `labels` and `mode` keyword arguments for a model_fn taking `args` (TF's
    ValueError when labels come but the model_fn takes none)."""
    kwargs = {}
    if "labels" in args:
        kwargs["labels"] = labels
    elif labels is not None:
        raise ValueError("model_fn does not take labels, but input_fn returns labels.")
    if "mode" in args:
        kwargs["mode"] = mode
    return kwargs
