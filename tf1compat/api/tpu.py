"""`tf.tpu` (`tf.compat.v1.tpu`): the pieces a TPU program uses that mean something on the
CPU/GPU, where TPUEstimator(use_tpu=False) runs it: `bfloat16_scope` and
`CrossShardOptimizer` (one shard: the wrapped optimizer). The TPU-only rest (rewrite,
shard, cross_replica_sum, initialize_system, ...) raises NotImplementedError naming it.
"""

# ruff: noqa: F401
from tf1compat.contrib.tpu.bfloat16 import bfloat16_scope
from tf1compat.contrib.tpu.cross_shard_optimizer import CrossShardOptimizer
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("tpu", globals())
