"""`tf.train.export_meta_graph` / `tf.train.import_meta_graph`: `.meta` files.

A `.meta` file is TF's MetaGraphDef protobuf (binary, or text with `as_text=True`): the
GraphDef (graph_io.py), the Saver's SaverDef and the graph's collections. Collections of
variables hold VariableDef protos, so importing rebuilds `tf.Variable` objects over the
imported ops (ref or resource variables, partition slice info, trainability); collections
of tensors and ops (`train_op`, `losses`) hold node names; numbers and strings are kept as
values; `savers` holds SaverDefs. Python objects of other kinds are skipped with a
warning, as TF does.

Importing reads the `.meta` files real TF writes as well: their ops are rebuilt by op
type; op types tf1compat does not implement raise NotImplementedError naming them.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat.util import tf_logging
from tf1compat.framework import context as _context
from tf1compat.framework import proto_functions
from tf1compat.framework.graph import Graph, GraphKeys, get_default_graph
from tf1compat.framework.graph_scopes import prepend_name_scope, strip_name_scope
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.atomic_files import atomic_write_bytes
from tf1compat.serialization.messages import (AnyProto, BytesList, CollectionDef,
                                              DecodeError, MetaGraphDef, MetaInfoDef,
                                              ParseError, QueueRunnerDef, SaverDef,
                                              VariableDef, parse_text, to_text)
from tf1compat.graphdef import graph_import, graph_io
from tf1compat.graphdef.graph_export import GraphExport, context_collections
from tf1compat.graphdef.graph_io import UnserializableGraphError

__all__ = ["export_meta_graph", "import_meta_graph", "read_meta_graph_file",
           "add_collection_def", "UnserializableGraphError", "variable_to_proto",
           "variable_from_proto"]

# Collections whose items are VariableDefs (TF registers these keys' proto functions).
_VARIABLE_DEF_KEYS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
                      GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.LOCAL_VARIABLES,
                      GraphKeys.MODEL_VARIABLES, GraphKeys.GLOBAL_STEP,
                      GraphKeys.METRIC_VARIABLES)


# -- variables as VariableDef ---------------------------------------------------------------------

def variable_to_proto(var: Any, export_scope: Optional[str] = None) -> Optional[VariableDef]:
    """The VariableDef of a tf1compat Variable (None if outside `export_scope`)."""
    if export_scope and not var.name.startswith(export_scope):
        return None
    resource = getattr(var, "_is_resource_variable", False)
    out = VariableDef(variable_name=strip_name_scope(
        var.handle.name if resource else var.name, export_scope))
    if var.initial_value is not None:
        out.initial_value_name = strip_name_scope(var.initial_value.name, export_scope)
    out.trainable = bool(var.trainable)
    if var.initializer is not None:
        out.initializer_name = strip_name_scope(var.initializer.name, export_scope)
    snapshot = var._graph_element if resource else var._snapshot
    if snapshot is not None:
        out.snapshot_name = strip_name_scope(snapshot.name, export_scope)
    out.is_resource = resource
    out.synchronization = var.synchronization.value
    out.aggregation = var.aggregation.value
    info = var._get_save_slice_info()
    if info is not None:
        slice_info = out.save_slice_info_def
        slice_info.full_name = strip_name_scope(info.full_name, export_scope)
        slice_info.full_shape.extend(int(d) for d in info.full_shape)
        slice_info.var_offset.extend(int(d) for d in info.var_offset)
        slice_info.var_shape.extend(int(d) for d in info.var_shape)
    return out


def variable_from_proto(proto: VariableDef, graph: Optional[Graph] = None,
                        import_scope: Optional[str] = None) -> Any:
    """A Variable object over the imported ops a VariableDef names."""
    from tf1compat.variables.resource_variable import ResourceVariable
    from tf1compat.variables.variables import (RefVariable, Variable, VariableAggregation,
                                               VariableSynchronization)
    graph = graph or get_default_graph()

    def element(name: str) -> Any:
        return graph.as_graph_element(prepend_name_scope(name, import_scope)) if name else None

    sync = VariableSynchronization(proto.synchronization)
    aggregation = VariableAggregation(proto.aggregation)
    initializer = element(proto.initializer_name)
    initial_value = element(proto.initial_value_name)
    snapshot = element(proto.snapshot_name)
    if proto.is_resource:
        var = ResourceVariable.__new__(ResourceVariable)
        handle = element(proto.variable_name)
        handle_name = handle.op.name
        try:
            is_initialized = graph.as_graph_element(
                f"{handle_name}/IsInitialized/VarIsInitializedOp:0")
        except (KeyError, ValueError):
            is_initialized = None
        with graph.as_default():
            var._setup(proto.trainable, handle.op.get_attr("shape"),
                       handle.op.get_attr("dtype"), handle, None, sync, aggregation,
                       handle_name, handle_name, handle_name, snapshot, initial_value,
                       initializer, is_initialized, None, None)
    else:
        var = RefVariable.__new__(RefVariable)
        var._in_graph_mode = True
        var._graph_key = graph._graph_key
        var._synchronization = sync
        var._aggregation = aggregation
        var._trainable = proto.trainable
        var._variable = element(proto.variable_name)
        var._name = var._variable.name
        var._initial_value = initial_value
        var._initializer_op = initializer
        var._snapshot = snapshot
        var._caching_device = None
        var._save_slice_info = None
        var._constraint = None
    if proto.HasField("save_slice_info_def"):
        info = proto.save_slice_info_def
        var._set_save_slice_info(Variable.SaveSliceInfo(
            full_name=prepend_name_scope(info.full_name, import_scope),
            full_shape=list(info.full_shape), var_offset=list(info.var_offset),
            var_shape=list(info.var_shape)))
    return var


# -- collections ----------------------------------------------------------------------------------

def _is_variable(x: Any) -> bool:
    from tf1compat.variables.variables import Variable
    return isinstance(x, Variable)


def add_collection_def(meta_graph_def: MetaGraphDef, key: Any, graph: Optional[Graph] = None,
                       export_scope: Optional[str] = None) -> None:
    """Adds collection `key` of `graph` to the MetaGraphDef (skipped with a warning when its
    items have no serialized form)."""
    from tf1compat.training.queue_runner import QueueRunner
    from tf1compat.training.saving.saver import Saver
    if not isinstance(key, (str, bytes)):
        tf_logging.warning("Only collections with string type keys will be serialized. This "
                           "key has %s", type(key))
        return
    graph = graph or get_default_graph()
    items = [x for x in graph.get_collection(key)
             if not export_scope or not hasattr(x, "name") or
             str(getattr(x, "name", "")).startswith(export_scope)]
    if not items:
        return
    col = CollectionDef()
    to_proto = proto_functions.get_to_proto_function(key)
    try:
        if to_proto is not None:
            proto_type = proto_functions.get_collection_proto_type(key)
            for x in items:
                proto = to_proto(x, export_scope=export_scope)
                if proto:
                    if proto_type is not None and not isinstance(proto, proto_type):
                        raise TypeError(f"{key}: to_proto returned a "
                                        f"{type(proto).__name__}, not a {proto_type.__name__}")
                    col.bytes_list.value.append(proto.SerializeToString())
        elif key in _VARIABLE_DEF_KEYS:
            for x in items:
                if isinstance(x, (Tensor, Operation)):
                    # TF asks each item for its to_proto (a tensor put in the global_step
                    # collection by hand has none): the warning names that attribute
                    raise AttributeError(f"'{type(x).__name__}' object has no attribute "
                                         f"'to_proto'")
                proto = variable_to_proto(x, export_scope)
                if proto is not None:
                    col.bytes_list.value.append(proto.SerializeToString())
        elif key == GraphKeys.SAVERS:
            for x in items:
                if not isinstance(x, Saver):
                    raise AttributeError(f"'{type(x).__name__}' object has no attribute "
                                         f"'to_proto'")
                # TF skips a Saver with no SaverDef yet (defer_build) or outside the scope
                proto = x.to_proto(export_scope)
                if proto is not None:
                    col.bytes_list.value.append(proto.SerializeToString())
        elif key == GraphKeys.QUEUE_RUNNERS:
            for x in items:
                # TF registers QueueRunner.to_proto itself for this collection, so
                # subclasses without a proto of their own (the Estimator's feeding
                # runner) are written as plain QueueRunnerDefs.
                proto = QueueRunner.to_proto(x, export_scope) \
                    if isinstance(x, QueueRunner) else None
                if proto is not None:
                    col.bytes_list.value.append(proto.SerializeToString())
        elif isinstance(items[0], AnyProto):
            for x in items:     # e.g. the SavedModel builder's packed AssetFileDefs
                col.any_list.value.add().CopyFrom(x)
        elif isinstance(items[0], (str, bytes)):
            col.bytes_list.value.extend(x.encode("utf-8") if isinstance(x, str) else bytes(x)
                                        for x in items)
        elif isinstance(items[0], int) and not isinstance(items[0], bool):
            col.int64_list.value.extend(int(x) for x in items)
        elif isinstance(items[0], float):
            col.float_list.value.extend(float(x) for x in items)
        else:
            for x in items:
                name = x.name   # AttributeError: an object with no graph name
                if isinstance(x, (Tensor, Operation)) or _is_variable(x):
                    graph.as_graph_element(x)
                col.node_list.value.append(strip_name_scope(name, export_scope))
    except Exception as e:  # noqa: BLE001 - as TF: a collection that cannot be written is skipped
        tf_logging.warning("Issue encountered when serializing %s.\nType is unsupported, or "
                           "the types of the items don't match field type in CollectionDef. "
                           "Note this is a warning and probably safe to ignore.\n%s", key, e)
        return
    meta_graph_def.collection_def[key].CopyFrom(col)


def _import_collections(meta: MetaGraphDef, graph: Graph, scope: Optional[str]
                        ) -> Dict[str, Any]:
    """Fills the graph's collections; returns the imported variables by name."""
    from tf1compat.training.queue_runner import QueueRunner
    from tf1compat.training.saving.saver import Saver
    variables: Dict[bytes, Any] = {}
    for key in sorted(meta.collection_def):
        col = meta.collection_def[key]
        kind = col.WhichOneof("kind")
        if kind is None:
            tf_logging.error("Cannot identify data type for collection %s. Skipping.", key)
            continue
        from_proto = proto_functions.get_from_proto_function(key)
        proto_type = proto_functions.get_collection_proto_type(key)
        if kind == "bytes_list" and from_proto is not None and proto_type is not None and \
                key not in _VARIABLE_DEF_KEYS:
            for value in col.bytes_list.value:
                proto = proto_type()
                proto.ParseFromString(value)
                graph.add_to_collection(key, from_proto(proto, import_scope=scope))
        elif kind == "bytes_list" and key in _VARIABLE_DEF_KEYS:
            for value in col.bytes_list.value:
                var = variables.get(value)
                if var is None:
                    var = variables[value] = variable_from_proto(VariableDef.FromString(value),
                                                                 graph, scope)
                graph.add_to_collection(key, var)
        elif kind == "bytes_list" and key == GraphKeys.SAVERS:
            for value in col.bytes_list.value:
                graph.add_to_collection(key, Saver.from_proto(SaverDef.FromString(value),
                                                              scope))
        elif kind == "bytes_list" and key == GraphKeys.QUEUE_RUNNERS:
            with graph.as_default():
                for value in col.bytes_list.value:
                    graph.add_to_collection(key, QueueRunner.from_proto(
                        QueueRunnerDef.FromString(value), scope))
        elif kind == "node_list":
            for value in col.node_list.value:
                element = graph.as_graph_element(prepend_name_scope(value, scope))
                graph.add_to_collection(key, element)
        elif kind == "int64_list":
            for value in col.int64_list.value:
                graph.add_to_collection(key, int(value))
        elif kind == "bytes_list":
            for value in col.bytes_list.value:
                graph.add_to_collection(key, value)
        elif kind == "float_list":
            for value in col.float_list.value:
                graph.add_to_collection(key, float(value))
        elif kind == "any_list":
            for value in col.any_list.value:
                graph.add_to_collection(key, value)
        else:
            tf_logging.warning("Skipping collection %s: %s items are not supported", key, kind)
    out = {}
    for var in variables.values():
        name = var.name
        out[strip_name_scope(name, scope)] = var
    return out


