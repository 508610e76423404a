"""`tensorflow.python.debug` (tfdbg, `from tensorflow.python import debug as tf_debug`).

Many TF1 scripts import tfdbg at the top and wrap their session only under a `--debug`
flag, so the module imports with TF's names. What works as in TF: `has_inf_or_nan` (the
predicate `DebugDumpDir.find` and `add_tensor_filter` take), `WatchOptions`,
`InconvertibleTensorProto`, `load_tensor_from_event(_file)` (a tensor from one Event
proto). tfdbg itself (the debug session wrappers and hooks, the CLI, debug dumps and
tensor watches) inserts TF's debug ops into the runtime's graph; tf1compat's runtime has
none, so constructing a wrapper or hook, or adding a watch, raises NotImplementedError
that names tfdbg.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from tf1compat.serialization.messages import Event
from tf1compat.serialization.protos import types_pb2
from tf1compat.serialization.tensor_util import make_ndarray
from tf1compat.util import gfile

__all__ = ["DebugDumpDir", "DebugTensorDatum", "DumpingDebugHook", "DumpingDebugWrapperSession",
           "GradientsDebugger", "GrpcDebugHook", "GrpcDebugWrapperSession",
           "InconvertibleTensorProto", "LocalCLIDebugHook", "LocalCLIDebugWrapperSession",
           "TensorBoardDebugHook", "TensorBoardDebugWrapperSession", "WatchOptions",
           "add_debug_tensor_watch", "clear_gradient_debuggers", "has_inf_or_nan",
           "load_tensor_from_event", "load_tensor_from_event_file",
           "reconstruct_non_debug_graph_def", "watch_graph", "watch_graph_with_blacklists",
           "watch_graph_with_denylists"]


def _unsupported(feature: str) -> NoReturn:
    raise NotImplementedError(
        f"tfdbg ({feature}) is not supported by tf1compat: TF's debugger inserts debug ops "
        "into TF's C++ runtime, which tf1compat does not have. Run without the debug "
        "wrapper, or check values with tf.debugging.check_numerics / "
        "tf.debugging.enable_check_numerics.")


class InconvertibleTensorProto:
    """A TensorProto that cannot be represented as a numpy array (TF's debug_data)."""

    def __init__(self, tensor_proto: Any, initialized: bool = True) -> None:
        self._tensor_proto = tensor_proto
        self._initialized = initialized

    def __str__(self) -> str:
        output = "" if self._initialized else "Uninitialized tensor:\n"
        return output + str(self._tensor_proto)

    @property
    def initialized(self) -> bool:
        return self._initialized


def has_inf_or_nan(datum: Any, tensor: Any) -> Any:
    """True if and only if `tensor` (a numpy array) holds any nan or inf values, as TF.

    `datum` (the tensor's DebugTensorDatum) is unused; non-numeric tensors and
    InconvertibleTensorProto (uninitialized tensors) give False.
    """
    del datum
    if isinstance(tensor, InconvertibleTensorProto):
        return False
    if (np.issubdtype(tensor.dtype, np.floating) or
            np.issubdtype(tensor.dtype, np.complexfloating) or
            np.issubdtype(tensor.dtype, np.integer)):
        return np.any(np.isnan(tensor)) or np.any(np.isinf(tensor))
    return False


def load_tensor_from_event(event: Any) -> Any:
    """The tensor of an Event proto's first summary value, as a numpy array (an
    InconvertibleTensorProto for resources and uninitialized tensors), as TF."""
    tensor_proto = event.summary.value[0].tensor
    num_elements = 1
    for dim in tensor_proto.tensor_shape.dim:
        num_elements *= dim.size
    if tensor_proto.tensor_content or tensor_proto.string_val or not num_elements:
        if tensor_proto.dtype == types_pb2.DT_RESOURCE:
            return InconvertibleTensorProto(tensor_proto)
        try:
            return make_ndarray(tensor_proto)
        except (KeyError, TypeError):
            return InconvertibleTensorProto(tensor_proto)
    return InconvertibleTensorProto(tensor_proto, False)


def load_tensor_from_event_file(event_file_path: str) -> Any:
    """The tensor of the one Event proto stored in `event_file_path` (a tfdbg dump file)."""
    event = Event()
    with gfile.GFile(event_file_path, "rb") as f:
        event.ParseFromString(f.read())
    return load_tensor_from_event(event)


class WatchOptions:
    """What a tfdbg `watch_fn` returns: debug ops and the regex allow-lists, as TF."""

    def __init__(self, debug_ops: Any = None, node_name_regex_whitelist: Any = None,
                 op_type_regex_whitelist: Any = None, tensor_dtype_regex_whitelist: Any = None,
                 tolerate_debug_op_creation_failures: bool = False) -> None:
        self.debug_ops = debug_ops if debug_ops else ["DebugIdentity"]
        self.node_name_regex_whitelist = node_name_regex_whitelist
        self.op_type_regex_whitelist = op_type_regex_whitelist
        self.tensor_dtype_regex_whitelist = tensor_dtype_regex_whitelist
        self.tolerate_debug_op_creation_failures = tolerate_debug_op_creation_failures

    def __repr__(self) -> str:
        return ("WatchOptions(debug_ops=%r, node_name_regex_whitelist=%r, "
                "op_type_regex_whitelist=%r, tensor_dtype_regex_whitelist=%r, "
                "tolerate_debug_op_creation_failures=%r)" % (
                    self.debug_ops, self.node_name_regex_whitelist,
                    self.op_type_regex_whitelist, self.tensor_dtype_regex_whitelist,
                    self.tolerate_debug_op_creation_failures))


def _unsupported_class(name: str, doc: str) -> type:
    """A tfdbg class whose construction raises NotImplementedError naming tfdbg."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        del self, args, kwargs
        _unsupported(name)

    return type(name, (), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


LocalCLIDebugWrapperSession = _unsupported_class(
    "LocalCLIDebugWrapperSession", "tfdbg's command-line debugger session wrapper.")
LocalCLIDebugHook = _unsupported_class(
    "LocalCLIDebugHook", "tfdbg's command-line debugger as a SessionRunHook.")
DumpingDebugWrapperSession = _unsupported_class(
    "DumpingDebugWrapperSession", "tfdbg's session wrapper dumping watched tensors.")
DumpingDebugHook = _unsupported_class(
    "DumpingDebugHook", "tfdbg's tensor dumps as a SessionRunHook.")
GrpcDebugWrapperSession = _unsupported_class(
    "GrpcDebugWrapperSession", "tfdbg's session wrapper streaming tensors over gRPC.")
GrpcDebugHook = _unsupported_class(
    "GrpcDebugHook", "tfdbg's gRPC tensor streaming as a SessionRunHook.")
TensorBoardDebugWrapperSession = _unsupported_class(
    "TensorBoardDebugWrapperSession", "tfdbg's session wrapper for TensorBoard's debugger.")
TensorBoardDebugHook = _unsupported_class(
    "TensorBoardDebugHook", "tfdbg's TensorBoard debugger as a SessionRunHook.")
DebugDumpDir = _unsupported_class(
    "DebugDumpDir", "A tfdbg dump directory (tf1compat writes none).")
DebugTensorDatum = _unsupported_class(
    "DebugTensorDatum", "One tensor of a tfdbg dump directory (tf1compat writes none).")
GradientsDebugger = _unsupported_class(
    "GradientsDebugger", "tfdbg's gradient tensor watcher.")


def _unsupported_function(name: str, doc: str) -> Any:
    """A tfdbg function whose call raises NotImplementedError naming tfdbg."""

    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        del args, kwargs
        _unsupported(name)

    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = doc
    return refuse


add_debug_tensor_watch = _unsupported_function(
    "add_debug_tensor_watch", "tfdbg: adds a tensor watch to RunOptions.")
watch_graph = _unsupported_function(
    "watch_graph", "tfdbg: watches a graph's tensors through RunOptions.")
watch_graph_with_blacklists = _unsupported_function(
    "watch_graph_with_blacklists", "tfdbg (TF 1.15's name): watch_graph with deny-lists.")
watch_graph_with_denylists = _unsupported_function(
    "watch_graph_with_denylists", "tfdbg (TF 2's name): watch_graph with deny-lists.")
reconstruct_non_debug_graph_def = _unsupported_function(
    "reconstruct_non_debug_graph_def", "tfdbg: strips debug ops from a partition graph.")


def clear_gradient_debuggers() -> None:
    """tfdbg: forgets all GradientsDebuggers; tf1compat has none to forget."""
