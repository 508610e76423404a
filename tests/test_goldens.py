"""Replays every golden case on tf1compat and compares with real TensorFlow's record."""

from __future__ import annotations

import json
import os

import pytest

import tf1compat
from tests.golden.harness import case_tolerance, compare, decode
from tests.golden.runner import DATA_DIR, case_modules, cases_of, oracle_of, run_case


def _params():
    out = []
    for module in case_modules():
        for name, fn in cases_of(module):
            out.append(pytest.param(module, name, fn, id=f"{module[6:]}::{name}"))
    return out


_RECORDS: dict = {}


def _has_name(dotted: str) -> bool:
    """Whether `tf1compat.<dotted>` exists ("keras.layers.Dense" follows the dots)."""
    obj = tf1compat
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _record(module: str) -> dict:
    if module not in _RECORDS:
        path = os.path.join(DATA_DIR, f"{module}.json")
        if not os.path.exists(path):
            _RECORDS[module] = {}
        else:
            with open(path) as f:
                _RECORDS[module] = json.load(f)
    return _RECORDS[module]


@pytest.mark.parametrize("module,name,fn", _params())
def test_golden(module: str, name: str, fn) -> None:
    missing = [n for n in getattr(fn, "requires", ()) if not _has_name(n)]
    if missing:
        pytest.skip(f"tf1compat does not have {', '.join(missing)} yet")
    record = _record(module)
    venv = "/tmp/tf215" if oracle_of(module) == "2.15" else "/tmp/tf"
    assert name in record, (f"case {module}.{name} has no recording: run "
                            f"`{venv}/bin/python scripts/record_goldens.py {module}`")
    expected = decode(record[name])
    actual = run_case(tf1compat, fn)
    if "raised" in expected or "raised" in actual:
        assert actual.get("raised") == expected.get("raised"), \
            f"expected {expected.get('raised') or 'success'}, got {actual.get('raised') or 'success'}"
        return
    rtol, atol = case_tolerance(fn)
    compare(expected["result"], actual["result"], rtol, atol)
