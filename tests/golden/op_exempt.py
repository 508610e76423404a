"""The one table of declared op types that have no op-keyed golden row, each with why.

tests/test_op_goldens.py fails for a declared op type with neither a row in
tests/golden/op_rows_*.py nor an entry here, and for an entry that is stale (the op has
rows now, or is no longer declared). Keep it short: a pure op belongs in a row.
"""

from typing import Dict

EXEMPT: Dict[str, str] = {
}