# -- export / import ------------------------------------------------------------------------------

def export_meta_graph(filename: Optional[str] = None, meta_info_def: Optional[MetaInfoDef] = None,
                      graph_def: Any = None, saver_def: Optional[SaverDef] = None,
                      collection_list: Optional[Sequence[str]] = None, as_text: bool = False,
                      graph: Optional[Graph] = None, export_scope: Optional[str] = None,
                      clear_devices: bool = False, clear_extraneous_savers: bool = False,
                      strip_default_attrs: bool = False, save_debug_info: bool = False,
                      **kwargs: Any) -> MetaGraphDef:
    """`tf.train.export_meta_graph`: the graph, SaverDef and collections as a MetaGraphDef,
    written to `filename` (atomically) when given.

    tf.cond / tf.while_loop are written as TF 1.x writes them (graph_export.py). Raises
    UnserializableGraphError (a ValueError) naming the first op that cannot be written
    (custom gradients, Python generators).
    """
    from tf1compat._version import GIT_VERSION, TF_VERSION
    if _context.executing_eagerly():
        raise RuntimeError("Exporting/importing meta graphs is not supported when eager "
                           "execution is enabled. No graph exists when eager execution is "
                           "enabled.")
    graph = graph or get_default_graph()
    meta = MetaGraphDef()
    info = MetaInfoDef() if meta_info_def is None else meta_info_def
    if not info.tensorflow_version:
        info.tensorflow_version = TF_VERSION
        info.tensorflow_git_version = GIT_VERSION
    meta.meta_info_def.CopyFrom(info)
    contexts: Dict[str, List[bytes]] = {}
    if graph_def is not None:
        meta.graph_def.CopyFrom(graph_io.as_graph_def_proto(graph_def))
    else:
        # As TF: `_output_shapes` on every node; conds and loops with their contexts.
        export = GraphExport(graph, clear_devices, export_scope, add_shapes=True)
        meta.graph_def.CopyFrom(export.graph_def)
        contexts = context_collections(export)
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = graph.get_all_collection_keys() if collection_list is None else collection_list
    for key in keys:
        add_collection_def(meta, key, graph, export_scope)
    for key, items in contexts.items():
        if items and (collection_list is None or key in collection_list):
            meta.collection_def[key].CopyFrom(
                CollectionDef(bytes_list=BytesList(value=items)))
    if filename:
        data = to_text(meta).encode("utf-8") if as_text else \
            meta.SerializeToString(deterministic=True)
        directory = os.path.dirname(filename)
        if directory and not os.path.isdir(directory):
            os.makedirs(directory, exist_ok=True)
        atomic_write_bytes(filename, data)
    return meta


