"""Whether tf1compat supports a TensorFlow 1.x name, and if not why and what instead.

The one answer shared by `tf1compat check` and `scripts/gen_api_support.py`: a name is
supported when it resolves in tf1compat the way the script would reach it at run time
(`import tensorflow...` through the shim, which maps TF-internal module paths to their
stand-ins, then attribute access) and the table of unsupported names
(framework/unsupported_api.py) has no entry for the name itself. An entry for a namespace
(`contrib.learn`) covers the names in it that do not resolve: tf1compat may provide part of
a namespace the table explains. Otherwise the answer carries the table's reason and
replacement, or the error the name raises under tf1compat.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

from tf1compat.framework.unsupported_api import UNSUPPORTED as UNSUPPORTED_NAMES
from tf1compat.framework.unsupported_api import Unsupported, lookup

__all__ = ["Support", "SUPPORTED", "UNSUPPORTED", "MISSING", "UNKNOWN", "support_of",
           "support_of_use", "support_of_keras_use", "canonical", "is_internal"]

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"     # left out on purpose: the table says why
MISSING = "not implemented"     # a TF 1.x name tf1compat does not implement (yet)
UNKNOWN = "unknown"             # not a TensorFlow 1.x name (a typo, a TF 2-only name)

_ROOT = "tensorflow"


@dataclass(frozen=True)
class Support:
    """The answer for one name."""
    status: str
    reason: str = ""
    replacement: str = ""
    entry: Optional[Unsupported] = None

    @property
    def supported(self) -> bool:
        return self.status == SUPPORTED


def canonical(dotted: str) -> str:
    """`compat.v1.nn.relu` -> `nn.relu` (tf.compat.v1 is tf1compat's root namespace)."""
    while dotted == "compat.v1" or dotted.startswith("compat.v1."):
        dotted = dotted[len("compat.v1."):]
    return dotted


def is_internal(module: str) -> bool:
    """TF-internal module paths (`tensorflow.python...`, `tensorflow.core...`)."""
    return module.startswith((_ROOT + ".python", _ROOT + ".core"))


def _from_table(dotted: str) -> Optional[Support]:
    entry = lookup(canonical(dotted))
    if entry is None:
        return None
    return Support(UNSUPPORTED, entry.reason, entry.replacement or "", entry)


def _not_found(dotted: str, message: str, error: Optional[BaseException] = None) -> Support:
    """A name that does not resolve: MISSING for TF 1.x names (tf1compat's
    UnimplementedAPIError says so), UNKNOWN for names TF 1.x does not have."""
    from tf1compat._tf_api_names import API_NAMES
    namespace, _, name = canonical(dotted).rpartition(".")
    known = isinstance(error, NotImplementedError) or name in API_NAMES.get(namespace, ())
    return Support(MISSING if known else UNKNOWN, message)


def _import(path: str) -> Optional[types.ModuleType]:
    """The module `import <path>` gives with tf1compat installed as tensorflow (None:
    the shim refuses it)."""
    from tf1compat.shim import _resolve
    try:
        return _resolve(path)
    except Exception:  # noqa: BLE001 - a failing import is a module not provided
        return None


def support_of_use(module: str, attrs: Sequence[str] = ()) -> Support:
    """Support for `module.attrs...` as a script reaches it: `import <module>` (or the
    module its `from <module> import` names), then attribute access. Attributes of
    objects other than modules and classes (a function's, `FLAGS`'s) are the object's
    own and are not checked."""
    internal = is_internal(module)
    public = module[len(_ROOT) + 1:] if module.startswith(_ROOT + ".") else ""
    table: Optional[Support] = None
    if not internal:
        dotted = ".".join(([public] if public else []) + list(attrs))
        table = _from_table(dotted)
        if table is not None and UNSUPPORTED_NAMES.get(canonical(dotted)) is table.entry:
            # An entry for this very name, unless the name is a module tf1compat
            # provides in part (`tf.contrib.learn`): its attributes are checked one by one.
            provided = _resolved(module, attrs)
            if not isinstance(provided, types.ModuleType):
                return table
    answer = _resolve_use(module, attrs, internal, public)
    # An entry for a namespace explains the names of it that tf1compat does not provide.
    return table if table is not None and not answer.supported else answer


def _resolved(module: str, attrs: Sequence[str]) -> Any:
    """The object `module.attrs...` is under tf1compat (None when it does not resolve)."""
    obj: Any = _import(module)
    for part in attrs:
        if obj is None:
            return None
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - any failure means the name is not provided
            obj = _import(f"{module}.{part}") if isinstance(obj, types.ModuleType) else None
        module = f"{module}.{part}"
    return obj


def _resolve_use(module: str, attrs: Sequence[str], internal: bool, public: str) -> Support:
    obj: Any = _import(module)
    if obj is None:
        if internal:
            return Support(UNSUPPORTED, f"tf1compat does not provide TensorFlow's internal "
                                        f"module {module}",
                           "the public API (import tensorflow as tf)")
        return _not_found(public, f"tf1compat does not provide the module {module}")
    path = module
    for part in attrs:
        if not isinstance(obj, (types.ModuleType, type)):
            break
        try:
            obj = getattr(obj, part)
        except Exception as e:  # noqa: BLE001 - any failure means the name is not provided
            sub = _import(f"{path}.{part}") if isinstance(obj, types.ModuleType) else None
            if sub is None:
                if internal:
                    return Support(MISSING, f"tf1compat's stand-in for {path} has no "
                                            f"{part!r}")
                message = str(e) or f"{path} has no attribute {part!r}"
                return _not_found(f"{path}.{part}"[len(_ROOT) + 1:], message, e)
            obj = sub
        path = f"{path}.{part}"
    return Support(SUPPORTED)


def support_of(dotted: str) -> Support:
    """Support for `tf.<dotted>` ("nn.relu", "contrib.slim.conv2d", "GraphKeys.LOSSES")."""
    parts: Tuple[str, ...] = tuple(p for p in canonical(dotted).split(".") if p)
    return support_of_use(_ROOT, parts)


def support_of_keras_use(module: str, attrs: Sequence[str] = ()) -> Support:
    """Support for standalone Keras's `module.attrs...` (`keras.layers.Dense`), as
    `import keras...` resolves under tf1compat (tf1compat/shim_keras.py), then attribute
    access; a name that does not resolve is MISSING with the error it raises."""
    from tf1compat import shim_keras
    try:
        obj: Any = shim_keras._resolve(module)
    except ImportError as e:
        return Support(MISSING, str(e))
    path = module
    for part in attrs:
        if not isinstance(obj, (types.ModuleType, type)):
            break
        try:
            # a submodule (`keras.backend`) resolves without installing the import hook
            obj = (shim_keras._resolve(f"{path}.{part}")
                   if f"{path}.{part}" in shim_keras.KERAS_PATHS else getattr(obj, part))
        except Exception as e:  # noqa: BLE001 - any failure means the name is not provided
            return Support(MISSING, str(e) or f"{path} has no attribute {part!r}")
        path = f"{path}.{part}"
    return Support(SUPPORTED)
