"""`tf.train.Optimizer`: the TF1 optimizer base class.

`minimize` = `compute_gradients` (one `tf.gradients` call) + `apply_gradients`, which
creates the slots (under `init_scope`, named `<var>/<Optimizer>`, `<var>/<Optimizer>_1`
by slot_creator), opens the `<name>` scope, converts the hyper-parameters (`_prepare`),
adds one update per variable in `<name>/update_<var>/` colocated with it (a training op
from ops/training_ops.py: ApplyAdam for a ref variable, ResourceApplyAdam for a
resource variable, the sparse forms for IndexedSlices gradients, whose duplicate
indices are summed first), groups them (`_finish`), and when `global_step` is given
increments it in an op named `<name>` that runs after the updates, as TF orders it.

Checkpoints (tf.train.Checkpoint, object graphs): an optimizer is Trackable. Its
non-slot variables (`beta1_power`, ...) of the current graph are its named children
(`_checkpoint_dependencies`); its slot variables are listed by
`_slot_variables_for_checkpoint()` as (original variable, slot name, slot variable),
TF's `slot_variables` entries of the optimizer's node. A checkpoint restored before a
slot exists hands its restoration to `_create_or_restore_slot_variable(restoration,
slot_name, variable)`; it is applied (`restoration.restore(slot)`) as soon as that slot
is created.
"""

from __future__ import annotations

import collections.abc
import contextlib
import functools
from typing import Callable, Any, Dict, Iterator, List, Optional, Sequence, Tuple

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, colocate_with, control_dependencies,
                                       get_collection, get_collection_ref, get_default_graph,
                                       name_scope)
from tf1compat.framework.indexed_slices import (IndexedSlices,
                                                convert_to_tensor_or_indexed_slices)
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.training.optimizers import slot_creator
from tf1compat.training.strategies.distribute_lib import (current_replica_context_for_merge,
                                                          get_loss_reduction, get_strategy)
from tf1compat.training.strategies.values import ReduceOp, local_results
from tf1compat.training.saving.tracking import Trackable
from tf1compat.variables.variables import Variable, init_scope

__all__ = ["Optimizer", "cast_like"]


def _is_resource_variable(v: Any) -> bool:
    return bool(getattr(v, "_is_resource_variable", False))


def cast_like(value: Any, dtype: D.DType) -> Any:
    """`math_ops.cast` as optimizers use it: a resource variable of the right dtype is
    passed on unread (the op's input conversion reads it in the op's own name scope)."""
    from tf1compat.ops.math_ops import cast
    if _is_resource_variable(value) and value.dtype.base_dtype == dtype.base_dtype:
        return value
    return cast(value, dtype.base_dtype)


def _var_key(var: Any) -> Tuple[Any, str]:
    """The slot-table key of a variable: (graph, op name); eager variables: their store key."""
    if getattr(var, "_in_graph_mode", True) is False:
        return var._unique_id       # (eager names are not unique; the store key is)
    if hasattr(var, "op"):
        return (var.op.graph, var.op.name)
    return var._unique_id


def _graph_of(var: Any) -> Any:
    """A variable's graph, None for eager variables (which have none)."""
    try:
        return var.graph
    except AttributeError:
        return None


def _current_graph() -> Any:
    return None if _context.executing_eagerly() else get_default_graph()


def deduplicate_indexed_slices(values: Tensor, indices: Tensor) -> Tuple[Tensor, Tensor]:
    """Sums `values` rows that share an index: (summed values, unique indices), as TF."""
    from tf1compat.ops.array_ops import shape
    from tf1compat.ops.indexing_ops import unique
    from tf1compat.ops.reduction_ops import unsorted_segment_sum
    unique_indices, new_index_positions = unique(indices)
    summed_values = unsorted_segment_sum(values, new_index_positions,
                                         shape(unique_indices)[0])
    return summed_values, unique_indices


