"""The "serving_default" signature of a Keras SavedModel as a TF2 concrete function, so
that `tf.saved_model.load(dir).signatures["serving_default"](**inputs)` runs.

A TF2 loader calls functions of the graph's library, not the TF1 graph: the signature is
written as a FunctionDef of the inference ops (graphdef/function_export.py) whose
arguments are the inputs, sorted by key, then the resource handles of the variables it
reads. In the SavedObjectGraph the root gets a `signatures` map (identifier
"signature_map") whose `serving_default` child is a bare concrete function called with
keyword arguments; `concrete_functions` binds the trailing arguments to the variables'
nodes and describes the arguments (`((), {key: TensorSpec})`) and results
(`{key: TensorSpec}`), as TF writes a signature.

A graph whose inference ops need more than variables (a lookup table of a vocabulary
feature column, a placeholder outside the signature) gets no TF2 signature (`signatures`
is empty there); its TF1 signature still serves it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

__all__ = ["SignatureFunction", "signature_function", "SIGNATURE_KEY"]

SIGNATURE_KEY = "serving_default"
_SIGNATURE_MAP_VERSION = (1, 1)


class SignatureFunction:
    """A written signature: its library, the variables it binds, its structure."""

    def __init__(self, name: str, library: Any, bound_variables: List[Any],
                 inputs: Dict[str, Any], outputs: Dict[str, Any]):
        self.name = name
        self.library = library
        self.bound_variables = bound_variables
        self.inputs = inputs
        self.outputs = outputs

    def add_to(self, object_graph: Any, variable_nodes: Dict[int, int]) -> None:
        """Adds the `signatures` map under the root and the concrete function to the
        SavedObjectGraph (`variable_nodes`: id(variable) -> node id)."""
        from tf1compat.serialization.messages import SavedConcreteFunction
        signatures = len(object_graph.nodes)
        object_graph.nodes[0].children.add(node_id=signatures, local_name="signatures")
        node = object_graph.nodes.add()
        node.user_object.identifier = "signature_map"
        node.user_object.version.producer, node.user_object.version.min_consumer = \
            _SIGNATURE_MAP_VERSION
        node.children.add(node_id=signatures + 1, local_name=SIGNATURE_KEY)
        function = object_graph.nodes.add().bare_concrete_function
        function.concrete_function_name = self.name
        function.argument_keywords.extend(sorted(self.inputs))
        concrete = SavedConcreteFunction()
        concrete.bound_inputs.extend(variable_nodes[id(v)] for v in self.bound_variables)
        args = concrete.canonicalized_input_signature.tuple_value
        args.values.add().tuple_value.SetInParent()
        kwargs = args.values.add().dict_value
        for key, tensor in self.inputs.items():
            _tensor_spec(kwargs.fields[key], key, tensor)
        outputs = concrete.output_signature.dict_value
        for key, tensor in self.outputs.items():
            _tensor_spec(outputs.fields[key], key, tensor)
        object_graph.concrete_functions[self.name].CopyFrom(concrete)


def _tensor_spec(value: Any, name: str, tensor: Any) -> None:
    from tf1compat.serialization.tensor_proto import shape_to_proto
    spec = value.tensor_spec_value
    spec.name = name
    spec.shape.CopyFrom(shape_to_proto(tensor.shape))
    spec.dtype = tensor.dtype.base_dtype.as_datatype_enum


def signature_function(inputs: Dict[str, Any], outputs: Dict[str, Any],
                       variables: List[Any], taken_names: List[str]
                       ) -> Optional[SignatureFunction]:
    """The signature's function (None when its ops need more than `variables`); names
    in `taken_names` (the TF1 graph's library) are not reused."""
    from tf1compat.graphdef.function_export import FunctionExport, upstream_ops
    from tf1compat.graphdef.graph_io import UnserializableGraphError
    inputs = dict(sorted(inputs.items()))
    outputs = dict(sorted(outputs.items()))
    by_handle = {v.handle.op: v for v in variables if hasattr(v, "handle")}
    ops = upstream_ops(list(outputs.values()))
    input_ops = {t.op for t in inputs.values()}
    bound = []
    for op in ops:
        if op.type == "VarHandleOp":
            if op not in by_handle:
                return None
            bound.append(by_handle[op])
        elif op.type == "Placeholder" and op not in input_ops:
            return None
        elif "Table" in op.type:     # lookup tables are initialized by the TF1 main op
            return None
    export = FunctionExport(add_shapes=True)
    export.reserve(taken_names)      # the region functions get names of their own
    arguments = list(inputs.values()) + [v.handle for v in bound]
    try:
        name = export.function("__inference_signature_wrapper", arguments,
                               list(outputs.values()), ops).func.name
    except UnserializableGraphError:
        return None
    return SignatureFunction(name, export.library, bound, inputs, outputs)
