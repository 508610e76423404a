"""`tf.Variable` (TF1): the Variable base class, `RefVariable`, creator scopes.

`tf.Variable(...)` goes through the graph's variable-creator stack
(`tf.variable_creator_scope`) to `default_variable_creator`, which builds a `RefVariable`
(TF1's default) or a `ResourceVariable` (`use_resource=True`, a variable scope's
`use_resource`, or `tf.enable_resource_variables()`).

A RefVariable creates exactly TF's ops: the initial value (`v/initial_value`, or
`v/Initializer/...` for a callable), `v` (VariableV2, output `float32_ref`), `v/Assign`
and `v/read` (Identity). Its value lives in the Session's variable store; see
ops/state_ops.py.

`initialized_value()` is one `_VariableInitializedValue` op named like TF's result
(`cond/Merge`) instead of TF's Switch/Merge conditional: it reads the variable when it is
initialized and otherwise forwards the initial value. `_try_guard_against_uninitialized_
dependencies` rewrites an initial value that reads other variables to use their
initialized values, copying ops with TF's names (`mul_u`).
"""

from __future__ import annotations

import contextlib
import enum
import itertools
from typing import Any, Callable, Dict, Iterator, List, Optional

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, add_to_collections, colocate_with,
                                       control_dependencies, device, get_default_graph,
                                       name_from_scope_name, name_scope)
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.object_identity import Reference
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops import state_ops

__all__ = ["Variable", "RefVariable", "VariableSynchronization", "VariableAggregation",
           "variable_creator_scope", "default_variable_creator", "init_scope",
           "validate_synchronization_aggregation_trainable"]


class VariableSynchronization(enum.Enum):
    """`tf.VariableSynchronization`: when a distributed variable is synced."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """`tf.VariableAggregation`: how a distributed variable's updates are combined."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # deprecated alias

    def __hash__(self) -> int:
        return hash(self.value)


def validate_synchronization_aggregation_trainable(synchronization: Any, aggregation: Any,
                                                   trainable: Any, name: Any) -> tuple:
    """Defaults and checks for the distribution arguments, as TF."""
    if aggregation is None:
        aggregation = VariableAggregation.NONE
    elif not isinstance(aggregation, VariableAggregation):
        try:
            aggregation = VariableAggregation(aggregation)
        except ValueError:
            raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                             f"{name}") from None
    if synchronization is None:
        synchronization = VariableSynchronization.AUTO
    else:
        try:
            synchronization = VariableSynchronization(synchronization)
        except ValueError:
            raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                             f"variable: {name}") from None
    if trainable is None:
        trainable = synchronization != VariableSynchronization.ON_READ
    return synchronization, aggregation, trainable


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """TF's `ops.init_scope` in graph mode: no control dependencies, no control-flow region.

    The name scope is kept, so ops are named as in the enclosing scope. Inside a function
    traced under eager execution (tf.function), the block runs eagerly, as TF lifts it;
    inside a `function.Defun` body, in the graph the function is defined for.
    """
    graph = get_default_graph()
    if not _context._state["eager"] and getattr(graph, "_outer_eager", False):
        from tf1compat.autodiff.tape import lift_to_eager
        with lift_to_eager():
            yield
        return
    outer = graph
    while getattr(outer, "lift_init_scope_to", None) is not None:
        outer = outer.lift_init_scope_to
    if outer is not graph:
        # A `function.Defun` body: TF's init_scope builds in the outermost graph that is
        # not a function, in the body's name scope (variables created there are hoisted).
        scope = graph.get_name_scope()
        with outer.as_default(), outer.name_scope(scope + "/" if scope else ""), \
                control_dependencies(None):
            yield
        return
    with control_dependencies(None):
        yield


# -- creator scopes -------------------------------------------------------------------------------

_CREATORS = "variable_creator_stack"


def _creator_stack() -> list:
    return get_default_graph()._extras.setdefault(_CREATORS, [])


@contextlib.contextmanager
def variable_creator_scope(variable_creator: Callable[..., Any]) -> Iterator[None]:
    """`tf.variable_creator_scope`: `creator(next_creator, **kwargs)` intercepts creation."""
    stack = _creator_stack()
    stack.append(variable_creator)
    try:
        yield
    finally:
        stack.remove(variable_creator)


