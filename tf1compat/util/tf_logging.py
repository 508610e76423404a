"""`tf.logging`: TF1's logging functions on Python's `logging` ("tensorflow" logger)."""

from __future__ import annotations

import logging as _logging
import os
import sys
from typing import Any

__all__ = ["DEBUG", "INFO", "WARN", "ERROR", "FATAL", "set_verbosity", "get_verbosity",
           "debug", "info", "warn", "warning", "error", "fatal", "log", "vlog",
           "log_every_n", "log_first_n", "log_if", "TaskLevelStatusMessage", "flush"]

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_THIS_FILE = os.path.normcase(__file__)


def _find_caller(stack_info: bool = False, stacklevel: int = 1) -> tuple:
    """Logger.findCaller that skips this module's helpers as well as `logging`'s, so a
    record names the user's file and line (absl's handler prints them: `s.py:4]`)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.normcase(frame.f_code.co_filename) in (
            _THIS_FILE, _logging._srcfile):
        frame = frame.f_back
    if frame is None:
        return "(unknown file)", 0, "(unknown function)", None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name, None


def _make_logger() -> _logging.Logger:
    """The "tensorflow" logger configured as TF 1.x's `get_logger` does: no level of its
    own (it follows the root logger's: WARNING by default, INFO once absl's `app.run` or
    `logging.basicConfig(level=INFO)` set it so, as TF prints Estimator's INFO lines under
    `tf.app.run`), records propagate to the root logger, and its own stderr handler only
    when the root logger has none (else TF would print each record twice); in an
    interactive shell INFO to stdout."""
    logger = _logging.getLogger("tensorflow")
    logger.findCaller = _find_caller
    if not _logging.getLogger().handlers and not logger.handlers:
        interactive = bool(getattr(sys, "ps1", None)) or bool(sys.flags.interactive)
        if interactive:
            logger.setLevel(INFO)
        handler = _logging.StreamHandler(sys.stdout if interactive else sys.stderr)
        handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger


_logger = _make_logger()


def get_logger() -> _logging.Logger:
    return _logger


def set_verbosity(v: int) -> None:
    _logger.setLevel(v)


def get_verbosity() -> int:
    return _logger.getEffectiveLevel()


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.log(level, msg, *args, **kwargs)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.debug(msg, *args, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.info(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.warning(msg, *args, **kwargs)


warn = warning


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.error(msg, *args, **kwargs)


def fatal(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.fatal(msg, *args, **kwargs)


def vlog(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.log(level, msg, *args, **kwargs)


_counts: dict = {}


def log_every_n(level: int, msg: Any, n: int, *args: Any) -> None:
    key = (msg, level)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count % n == 0:
        _logger.log(level, msg, *args)


def log_first_n(level: int, msg: Any, n: int, *args: Any) -> None:
    key = ("first", msg, level)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count < n:
        _logger.log(level, msg, *args)


def log_if(level: int, msg: Any, condition: bool, *args: Any) -> None:
    if condition:
        _logger.log(level, msg, *args)


def TaskLevelStatusMessage(msg: Any) -> None:  # noqa: N802 - TF's name
    _logger.error(msg)


def flush() -> None:
    for handler in _logger.handlers:
        handler.flush()


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('logging', globals())
