"""`tf.app`: `tf.app.run()` parses absl flags, then calls `main(argv)` and exits."""

from __future__ import annotations

import sys
from typing import Any, Callable, List, Optional

from tf1compat.util import flags

__all__ = ["run", "flags"]


def run(main: Optional[Callable[..., Any]] = None, argv: Optional[List[str]] = None) -> None:
    """Parses flags from `argv` (default sys.argv), runs `main(argv)`, exits with its result."""
    args = sys.argv if argv is None else argv
    remaining = flags.FLAGS(args, known_only=True)
    main = main or sys.modules["__main__"].main
    sys.exit(main(remaining))