# -- what each kind of variable needs (TF's _OptimizableVariable processors) -------------------

class _RefVariableProcessor:
    def __init__(self, v: Variable):
        self._v = v

    def target(self) -> Tensor:
        return self._v._ref()

    def update_op(self, optimizer: "Optimizer", g: Any, *args: Any) -> Any:
        if isinstance(g, Tensor):
            update_op = optimizer._apply_dense(g, self._v, *args)
            if self._v.constraint is not None:
                with control_dependencies([update_op]):
                    return self._v.assign(self._v.constraint(self._v))
            return update_op
        if self._v.constraint is not None:
            raise RuntimeError("Cannot use a constraint function on a sparse variable.")
        return optimizer._apply_sparse_duplicate_indices(g, self._v, *args)


class _ResourceVariableProcessor:
    def __init__(self, v: Variable):
        self._v = v

    def target(self) -> Variable:
        return self._v

    def update_op(self, optimizer: "Optimizer", g: Any, *args: Any) -> Any:
        if isinstance(g, IndexedSlices):
            if self._v.constraint is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable.")
            return optimizer._resource_apply_sparse_duplicate_indices(g.values, self._v,
                                                                      g.indices, *args)
        update_op = optimizer._resource_apply_dense(g, self._v, *args)
        if self._v.constraint is not None:
            with control_dependencies([update_op]):
                return self._v.assign(self._v.constraint(self._v))
        return update_op


class _TensorProcessor:
    def __init__(self, v: Tensor):
        self._v = v

    def target(self) -> Tensor:
        return self._v

    def update_op(self, optimizer: "Optimizer", g: Any, *args: Any) -> Any:
        raise NotImplementedError("Trying to update a Tensor ", self._v)


def _get_processor(v: Any) -> Any:
    if not _is_resource_variable(v) and not hasattr(v, "op"):
        # TF reads v.op.type first: anything else (a generator, a number) fails there.
        raise AttributeError(f"'{type(v).__name__}' object has no attribute 'op'")
    if _is_resource_variable(v) or getattr(getattr(v, "op", None), "type", None) == \
            "VarHandleOp":
        return _ResourceVariableProcessor(v)
    if isinstance(v, Variable):
        return _RefVariableProcessor(v)
    if isinstance(v, Tensor):
        return _TensorProcessor(v)
    raise NotImplementedError("Trying to optimize unsupported type ", v)


def _flatten(values: Any) -> list:
    """`var_list` flattened as TF's nest.flatten does: sequences (lists, tuples, ranges) and
    mapping views (`dict.values()`) in order, dicts by sorted key; anything else is a leaf."""
    if isinstance(values, dict):
        return _flatten([values[k] for k in sorted(values)])
    if isinstance(values, (collections.abc.Sequence, collections.abc.MappingView)) and \
            not isinstance(values, (str, bytes)):
        out: list = []
        for v in values:
            out.extend(_flatten(v))
        return out
    return [values]


def _gate_all(grads: List[Any]) -> List[Any]:
    """GATE_GRAPH: `tf.tuple` over the gradients (IndexedSlices gated by their values)."""
    from tf1compat.ops.control_flow_ops import tuple as gate
    dense = [g.values if isinstance(g, IndexedSlices) else g for g in grads]
    if all(g is None for g in dense):
        return grads
    gated = gate(dense)
    return [IndexedSlices(t, g.indices, g.dense_shape) if isinstance(g, IndexedSlices) else t
            for g, t in zip(grads, gated)]


# -- the base class ------------------------------------------------------------------------------------

