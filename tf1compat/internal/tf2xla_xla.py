"""`tensorflow.compiler.tf2xla.python.xla`: TF's Python wrappers of XLA's HLO ops
(`xla.replica_id`, `xla.dot_general`, `xla.reduce_window`, ...). TPU programs import it at
module level (google-research/simclr's objective.py, for the replica id of a
cross-replica contrastive loss), and take that path only inside a replicated TPU
computation, which never exists here (TPUEstimator runs with use_tpu=False). The import
works; using any of its ops raises NotImplementedError naming it: those ops have kernels
only inside XLA compilation.
"""

from __future__ import annotations

from typing import Any

from tf1compat.framework.missing import UnimplementedAPIError


def __getattr__(name: str) -> Any:  # noqa: N807 - module protocol
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnimplementedAPIError(
        f"tensorflow.compiler.tf2xla.python.xla.{name} is not implemented by tf1compat: "
        "XLA's HLO ops run only inside an XLA (TPU) compilation, which torch does not "
        "target; write the computation with tf.* ops (a single replica has replica id 0).")
