"""`tf.profiler`: TF1's tfprof API (tf1compat/training/profiler/)."""

from tf1compat.serialization.messages import (AdviceProto, GraphNodeProto,
                                              MultiGraphNodeProto, OpLogProto)
from tf1compat.training.profiler.options import ProfileOptionBuilder
from tf1compat.training.profiler.profiler import (Profiler, advise, profile,
                                                  write_op_log)

__all__ = ["AdviceProto", "GraphNodeProto", "MultiGraphNodeProto", "OpLogProto",
           "ProfileOptionBuilder", "Profiler", "advise", "profile", "write_op_log"]
