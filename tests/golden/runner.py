"""Discovers golden case modules and runs their cases against a given `tf` module."""

from __future__ import annotations

import importlib
import os
import pkgutil
import traceback
from typing import Any, Callable, Dict, List, Tuple

GOLDEN_DIR = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = os.path.join(GOLDEN_DIR, "data")


def case_modules() -> List[str]:
    return sorted(m.name for m in pkgutil.iter_modules([GOLDEN_DIR])
                  if m.name.startswith("cases_"))


def cases_of(module_name: str) -> List[Tuple[str, Callable]]:
    module = importlib.import_module(f"tests.golden.{module_name}")
    return [(name[len("case_"):], fn) for name, fn in vars(module).items()
            if name.startswith("case_") and callable(fn)]


def oracle_of(module_name: str) -> str:
    """The TF version a case module is recorded with: its `TF_VERSION` ("2.15" for the
    Estimator and feature-column cases, which TF >= 2.16 dropped), else "2.21"."""
    module = importlib.import_module(f"tests.golden.{module_name}")
    return getattr(module, "TF_VERSION", "2.21")


def print_traceback_when_asked() -> None:
    """With TF1COMPAT_GOLDEN_TRACEBACKS=1, the exception being handled is printed (the
    recorded result keeps only its class: this is how a failing replay shows why)."""
    if os.environ.get("TF1COMPAT_GOLDEN_TRACEBACKS", "") not in ("", "0"):
        traceback.print_exc()


def run_case(tf: Any, fn: Callable) -> Dict[str, Any]:
    """Runs one case in a fresh default graph; an escaping exception is part of the result."""
    tf.reset_default_graph()
    try:
        return {"result": fn(tf)}
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded behaviour
        print_traceback_when_asked()
        return {"raised": type(e).__name__}
