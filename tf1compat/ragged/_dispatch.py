"""The handler most ragged functions give ops/dispatch.py: the call's arguments bound by
name and passed on when one of the named ones is a RaggedTensor."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from tf1compat.ops import dispatch
from tf1compat.ragged.ragged_tensor import RaggedTensor

__all__ = ["by_name"]


def by_name(ragged_fn: Callable[..., Any], ragged_args: tuple,
            is_list: bool = False) -> Callable[..., Any]:
    """A handler calling `ragged_fn` with the call's arguments by name when one of
    `ragged_args` (or, `is_list`, an element of the first) is a RaggedTensor."""
    wanted = set(inspect.signature(ragged_fn).parameters)

    def handle(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs).arguments
        except TypeError:   # a call the function itself refuses: its own error stands
            return dispatch.NOT_SUPPORTED
        given = []
        for name in ragged_args:
            value = bound.get(name)
            given.extend(value if is_list and isinstance(value, (list, tuple)) else [value])
        if not any(isinstance(v, RaggedTensor) for v in given):
            return dispatch.NOT_SUPPORTED
        return ragged_fn(**{k: v for k, v in bound.items() if k in wanted})
    return handle
