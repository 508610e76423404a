"""`tensorflow.python.pywrap_tensorflow`: of TF's C++ bindings, the checkpoint reader that
Python code reaches through this path (`pywrap_tensorflow.NewCheckpointReader(path)`) and
`TF_TryEvaluateConstant_wrapper` (TensorFlow Probability's static `cond` predicates)."""

from typing import Any

from tf1compat.framework.constant_value import constant_value
from tf1compat.serialization.checkpoint_reader import CheckpointReader, NewCheckpointReader

__all__ = ["CheckpointReader", "NewCheckpointReader", "TF_TryEvaluateConstant_wrapper"]


def TF_TryEvaluateConstant_wrapper(graph: Any, output: Any) -> Any:  # noqa: N802 - TF's name
    """The value of graph output `(op, index)` (`tensor._as_tf_output()`) when it can be
    computed without running the graph (no placeholders, variables or random ops), else
    None; `graph` is `tensor.graph._c_graph`."""
    op, index = output
    return constant_value(op.outputs[index])
