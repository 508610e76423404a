"""Copying subgraphs (TF 1.15's `graph_editor/transform.py`): `Transformer` copies the
ops of a view into a graph (the same one or another, under a destination scope), with
handlers that decide what each op, input and control input becomes; `copy`,
`copy_with_input_replacements` and `graph_replace` are its common uses.

A copied op has the original's type, attrs, device and `_original_op`; its output shapes
come from the op's shape rule on the new inputs (as TF's C API infers them), or from the
original with `copy_shape=True`.
"""

from __future__ import annotations

import io
import logging
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.contrib.graph_editor import reroute, select, subgraph, util
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = [
    "replace_t_with_placeholder_handler",
    "keep_t_if_possible_handler",
    "assign_renamed_collections_handler",
    "transform_op_if_inside_handler",
    "copy_op_handler",
    "Transformer",
    "TransformerInfo",
    "copy",
    "copy_with_input_replacements",
    "graph_replace",
]

_log = logging.getLogger(__name__)
_PREDEFINED_COLLECTIONS = frozenset(util.get_predefined_collection_names())


def replace_t_with_placeholder_handler(info: "_TmpInfo", t: Tensor) -> Tensor:
    """Input handler: a new placeholder (shaped as `t`) in the destination scope."""
    with info.graph_.as_default():
        return util.make_placeholder_from_tensor(t, scope=info.scope_)


def keep_t_if_possible_handler(info: "_TmpInfo", t: Tensor) -> Tensor:
    """Input handler: `t` itself when copying within its graph, else a placeholder."""
    if info.graph is info.graph_:
        return t
    return replace_t_with_placeholder_handler(info, t)


def assign_renamed_collections_handler(info: "_TmpInfo", elem: Any, elem_: Any) -> None:
    """Collections handler: the copy joins the collections of the original (a collection
    of the user's own is renamed into the destination scope; tf.GraphKeys' are not)."""
    for name in info.collections:
        if id(elem) in info.collection_ids[name]:
            info.graph_.add_to_collection(
                name if name in _PREDEFINED_COLLECTIONS else info.new_name(name), elem_)


def transform_op_if_inside_handler(info: "_TmpInfo", op: Operation,
                                   keep_if_possible: bool = True) -> Optional[Operation]:
    """Control-input handler: the copy of `op` if it is being copied, else `op` itself
    within the same graph (None in another graph: the edge is dropped)."""
    if op in info.sgv.ops:
        return info.transformed_ops[op]
    if keep_if_possible and info.graph is info.graph_:
        return op
    return None


def copy_op_handler(info: "_TmpInfo", op: Operation, new_inputs: Any,
                    copy_shape: bool = False, nodedef_fn: Any = None
                    ) -> Tuple[Operation, List[Tensor]]:
    """Op handler: a copy of `op` reading `new_inputs`, named by the destination scope
    (made unique), with no control inputs yet; returns `(op_, op_.outputs)`."""
    from tf1compat.graphdef.graph_import import group_inputs
    if isinstance(new_inputs, bool):
        raise TypeError("the `new_inputs` argument must be an iterable.")
    if nodedef_fn is not None:
        raise NotImplementedError(
            "graph_editor.copy_op_handler(nodedef_fn=...): tf1compat's ops have no mutable "
            "NodeDef proto to edit; change the copy's attrs after copying instead")
    graph_ = info.graph_
    name_ = graph_.unique_name(info.new_name(op.name))
    attrs = dict(op._attrs)
    inputs = group_inputs(op._op_def, list(new_inputs), attrs, op.name)
    # As TF's Operation constructor: no control dependencies or device scopes of the
    # caller apply to the copy; it keeps the original's device.
    with graph_.as_default(), graph_.control_dependencies(None):
        op_ = graph_.create_op(op.type, inputs, attrs=attrs, name=name_ + "/")
    op_._device = op._device
    if copy_shape:
        for t, t_ in zip(op.outputs, op_.outputs):
            t_.set_shape(t.get_shape())
    if op._original_op is not None:
        op_._original_op = op._original_op
    return op_, op_.outputs


