"""Op-keyed goldens (tests/golden/op_rows_*.py) replayed on tf1compat, and the op coverage
gate: every declared op type has a row or an entry in the one exemption table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Dict

import pytest

import tf1compat
import tf1compat.runtime.session as session_mod
from tf1compat.runtime.interpreter import CheckingInterpreter
from tests.golden.harness import decode
from tests.golden.op_exempt import EXEMPT
from tests.golden.op_harness import (OPTIONS, ROOT, check_row, declared_op_types,
                                     eager_applies, record_path,
                                     row_modules, rows_of, run_row)

_RECORDS: Dict[str, dict] = {}
_EAGER: Dict[str, dict] = {}


def _record(module: str) -> dict:
    if module not in _RECORDS:
        path = record_path(module)
        _RECORDS[module] = {}
        if os.path.exists(path):
            with open(path) as f:
                _RECORDS[module] = json.load(f)
    return _RECORDS[module]


def _rows(eager: bool = False):
    return [pytest.param(module, r, id=f"{module[8:]}::{r.key}")
            for module in row_modules() for r in rows_of(module)
            if not eager or eager_applies(r)]


def _recorded(module: str, r) -> dict:
    record = _record(module)
    assert r.key in record, (f"row {module} {r.key} has no recording: run "
                             f"`/tmp/tf/bin/python scripts/record_op_goldens.py {module}`")
    return record[r.key]


@pytest.mark.parametrize("module,r", _rows())
def test_op_row(module, r):
    """The row through generated plan code."""
    check_row(r, _recorded(module, r), run_row(tf1compat, r))


@pytest.mark.parametrize("module,r", _rows())
def test_op_row_checked(module, r, monkeypatch):
    """The row through the checking interpreter (each output against its static shape
    rule and declared dtype)."""
    monkeypatch.setattr(session_mod, "_USE_INTERPRETER", True)
    monkeypatch.setattr(session_mod, "_INTERPRETER_CLASS", CheckingInterpreter)
    check_row(r, _recorded(module, r), run_row(tf1compat, r))


def _eager_results(module: str) -> dict:
    """tf1compat's eager results for a module's rows, from one child process (eager
    execution is process-wide)."""
    if module not in _EAGER:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "eager.json")
            proc = subprocess.run([sys.executable, "-m", "tests.golden.op_harness", path,
                                   module], cwd=ROOT, capture_output=True, text=True,
                                  timeout=600)
            assert proc.returncode == 0, proc.stderr[-3000:]
            with open(path) as f:
                _EAGER[module] = json.load(f)
    return _EAGER[module]


@pytest.mark.parametrize("module,r", _rows(eager=True))
def test_op_row_eager(module, r):
    """The row's forward values under eager execution against TF's (graph) record."""
    result = _eager_results(module)[f"{module}::{r.key}"]
    check_row(r, _recorded(module, r), decode(result), eager=True)


# -- the coverage gate --------------------------------------------------------------------------

def _covered() -> Dict[str, list]:
    out: Dict[str, list] = {}
    for module in row_modules():
        for r in rows_of(module):
            out.setdefault(r.op, []).append(r.key)
    return out


def test_every_declared_op_has_rows_or_an_exemption():
    covered = _covered()
    missing = [t for t in declared_op_types() if t not in covered and t not in EXEMPT]
    assert not missing, (
        f"op types with neither a golden row nor an exemption: {missing}. Add rows to "
        "tests/golden/op_rows_<family>.py and record them (`/tmp/tf/bin/python "
        "scripts/record_op_goldens.py op_rows_<family>`), or exempt the op with its reason "
        "in tests/golden/op_exempt.py.")


def test_exemptions_are_not_stale():
    declared = set(declared_op_types())
    covered = _covered()
    stale = {t: "not a declared op type" for t in EXEMPT if t not in declared}
    stale.update({t: f"has rows {covered[t]}" for t in EXEMPT if t in covered})
    assert not stale, f"stale exemptions in tests/golden/op_exempt.py: {stale}"


def test_rows_name_declared_ops_and_records_have_no_strays():
    declared = set(declared_op_types())
    for module in row_modules():
        keys = {r.key for r in rows_of(module)}
        unknown = sorted({r.op for r in rows_of(module)} - declared)
        assert not unknown, f"{module}: rows for undeclared op types {unknown}"
        strays = sorted(set(_record(module)) - keys)
        assert not strays, (f"{module}: recorded rows no row defines {strays}: record "
                            "the module again")


def test_row_options_are_not_op_arguments():
    """`row(op, **kw)` takes its options from the keywords: none may be a TF argument name."""
    from tf1compat.api._tf_raw_ops import RAW_OPS
    names = set()
    for _, inputs, attrs, _, _ in RAW_OPS.values():
        names.update(i.rstrip("*").split("=")[0] for i in inputs)
        names.update(a[0].split("=")[0] for a in attrs)
    assert not names & set(OPTIONS)


def test_docs_ops_md_is_current():
    """docs/ops.md is generated from the registry: regenerate it after changing ops."""
    import importlib.util
    path = os.path.join(ROOT, "scripts", "gen_ops_doc.py")
    spec = importlib.util.spec_from_file_location("gen_ops_doc", path)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    with open(generator.OUT) as f:
        current = f.read()
    assert current == generator.render(), \
        "docs/ops.md is stale: run `.venv/bin/python scripts/gen_ops_doc.py`"
