"""The store behind `tf.get_variable`: creation, sharing (reuse) and partitioning, with TF's
rules and error messages.

One `_VariableStore` per graph (kept in the collection `("__variable_store",)`, as TF)
maps full names to the variables `get_variable` created. Reuse rules:

* name exists, reuse False/None -> ValueError "Variable x already exists, disallowed. Did
  you mean to set reuse=True or reuse=tf.AUTO_REUSE in VarScope? Originally defined at:..."
* name missing, reuse True -> ValueError "Variable x does not exist, or was not created
  with tf.get_variable(). ..."
* reuse with another shape or dtype -> ValueError "Trying to share variable x, ..."

A regularizer's loss goes to REGULARIZATION_LOSSES as a `_LazyEvalTensor`: TF calls the
regularizer once to test for None, then once under `name/Regularizer/`, and again on every
conversion (so each consumer gets its own copy of the loss ops).
"""

from __future__ import annotations

import enum
import functools
import inspect
import traceback
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, add_to_collection, colocate_with, name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.runtime.fetch import register_session_run_conversion_functions
from tf1compat.variables import init_ops
from tf1compat.variables.partitioned import PartitionedVariable
from tf1compat.variables.variables import (Variable, VariableAggregation,
                                           VariableSynchronization, init_scope,
                                           validate_synchronization_aggregation_trainable)

__all__ = ["AUTO_REUSE", "no_regularizer", "_VariableStore", "_PartitionInfo",
           "_LazyEvalTensor"]


class _ReuseMode(enum.Enum):
    """Reuse mode: get an existing variable or create it."""
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


def no_regularizer(_: Any) -> None:
    """`tf.no_regularizer`: use it to switch a scope's regularizer off."""
    return None


class _PartitionInfo:
    """Where a partition sits in the full variable (passed to initializers)."""

    __slots__ = ["_full_shape", "_var_offset"]

    def __init__(self, full_shape: Sequence[int], var_offset: Sequence[int]):
        if not isinstance(full_shape, (list, tuple)):
            raise TypeError("`full_shape` must be a sequence (like tuple or list) instead of " +
                            type(full_shape).__name__)
        if not isinstance(var_offset, (list, tuple)):
            raise TypeError("`var_offset` must be a sequence (like tuple or list) instead of " +
                            type(var_offset).__name__)
        if len(var_offset) != len(full_shape):
            raise ValueError(f"Expected equal length, but `var_offset` is of length "
                             f"{len(var_offset)} while full_shape is of length "
                             f"{len(full_shape)}.")
        for offset, shape in zip(var_offset, full_shape):
            if offset < 0 or offset >= shape:
                raise ValueError(f"Expected 0 <= offset < shape but found offset={offset}, "
                                 f"shape={shape} for var_offset={var_offset}, "
                                 f"full_shape={full_shape}")
        self._full_shape = full_shape
        self._var_offset = var_offset

    @property
    def full_shape(self) -> Sequence[int]:
        return self._full_shape

    @property
    def var_offset(self) -> Sequence[int]:
        return self._var_offset

    def single_offset(self, shape: Sequence[int]) -> int:
        dim = self.single_slice_dim(shape)
        return 0 if dim is None else self.var_offset[dim]

    def single_slice_dim(self, shape: Sequence[int]) -> Optional[int]:
        if not isinstance(shape, (tuple, list)):
            raise TypeError("`shape` must be a sequence (like tuple or list) instead of " +
                            type(shape).__name__)
        if len(shape) != len(self.full_shape):
            raise ValueError(f"Expected equal length, but received shape={shape} of length "
                             f"{len(shape)} while self.full_shape={self.full_shape} is of "
                             f"length {len(self.full_shape)}.")
        for i in range(len(shape)):
            if self.var_offset[i] + shape[i] > self.full_shape[i]:
                raise ValueError(f"With self.var_offset={self.var_offset}, a partition of "
                                 f"shape={shape} would exceed self.full_shape="
                                 f"{self.full_shape} in dimension {i}.")
        slice_dim = None
        for i in range(len(shape)):
            if shape[i] == self.full_shape[i]:
                continue
            if slice_dim is not None:
                raise ValueError(f"Cannot use single_slice_dim() with shape={shape} and "
                                 f"self.full_shape={self.full_shape} since slice dim could be "
                                 f"either dimension {i} or {slice_dim}.")
            slice_dim = i
        return slice_dim


