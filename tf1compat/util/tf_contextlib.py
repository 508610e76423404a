"""TF's `tensorflow.python.util.tf_contextlib`: `contextlib.contextmanager` that keeps the
generator function introspectable.

Code that builds `arg_scope`-style helpers on TF internals (slim, tflearn) decorates its
generator with `tf_contextlib.contextmanager`; the result is a plain context-manager
factory whose name, docstring, signature and `__wrapped__` are the generator's, recorded
through `tf_decorator.make_decorator` so `tf_decorator.unwrap` finds the original.
"""

from __future__ import annotations

import contextlib
from typing import Callable

from tf1compat.util import tf_decorator

__all__ = ["contextmanager"]


def contextmanager(target: Callable) -> Callable:
    """`contextlib.contextmanager(target)`, dressed as `target` (see the module doc)."""
    manager = contextlib.contextmanager(target)
    return tf_decorator.make_decorator(target, manager, "contextmanager")
