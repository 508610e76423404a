"""`tensorflow.python.ops.summary_op_util` (and the distribute package's
summary_op_util): the helpers TF's v1 summary functions share, which libraries that write
their own summary ops import (tensor2tensor's common_video.gif_summary): the tag and name
scope of a summary (`summary_scope`), tag cleaning, adding the op to its collections, and
whether this replica skips summaries (all but replica 0 under a distribution strategy).
"""

from __future__ import annotations

from typing import Any

from tf1compat.framework.tensor import Tensor
from tf1compat.internal.distribution_strategy_context import get_replica_context
from tf1compat.internal.tensor_util import constant_value
from tf1compat.summary.summary_ops import _clean_tag as clean_tag
from tf1compat.summary.summary_ops import _summary_scope as summary_scope
from tf1compat.summary.summary_ops import collect

__all__ = ["collect", "clean_tag", "summary_scope", "skip_summary"]


def skip_summary() -> Any:
    """Truthy on replicas other than the first (replica_id_in_sync_group > 0); TF returns
    the `and` expression itself (0 on replica 0), so this does too."""
    context: Any = get_replica_context()
    if not context:
        return False
    replica_id = context.replica_id_in_sync_group
    if isinstance(replica_id, Tensor):
        value = constant_value(replica_id)
        replica_id = None if value is None else int(value)  # TF's replica id is an int
    return replica_id and replica_id > 0