def default_variable_creator(next_creator: Any = None, **kwargs: Any) -> "Variable":
    """Builds a RefVariable, or a ResourceVariable when resource variables are asked for."""
    assert next_creator is None
    use_resource = kwargs.pop("use_resource", None)
    if use_resource is None:
        from tf1compat.variables.variable_scope import get_variable_scope
        use_resource = get_variable_scope().use_resource
    if use_resource is None:
        from tf1compat.framework.misc import resource_variables_enabled
        use_resource = resource_variables_enabled()
    use_resource = use_resource or _context.executing_eagerly() or \
        getattr(get_default_graph(), "_outer_eager", False)   # tracing a tf.function
    kwargs.pop("experimental_enable_variable_lifting", None)
    kwargs.pop("distribute_strategy", None)
    if use_resource:
        from tf1compat.variables.resource_variable import ResourceVariable
        kwargs.pop("expected_shape", None)
        return ResourceVariable(**kwargs)
    return RefVariable(**kwargs)


def _make_getter(creator: Callable[..., Any], previous: Callable[..., Any]) -> Callable[..., Any]:
    return lambda **kwargs: creator(previous, **kwargs)


def _variable_call(initial_value: Any = None, trainable: Any = None, collections: Any = None,
                   validate_shape: bool = True, caching_device: Any = None,
                   name: Optional[str] = None, variable_def: Any = None, dtype: Any = None,
                   expected_shape: Any = None, import_scope: Optional[str] = None,
                   constraint: Any = None, use_resource: Any = None,
                   synchronization: Any = VariableSynchronization.AUTO,
                   aggregation: Any = VariableAggregation.NONE, shape: Any = None,
                   **kwargs: Any) -> "Variable":
    previous = lambda **kws: default_variable_creator(None, **kws)  # noqa: E731
    for creator in _creator_stack():
        previous = _make_getter(creator, previous)
    if aggregation is None:
        aggregation = VariableAggregation.NONE
    return previous(initial_value=initial_value, trainable=trainable, collections=collections,
                    validate_shape=validate_shape, caching_device=caching_device, name=name,
                    variable_def=variable_def, dtype=dtype, expected_shape=expected_shape,
                    import_scope=import_scope, constraint=constraint,
                    use_resource=use_resource, synchronization=synchronization,
                    aggregation=aggregation, shape=shape)