def meta_graph_for_events(graph: Any, graph_def: Any = None) -> Optional[MetaGraphDef]:
    """The MetaGraphDef a FileWriter given a graph at construction writes (the graph plus
    the default graph's collections), as TF; None when a collection item cannot be
    written (the graph event suffices then)."""
    if graph_def is None:
        graph_def = graph if not hasattr(graph, "get_operations") else \
            graph_io.graph_def_for_events(graph)
    try:
        return export_meta_graph(graph_def=graph_def)
    except UnserializableGraphError:
        return None


SERIALIZED_FORMS["meta_graph_for_events"] = meta_graph_for_events


def read_meta_graph_file(filename: str) -> MetaGraphDef:
    """Reads a MetaGraphDef written in binary or text format."""
    if not os.path.exists(filename):
        raise IOError(f"File does not exist. Received: {filename}.")
    with open(filename, "rb") as f:
        content = f.read()
    try:
        return MetaGraphDef.FromString(content)
    except (DecodeError, UnicodeDecodeError, ValueError):
        pass
    try:
        return parse_text(content.decode("utf-8"), MetaGraphDef)
    except (ParseError, UnicodeDecodeError) as e:
        raise IOError(f"Cannot parse file {filename}: {e}.") from None


def import_scoped_meta_graph(meta_graph_or_file: Any, clear_devices: bool = False,
                             graph: Optional[Graph] = None,
                             import_scope: Optional[str] = None,
                             input_map: Optional[Dict[str, Any]] = None,
                             return_elements: Optional[Sequence[str]] = None
                             ) -> Tuple[Dict[str, Any], Optional[List[Any]]]:
    """Imports a MetaGraphDef's graph and collections; (variables by name, elements)."""
    meta = meta_graph_or_file if isinstance(meta_graph_or_file, MetaGraphDef) else \
        read_meta_graph_file(meta_graph_or_file)
    graph = graph or get_default_graph()
    prefix, elements = graph_import.import_nodes(meta.graph_def, input_map=input_map,
                                                 return_elements=return_elements,
                                                 name=import_scope or "",
                                                 clear_devices=clear_devices, graph=graph)
    with graph.as_default():
        variables = _import_collections(meta, graph, prefix or None)
    return variables, elements


