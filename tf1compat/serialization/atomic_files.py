"""All-or-nothing file writes, and cleaning up after writers that were killed.

`atomic_write(path, write)` fills a hidden temp file in the target's directory, flushes
and fsyncs it, renames it over `path` and fsyncs the directory: a crash at any point
leaves the old file or the new one, never a partial file under the final name. Temp
files are named `.<name>.tmp-<pid>-<host>-<random>`, which matches no checkpoint or
state-file name; a writer killed mid-write (SIGKILL, power loss) leaves one behind,
and `remove_stale_temp_files(directory)` — run by every checkpoint save — deletes those
whose writing process is gone (same host, pid no longer running) or that are more
than a day old.
"""

from __future__ import annotations

import os
import re
import socket
import time
import uuid
import zlib
from typing import Any, Callable, List

from tf1compat.framework import errors

__all__ = ["atomic_write", "atomic_write_bytes", "atomic_write_text", "temp_path",
           "remove_stale_temp_files", "is_temp_file", "make_parent_directory"]

_HOST = "%08x" % (zlib.crc32(socket.gethostname().encode("utf-8")) & 0xFFFFFFFF)
_TEMP = re.compile(r"^\..+\.tmp-(\d+)-([0-9a-f]{8})-[0-9a-f]{12}$")
_MAX_AGE = 24 * 3600   # seconds after which any temp file counts as abandoned


def temp_path(path: str) -> str:
    """A fresh temp file name next to `path` (same directory, so renaming is atomic)."""
    directory, name = os.path.split(os.fspath(path))
    return os.path.join(directory, f".{name}.tmp-{os.getpid()}-{_HOST}-"
                                   f"{uuid.uuid4().hex[:12]}")


def is_temp_file(name: str) -> bool:
    """Whether a file name is one of `temp_path`'s."""
    return _TEMP.match(name) is not None


def make_parent_directory(path: str) -> str:
    """Creates the directory of `path` if needed — only its last level, as TF's checkpoint
    writers do (NotFoundError when the level above is missing too); returns it."""
    directory = os.path.dirname(os.fspath(path))
    if directory and not os.path.isdir(directory):
        try:
            os.mkdir(directory)
        except FileExistsError:
            pass
        except OSError as e:
            raise errors.NotFoundError(None, None, f"Failed to create a directory: "
                                                   f"{directory}; {e.strerror}") from None
    return directory


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return  # platforms without directory handles (Windows): rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str, write: Callable[[Any], None]) -> None:
    """Writes `path` all-or-nothing: `write(f)` fills a temp file that replaces `path`.

    The temp file is removed if `write` raises; it is flushed and fsynced before the
    rename, and the directory is fsynced after it so the rename survives a power loss.
    """
    path = os.fspath(path)
    tmp = temp_path(path)
    # O_EXCL with mode 0o666: the umask applies, as for files TF writes.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(os.path.dirname(path))


def atomic_write_bytes(path: str, data: bytes) -> None:
    """`atomic_write` of a file holding `data`."""
    atomic_write(path, lambda f: f.write(data))


def atomic_write_text(path: str, text: str) -> None:
    """`atomic_write` of a UTF-8 text file."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True   # exists but belongs to someone else (or cannot tell): keep it
    return True


def remove_stale_temp_files(directory: str) -> List[str]:
    """Deletes temp files of `atomic_write` in `directory` left by writers that died.

    A temp file is stale when its writer ran on this host and is no longer running, or
    when it is older than a day. Returns the removed paths; errors are ignored (another
    process may be cleaning up at the same time).
    """
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(directory or "."))
    except OSError:
        return removed
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None:
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        pid, host = int(m.group(1)), m.group(2)
        if age < _MAX_AGE and (host != _HOST or _process_alive(pid)):
            continue
        try:
            os.unlink(entry.path)
            removed.append(entry.path)
        except OSError:
            pass
    return removed
