"""Host memory policy: freed tensor memory kept for the next run, as TF's allocator keeps it.

torch allocates CPU tensors with the C library's `malloc` and frees them as soon as they
die. glibc serves a large block (above a threshold that starts at 128 KiB and grows only
up to the largest block freed so far) with a fresh `mmap` and unmaps it when freed, and
gives the top of its heap back to the kernel once more than twice that threshold is
free there. A training step allocates and frees the same large activations and
gradients every run, so every run touches fresh pages: the kernel zeroes each 4 KiB page
at its first touch. The benchmark CNN (scripts/bench_vs_tf.py `cnn`) took 2,000-3,600
page faults a step, 2-4 ms of a 25 ms step at one thread, charged to whichever kernel
first wrote the buffer (a `fill_` of a max-pool gradient, a ReLU). TF never pays this:
its BFC allocator keeps every chunk it ever got from the system for reuse.

So `apply()` (run by `import tf1compat`) tells glibc, with `mallopt`, to serve blocks up
to 32 MiB (glibc's largest setting) from its heap and to keep up to 1 GiB of freed memory
at the heap's top: a steady training loop then reuses the same pages every run (no page
faults after the first steps; the process's memory stays at its peak, as under TF).
Blocks above 32 MiB are still mapped and unmapped per allocation.

`TF1COMPAT_MALLOC=keep|default` (default `keep`): `default` leaves glibc's behaviour
alone. A user's own `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`,
`MALLOC_TOP_PAD_`, `MALLOC_MMAP_MAX_` or a `glibc.malloc` entry in `GLIBC_TUNABLES` is
honoured (nothing is changed), and so is a C library other than glibc (nothing to change).
`describe()` gives the decision and its reason. Standard library only, so it can run
before torch loads (`mallopt` affects later allocations whenever it is called).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Optional

__all__ = ["apply", "describe"]

# mallopt parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 32 << 20   # glibc refuses more (HEAP_MAX_SIZE / 2 on 64-bit systems)
TRIM_THRESHOLD = 1 << 30

_USER_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_",
                   "MALLOC_MMAP_MAX_")

_STATE: Dict[str, Any] = {"malloc": None, "malloc_reason": None}


def _glibc() -> Optional[Any]:
    """The process's glibc (ctypes), or None under another C library."""
    try:
        # The process's own symbols: libc without ctypes.util.find_library's subprocess.
        libc = ctypes.CDLL(None)
        version = libc.gnu_get_libc_version
    except (OSError, AttributeError):
        return None
    version.restype = ctypes.c_char_p
    return libc if version() else None


def _decide() -> tuple:
    """(setting, reason) before anything is changed."""
    requested = os.environ.get("TF1COMPAT_MALLOC", "").strip().lower() or "keep"
    if requested not in ("keep", "default"):
        raise ValueError(f"TF1COMPAT_MALLOC must be keep or default, not {requested!r}")
    if requested == "default":
        return "default", "TF1COMPAT_MALLOC=default"
    user = [v for v in _USER_VARIABLES if v in os.environ]
    if "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        user.append("GLIBC_TUNABLES")
    if user:
        return "default", f"the user's own malloc settings ({', '.join(user)})"
    return "keep", "TF1COMPAT_MALLOC=keep (the default)"


def apply() -> None:
    """Keeps freed blocks up to 32 MiB in glibc's heap (see the module docstring).

    Idempotent."""
    if _STATE["malloc"] is not None:
        return
    setting, reason = _decide()
    if setting == "keep":
        libc = _glibc()
        if libc is None:
            setting, reason = "default", "not glibc: nothing to change"
        elif not (libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                  and libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
            setting, reason = "default", "glibc refused mallopt"
        else:
            reason = (f"{reason}: blocks up to {MMAP_THRESHOLD >> 20} MiB from the heap, "
                      f"up to {TRIM_THRESHOLD >> 20} MiB of freed memory kept")
    _STATE["malloc"] = setting
    _STATE["malloc_reason"] = reason


def describe() -> Dict[str, Any]:
    """The decision and why (a copy)."""
    return dict(_STATE)