def _parameters(fn: Callable[..., Any]) -> Optional[List[inspect.Parameter]]:
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None


def _needs_no_arguments(fn: Callable[..., Any]) -> bool:
    params = _parameters(fn)
    if params is None:
        return False
    return all(p.default is not inspect.Parameter.empty or
               p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def _takes_partition_info(fn: Callable[..., Any]) -> bool:
    params = _parameters(fn)
    return params is not None and any(p.name == "partition_info" and
                                      p.kind != p.VAR_KEYWORD for p in params)


class _VariableStore:
    """The variables `get_variable` created in one graph, by full name."""

    __slots__ = ["_vars", "_partitioned_vars", "_store_eager_variables"]

    def __init__(self) -> None:
        self._vars: Dict[str, Any] = {}
        self._partitioned_vars: Dict[str, PartitionedVariable] = {}
        self._store_eager_variables = False

    def get_variable(self, name: str, shape: Any = None, dtype: Any = D.float32,
                     initializer: Any = None, regularizer: Any = None, reuse: Any = None,
                     trainable: Any = None, collections: Any = None, caching_device: Any = None,
                     partitioner: Any = None, validate_shape: bool = True,
                     use_resource: Any = None, custom_getter: Any = None,
                     constraint: Any = None,
                     synchronization: Any = VariableSynchronization.AUTO,
                     aggregation: Any = VariableAggregation.NONE) -> Any:
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
        dtype = getattr(dtype, "base_dtype", dtype)
        if _context.executing_eagerly():
            # As TF: eager get_variable creates a new variable each call unless an
            # EagerVariableStore keeps them (then it reuses them by name).
            if not self._store_eager_variables and reuse:
                raise RuntimeError("When eager execution is enabled variable reuse is only "
                                   "supported when an EagerVariableStore is active. See the "
                                   "documentation on EagerVariableStore for example usage.")
            if self._store_eager_variables:
                reuse = AUTO_REUSE

        def _true_getter(name: str, shape: Any = None, dtype: Any = D.float32,
                         initializer: Any = None, regularizer: Any = None, reuse: Any = None,
                         trainable: Any = None, collections: Any = None,
                         caching_device: Any = None, partitioner: Any = None,
                         validate_shape: bool = True, use_resource: Any = None,
                         constraint: Any = None,
                         synchronization: Any = VariableSynchronization.AUTO,
                         aggregation: Any = VariableAggregation.NONE) -> Any:
            is_scalar = shape is not None and isinstance(shape, (list, tuple)) and not shape
            if partitioner is not None and not is_scalar:
                if not callable(partitioner):
                    raise ValueError(f"Partitioner must be callable, but received: "
                                     f"{partitioner}")
                with name_scope(None):
                    return self._get_partitioned_variable(
                        name=name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, reuse=reuse, trainable=trainable,
                        collections=collections, caching_device=caching_device,
                        partitioner=partitioner, validate_shape=validate_shape,
                        use_resource=use_resource, constraint=constraint,
                        synchronization=synchronization, aggregation=aggregation)
            if reuse is True and partitioner is None and name in self._partitioned_vars:
                return self._get_partitioned_variable(
                    name=name, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, reuse=reuse, trainable=trainable,
                    collections=collections, caching_device=caching_device,
                    partitioner=None, validate_shape=validate_shape,
                    use_resource=use_resource, constraint=constraint,
                    synchronization=synchronization, aggregation=aggregation)
            if f"{name}/part_0" in self._vars:
                raise ValueError("No partitioner was provided, but a partitioned version of "
                                 f"the variable was found: {name}/part_0. Perhaps a variable "
                                 "of the same name was already created with partitioning?")
            return self._get_single_variable(
                name=name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, caching_device=caching_device,
                validate_shape=validate_shape, use_resource=use_resource,
                constraint=constraint, synchronization=synchronization,
                aggregation=aggregation)

        synchronization, aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        if custom_getter is not None:
            kwargs = {"getter": _true_getter, "name": name, "shape": shape, "dtype": dtype,
                      "initializer": initializer, "regularizer": regularizer, "reuse": reuse,
                      "trainable": trainable, "collections": collections,
                      "caching_device": caching_device, "partitioner": partitioner,
                      "validate_shape": validate_shape, "use_resource": use_resource,
                      "synchronization": synchronization, "aggregation": aggregation}
            params = _parameters(custom_getter) or []
            if any(p.name == "constraint" or p.kind == p.VAR_KEYWORD for p in params):
                kwargs["constraint"] = constraint
            return custom_getter(**kwargs)
        return _true_getter(name, shape=shape, dtype=dtype, initializer=initializer,
                            regularizer=regularizer, reuse=reuse, trainable=trainable,
                            collections=collections, caching_device=caching_device,
                            partitioner=partitioner, validate_shape=validate_shape,
                            use_resource=use_resource, constraint=constraint,
                            synchronization=synchronization, aggregation=aggregation)

    def _get_partitioned_variable(self, name: str, partitioner: Any, shape: Any = None,
                                  dtype: Any = D.float32, initializer: Any = None,
                                  regularizer: Any = None, reuse: Any = None,
                                  trainable: Any = None, collections: Any = None,
                                  caching_device: Any = None, validate_shape: bool = True,
                                  use_resource: Any = None, constraint: Any = None,
                                  synchronization: Any = VariableSynchronization.AUTO,
                                  aggregation: Any = VariableAggregation.NONE
                                  ) -> PartitionedVariable:
        from tf1compat.ops.strided_slice import slice as slice_op
        from_value = initializer is not None and isinstance(initializer, Tensor)
        if name in self._vars:
            raise ValueError("A partitioner was provided, but an unpartitioned version of the "
                             f"variable was found: {name}.  Perhaps a variable of the same "
                             "name was already created without partitioning?")
        shape = as_shape(shape)
        if from_value:
            shape = shape.merge_with(initializer.get_shape())
        partitions = None
        if not reuse or partitioner:
            partitions = _call_partitioner(partitioner, shape, dtype)
        if name in self._partitioned_vars:
            if reuse is False:
                raise ValueError(f"Partitioned variable with name {name} already exists. Did "
                                 "you mean to set reuse=True or reuse=tf.AUTO_REUSE in "
                                 "VarScope?")
            existing = self._partitioned_vars[name]
            if not shape.is_compatible_with(existing.get_shape()):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"shape {shape} and found shape {existing.get_shape()}.")
            if not dtype.is_compatible_with(existing.dtype):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"dtype {dtype.name} and found dtype {existing.dtype.name}.")
            if partitions is not None and existing._get_partitions() != partitions:
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"partitions {partitions} and found partitions "
                                 f"{existing._get_partitions()}.")
            return existing
        if reuse is True:
            raise ValueError(f"PartitionedVariable {name} does not exist, or was not created "
                             "with tf.get_variable(). Did you mean to set reuse=False or "
                             "reuse=tf.AUTO_REUSE in VarScope?")
        slice_dim, num_slices = _get_slice_dim_and_num_slices(partitions)
        if f"{name}/part_0" in self._vars:
            if f"{name}/part_{num_slices - 1}" not in self._vars:
                raise ValueError("Partitioner returned a different partitioning than what was "
                                 f"already found.  Partitioner returned {num_slices} shards, "
                                 f"and shard {name}/part_0 was found, but "
                                 f"{name}/part_{num_slices - 1} was not.")
            if f"{name}/part_{num_slices}" in self._vars:
                raise ValueError("Partitioner returned a different partitioning than what was "
                                 f"already found.  Partitioner returned {num_slices} shards, "
                                 f"and shard {name}/part_0 was found, but so was the extra "
                                 f"shard {name}/part_{num_slices}.")
        parts = []
        for i, (var_offset, var_shape) in enumerate(
                _iter_slices(shape.as_list(), num_slices, slice_dim)):
            info = _PartitionInfo(full_shape=shape.as_list(), var_offset=var_offset)
            full_name = f"{name}/part_{i}"
            with name_scope(full_name + "/PartitionedInitializer"):
                if initializer is None:
                    init, from_value = self._get_default_initializer(name=name, shape=shape,
                                                                     dtype=dtype)
                    init_shape = None if from_value else var_shape
                elif callable(initializer):
                    init = initializer
                    init_shape = var_shape
                elif isinstance(initializer, Tensor):
                    init = slice_op(initializer, var_offset, var_shape)
                    dtype = init.dtype.base_dtype
                    init_shape = None
                else:
                    init = convert_to_tensor(initializer, dtype=dtype)
                    init = slice_op(init, var_offset, var_shape)
                    init_shape = None
            with name_scope(None):
                var = self._get_single_variable(
                    name=full_name, shape=init_shape, dtype=dtype, initializer=init,
                    partition_info=info, regularizer=regularizer, reuse=reuse,
                    trainable=trainable, collections=collections,
                    caching_device=caching_device, validate_shape=validate_shape,
                    use_resource=use_resource, constraint=constraint,
                    synchronization=synchronization, aggregation=aggregation)
            var._set_save_slice_info(Variable.SaveSliceInfo(name, shape.as_list(), var_offset,
                                                            var_shape))
            parts.append(var)
        partitioned = PartitionedVariable(name=name, shape=shape, dtype=dtype,
                                          variable_list=parts, partitions=partitions)
        self._partitioned_vars[name] = partitioned
        return partitioned

    def _get_single_variable(self, name: str, shape: Any = None, dtype: Any = D.float32,
                             initializer: Any = None, regularizer: Any = None,
                             partition_info: Any = None, reuse: Any = None,
                             trainable: Any = None, collections: Any = None,
                             caching_device: Any = None, validate_shape: bool = True,
                             use_resource: Any = None, constraint: Any = None,
                             synchronization: Any = VariableSynchronization.AUTO,
                             aggregation: Any = VariableAggregation.NONE) -> Any:
        from_value = initializer is not None and not callable(initializer)
        if shape is not None and from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = D.as_dtype(dtype)
        if shape is not None:
            shape = as_shape(shape)
        if name in self._vars:
            if reuse is False:
                var = self._vars[name]
                message = (f"Variable {name} already exists, disallowed. Did you mean to set "
                           "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
                if getattr(var, "_is_resource_variable", False):
                    raise ValueError(message)
                frames = [f for f in reversed(var.op.traceback or [])][:5]
                raise ValueError(f"{message} Originally defined at:\n\n"
                                 f"{''.join(traceback.format_list(frames))}")
            found = self._vars[name]
            if shape is not None and not shape.is_compatible_with(found.get_shape()):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} "
                                 f"and found shape {found.get_shape()}.")
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError(f"Trying to share variable {name}, but specified dtype "
                                 f"{dtype.name} and found dtype {found.dtype.name}.")
            return found
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             "VarScope?")
        if initializer is None:
            if shape is None:
                raise ValueError(f"Variable {name} did not get an initializer, so its `shape` "
                                 "argument must be specified.")
            initializer, from_value = self._get_default_initializer(name=name, shape=shape,
                                                                    dtype=dtype)
        with init_scope():
            if from_value:
                init_val = initializer
                variable_dtype = None
            else:
                if inspect.isclass(initializer):
                    initializer = initializer()
                if shape is not None and shape.is_fully_defined():
                    if _takes_partition_info(initializer):
                        init_val = functools.partial(initializer, shape.as_list(), dtype=dtype,
                                                     partition_info=partition_info)
                    else:
                        init_val = functools.partial(initializer, shape.as_list(), dtype=dtype)
                    variable_dtype = dtype.base_dtype
                elif _needs_no_arguments(initializer):
                    init_val = initializer
                    variable_dtype = None
                else:
                    raise ValueError("The initializer passed is not valid. It should be a "
                                     "callable with no arguments and the shape should not be "
                                     "provided or an instance of `tf.keras.initializers.*' "
                                     "and `shape` should be fully defined.")
        if use_resource is None:
            from tf1compat.framework.misc import resource_variables_enabled
            use_resource = resource_variables_enabled()
        v = Variable(initial_value=init_val, name=name, trainable=trainable,
                     collections=collections, caching_device=caching_device,
                     dtype=variable_dtype, validate_shape=validate_shape,
                     constraint=constraint, use_resource=use_resource,
                     synchronization=synchronization, aggregation=aggregation, shape=shape)
        if _context.executing_eagerly() and self._store_eager_variables:
            # As TF: an eager Variable joins no collection by itself, but one kept by an
            # EagerVariableStore (an eager template's) does, so code that lists a
            # scope's variables through collections (Sonnet's get_variables) works eagerly.
            for key in collections or [GraphKeys.GLOBAL_VARIABLES]:
                add_to_collection(key, v)
            if v.trainable:
                add_to_collection(GraphKeys.TRAINABLE_VARIABLES, v)
        if not _context.executing_eagerly() or self._store_eager_variables:
            self._vars[name] = v
        if regularizer:
            def make_regularizer_op() -> Any:
                with colocate_with(v):
                    with name_scope(name + "/Regularizer/"):
                        return regularizer(v)
            if regularizer(v) is not None:
                add_to_collection(GraphKeys.REGULARIZATION_LOSSES,
                                  _LazyEvalTensor(make_regularizer_op))
        return v

    def _get_default_initializer(self, name: str, shape: Any = None, dtype: Any = D.float32
                                 ) -> Tuple[Any, bool]:
        """glorot_uniform for floats, zeros for ints, bools and strings."""
        if dtype.is_floating:
            return init_ops.glorot_uniform_initializer(), False
        if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == D.string:
            return init_ops.zeros_initializer(), False
        raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype} is "
                         "required")