class Optimizer(Trackable):
    """Base class for TF1 optimizers: subclasses implement `_apply_dense`,
    `_resource_apply_dense`, `_apply_sparse`, `_resource_apply_sparse` and may override
    `_create_slots`, `_prepare` and `_finish`."""

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str,
                 use_own_namescope_for_non_slot_vars: bool = False):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._use_own_namescope_for_non_slot_vars = use_own_namescope_for_non_slot_vars
        if use_own_namescope_for_non_slot_vars:
            from tf1compat.variables.variable_scope import variable_scope
            with variable_scope(None, default_name=name) as vs:
                self._non_slot_variable_scope = vs
        # slot name -> {variable key -> slot variable}
        self._slots: Dict[str, Dict[Any, Variable]] = {}
        # (name, graph) -> non-slot variable
        self._non_slot_dict: Dict[Tuple[str, Any], Variable] = {}
        # slot name -> {variable key -> [restorations waiting for the slot]}
        self._deferred_slot_restorations: Dict[str, Dict[Any, list]] = {}
        # variable key -> the variable its slots belong to (for checkpoints)
        self._slot_primaries: Dict[Any, Any] = {}

    def get_name(self) -> str:
        return self._name

    # -- the public API -----------------------------------------------------------------------
    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None,
                 gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: Optional[str] = None,
                 grad_loss: Any = None) -> Operation:
        """compute_gradients + apply_gradients; returns the training op."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do "
                "not support gradients, between variables "
                f"{[str(v) for _, v in grads_and_vars]} and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Any = None,
                          gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                          colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> List[Tuple[Any, Any]]:
        """[(gradient or None, variable)] for the trainable variables (or `var_list`)."""
        return self._compute_gradients(loss, var_list, gate_gradients, aggregation_method,
                                       colocate_gradients_with_ops, grad_loss, _scale_loss)

    def _compute_gradients(self, loss: Any, var_list: Any, gate_gradients: int,
                           aggregation_method: Any, colocate_gradients_with_ops: bool,
                           grad_loss: Any, scale_loss: Callable[[Any], Any],
                           stop_gradients: Any = None) -> List[Tuple[Any, Any]]:
        """compute_gradients with the loss scaling rule (`scale_loss(loss)`) and the
        `stop_gradients` of tf.gradients (contrib's OptimizerV2 takes both)."""
        from tf1compat.autodiff.gradients import gradients
        if callable(loss) and _context.executing_eagerly():
            return self._eager_gradients(loss, var_list, grad_loss)
        if callable(loss):
            loss = loss()      # (graph mode: the callable just builds the loss tensor)
        if _context.executing_eagerly():
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP,
                                  Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             f"Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        self._assert_valid_dtypes([loss])
        loss = scale_loss(loss)
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            from tf1compat.variables.collections import trainable_variables
            var_list = (trainable_variables() +
                        get_collection(GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
        else:
            var_list = _flatten(var_list)
        var_list = var_list + get_collection(GraphKeys._STREAMING_MODEL_PORTS)
        processors = [_get_processor(v) for v in var_list]
        if not var_list:
            raise ValueError("No variables to optimize.")
        var_refs = [p.target() for p in processors]
        grads = gradients(loss, var_refs, grad_ys=grad_loss,
                          gate_gradients=(gate_gradients == Optimizer.GATE_OP),
                          aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops,
                          stop_gradients=stop_gradients)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = _gate_all(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars
                                   if g is not None and v.dtype != D.resource])
        return grads_and_vars

    def _eager_gradients(self, loss: Callable[[], Any], var_list: Any, grad_loss: Any
                         ) -> List[Tuple[Any, Any]]:
        """Eager `compute_gradients(callable)`: a GradientTape over the loss function."""
        from tf1compat.autodiff.tape import GradientTape
        with GradientTape() as tape:
            if var_list is not None:
                tape.watch(_flatten(var_list))
            loss_value = loss()
        var_list = tape.watched_variables() if var_list is None else _flatten(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = tape.gradient(loss_value, var_list, grad_loss)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Operation:
        """Adds the variable updates; increments `global_step` after them when given."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        replica_context = current_replica_context_for_merge()
        if replica_context is not None:
            # A tf.distribute replica: the replicas' gradients are summed and applied
            # once, in the cross-replica context (TF's _distributed_apply).
            # (replica 0's optimizer applies them, as TF runs replica 0's merge_fn)
            return replica_context.merge_call(
                functools.partial(_distributed_apply, optimizer=self),
                args=(tuple(tuple(gv) for gv in grads_and_vars),),
                kwargs={"global_step": global_step, "name": name})
        converted = convert_gradients(grads_and_vars)
        var_list = [v for g, v, _ in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: "
                             f"{[str(v) for _, v, _ in converted]}.")
        with init_scope():
            self._create_slots(var_list)
        update_ops = []
        with name_scope(name, self._name) as name:
            self._prepare()
            for grad, var, processor in converted:
                if grad is None:
                    continue
                with update_scope(var):
                    update_ops.append(processor.update_op(self, grad))
            if global_step is None:
                apply_updates = self._finish(update_ops, name)
            else:
                with control_dependencies([self._finish(update_ops, "update")]):
                    with colocate_with(global_step):
                        apply_updates = _increment(global_step, name)
            if _context.executing_eagerly():
                return None        # (the updates already ran)
            return registered_train_op(apply_updates)

    def get_slot(self, var: Any, name: str) -> Optional[Variable]:
        """The slot `name` (e.g. "m") of `var`, or None."""
        named_slots = self._slots.get(name)
        if not named_slots:
            return None
        return named_slots.get(_var_key(var))

    def get_slot_names(self) -> List[str]:
        """The names of the slots this optimizer created, sorted."""
        return sorted(self._slots.keys())

    def variables(self) -> List[Variable]:
        """Non-slot and slot variables of the current graph, sorted by name."""
        current = _current_graph()
        found = [v for v in self._non_slot_variables() if _graph_of(v) is current]
        for variable_dict in self._slots.values():
            for slot in variable_dict.values():
                if _graph_of(slot) is current:
                    found.append(slot)
        return sorted(found, key=lambda v: v.name)

    # -- non-slot variables --------------------------------------------------------------------
    def _create_non_slot_variable(self, initial_value: Any, name: str,
                                  colocate_with: Any) -> Variable:
        """A variable of the optimizer itself (beta1_power), one per graph (one eagerly)."""
        graph = _current_graph() if colocate_with is None else _graph_of(colocate_with)
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            from tf1compat.framework.graph import colocate_with as colocate
            with colocate(colocate_with) if colocate_with is not None else \
                    contextlib.nullcontext():
                if self._use_own_namescope_for_non_slot_vars:
                    from tf1compat.variables.variable_scope import get_variable, variable_scope
                    with name_scope(""), variable_scope(self._non_slot_variable_scope):
                        v = get_variable(initializer=initial_value, name=name,
                                         trainable=False,
                                         use_resource=_is_resource_variable(colocate_with))
                else:
                    v = Variable(initial_value, name=name, trainable=False,
                                 use_resource=_is_resource_variable(colocate_with))
            self._non_slot_dict[key] = v
            self._handle_deferred_dependencies(name, v)
        return v

    def _get_non_slot_variable(self, name: str, graph: Any = None) -> Optional[Variable]:
        return self._non_slot_dict.get((name, graph))

    def _non_slot_variables(self) -> List[Variable]:
        return list(self._non_slot_dict.values())

    # -- checkpoint support ----------------------------------------------------------------------
    @property
    def _checkpoint_dependencies(self) -> List[Tuple[str, Any]]:
        """Named children: the current graph's non-slot variables, then tracked objects."""
        current = _current_graph()
        found = [(name, v) for (name, graph), v in sorted(self._non_slot_dict.items(),
                                                          key=lambda item: item[0][0])
                 if graph is current]
        names = {n for n, _ in found}
        found.extend((n, c) for n, c in super()._checkpoint_dependencies if n not in names)
        return found

    def _lookup_dependency(self, name: str) -> Any:
        found = super()._lookup_dependency(name)
        if found is not None:
            return found
        return self._get_non_slot_variable(name, _current_graph())

    def _slot_variables_for_checkpoint(self) -> List[Tuple[Any, str, Variable]]:
        """(original variable, slot name, slot variable) for every slot of the current
        graph, in slot-name order then creation order: TF's `slot_variables` of the
        optimizer's object-graph node."""
        current = _current_graph()
        out = []
        for slot_name in sorted(self._slots):
            for key, slot in self._slots[slot_name].items():
                if _graph_of(slot) is current:
                    out.append((self._slot_primaries[key], slot_name, slot))
        return out

    def _create_or_restore_slot_variable(self, restoration: Any, slot_name: str,
                                         variable: Any) -> None:
        """Restores slot `slot_name` of `variable` now if it exists, else when created.

        `restoration` is any object with `restore(slot_variable)`.
        """
        slot = self._slot_dict(slot_name).get(_var_key(variable))
        if slot is not None:
            restoration.restore(slot)
            return
        self._deferred_slot_restorations.setdefault(slot_name, {}).setdefault(
            _var_key(variable), []).append(restoration)

    def _restore_slot_variable(self, slot_name: str, variable: Any, slot_variable: Any
                               ) -> None:
        key = _var_key(variable)
        self._slot_primaries[key] = variable
        for restoration in self._deferred_slot_restorations.get(slot_name, {}).pop(key, []):
            restoration.restore(slot_variable)

    # -- dtypes -----------------------------------------------------------------------------------
    def _assert_valid_dtypes(self, tensors: Sequence[Any]) -> None:
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError(f"Invalid type {dtype!r} for {t.name}, expected: "
                                 f"{sorted(valid, key=lambda d: d.name)}.")

    def _valid_dtypes(self) -> set:
        return {D.float16, D.bfloat16, D.float32, D.float64}

    # -- hooks for subclasses --------------------------------------------------------------------
    def _create_slots(self, var_list: List[Any]) -> None:
        pass

    def _prepare(self) -> None:
        pass

    def _apply_dense(self, grad: Tensor, var: Any) -> Any:
        raise NotImplementedError()

    def _resource_apply_dense(self, grad: Tensor, handle: Any) -> Any:
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad: Tensor, handle: Any,
                                                 indices: Tensor) -> Any:
        summed_grad, unique_indices = deduplicate_indexed_slices(grad, indices)
        return self._resource_apply_sparse(summed_grad, handle, unique_indices)

    def _resource_apply_sparse(self, grad: Tensor, handle: Any, indices: Tensor) -> Any:
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad: IndexedSlices, var: Any) -> Any:
        summed_values, unique_indices = deduplicate_indexed_slices(grad.values, grad.indices)
        return self._apply_sparse(IndexedSlices(summed_values, unique_indices,
                                                grad.dense_shape), var)

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        raise NotImplementedError()

    def _finish(self, update_ops: List[Any], name_scope: str) -> Operation:
        from tf1compat.ops.control_flow_ops import group
        return group(*update_ops, name=name_scope)

    # -- slots -----------------------------------------------------------------------------------
    def _slot_dict(self, slot_name: str) -> Dict[Any, Variable]:
        return self._slots.setdefault(slot_name, {})

    def _get_or_make_slot(self, var: Any, val: Any, slot_name: str, op_name: str) -> Variable:
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            slot = slot_creator.create_slot(var, val, op_name)
            self._restore_slot_variable(slot_name, var, slot)
            named_slots[key] = slot
        return named_slots[key]

    def _get_or_make_slot_with_initializer(self, var: Any, initializer: Any, shape: Any,
                                           dtype: Any, slot_name: str, op_name: str
                                           ) -> Variable:
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            slot = slot_creator.create_slot_with_initializer(var, initializer, shape, dtype,
                                                             op_name)
            self._restore_slot_variable(slot_name, var, slot)
            named_slots[key] = slot
        return named_slots[key]

    def _zeros_slot(self, var: Any, slot_name: str, op_name: str) -> Variable:
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            slot = slot_creator.create_zeros_slot(var, op_name)
            self._restore_slot_variable(slot_name, var, slot)
            named_slots[key] = slot
        return named_slots[key]

    @staticmethod
    def _call_if_callable(param: Any) -> Any:
        return param() if callable(param) else param


def convert_gradients(grads_and_vars: Sequence[Tuple[Any, Any]]) -> List[Tuple[Any, Any, Any]]:
    """(gradient as a Tensor/IndexedSlices or None, variable, its processor) per pair."""
    converted = []
    for g, v in grads_and_vars:
        if g is not None:
            try:
                g = convert_to_tensor_or_indexed_slices(g)
            except TypeError:
                raise TypeError("Gradient must be convertible to a Tensor or "
                                f"IndexedSlices, or None: {g}") from None
            if not isinstance(g, (Tensor, IndexedSlices)):
                raise TypeError(f"Gradient must be a Tensor, IndexedSlices, or None: {g}")
        converted.append((g, v, _get_processor(v)))
    return converted


@contextlib.contextmanager
def update_scope(var: Any) -> Iterator[None]:
    """`update_<var>` name scope colocated with `var`, where its update ops go."""
    # An eager variable has no op, in a function's trace too (TF: no scope).
    eager_variable = not getattr(var, "_in_graph_mode", True)
    scope = var._shared_name if _context.executing_eagerly() or eager_variable \
        else var.op.name
    with name_scope("update_" + scope), colocate_with(var):
        yield


def _scale_loss(loss: Any) -> Any:
    """Under a strategy whose loss reduction is MEAN (Estimator's train_distribute), the
    loss is divided by the number of replicas, as TF's v1 optimizer does."""
    graph = get_default_graph()
    graph._is_loss_scaled_by_optimizer = False
    if get_loss_reduction() == ReduceOp.MEAN:
        num_replicas = get_strategy().num_replicas_in_sync
        if num_replicas > 1:
            loss = loss * (1. / num_replicas)
            graph._is_loss_scaled_by_optimizer = True
    return loss


def _distributed_apply(strategy: Any, grads_and_vars: Any, optimizer: Optimizer,
                       global_step: Any = None, name: Optional[str] = None) -> Any:
    """apply_gradients in the cross-replica context: the summed gradients, applied once
    to the variables the replicas share."""
    with_grads = [(g, v) for g, v in grads_and_vars if g is not None]
    reduced = strategy.extended.batch_reduce_to(ReduceOp.SUM, with_grads)
    summed = iter(local_results(r)[0] for r in reduced)   # (the variables are shared)
    merged = [(next(summed) if g is not None else None, v) for g, v in grads_and_vars]
    return optimizer.apply_gradients(merged, global_step=global_step, name=name)


def registered_train_op(apply_updates: Any) -> Operation:
    """`apply_updates` as an Operation, added once to the TRAIN_OP collection (as
    `apply_gradients` leaves it in a graph)."""
    if isinstance(apply_updates, Tensor):
        apply_updates = apply_updates.op
    train_op = get_collection_ref(GraphKeys.TRAIN_OP)
    if apply_updates not in train_op:
        train_op.append(apply_updates)
    return apply_updates


def _increment(global_step: Any, name: str) -> Any:
    """global_step += 1 in an op named `name` (AssignAdd, or AssignAddVariableOp)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    if _is_resource_variable(global_step):
        from tf1compat.ops.resource_variable_ops import resource_op
        one = convert_to_tensor(1, dtype=global_step.dtype)
        return resource_op("AssignAddVariableOp", global_step.handle, one, name=name)
    from tf1compat.ops.state_ops import assign_add
    return assign_add(global_step, 1, name=name)
