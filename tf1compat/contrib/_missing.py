"""Module-level `__getattr__` for the tf.contrib namespaces: an unknown name raises an
AttributeError that says tf1compat does not provide it (rather than a bare KeyError)."""

from __future__ import annotations

from typing import Any, Callable

from tf1compat.framework.missing import UnimplementedAPIError
from tf1compat.framework.unsupported_api import explain


def missing(namespace: str) -> Callable[[str], Any]:
    """`namespace` is "tf.contrib..."; a name with an entry in
    framework/unsupported_api.py raises UnimplementedAPIError with its reason and
    replacement, any other a plain AttributeError."""
    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        qualified = f"{namespace}.{name}"
        why = explain(qualified[len("tf."):])
        if why:
            raise UnimplementedAPIError(f"{qualified} is part of TensorFlow 1.x's tf.contrib "
                                        f"but is not implemented by tf1compat.{why}")
        raise AttributeError(f"{qualified} is not provided by tf1compat (only the most "
                             f"used parts of tf.contrib are implemented)")
    return __getattr__