def _call_partitioner(partitioner: Callable[..., Any], shape: TensorShape,
                      dtype: D.DType) -> List[int]:
    if not shape.is_fully_defined():
        raise ValueError("Shape of a new partitioned variable must be fully defined, but "
                         f"instead was {shape}.")
    if shape.ndims < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, (list, tuple)):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.ndims:
        raise ValueError("Partitioner returned a partition list that does not match the "
                         f"Variable's rank: {slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, "
                         f"partitioning: {slicing}")
    return slicing


def _get_slice_dim_and_num_slices(slicing: Sequence[int]) -> Tuple[int, int]:
    for slice_dim, num_slices in enumerate(slicing):
        if num_slices > 1:
            return slice_dim, num_slices
    return 0, 1


def _iter_slices(full_shape: List[int], num_slices: int, slice_dim: int
                 ) -> Iterator[Tuple[List[int], List[int]]]:
    """(offset, shape) per shard; the first `n % num_slices` shards get one extra row."""
    excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = full_shape[:]
        shape[slice_dim] = min_len + bool(i < excess)
        yield offset[:], shape
        offset[slice_dim] += shape[slice_dim]


class _LazyEvalTensor:
    """A regularization loss: behaves as its first copy, converts to a fresh one."""

    def __init__(self, thunk: Callable[[], Tensor]):
        self._thunk = thunk
        self._master_tensor = thunk()

    def _as_tensor(self, dtype: Any = None, name: Any = None, as_ref: bool = False) -> Tensor:
        assert not as_ref
        assert dtype in [None, self.dtype]
        return self._thunk()

    def _as_graph_element(self) -> Tensor:
        return self._master_tensor

    device = property(lambda self: self._master_tensor.device)
    dtype = property(lambda self: self._master_tensor.dtype)
    graph = property(lambda self: self._master_tensor.graph)
    name = property(lambda self: self._master_tensor.name)
    op = property(lambda self: self._master_tensor.op)
    shape = property(lambda self: self._master_tensor.shape)
    value_index = property(lambda self: self._master_tensor.value_index)

    def get_shape(self) -> TensorShape:
        return self._master_tensor.get_shape()

    def __str__(self) -> str:
        return str(self._master_tensor)

    def __repr__(self) -> str:
        return repr(self._master_tensor)

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        return self._as_tensor().eval(feed_dict=feed_dict, session=session)


def _lazy_operator(op_name: str) -> Callable[..., Any]:
    def method(self: _LazyEvalTensor, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._as_tensor(), op_name)(*args, **kwargs)
    method.__name__ = op_name
    return method


for _name in sorted(Tensor.OVERLOADABLE_OPERATORS - {"__eq__", "__ne__"}) + \
        ["__bool__", "__iter__", "__len__"]:
    setattr(_LazyEvalTensor, _name, _lazy_operator(_name))

register_tensor_conversion_function(
    _LazyEvalTensor,
    lambda val, dtype=None, name=None, as_ref=False: val._as_tensor(dtype, name, as_ref))
register_session_run_conversion_functions(
    _LazyEvalTensor, lambda fetch: ([fetch._master_tensor], lambda values: values[0]))