def import_meta_graph(meta_graph_or_file: Any, clear_devices: bool = False,
                      import_scope: Optional[str] = None, **kwargs: Any) -> Any:
    """`tf.train.import_meta_graph`: adds the graph and collections of a `.meta` file (or
    MetaGraphDef) to the default graph; returns a Saver from its SaverDef (or a new Saver
    over its variables, or None without variables)."""
    from tf1compat.training.saving.saver import Saver
    from tf1compat.training.saving import saveable
    if _context.executing_eagerly():
        raise RuntimeError("Exporting/importing meta graphs is not supported when eager "
                           "execution is enabled. No graph exists when eager execution is "
                           "enabled.")
    meta = meta_graph_or_file if isinstance(meta_graph_or_file, MetaGraphDef) else \
        read_meta_graph_file(meta_graph_or_file)
    variables, _ = import_scoped_meta_graph(meta, clear_devices=clear_devices,
                                            import_scope=import_scope,
                                            input_map=kwargs.get("input_map"))
    if meta.HasField("saver_def"):
        scope = import_scope
        if variables:
            sample_key = next(iter(variables))
            sample = variables[sample_key]
            scope = sample.name[:-len(sample_key)]
        return Saver(saver_def=meta.saver_def, name=scope or None)
    if saveable.all_saveable_objects(scope=import_scope):
        return Saver()
    tf_logging.info("Saver not created because there are no variables in the graph to "
                    "restore")
    return None
