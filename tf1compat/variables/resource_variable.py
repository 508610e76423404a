"""`ResourceVariable` (`use_resource=True`): a VarHandleOp plus read/assign ops.

Ops and names follow TF: `v` (VarHandleOp), `v/IsInitialized/VarIsInitializedOp`,
`v/Assign` (AssignVariableOp), `v/Read/ReadVariableOp` (what `sess.run(v)` fetches).
`value()` and every conversion to a tensor add a fresh `ReadVariableOp`; `assign*` return
an `_UnreadVariable` whose reads run after the update, as in TF.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, add_to_collections, apply_op1, colocate_with,
                                       control_dependencies, device, get_default_graph,
                                       name_from_scope_name, name_scope)
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops import resource_variable_ops as rvo
from tf1compat.variables.variables import (Variable, _check_indexed_slices, _identity,
                                           _try_guard_against_uninitialized_dependencies,
                                           init_scope,
                                           validate_synchronization_aggregation_trainable)

__all__ = ["ResourceVariable", "BaseResourceVariable"]


def _resource_initialized_value_kernel(node: Any, kctx: Any) -> Any:
    state = kctx.state

    def initialized_value(is_initialized: Any, handle: str, initial_value: Any) -> Any:
        current = state.get(handle)
        return initial_value if current is None else current
    return initialized_value


# The resource-variable form of variables.py's `_VariableInitializedValue`.
declare("_ResourceInitializedValue",
        inputs=["is_initialized: bool", "resource: resource", "initial_value: dtype"],
        outputs=["output: dtype"], attrs={"dtype": Type()},
        shape=lambda ctx: [ctx.shape(2)], kernel=_resource_initialized_value_kernel,
        grad="none", stateful=True, view=True, reads_only=True)


class BaseResourceVariable(Variable):
    """What every resource variable shares (ResourceVariable and `_UnreadVariable`)."""

    _is_resource_variable = True

    def _setup(self, trainable: Any, shape: Any, dtype: Any, handle: Tensor,
               constraint: Any, synchronization: Any, aggregation: Any, name: Any,
               unique_id: str, handle_name: Optional[str], graph_element: Optional[Tensor],
               initial_value: Optional[Tensor], initializer_op: Optional[Operation],
               is_initialized_op: Optional[Tensor], cached_value: Optional[Tensor],
               caching_device: Any, validate_shape: bool = True) -> None:
        self._in_graph_mode = True
        synchronization, aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        self._trainable = trainable
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._save_slice_info = None
        self._initial_value = initial_value
        self._initializer_op = initializer_op
        self._is_initialized_op = is_initialized_op
        self._graph_element = graph_element
        self._caching_device = caching_device
        self._cached_value = cached_value
        self._graph_key = get_default_graph()._graph_key
        self._shape = as_shape(shape)
        self._dtype = D.as_dtype(dtype)
        self._handle = handle
        self._unique_id = unique_id
        self._handle_name = "Variable:0" if handle_name is None else handle_name + ":0"
        self._constraint = constraint
        self._validate_shape = validate_shape

    # -- identity ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._handle_name

    @property
    def handle(self) -> Tensor:
        """The resource tensor (VarHandleOp output)."""
        return self._handle

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def device(self) -> str:
        return self._handle.device

    @property
    def graph(self) -> Any:
        return self._handle.graph

    @property
    def op(self) -> Operation:
        return self._handle.op

    @property
    def create(self) -> Operation:
        return self._initializer_op

    def get_shape(self) -> TensorShape:
        return self._shape

    def _as_graph_element(self) -> Optional[Tensor]:
        return self._graph_element

    def _initialized_value_op(self) -> str:
        return "_ResourceInitializedValue"

    def _initialized_value_source(self) -> Tensor:
        return self._handle

    def _ref(self) -> Tensor:
        return self._handle

    # -- reads ---------------------------------------------------------------------------------
    def _read_variable_op(self) -> Tensor:
        if self._caching_device is not None:
            with colocate_with(None, ignore_existing=True):
                with device(self._caching_device):
                    return rvo.read_variable_op(self._handle, self._dtype)
        return rvo.read_variable_op(self._handle, self._dtype)

    def value(self) -> Tensor:
        """A fresh ReadVariableOp (or the cached read when a caching device is set)."""
        if self._cached_value is not None:
            return self._cached_value
        with colocate_with(None, ignore_existing=True):
            return self._read_variable_op()

    def read_value(self) -> Tensor:
        """`Read/ReadVariableOp` then an Identity, in the current scope (as TF)."""
        with name_scope("Read"):
            value = self._read_variable_op()
        return _identity(value, "Identity")

    def eval(self, session: Any = None) -> Any:
        return self._graph_element.eval(session=session)

    def is_initialized(self, name: Optional[str] = None) -> Tensor:
        return rvo.var_is_initialized_op(self._handle, name)

    def sparse_read(self, indices: Any, name: Optional[str] = None) -> Tensor:
        with name_scope("Gather" if name is None else name) as scope:
            return apply_op1("ResourceGather", [self._handle, indices],
                             {"dtype": self._dtype}, name=scope)

    def gather_nd(self, indices: Any, name: Optional[str] = None) -> Tensor:
        with name_scope("GatherNd" if name is None else name) as scope:
            value = apply_op1("ResourceGatherNd", [self._handle, indices],
                              {"dtype": self._dtype}, name=scope)
        return _identity(value, "Identity")

    def _dense_var_to_tensor(self, dtype: Any = None, name: Any = None,
                             as_ref: bool = False) -> Tensor:
        if dtype is not None and not dtype.is_compatible_with(self.dtype):
            raise ValueError(f"Incompatible type conversion requested to type {dtype.name} "
                             f"for `tf.Variable of type {self.dtype.name}. (Variable: {self})")
        if as_ref:
            return self.read_value().op.inputs[0]
        return self.value()

    # -- updates -----------------------------------------------------------------------------------
    def _assign_dependencies(self) -> Any:
        if self._cached_value is not None:
            return control_dependencies([self._cached_value])
        return control_dependencies([])

    def _lazy_read(self, op: Operation) -> "_UnreadVariable":
        return _UnreadVariable(self._handle, self._dtype, self._shape, op, self._unique_id)

    def assign(self, value: Any, use_locking: Any = None, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        value_tensor = convert_to_tensor(value, dtype=self.dtype)
        if not self._shape.is_compatible_with(value_tensor.shape):
            tensor_name = "" if self.name is None else " " + str(self.name)
            raise ValueError(f"Cannot assign value to variable '{tensor_name}': Shape "
                             f"mismatch.The variable shape {self._shape}, and the assigned "
                             f"value shape {value_tensor.shape} are incompatible.")
        validate = self._validate_shape and self._shape.is_fully_defined()
        op = rvo.assign_variable_op(self._handle, value_tensor, validate_shape=validate,
                                    name=name)
        return self._lazy_read(op) if read_value else op

    def _update(self, op_type: str, delta: Any, name: Optional[str], read_value: bool) -> Any:
        with self._assign_dependencies():
            op = rvo.resource_op(op_type, self._handle,
                                 convert_to_tensor(delta, dtype=self.dtype), name=name)
        return self._lazy_read(op) if read_value else op

    def assign_add(self, delta: Any, use_locking: Any = None, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        return self._update("AssignAddVariableOp", delta, name, read_value)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        return self._update("AssignSubVariableOp", delta, name, read_value)

    def _resource_scatter(self, op_type: str, indices: Any, updates: Any,
                          name: Optional[str] = None) -> "_UnreadVariable":
        updates = convert_to_tensor(updates, self.dtype)
        return self._lazy_read(rvo.resource_op(op_type, self._handle, indices, updates,
                                               name=name))

    def _scatter(self, op_type: str, sparse_delta: Any, name: Optional[str]) -> Any:
        _check_indexed_slices(sparse_delta)
        return self._resource_scatter(op_type, sparse_delta.indices, sparse_delta.values, name)

    def scatter_update(self, sparse_delta: Any, use_locking: bool = False,
                       name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterUpdate", sparse_delta, name)

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterAdd", sparse_delta, name)

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterSub", sparse_delta, name)

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterMul", sparse_delta, name)

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterDiv", sparse_delta, name)

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterMin", sparse_delta, name)

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Any:
        return self._scatter("ResourceScatterMax", sparse_delta, name)

    def scatter_nd_update(self, indices: Any, updates: Any, name: Optional[str] = None) -> Any:
        return self._resource_scatter("ResourceScatterNdUpdate", indices, updates, name)

    def scatter_nd_add(self, indices: Any, updates: Any, name: Optional[str] = None) -> Any:
        return self._resource_scatter("ResourceScatterNdAdd", indices, updates, name)

    def scatter_nd_sub(self, indices: Any, updates: Any, name: Optional[str] = None) -> Any:
        return self._resource_scatter("ResourceScatterNdSub", indices, updates, name)

    def count_up_to(self, limit: int) -> Tensor:
        return apply_op1("ResourceCountUpTo", [self._handle],
                         {"limit": int(limit), "T": self._dtype})

    def __iadd__(self, other: Any) -> Any:
        raise RuntimeError("`variable += value` with `tf.Variable`s is not supported. Use "
                           "`variable.assign_add(value)` to modify the variable, or `out = "
                           "variable + value` if you need to get a new output Tensor.")

    def __isub__(self, other: Any) -> Any:
        raise RuntimeError("`variable -= value` with `tf.Variable`s is not supported. Use "
                           "`variable.assign_sub(value)` to modify the variable, or `out = "
                           "variable * value` if you need to get a new output Tensor.")

    def __imul__(self, other: Any) -> Any:
        raise RuntimeError("`var *= value` with `tf.Variable`s is not supported. Use "
                           "`var.assign(var * value)` to modify the variable, or `out = var "
                           "* value` if you need to get a new output Tensor.")

    def __itruediv__(self, other: Any) -> Any:
        raise RuntimeError("`var /= value` with `tf.Variable`s is not supported. Use "
                           "`var.assign(var / value)` to modify the variable, or `out = var "
                           "/ value` if you need to get a new output Tensor.")

    def __ipow__(self, other: Any) -> Any:
        raise RuntimeError("`var **= value` with `tf.Variable`s is not supported. Use "
                           "`var.assign(var ** value)` to modify the variable, or `out = var "
                           "** value` if you need to get a new output Tensor.")

    def to_proto(self, export_scope: Any = None) -> Any:
        raise NotImplementedError("Variable.to_proto (VariableDef protocol buffers) is not "
                                  "supported by tf1compat")


class ResourceVariable(BaseResourceVariable):
    """A resource variable created from an initial value."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "ResourceVariable":
        # Under eager execution the variable holds its own value in the eager store
        # (tf1compat/variables/eager_variables.py).
        if cls is ResourceVariable and (_context._state["eager"] or getattr(
                get_default_graph(), "_outer_eager", False)):
            from tf1compat.variables.eager_variables import EagerResourceVariable
            cls = EagerResourceVariable
        return object.__new__(cls)

    def __init__(self, initial_value: Any = None, trainable: Any = None,
                 collections: Any = None, validate_shape: bool = True,
                 caching_device: Any = None, name: Optional[str] = None, dtype: Any = None,
                 variable_def: Any = None, import_scope: Any = None, constraint: Any = None,
                 distribute_strategy: Any = None, synchronization: Any = None,
                 aggregation: Any = None, shape: Any = None, **unused: Any):
        if variable_def is not None:
            raise NotImplementedError("ResourceVariable(variable_def=...) is not supported by "
                                      "tf1compat")
        synchronization, aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified "
                             "except when you are not providing a `variable_def`. You "
                             "provided neither.")
        init_from_fn = callable(initial_value)
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError("collections argument to Variable constructor must be a list, "
                             f"tuple, or set. Got {collections} of type {type(collections)}")
        if constraint is not None and not callable(constraint):
            raise ValueError("Argument `constraint` must be None or a callable. a callable. "
                             f"Got a {type(constraint)}:  {constraint}")
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = list(collections) + [GraphKeys.TRAINABLE_VARIABLES]
        if dtype is not None:
            dtype = D.as_dtype(dtype)
        graph = get_default_graph()
        with init_scope():
            with name_scope(name, "Variable", [] if init_from_fn else [initial_value]) \
                    as name:
                handle_name = name_from_scope_name(name)
                with graph._attr_scope({"_class": [f"loc:@{handle_name}".encode()]}):
                    with name_scope("Initializer"), device(None):
                        if init_from_fn:
                            initial_value = initial_value()
                        initial_value = convert_to_tensor(initial_value, name="initial_value",
                                                          dtype=dtype)
                    if shape is not None:
                        if not initial_value.shape.is_compatible_with(shape):
                            raise ValueError(
                                "In this `tf.Variable` creation, the initial value's shape "
                                f"({initial_value.shape}) is not compatible with the "
                                f"explicitly supplied `shape` argument ({as_shape(shape)}).")
                    else:
                        shape = initial_value.shape
                    handle = rvo.var_handle_op(initial_value.dtype, shape,
                                               container=graph._container,
                                               shared_name=handle_name, debug_name=name,
                                               name=name)
                if initial_value.op._control_flow_context is not None:
                    raise ValueError(
                        f"The `initial_value` passed to `tf.Variable` {name} is from inside a "
                        "control-flow  construct, such as a loop or conditional. When "
                        "creating a `tf.Variable` inside a loop or conditional, use a lambda "
                        f"as the `initial_value`. Got: initial_value=({initial_value})")
                dtype = initial_value.dtype.base_dtype
                with name_scope("IsInitialized"):
                    is_initialized_op = rvo.var_is_initialized_op(handle)
                with name_scope("Assign") as n, colocate_with(None, ignore_existing=True), \
                        device(handle.device):
                    initializer_op = rvo.assign_variable_op(
                        handle, _try_guard_against_uninitialized_dependencies(
                            name, initial_value), name=n)
                with name_scope("Read"):
                    with device(handle.device):
                        value = rvo.read_variable_op(handle, dtype)
                    cached_value = None
                    if caching_device is not None:
                        with colocate_with(None, ignore_existing=True):
                            with device(caching_device):
                                cached_value = _identity(value, "Identity")
            add_to_collections(collections, self)
        self._setup(trainable, shape, dtype, handle, constraint, synchronization, aggregation,
                    name, handle_name, handle_name, value, initial_value, initializer_op,
                    is_initialized_op, cached_value, caching_device, validate_shape)


