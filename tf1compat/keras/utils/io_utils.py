"""Where Keras prints (`print_msg`) and path helpers."""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["print_msg", "path_to_string", "enable_interactive_logging",
           "disable_interactive_logging", "is_interactive_logging_enabled",
           "ask_to_proceed_with_overwrite"]

_INTERACTIVE = {"enabled": True}


def enable_interactive_logging() -> None:
    """Progress bars and messages go to stdout (the default)."""
    _INTERACTIVE["enabled"] = True


def disable_interactive_logging() -> None:
    """Progress bars and messages go to the absl/`tf.logging` INFO log instead."""
    _INTERACTIVE["enabled"] = False


def is_interactive_logging_enabled() -> bool:
    return _INTERACTIVE["enabled"]


def print_msg(message: str, line_break: bool = True) -> None:
    """Writes `message` to stdout (flushed), or logs it at INFO when interactive logging
    is disabled, as tf-keras does."""
    if is_interactive_logging_enabled():
        sys.stdout.write(message + "\n" if line_break else message)
        sys.stdout.flush()
    else:
        from tf1compat.util import tf_logging as logging
        logging.info(message)


def path_to_string(path: Any) -> Any:
    """`os.PathLike` -> str; anything else unchanged."""
    if isinstance(path, os.PathLike):
        return os.fspath(path)
    return path


def ask_to_proceed_with_overwrite(filepath: str) -> bool:
    """Asks on the terminal whether `filepath` may be overwritten ([y/n])."""
    overwrite = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]").strip().lower()
    while overwrite not in ("y", "n"):
        overwrite = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if overwrite == "n":
        return False
    print_msg("[TIP] Next time specify overwrite=True!")
    return True
