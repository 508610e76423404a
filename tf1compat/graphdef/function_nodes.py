"""NodeDefs added to a function body under a prefix (the rewritten ops of
gradient_lowering*.py)."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.op_def import get_op_def
from tf1compat.serialization.messages import NodeDef
from tf1compat.serialization.tensor_proto import attr_to_proto, tensor_to_proto

__all__ = ["NodeBuilder"]


class NodeBuilder:
    """Adds NodeDefs to a function body under `prefix`; returns TF's `node:arg:0` names."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.nodes: List[NodeDef] = []

    def add(self, op_type: str, inputs: List[str], attrs: Dict[str, Any]) -> str:
        name = f"{self.prefix}/{op_type}_{len(self.nodes)}"
        node = NodeDef(name=name, op=op_type, input=list(inputs))
        for key in sorted(attrs):
            node.attr[key].CopyFrom(attr_to_proto(attrs[key]))
        self.nodes.append(node)
        return f"{name}:{get_op_def(op_type).outputs[0].name}:0"

    def const(self, value: Any, dtype: D.DType) -> str:
        array = np.asarray(value, dtype=dtype.as_numpy_dtype)
        name = f"{self.prefix}/Const_{len(self.nodes)}"
        node = NodeDef(name=name, op="Const")
        node.attr["dtype"].CopyFrom(attr_to_proto(dtype))
        node.attr["value"].tensor.CopyFrom(tensor_to_proto(array, dtype))
        self.nodes.append(node)
        return f"{name}:output:0"
