"""`tf.compat.v2` (`import tensorflow.compat.v2 as tf2`): TF 1.15 shipped TF 2's API beside
the v1 one, and TF1-era programs import it for TF 2's graph-mode summaries
(`tf2.summary.create_file_writer(...).as_default()`, `tf2.summary.scalar(name, data,
step=)`: tensorflow/tpu's efficientnet and mnasnet host calls). tf1compat provides that
namespace (api/summary_v2.py); the rest of TF 2's API (eager by default, other defaults
and signatures than TF 1's) raises NotImplementedError naming the symbol.
"""

from __future__ import annotations

from typing import Any

from tf1compat.api import summary_v2 as summary
from tf1compat.framework.missing import UnimplementedAPIError

__all__ = ["summary"]


def __getattr__(name: str) -> Any:  # noqa: N807 - module protocol
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnimplementedAPIError(
        f"tf.compat.v2.{name} is part of TensorFlow 2's API, which tf1compat does not "
        "implement: of tf.compat.v2 it provides `summary` (graph-mode summaries). Use the "
        f"TensorFlow 1.x name (tf.compat.v1.{name}) instead.")
