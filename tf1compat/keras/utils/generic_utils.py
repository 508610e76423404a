"""`tf.keras.utils.Progbar` and the small list/array helpers of the training loops.

`Progbar` prints what tf-keras's prints, character for character: with `verbose=1` a bar
redrawn in place (backspaces over the previous line, then a carriage return — tf-keras
always draws dynamically on POSIX), `ETA` while running and time per unit when done,
each metric averaged over the units seen unless it is stateful; with `verbose=2` one
line per finished bar. Redraws closer than `interval` seconds to the previous one are
skipped unless the bar is finalized.

`func_dump` / `func_load` serialize a Python function as Keras does (its marshalled code
object in base64, its defaults and closure values).
"""

from __future__ import annotations

import binascii
import codecs
import marshal
import time
import types
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.keras.utils.io_utils import print_msg

__all__ = ["Progbar", "make_batches", "slice_arrays", "to_list", "has_arg",
           "check_for_unexpected_keys", "validate_kwargs", "func_dump", "func_load"]


class Progbar:
    """A progress bar over `target` units (None: unknown)."""

    def __init__(self, target: Optional[int], width: int = 30, verbose: int = 1,
                 interval: float = 0.05, stateful_metrics: Optional[Iterable[str]] = None,
                 unit_name: str = "step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self._total_width = 0
        self._seen_so_far = 0
        # name -> [weighted sum, weight]; the order in which names first appeared
        self._values: Dict[str, List[Any]] = {}
        self._values_order: List[str] = []
        self._start = time.time()
        self._last_update = 0.0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end: Optional[float] = None
        self._time_after_first_step: Optional[float] = None

    def update(self, current: int, values: Optional[Sequence[Tuple[str, Any]]] = None,
               finalize: Optional[bool] = None) -> None:
        """Moves the bar to `current` with `(name, value for the last step)` pairs."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        for name, value in values or []:
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
                continue
            # At least 1: a bar without a target sees the last update twice.
            base = max(current - self._seen_so_far, 1)
            if name in self._values:
                self._values[name][0] += value * base
                self._values[name][1] += base
            else:
                self._values[name] = [value * base, base]
        self._seen_so_far = current
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, now, finalize, info)
        elif self.verbose == 2 and finalize:
            self._print_line(current, now, info)
        self._last_update = now

    def _draw(self, current: int, now: float, finalize: bool, info: str) -> None:
        previous_width = self._total_width
        message = "\b" * previous_width + "\r"
        if self.target is not None:
            digits = int(np.log10(self.target)) + 1
            bar = f"{current:{digits}d}/{self.target} ["
            filled = int(self.width * (float(current) / self.target))
            if filled > 0:
                bar += "=" * (filled - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - filled) + "]"
        else:
            bar = f"{current:7d}/Unknown"
        self._total_width = len(bar)
        message += bar
        time_per_unit = self._step_duration(current, now)
        if self.target is None or finalize:
            info += _format_time(time_per_unit, self.unit_name)
        else:
            eta = time_per_unit * (self.target - current)
            if eta > 3600:
                eta_text = f"{int(eta // 3600)}:{int((eta % 3600) // 60):02d}:{int(eta % 60):02d}"
            elif eta > 60:
                eta_text = f"{int(eta // 60)}:{int(eta % 60):02d}"
            else:
                eta_text = f"{int(eta)}s"
            info = f" - ETA: {eta_text}"
        for name in self._values_order:
            info += f" - {name}:"
            entry = self._values[name]
            average = np.mean(entry[0] / max(1, entry[1]))
            info += f" {average:.4f}" if abs(average) > 1e-3 else f" {average:.4e}"
        self._total_width += len(info)
        if previous_width > self._total_width:
            info += " " * (previous_width - self._total_width)
        if finalize:
            info += "\n"
        print_msg(message + info, line_break=False)

    def _print_line(self, current: int, now: float, info: str) -> None:
        digits = int(np.log10(self.target)) + 1
        line = f"{current:{digits}d}/{self.target}" + info
        for name in self._values_order:
            entry = self._values[name]
            average = np.mean(entry[0] / max(1, entry[1]))
            # (no abs() here: tf-keras prints small negative values in e-notation)
            line += f" - {name}:" + (f" {average:.4f}" if average > 1e-3 else
                                     f" {average:.4e}")
        if self._time_at_epoch_end:
            per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
            per_step = per_epoch / self.target
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
            line += " -" + _format_time(per_epoch, "epoch")
            line += " -" + _format_time(per_step, self.unit_name)
            line += "\n"
        print_msg(line, line_break=False)

    def add(self, n: int, values: Optional[Sequence[Tuple[str, Any]]] = None) -> None:
        """Advances the bar by `n` units."""
        self.update(self._seen_so_far + n, values)

    def _step_duration(self, current: int, now: float) -> float:
        """Seconds per unit; after the first unit, the first one's time is left out."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit

    def _update_stateful_metrics(self, stateful_metrics: Iterable[str]) -> None:
        self.stateful_metrics = self.stateful_metrics.union(stateful_metrics)


def _format_time(per_unit: float, unit_name: str) -> str:
    if per_unit >= 1 or per_unit == 0:
        return f" {per_unit:.0f}s/{unit_name}"
    if per_unit >= 1e-3:
        return f" {per_unit * 1000.0:.0f}ms/{unit_name}"
    return f" {per_unit * 1000000.0:.0f}us/{unit_name}"


def make_batches(size: int, batch_size: int) -> List[Tuple[int, int]]:
    """(start, end) index pairs covering `size` samples in batches of `batch_size`."""
    count = int(np.ceil(size / float(batch_size)))
    return [(i * batch_size, min(size, (i + 1) * batch_size)) for i in range(count)]


def slice_arrays(arrays: Any, start: Any = None, stop: Optional[int] = None) -> Any:
    """`arrays[start:stop]` (or `arrays[indices]` for a list/array `start`), per array of
    a list; None entries stay None."""
    if arrays is None:
        return [None]
    if isinstance(start, list) and stop is not None:
        raise ValueError("The stop argument has to be None if the value of start is a list. "
                         f"Received start={start}, stop={stop}")
    if isinstance(arrays, list):
        if hasattr(start, "__len__"):
            if hasattr(start, "shape"):
                start = start.tolist()
            return [None if x is None else x[start] for x in arrays]
        return [None if x is None or not hasattr(x, "__getitem__") else x[start:stop]
                for x in arrays]
    if hasattr(start, "__len__"):
        if hasattr(start, "shape"):
            start = start.tolist()
        return arrays[start]
    if hasattr(start, "__getitem__"):
        return arrays[start:stop]
    return [None]


def to_list(x: Any) -> list:
    """`x` if it is a list, else `[x]`."""
    return x if isinstance(x, list) else [x]


def has_arg(fn: Any, name: str, accept_all: bool = False) -> bool:
    """Whether `fn` takes an argument `name` (or **kwargs, with accept_all)."""
    import inspect
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    if accept_all and any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return True
    return name in params


def check_for_unexpected_keys(name: str, input_dict: dict, expected_values: Sequence[str]
                              ) -> None:
    unknown = set(input_dict.keys()).difference(expected_values)
    if unknown:
        raise ValueError(f"Unknown entries in {name} dictionary: {list(unknown)}. Only "
                         f"expected following keys: {list(expected_values)}")


def validate_kwargs(kwargs: dict, allowed_kwargs: Iterable[str],
                    error_message: str = "Keyword argument not understood:") -> None:
    for kwarg in kwargs:
        if kwarg not in allowed_kwargs:
            raise TypeError(error_message, kwarg)


def func_dump(func: Callable) -> Tuple[str, Any, Any]:
    """`(code, defaults, closure)` of a Python function: its code object marshalled and
    base64-encoded (readable only by the same Python version), its default values and the
    values of its closure cells."""
    code = codecs.encode(marshal.dumps(func.__code__), "base64").decode("ascii")
    closure = tuple(cell.cell_contents for cell in func.__closure__) \
        if func.__closure__ else None
    return code, func.__defaults__, closure


def _as_cell(value: Any) -> Any:
    """`value` wrapped in a closure cell (a cell passes through)."""
    if isinstance(value, types.CellType):
        return value
    return types.CellType(value)


def func_load(code: Any, defaults: Any = None, closure: Any = None,
              globs: Optional[dict] = None) -> Callable:
    """The function `func_dump` serialized (`code` may be its whole tuple or list), bound
    to `globs` (default: this module's globals, as Keras)."""
    if isinstance(code, (tuple, list)):
        code, defaults, closure = code
        if isinstance(defaults, list):
            defaults = tuple(defaults)
    if closure is not None:
        closure = tuple(_as_cell(value) for value in closure)
    try:
        raw_code = codecs.decode(code.encode("ascii"), "base64")
    except (UnicodeEncodeError, binascii.Error):
        # Keras before 2.1.2 stored the marshalled bytes as raw-unicode-escaped text.
        raw_code = code.encode("raw_unicode_escape")
    # Bytecode of another Python version fails here as marshal fails (ValueError "bad
    # marshal data", EOFError) or at the call: tf-keras does not check either.
    code_object = marshal.loads(raw_code)
    return types.FunctionType(code_object, globs if globs is not None else globals(),
                              name=code_object.co_name, argdefs=defaults, closure=closure)