class _VariableMeta(type):
    """`tf.Variable(...)` dispatches to the creator stack; subclasses construct directly."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Variable:
            return _variable_call(*args, **kwargs)
        return super().__call__(*args, **kwargs)


# -- the Variable base class ------------------------------------------------------------------

class Variable(metaclass=_VariableMeta):
    """`tf.Variable`: shared persistent state (see the package docstring for its surface)."""

    # Lets numpy defer `ndarray + variable` to the variable's reflected operators.
    __array_priority__ = 100
    _is_resource_variable = False

    class SaveSliceInfo:
        """Where a partition lives in its full variable (for checkpoints of partitions)."""

        def __init__(self, full_name: Optional[str] = None, full_shape: Any = None,
                     var_offset: Any = None, var_shape: Any = None,
                     save_slice_info_def: Any = None, import_scope: Any = None):
            if save_slice_info_def is not None:
                raise NotImplementedError("SaveSliceInfo from a SaveSliceInfoDef protocol "
                                          "buffer is not supported by tf1compat")
            self.full_name = full_name
            self.full_shape = full_shape
            self.var_offset = var_offset
            self.var_shape = var_shape

        @property
        def spec(self) -> str:
            """The slice spec string checkpoints use: "4 3 5 0,4:1,1:3,2"."""
            full = " ".join("%d" % d for d in self.full_shape) + " "
            return full + ":".join("%d,%d" % (o, s) for o, s in
                                   zip(self.var_offset, self.var_shape))

        def __repr__(self) -> str:
            return (f"SaveSliceInfo(full_name={self.full_name!r}, full_shape="
                    f"{self.full_shape}, var_offset={self.var_offset}, "
                    f"var_shape={self.var_shape})")

    # -- identity ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def _shared_name(self) -> str:
        """The name without the output index (":0")."""
        return self.name[:self.name.index(":")] if ":" in self.name else self.name

    @property
    def initializer(self) -> Operation:
        return self._initializer_op

    @property
    def initial_value(self) -> Tensor:
        return self._initial_value

    @property
    def constraint(self) -> Any:
        return self._constraint

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def synchronization(self) -> VariableSynchronization:
        return self._synchronization

    @property
    def aggregation(self) -> VariableAggregation:
        return self._aggregation

    @property
    def shape(self) -> TensorShape:
        return self.get_shape()

    def get_shape(self) -> TensorShape:
        raise NotImplementedError

    @property
    def _distribute_strategy(self) -> Any:
        return None

    # -- values ------------------------------------------------------------------------
    def eval(self, session: Any = None) -> Any:
        """The variable's value in `session` (or the default session), as numpy."""
        return self._as_graph_element().eval(session=session)

    def load(self, value: Any, session: Any = None) -> None:
        """Writes `value` into the variable in `session` by feeding its initial value."""
        from tf1compat.framework.tensor import get_default_session
        session = session or get_default_session()
        if session is None:
            raise ValueError("Either session argument should be provided or default session "
                             "should be established")
        session.run(self.initializer, {self.initializer.inputs[1]: value})

    def _initialized_value_op(self) -> str:
        return "_VariableInitializedValue"

    def initialized_value(self) -> Tensor:
        """The value once initialized; the initial value while the variable is not."""
        from tf1compat.variables.collections import is_variable_initialized
        with init_scope():
            is_initialized = is_variable_initialized(self)
            with name_scope(None, "cond", [is_initialized]):
                return apply_op1(self._initialized_value_op(),
                                 [is_initialized, self._initialized_value_source(),
                                  self.initial_value], name="Merge")

    def _initialized_value_source(self) -> Tensor:
        raise NotImplementedError

    def sparse_read(self, indices: Any, name: Optional[str] = None) -> Tensor:
        """Gathers rows (resource variables only; AttributeError here, as TF)."""
        raise AttributeError

    def gather_nd(self, indices: Any, name: Optional[str] = None) -> Tensor:
        """Gathers slices (resource variables only; AttributeError here, as TF)."""
        raise AttributeError

    # -- partitions ----------------------------------------------------------------------
    def _set_save_slice_info(self, save_slice_info: "Variable.SaveSliceInfo") -> None:
        self._save_slice_info = save_slice_info

    def _get_save_slice_info(self) -> Optional["Variable.SaveSliceInfo"]:
        return self._save_slice_info

    # -- python protocol ------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self.get_shape()} dtype={self.dtype.name}>"

    __hash__ = object.__hash__

    def __eq__(self, other: Any) -> bool:
        # TF1 graph mode: variable equality is object identity.
        return self is other

    def __ne__(self, other: Any) -> bool:
        return self is not other

    def __iter__(self) -> Any:
        return iter(self.read_value())

    def experimental_ref(self) -> Any:
        return self.ref()

    def ref(self) -> Any:
        """A hashable reference to this variable (`deref()` gives it back)."""
        return Reference(self)

    def __getitem__(self, slice_spec: Any) -> Tensor:
        """`v[...]`: a slice of the value that also has `.assign(x)` (StridedSliceAssign)."""
        from tf1compat.ops.slice_assign_ops import attach_slice_assign
        from tf1compat.ops.strided_slice import slice_helper
        return attach_slice_assign(slice_helper(self.value(), slice_spec, var=self), self)

    def __iadd__(self, other: Any) -> Any:
        return self + other

    def __isub__(self, other: Any) -> Any:
        return self - other

    def __imul__(self, other: Any) -> Any:
        return self * other

    def __itruediv__(self, other: Any) -> Any:
        return self / other

    def __ipow__(self, other: Any) -> Any:
        return self ** other

    @staticmethod
    def _TensorConversionFunction(v: "Variable", dtype: Any = None, name: Any = None,  # noqa: N802
                                  as_ref: bool = False) -> Tensor:
        return v._dense_var_to_tensor(dtype=dtype, name=name, as_ref=as_ref)

    def _dense_var_to_tensor(self, dtype: Any = None, name: Any = None,
                             as_ref: bool = False) -> Tensor:
        if dtype is not None and not dtype.is_compatible_with(self.dtype):
            raise ValueError(f"Incompatible type conversion requested to type '{dtype.name}' "
                             f"for variable of type '{self.dtype.name}'")
        return self._ref() if as_ref else self.value()


