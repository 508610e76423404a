"""`tf.app`: `tf.app.run()` is absl's `app.run` with TF 1.x's tolerant flag parser.

As TF 1.x: flags absl knows are parsed and removed, unknown ones are left in the argv
handed to `main(argv)` (TF's `_parse_flags_tolerate_undef`), `--help` / `--helpfull`
print the flags' help and exit, and the process exits with `main`'s result.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, List, Optional

from absl import app as _absl_app

from tf1compat.util import flags

__all__ = ["run", "flags"]


def _parse_flags_tolerate_undef(argv: List[str]) -> List[str]:
    return flags.FLAGS(sys.argv if argv is None else argv, known_only=True)


def run(main: Optional[Callable[..., Any]] = None, argv: Optional[List[str]] = None) -> None:
    """Parses flags from `argv` (default sys.argv), runs `main(argv)`, exits with its result."""
    main = main or sys.modules["__main__"].main
    _absl_app.run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)
