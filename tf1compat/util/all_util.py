"""`tensorflow.python.util.all_util`: TF 1.x's helpers that trim a module to its
documented names (`remove_undocumented`, `make_all`, `reveal_undocumented`).

TF1-era libraries (TensorFlow Probability 0.7/0.8, Edward, contrib-style packages) call
`remove_undocumented(__name__, _allowed_symbols)` at the end of their `__init__`: every
public attribute that is neither allowed nor listed as `@@name` in a docstring is removed
from the module, and kept aside so that `reveal_undocumented` can put it back.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Dict, Iterable, List, Optional, Tuple

__all__ = ["make_all", "remove_undocumented", "reveal_undocumented"]

# `@@name` at the start of a docstring line marks a documented symbol.
_REFERENCE = re.compile(r"^@@(\w+)", flags=re.MULTILINE)
# "module.symbol" -> (module, value) of what remove_undocumented took away.
_HIDDEN: Dict[str, Tuple[Any, Any]] = {}


def make_all(module_name: str, doc_string_modules: Optional[Iterable[Any]] = None) -> List[str]:
    """The `@@name` references in the docstrings of `doc_string_modules` (default: the
    module itself), in order."""
    modules = doc_string_modules or [sys.modules[module_name]]
    names: List[str] = []
    for module in modules:
        names.extend(_REFERENCE.findall(module.__doc__ or ""))
    return names


def remove_undocumented(module_name: str, allowed_exception_list: Optional[Iterable[str]] = None,
                        doc_string_modules: Optional[Iterable[Any]] = None) -> None:
    """Removes the module's public attributes that are neither `@@`-documented nor in
    `allowed_exception_list`."""
    module = sys.modules[module_name]
    keep = set(make_all(module_name, doc_string_modules)) | set(allowed_exception_list or ())
    for name in list(vars(module)):
        if name.startswith("_") or name in keep:
            continue
        _HIDDEN[f"{module_name}.{name}"] = (module, getattr(module, name))
        delattr(module, name)


def reveal_undocumented(symbol_name: str, target_module: Any = None) -> None:
    """Puts back an attribute remove_undocumented removed ("module.symbol"), on its own
    module or on `target_module`."""
    if symbol_name not in _HIDDEN:
        raise LookupError(f"Symbol {symbol_name} is not a hidden symbol")
    module, value = _HIDDEN[symbol_name]
    setattr(target_module or module, symbol_name.split(".")[-1], value)