class TransformerInfo:
    """What a transformation did: the source and destination graphs and scopes, and the
    maps from original ops/tensors to their copies (`transformed`, `original`)."""

    def __init__(self, info: "_TmpInfo"):
        self._graph = info.graph
        self._scope = info.scope
        self._graph_ = info.graph_
        self._scope_ = info.scope_
        self._transformed_ops = info.transformed_ops
        self._transformed_ts = info.transformed_ts

    def _map_of(self, top: Any) -> Dict[Any, Any]:
        if isinstance(top, Operation):
            return self._transformed_ops
        if isinstance(top, Tensor):
            return self._transformed_ts
        raise TypeError(f"Expected a tf.Tensor or a tf.Operation, got a {type(top)}")

    def _transformed_elem(self, original_top: Any, missing_fn: Any = None) -> Any:
        mapping = self._map_of(original_top)
        if original_top not in mapping:
            return None if missing_fn is None else missing_fn(original_top)
        return mapping[original_top]

    def _original_elem(self, transformed_top: Any, missing_fn: Any = None) -> Any:
        mapping = self._map_of(transformed_top)
        for original, transformed in mapping.items():
            if transformed is transformed_top:
                return original
        return None if missing_fn is None else missing_fn(transformed_top)

    def transformed(self, original: Any, missing_fn: Optional[Callable] = None) -> Any:
        """The copies of the ops/tensors in the nested structure `original` (None, or
        `missing_fn(elem)`, for an element that was not copied)."""
        return util.transform_tree(original,
                                   partial(self._transformed_elem, missing_fn=missing_fn))

    def original(self, transformed: Any, missing_fn: Optional[Callable] = None) -> Any:
        """The originals of the copies in the nested structure `transformed`."""
        return util.transform_tree(transformed,
                                   partial(self._original_elem, missing_fn=missing_fn))

    def __str__(self) -> str:
        out = io.StringIO()
        print("Transform result info:", file=out)
        if self._graph == self._graph_:
            in_place = "" if self._scope_ else " IN-PLACE"
            print(f"  Within graph[{id(self._graph)}]{in_place}", file=out)
        else:
            print(f"  graph[{id(self._graph)}] => graph[{id(self._graph_)}]", file=out)
        if self._scope:
            print(f"  Relative to source scope: {self._scope}", file=out)
        if self._scope_:
            print(f"  Scope destination: {self._scope_}", file=out)
        print("Operations mapping:", file=out)
        for op, op_ in self._transformed_ops.items():
            print(f"  {op.name} => {op_.name}", file=out)
        return out.getvalue()


class _TmpInfo:
    """The state of one transformation, handed to the handlers."""

    def __init__(self, sgv: subgraph.SubGraphView, dst_graph: Graph, dst_scope: str,
                 src_scope: str):
        self.sgv = sgv
        self.sgv_inputs_set = frozenset(sgv.inputs)
        self.ops = frozenset(sgv.ops)
        self.control_outputs = util.ControlOutputs(sgv.graph)
        self.graph = sgv.graph
        self.scope = src_scope
        self.graph_ = dst_graph
        self.scope_ = dst_scope
        self.transformed_ops: Dict[Operation, Operation] = {}
        self.transformed_ts: Dict[Tensor, Tensor] = {}
        self.collections = {key: self.graph.get_collection(key)
                            for key in self.graph.get_all_collection_keys()}
        # Membership by identity, computed once: every copied op and tensor is looked up.
        self.collection_ids = {key: {id(item) for item in items}
                               for key, items in self.collections.items()}
        self.cyclic_ops: List[Operation] = []
        self.transform_original_op_handler = transform_op_if_inside_handler
        self.tmp_cyclic_ts: List[Tuple[Tensor, Tensor, Operation]] = []

    def new_name(self, name: str) -> str:
        """`name` moved from the source scope to the destination scope."""
        if not name.startswith(self.scope):
            raise ValueError(f"{name} does not belong to source scope: {self.scope}.")
        return self.scope_ + name[len(self.scope):]


