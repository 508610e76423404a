"""`tensorflow.python.util.all_util`: a module's public names from the `@@name` lines of
its docstring (TF 1.x's contrib packages, TensorFlow Probability 0.7/0.8 and Edward's
`edward.models` prune their namespaces with `remove_undocumented`)."""

from __future__ import annotations

import re
import sys
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["make_all", "remove_undocumented", "reveal_undocumented"]

_REFERENCE = re.compile(r"^@@(\w+)$", flags=re.MULTILINE)

# Fully qualified name -> (module, value) of every symbol remove_undocumented took away.
_HIDDEN: Dict[str, Tuple[ModuleType, Any]] = {}


def make_all(module_name: str, doc_string_modules: Optional[Sequence[ModuleType]] = None
             ) -> List[str]:
    """The names referenced as `@@name` lines in the docstrings of `doc_string_modules`
    (default: the module itself) that the module named `module_name` has."""
    module = sys.modules[module_name]
    if doc_string_modules is None:
        doc_string_modules = [module]
    members = set(dir(module))
    found = set()
    for doc_module in doc_string_modules:
        found.update(m.group(1) for m in _REFERENCE.finditer(doc_module.__doc__)
                     if m.group(1) in members)
    return list(found)


def remove_undocumented(module_name: str, allowed_exception_list: Optional[List[str]] = None,
                        doc_string_modules: Optional[Sequence[ModuleType]] = None) -> None:
    """Deletes the module's public attributes that no `@@name` line documents and that
    `allowed_exception_list` does not name (names starting with "_" stay); they remain
    reachable through `reveal_undocumented`."""
    module = sys.modules[module_name]
    keep = set(make_all(module_name, doc_string_modules)) | set(allowed_exception_list or [])
    for name in set(dir(module)) - keep:
        if name.startswith("_"):
            continue
        _HIDDEN[module_name + "." + name] = (module, getattr(module, name))
        delattr(module, name)


def reveal_undocumented(symbol_name: str, target_module: Optional[ModuleType] = None) -> None:
    """Puts back a symbol `remove_undocumented` removed (LookupError for any other), into
    `target_module` or the module it came from."""
    if symbol_name not in _HIDDEN:
        raise LookupError("Symbol %s is not a hidden symbol" % symbol_name)
    module, value = _HIDDEN[symbol_name]
    setattr(target_module or module, symbol_name.split(".")[-1], value)
