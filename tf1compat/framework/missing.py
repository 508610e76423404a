"""The error for a `tf.X` that tf1compat does not have.

It says whether X is part of TensorFlow 1.x's API (not implemented by tf1compat: also a
NotImplementedError) or not a TF name at all (an AttributeError, with close matches),
instead of Python's bare "no attribute". Both are AttributeErrors, so `hasattr(tf, X)`
and `getattr(tf, X, default)` feature checks in legacy code keep working.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable, Dict, Iterable


class MissingAPIError(AttributeError):
    """A tf.* name tf1compat does not provide."""


class UnimplementedAPIError(MissingAPIError, NotImplementedError):
    """A TensorFlow 1.x API name tf1compat does not implement."""


class UnimplementedModuleError(ImportError, NotImplementedError):
    """An import of a TensorFlow 1.x module tf1compat does not implement on purpose (an
    ImportError still, so `try: import ... except ImportError` fallbacks keep working)."""


# TF 1.15 names that TF 2.21's compat.v1 (which API_NAMES records) no longer has.
# (tf.estimator is not in TF 2.21: its names are TF 2.15's compat.v1 that tf1compat lacks.)
_TF1_ONLY = {"": frozenset({"estimator"}),
             "estimator": frozenset({"BinaryClassHead", "Head", "LogisticRegressionHead",
                                     "MultiClassHead", "MultiHead", "MultiLabelHead",
                                     "PoissonRegressionHead", "RegressionHead"})}


def missing_attribute(namespace: str, name: str, available: Iterable[str]) -> AttributeError:
    """The error for `tf.<namespace>.<name>`: UnimplementedAPIError for a TF 1.x name (with
    the reason and replacement from framework/unsupported_api.py where it has an entry),
    else an AttributeError suggesting close names."""
    from tf1compat._tf_api_names import API_NAMES
    from tf1compat.framework.unsupported_api import explain
    dotted = f"{namespace}.{name}" if namespace else name
    qualified = f"tf.{dotted}"
    why = explain(dotted)
    if why or name in API_NAMES.get(namespace, ()) or name in _TF1_ONLY.get(namespace, ()):
        return UnimplementedAPIError(f"{qualified} is part of the TensorFlow 1.x API but is not "
                                     f"implemented by tf1compat.{why}")
    candidates = set(available) | set(API_NAMES.get(namespace, ()))
    close = difflib.get_close_matches(name, sorted(c for c in candidates
                                                   if not c.startswith("_")), n=3)
    prefix = f"tf.{namespace}." if namespace else "tf."
    hint = f" Did you mean {', '.join(prefix + c for c in close)}?" if close else ""
    return MissingAPIError(f"{qualified} does not exist in TensorFlow 1.x's API.{hint}")


def attribute_hook(namespace: str, module_globals: Dict[str, Any]) -> Callable[[str], Any]:
    """A module-level `__getattr__` raising `missing_attribute` for unknown names."""
    def __getattr__(name: str) -> Any:  # noqa: N807 - module protocol
        if name.startswith("__"):
            raise AttributeError(name)
        raise missing_attribute(namespace, name, module_globals)
    return __getattr__
