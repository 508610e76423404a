"""`tf.logging`: TF1's logging functions on Python's `logging` ("tensorflow" logger)."""

from __future__ import annotations

import logging as _logging
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

_logger = _logging.getLogger("tensorflow")
if not _logger.handlers:
    _handler = _logging.StreamHandler(sys.stderr)
    _handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    _logger.addHandler(_handler)
    _logger.propagate = False
    _logger.setLevel(WARN)


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
