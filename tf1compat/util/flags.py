"""`tf.flags` / `tf.app.flags`: absl's flags, as TF 1.x re-exported them.

Two TF 1.x differences from plain absl: `FLAGS` parses `sys.argv` on the first read of a
flag value when nothing has parsed it yet (scripts that never call `tf.app.run` read
`FLAGS.x` directly; absl would raise UnparsedFlagAccessError), and the DEFINE_*
functions also take TF's old keyword names `flag_name=`, `default_value=`, `docstring=`.
"""

# ruff: noqa: F401, F403
from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Iterator

import absl.flags as _absl_flags
from absl.flags import *

from tf1compat.util import tf_decorator  # (TF 1.x re-exported it here by accident)

__all__ = [name for name in dir(_absl_flags) if not name.startswith("_")]


class _FlagValuesWrapper:
    """absl's FlagValues, parsing sys.argv on the first flag read before any parse."""

    def __init__(self, flags_object: Any):
        self.__dict__["__wrapped"] = flags_object

    def __getattribute__(self, name: str) -> Any:
        if name == "__dict__":
            return super().__getattribute__(name)
        return self.__dict__["__wrapped"].__getattribute__(name)

    def __getattr__(self, name: str) -> Any:
        wrapped = self.__dict__["__wrapped"]
        if not wrapped.is_parsed():
            wrapped(sys.argv)
        return wrapped.__getattr__(name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.__dict__["__wrapped"].__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        self.__dict__["__wrapped"].__delattr__(name)

    def __dir__(self) -> list:
        return self.__dict__["__wrapped"].__dir__()

    def __getitem__(self, name: str) -> Any:
        return self.__dict__["__wrapped"].__getitem__(name)

    def __setitem__(self, name: str, flag: Any) -> None:
        self.__dict__["__wrapped"].__setitem__(name, flag)

    def __len__(self) -> int:
        return self.__dict__["__wrapped"].__len__()

    def __iter__(self) -> Iterator[str]:
        return self.__dict__["__wrapped"].__iter__()

    def __str__(self) -> str:
        return self.__dict__["__wrapped"].__str__()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["__wrapped"].__call__(*args, **kwargs)


_RENAMED_ARGUMENTS = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _accept_old_names(define: Callable[..., Any]) -> Callable[..., Any]:
    """A DEFINE_* function that also takes TF's old `flag_name=`, `default_value=` and
    `docstring=` (with TF's deprecation warning)."""
    @functools.wraps(define)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        renamed = [old for old in _RENAMED_ARGUMENTS if old in kwargs]
        for old in renamed:
            kwargs[_RENAMED_ARGUMENTS[old]] = kwargs.pop(old)
        if renamed:
            from tf1compat.util import tf_logging
            tf_logging.warning("Use of the keyword argument names (flag_name, default_value, "
                               "docstring) is deprecated, please use (name, default, help) "
                               "instead.")
        return define(*args, **kwargs)
    return wrapper


DEFINE_string = _accept_old_names(_absl_flags.DEFINE_string)
DEFINE_boolean = _accept_old_names(_absl_flags.DEFINE_boolean)
DEFINE_bool = DEFINE_boolean
DEFINE_float = _accept_old_names(_absl_flags.DEFINE_float)
DEFINE_integer = _accept_old_names(_absl_flags.DEFINE_integer)
DEFINE_enum = _accept_old_names(_absl_flags.DEFINE_enum)
DEFINE_list = _accept_old_names(_absl_flags.DEFINE_list)
DEFINE_multi_string = _accept_old_names(_absl_flags.DEFINE_multi_string)
DEFINE_multi_integer = _accept_old_names(_absl_flags.DEFINE_multi_integer)

FLAGS = _FlagValuesWrapper(_absl_flags.FLAGS)

# Flags defined through the wrappers above belong to the caller's module (its --help
# section), not to this one.
_absl_flags.disclaim_key_flags()
