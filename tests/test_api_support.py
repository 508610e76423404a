"""docs/api_support.md is generated from the package: fails when the checked-in file is stale."""

from __future__ import annotations

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _generator():
    path = os.path.join(ROOT, "scripts", "gen_api_support.py")
    spec = importlib.util.spec_from_file_location("gen_api_support", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_support_table_is_current():
    generator = _generator()
    with open(generator.OUTPUT) as f:
        checked_in = f.read()
    assert checked_in == generator.render(), \
        "docs/api_support.md is stale: run `python scripts/gen_api_support.py`"


def test_every_unsupported_row_says_why():
    table = _generator().classify()
    for namespace, (_, missing) in table.items():
        for name, reason, _ in missing:
            assert reason, f"{namespace}.{name}"