class Transformer:
    """Copies a subgraph view; its handler attributes can be replaced to change what each
    op (`transform_op_handler`), view input (`transform_external_input_handler`), other
    outside input (`transform_external_hidden_input_handler`), control input and
    `_original_op` become, and which collections copies join."""

    def __init__(self) -> None:
        self.transform_op_handler = copy_op_handler
        self.transform_control_input_handler = transform_op_if_inside_handler
        self.assign_collections_handler = assign_renamed_collections_handler
        self.transform_external_input_handler = replace_t_with_placeholder_handler
        self.transform_external_hidden_input_handler = keep_t_if_possible_handler
        self.transform_original_op_handler = transform_op_if_inside_handler

    def __call__(self, sgv: Any, dst_graph: Graph, dst_scope: str, src_scope: str = "",
                 reuse_dst_scope: bool = False) -> Tuple[subgraph.SubGraphView,
                                                         TransformerInfo]:
        """Copies `sgv` into `dst_graph` under `dst_scope` (made unique unless
        `reuse_dst_scope`), names relative to `src_scope`; returns the view of the copy
        and a TransformerInfo."""
        sgv = subgraph.make_view(sgv)
        if not isinstance(dst_graph, Graph):
            raise TypeError(f"Expected a tf.Graph, got: {type(dst_graph)}")
        src_scope = util.scope_finalize(src_scope)
        dst_scope = util.scope_finalize(dst_scope)
        if dst_scope and not reuse_dst_scope:
            dst_scope = util.scope_finalize(dst_graph.unique_name(dst_scope[:-1]))
        info = _TmpInfo(sgv, dst_graph, dst_scope, src_scope)
        self._copy_ops(info)
        self._finalize_cycles(info)
        self._connect_control_inputs(info)
        return self._transform_sgv(info, sgv), TransformerInfo(info)

    def _copy_ops(self, info: _TmpInfo) -> None:
        for op in sorted(info.sgv.ops, key=lambda o: o._id):
            new_inputs = [self._transformed_t(info, t, op) for t in op.inputs]
            op_, outputs_ = self.transform_op_handler(info, op, new_inputs)
            if op is op_:
                raise ValueError("In-place transformation not allowed.")
            info.transformed_ops[op] = op_
            self.assign_collections_handler(info, op, op_)
            for t, t_ in zip(op.outputs, outputs_):
                info.transformed_ts[t] = t_
                self.assign_collections_handler(info, t, t_)

    def _finalize_cycles(self, info: _TmpInfo) -> None:
        """Connects the inputs that stood in for tensors copied later (loop back edges)."""
        for t, tmp_t_, consumer in info.tmp_cyclic_ts:
            if t not in info.transformed_ts:
                raise ValueError(f"The tensor {t.name} should be transformed by now.")
            if consumer not in info.transformed_ops:
                raise ValueError(f"The op {consumer.name} should be transformed by now.")
            consumer_ = info.transformed_ops[consumer]
            consumer_._update_input(list(consumer_.inputs).index(tmp_t_),
                                    info.transformed_ts[t])

    def _connect_control_inputs(self, info: _TmpInfo) -> None:
        for op in info.sgv.ops:
            op_ = info.transformed_ops[op]
            if op._original_op is not None:
                original = self.transform_original_op_handler(info, op._original_op)
                if original is not None:
                    op_._original_op = original
            controls = [self.transform_control_input_handler(info, c)
                        for c in op.control_inputs]
            reroute.add_control_inputs(op_, [c for c in controls if c is not None])

    def _transform_sgv(self, info: _TmpInfo, sgv: subgraph.SubGraphView
                       ) -> subgraph.SubGraphView:
        """The view of the copies, its inputs/outputs mapped as the original view's."""
        sgv_ = subgraph.SubGraphView(list(info.transformed_ops.values()))
        input_map = [sgv_.input_index(info.transformed_ts[t]) for t in sgv.inputs
                     if t in info.transformed_ts and info.transformed_ts[t] in sgv_.inputs]
        output_map = [sgv_.output_index(info.transformed_ts[t]) for t in sgv.outputs
                      if t in info.transformed_ts and
                      info.transformed_ts[t] in sgv_.outputs]
        return sgv_.remap(input_map, output_map)

    def _transformed_t(self, info: _TmpInfo, t: Tensor, consumer: Operation) -> Tensor:
        """What input `t` of `consumer` becomes in the copy."""
        if t in info.transformed_ts:
            return info.transformed_ts[t]
        if t in info.sgv_inputs_set:
            return self.transform_external_input_handler(info, t)
        if t.op not in info.ops:
            return self.transform_external_hidden_input_handler(info, t)
        # `t` is produced inside the view by an op not copied yet: a loop's back edge.
        # Stand in the Merge's first input (or the Enter's input), else a temporary
        # placeholder; `_finalize_cycles` connects the copy of `t` afterwards.
        _log.debug("Cyclic tensor: %s", t.name)
        if consumer.type == "Merge":
            tmp_t_ = self._transformed_t(info, consumer.inputs[0], consumer)
        elif t.op.type == "Enter":
            tmp_t_ = self._transformed_t(info, t.op.inputs[0], consumer)
        else:
            with info.graph_.as_default():
                tmp_t_ = util.make_placeholder_from_tensor(t, scope=info.scope_,
                                                           prefix="geph_tmp")
        info.tmp_cyclic_ts.append((t, tmp_t_, consumer))
        return tmp_t_