def _overload_operators() -> None:
    """Operators on a variable act on its value, as TF's Variable._OverloadAllOperators."""
    for operator in Tensor.OVERLOADABLE_OPERATORS:
        if operator in ("__eq__", "__ne__", "__getitem__"):
            continue
        tensor_oper = getattr(Tensor, operator)

        def run_op(a: Variable, *args: Any, _oper: Callable[..., Any] = tensor_oper) -> Any:
            return _oper(a.value(), *args)
        run_op.__name__ = operator
        setattr(Variable, operator, run_op)


_overload_operators()
register_tensor_conversion_function(
    Variable, lambda v, dtype=None, name=None, as_ref=False:
    v._dense_var_to_tensor(dtype=dtype, name=name, as_ref=as_ref))


# -- RefVariable ----------------------------------------------------------------------------------

class RefVariable(Variable):
    """TF1's default variable: VariableV2 + Assign + Identity("read")."""

    def __init__(self, initial_value: Any = None, trainable: Any = None,
                 collections: Any = None, validate_shape: bool = True,
                 caching_device: Any = None, name: Optional[str] = None,
                 variable_def: Any = None, dtype: Any = None, expected_shape: Any = None,
                 import_scope: Optional[str] = None, constraint: Any = None,
                 synchronization: Any = None, aggregation: Any = None, shape: Any = None):
        self._in_graph_mode = True
        if variable_def is not None:
            raise NotImplementedError("tf.Variable(variable_def=...) (re-creating a variable "
                                      "from a VariableDef protocol buffer) is not supported "
                                      "by tf1compat")
        self._init_from_args(initial_value, trainable, collections, validate_shape,
                             caching_device, name, dtype, constraint, synchronization,
                             aggregation, shape)

    def _init_from_args(self, initial_value: Any, trainable: Any, collections: Any,
                        validate_shape: bool, caching_device: Any, name: Optional[str],
                        dtype: Any, constraint: Any, synchronization: Any, aggregation: Any,
                        shape: Any) -> None:
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        init_from_fn = callable(initial_value)
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError("collections argument to Variable constructor must be a list, "
                             f"tuple, or set. Got {collections} of type {type(collections)}")
        if constraint is not None and not callable(constraint):
            raise ValueError("The `constraint` argument must be a callable.")
        graph = get_default_graph()
        self._graph_key = graph._graph_key
        synchronization, aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._trainable = trainable
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = list(collections) + [GraphKeys.TRAINABLE_VARIABLES]
        if dtype is not None:
            dtype = D.as_dtype(dtype)
        if shape is not None:
            shape = as_shape(shape)
        with init_scope():
            if _context.executing_eagerly():
                raise RuntimeError("Reference variables are not supported when eager "
                                   "execution is enabled. Please run "
                                   "`tf.compat.v1.enable_resource_variables()` to switch to "
                                   "resource variables.")
            with name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as name:
                if init_from_fn:
                    # The initializer is colocated with the variable that does not exist
                    # yet: TF writes the colocation attr by hand and clears the device.
                    true_name = name_from_scope_name(name)
                    with graph._attr_scope({"_class": [f"loc:@{true_name}".encode()]}):
                        with name_scope("Initializer"), device(None):
                            value = initial_value()
                            self._initial_value = convert_to_tensor(
                                value, name="initial_value", dtype=dtype)
                            if shape is None:
                                shape = self._initial_value.get_shape() if validate_shape \
                                    else unknown_shape()
                        self._variable = state_ops.variable_op_v2(
                            shape, self._initial_value.dtype.base_dtype, name=name)
                else:
                    self._initial_value = convert_to_tensor(initial_value,
                                                            name="initial_value", dtype=dtype)
                    if self._initial_value.op._control_flow_context is not None:
                        raise ValueError(
                            f"Initializer for variable {name} is from inside a control-flow "
                            "construct, such as a loop or conditional. When creating a "
                            "variable inside a loop or conditional, use a lambda as the "
                            "initializer.")
                    if shape is None:
                        shape = self._initial_value.get_shape() if validate_shape \
                            else unknown_shape()
                    self._variable = state_ops.variable_op_v2(
                        shape, self._initial_value.dtype.base_dtype, name=name)
                self._name = self._variable.name
                if validate_shape and not self._initial_value.get_shape().is_fully_defined():
                    raise ValueError("initial_value must have a shape specified: "
                                     f"{self._initial_value}")
                self._initializer_op = state_ops.assign(
                    self._variable,
                    _try_guard_against_uninitialized_dependencies(name, self._initial_value),
                    validate_shape=validate_shape).op
                if caching_device is not None:
                    with device(caching_device):
                        self._snapshot = _identity(self._variable, "read")
                else:
                    with colocate_with(self._variable.op):
                        self._snapshot = _identity(self._variable, "read")
            add_to_collections(collections, self)
        self._caching_device = caching_device
        self._save_slice_info = None
        self._constraint = constraint

    # -- the graph elements ------------------------------------------------------------------
    def _as_graph_element(self) -> Tensor:
        return self._variable

    def _ref(self) -> Tensor:
        """The VariableV2 output (a ref tensor) that assign ops take."""
        return self._variable

    def _initialized_value_source(self) -> Tensor:
        return self._variable

    def value(self) -> Tensor:
        """The variable's snapshot (`v/read`), read when its consumers run."""
        return self._snapshot

    def read_value(self) -> Tensor:
        """A fresh read (an Identity named "read" in the current scope)."""
        return _identity(self._variable, "read")

    def set_shape(self, shape: Any) -> None:
        self._ref().set_shape(shape)
        self.value().set_shape(shape)

    @property
    def device(self) -> str:
        return self._variable.device

    @property
    def dtype(self) -> D.DType:
        return self._variable.dtype

    @property
    def op(self) -> Operation:
        return self._variable.op

    @property
    def graph(self) -> Any:
        return self._variable.graph

    def get_shape(self) -> TensorShape:
        return self._variable.get_shape()

    # -- updates --------------------------------------------------------------------------------
    def assign(self, value: Any, use_locking: bool = False, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        out = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def assign_add(self, delta: Any, use_locking: bool = False, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        out = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def assign_sub(self, delta: Any, use_locking: bool = False, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        out = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return out if read_value else out.op

    def _scatter(self, op_type: str, sparse_delta: Any, use_locking: bool,
                 name: Optional[str]) -> Tensor:
        _check_indexed_slices(sparse_delta)
        return apply_op1(op_type, [self._variable, sparse_delta.indices, sparse_delta.values],
                         {"use_locking": use_locking}, name=name)

    def scatter_update(self, sparse_delta: Any, use_locking: bool = False,
                       name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterUpdate", sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterAdd", sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterSub", sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterMul", sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterDiv", sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterMin", sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False,
                    name: Optional[str] = None) -> Tensor:
        return self._scatter("ScatterMax", sparse_delta, use_locking, name)

    def batch_scatter_update(self, sparse_delta: Any, use_locking: bool = False,
                             name: Optional[str] = None) -> Tensor:
        _check_indexed_slices(sparse_delta)
        return state_ops.batch_scatter_update(self, sparse_delta.indices, sparse_delta.values,
                                              use_locking=use_locking, name=name)

    def scatter_nd_update(self, indices: Any, updates: Any, name: Optional[str] = None
                          ) -> Tensor:
        return state_ops.scatter_nd_update(self._variable, indices, updates, name=name)

    def scatter_nd_add(self, indices: Any, updates: Any, name: Optional[str] = None) -> Tensor:
        return state_ops.scatter_nd_add(self._variable, indices, updates, name=name)

    def scatter_nd_sub(self, indices: Any, updates: Any, name: Optional[str] = None) -> Tensor:
        return state_ops.scatter_nd_sub(self._variable, indices, updates, name=name)

    def count_up_to(self, limit: int) -> Tensor:
        return state_ops.count_up_to(self._variable, limit=limit)

    def to_proto(self, export_scope: Any = None) -> Any:
        raise NotImplementedError("Variable.to_proto (VariableDef protocol buffers) is not "
                                  "supported by tf1compat")


def _identity(t: Tensor, name: str) -> Tensor:
    return apply_op1("Identity", [t], name=name)


def _check_indexed_slices(sparse_delta: Any) -> None:
    if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
        raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")


# -- guarding initial values that read other variables ---------------------------------------------

_GUARD_SKIP = ("IsVariableInitialized", "VarIsInitializedOp", "ReadVariableOp", "If",
               "_VariableInitializedValue", "_ResourceInitializedValue")


def _try_guard_against_uninitialized_dependencies(name: str, initial_value: Tensor) -> Tensor:
    """Rewrites reads of other variables in `initial_value` to their initialized values.

    As TF: best effort, skipped for graphs with cycles, and only for variables found in
    GLOBAL_VARIABLES or LOCAL_VARIABLES.
    """
    if not isinstance(initial_value, Tensor):
        raise TypeError(f"initial_value needs to be a Tensor: {initial_value}")
    if _has_cycle(initial_value.op, {}):
        return initial_value
    return _safe_tensor(name, initial_value, {})


_UNKNOWN, _STARTED, _FINISHED = range(3)


def _has_cycle(op: Operation, state: Dict[str, int]) -> bool:
    stack = [(op, iter(itertools.chain((t.op for t in op.inputs), op.control_inputs)))]
    state[op.name] = _STARTED
    while stack:
        current, deps = stack[-1]
        for dep in deps:
            dep_state = state.get(dep.name, _UNKNOWN)
            if dep_state == _STARTED:
                return True
            if dep_state == _UNKNOWN:
                state[dep.name] = _STARTED
                stack.append((dep, iter(itertools.chain((t.op for t in dep.inputs),
                                                        dep.control_inputs))))
                break
        else:
            state[current.name] = _FINISHED
            stack.pop()
    return False


def _safe_tensor(name: str, tensor: Tensor, cache: Dict[str, Operation]) -> Tensor:
    op = tensor.op
    new_op = cache.get(op.name)
    if new_op is None:
        new_op = _safe_op(name, op, cache)
        cache[op.name] = new_op
    return new_op.outputs[tensor.value_index]


def _safe_op(name: str, op: Operation, cache: Dict[str, Operation]) -> Operation:
    if op.type in _GUARD_SKIP:
        return op
    if op.type in ("Variable", "VariableV2", "VarHandleOp"):
        value = _find_initialized_value_for_variable(op)
        return op if value is None else value.op
    modified = False
    new_inputs = []
    for t in op.inputs:
        new_t = _safe_tensor(name, t, cache)
        new_inputs.append(new_t)
        modified = modified or new_t is not t
    if not modified:
        return op
    new_type = "Switch" if op.type == "RefSwitch" else op.type
    new_name = (op.name + "_" + name).replace(":", "_")
    return op.graph.create_op(new_type, _regroup(op, new_inputs), name=new_name,
                              attrs={k: v for k, v in op._attrs.items()})


def _regroup(op: Operation, flat: List[Tensor]) -> list:
    """Flat inputs back into the op signature's arguments (lists for list arguments)."""
    out: list = []
    i = 0
    for spec in op._op_def.inputs:
        if spec.number_attr is not None:
            n = op._attrs[spec.number_attr]
            out.append(flat[i:i + n])
            i += n
        elif spec.type_list_attr is not None:
            n = len(op._attrs[spec.type_list_attr])
            out.append(flat[i:i + n])
            i += n
        else:
            out.append(flat[i])
            i += 1
    return out


def _find_initialized_value_for_variable(variable_op: Operation) -> Optional[Tensor]:
    names = (variable_op.name, variable_op.name + ":0")
    try:
        for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
            for var in variable_op.graph.get_collection(key):
                if var.name in names:
                    return var.initialized_value()
    except AttributeError:
        return None
    return None

