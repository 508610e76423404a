"""`tf.train.match_filenames_once`: the files matching a glob, as a local variable."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.graph import GraphKeys, name_scope
from tf1compat.ops.file_ops import matching_files
from tf1compat.variables.variables import Variable

__all__ = ["match_filenames_once"]


def match_filenames_once(pattern: Any, name: Optional[str] = None) -> Variable:
    """A LOCAL_VARIABLES string vector (`matching_filenames`) holding the files that
    match `pattern` when the local-variables initializer runs."""
    with name_scope(name, "matching_filenames", [pattern]) as scope:
        return Variable(name=scope, initial_value=matching_files(pattern), trainable=False,
                        validate_shape=False, collections=[GraphKeys.LOCAL_VARIABLES])