def copy(sgv: Any, dst_graph: Optional[Graph] = None, dst_scope: str = "",
         src_scope: str = "", reuse_dst_scope: bool = False
         ) -> Tuple[subgraph.SubGraphView, TransformerInfo]:
    """Copies the view (into its own graph by default); its inputs become placeholders."""
    sgv = subgraph.make_view(sgv)
    if dst_graph is None:
        dst_graph = sgv.graph
    if not isinstance(dst_graph, Graph):
        raise TypeError(f"Expected a tf.Graph, got: {type(dst_graph)}")
    return Transformer()(sgv, dst_graph, dst_scope, src_scope,
                         reuse_dst_scope=reuse_dst_scope)


def copy_with_input_replacements(sgv: Any, replacement_ts: Dict[Tensor, Tensor],
                                 dst_graph: Optional[Graph] = None, dst_scope: str = "",
                                 src_scope: str = "", reuse_dst_scope: bool = False
                                 ) -> Tuple[subgraph.SubGraphView, TransformerInfo]:
    """Copies the view; inputs found in `replacement_ts` read their replacement, the others
    stay connected (within the same graph) or become placeholders."""
    sgv = subgraph.make_view(sgv)
    if dst_graph is None:
        dst_graph = sgv.graph
    if not isinstance(dst_graph, Graph):
        raise TypeError(f"Expected a tf.Graph, got: {type(dst_graph)}")
    copier = Transformer()

    def replace_or_keep(info: _TmpInfo, t: Tensor) -> Tensor:
        if t in replacement_ts:
            return replacement_ts[t]
        return keep_t_if_possible_handler(info, t)

    copier.transform_external_input_handler = replace_or_keep
    return copier(sgv, dst_graph, dst_scope, src_scope, reuse_dst_scope=reuse_dst_scope)


def _add_control_flow_ops(ops: List[Operation], control_ios: util.ControlOutputs) -> None:
    """Adds to `ops` the rest of any TF1 while loop (imported graphs) they are part of."""
    contexts = {op._control_flow_context for op in ops if op._control_flow_context}
    new_ops: List[Operation] = []
    for context in contexts:
        is_while = getattr(context, "IsWhileContext", None)
        if is_while is not None and is_while():
            new_ops += select.get_walks_intersection_ops(
                [t.op for t in context.loop_enters], [t.op for t in context.loop_exits],
                control_ios=control_ios)
    util.concatenate_unique(ops, new_ops)


def graph_replace(target_ts: Any, replacement_ts: Dict[Tensor, Tensor], dst_scope: str = "",
                  src_scope: str = "", reuse_dst_scope: bool = False) -> Any:
    """The tensors `target_ts` (a nested structure) recomputed with the tensors of
    `replacement_ts`'s keys replaced by its values: the ops between them are copied;
    targets that do not depend on a replaced tensor come back as they are."""
    flat_targets = util.flatten_tree(target_ts)
    graph = util.get_unique_graph(flat_targets, check_types=(Tensor,))
    control_ios = util.ControlOutputs(graph)
    ops = select.get_walks_intersection_ops(list(replacement_ts), flat_targets,
                                            control_ios=control_ios)
    if not ops:
        raise ValueError("Targets and replacements are not connected!")
    _add_control_flow_ops(ops, control_ios)
    _, info = copy_with_input_replacements(ops, replacement_ts, None, dst_scope, src_scope,
                                           reuse_dst_scope)
    return info.transformed(target_ts, lambda original: original)