class _UnreadVariable(BaseResourceVariable):
    """What a resource variable's assign returns: reads run after the update op."""

    def __init__(self, handle: Tensor, dtype: D.DType, shape: TensorShape,
                 parent_op: Operation, unique_id: str):
        with control_dependencies([parent_op]):
            graph_element = rvo.read_variable_op(handle, dtype)
        self._setup(None, shape, dtype, handle, None, None, None, None, unique_id,
                    handle.name[:-2] if handle.name.endswith(":0") else handle.name,
                    graph_element, None, None, None, None, None)
        self._parent_op = parent_op

    @property
    def name(self) -> str:
        return self._parent_op.name

    def value(self) -> Tensor:
        return self._read_variable_op()

    def read_value(self) -> Tensor:
        return self._read_variable_op()

    def _read_variable_op(self) -> Tensor:
        with control_dependencies([self._parent_op]):
            return rvo.read_variable_op(self._handle, self._dtype)

    def _update(self, op_type: str, delta: Any, name: Optional[str], read_value: bool) -> Any:
        with control_dependencies([self._parent_op]):
            return super()._update(op_type, delta, name, read_value)

    def assign(self, value: Any, use_locking: Any = None, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        with control_dependencies([self._parent_op]):
            return super().assign(value, use_locking, name, read_value)

    def _resource_scatter(self, op_type: str, indices: Any, updates: Any,
                          name: Optional[str] = None) -> "_UnreadVariable":
        with control_dependencies([self._parent_op]):
            return super()._resource_scatter(op_type, indices, updates, name)

    @property
    def op(self) -> Operation:
        return self._parent_op
