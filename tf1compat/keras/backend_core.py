"""The core of `tf.keras.backend` (TF1 graph mode): global settings, per-graph Keras state,
variables, placeholders, sessions and `K.function`; the tensor helpers built on it are
backend_math.py, backend_nn.py and backend_rnn.py, and backend.py is the public face.

Per-graph state lives in `graph._extras` so `tf.reset_default_graph()` starts afresh, as
TF's per-graph dictionaries do: the layer-name counters (`dense`, `dense_1`, ...), the
learning phase (a `keras_learning_phase` PlaceholderWithDefault(False), created on first
use, or an int set by `set_learning_phase`), the Keras session and the variables Keras
created (which `get_session()` initializes when they are not yet, as TF's Keras does).
"""

from __future__ import annotations

import builtins
import collections
import contextlib
import json
import os
import weakref
from typing import Any, Dict, Iterator, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant as _tf_constant
from tf1compat.framework.graph import Graph, get_default_graph
from tf1compat.framework.graph import name_scope as _v1_name_scope
from tf1compat.framework.tensor import Tensor, get_default_session
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["floatx", "set_floatx", "epsilon", "set_epsilon", "image_data_format",
           "set_image_data_format", "backend", "get_uid", "reset_uids", "unique_object_name",
           "get_graph", "get_session", "set_session", "clear_session",
           "manual_variable_initialization", "track_tf_optimizer", "learning_phase",
           "set_learning_phase", "learning_phase_scope", "name_scope", "track_variable",
           "placeholder", "is_placeholder", "variable", "constant", "zeros", "ones", "zeros_like",
           "ones_like", "eye", "int_shape", "shape", "ndim", "dtype", "cast", "eval", "get_value",
           "set_value", "batch_get_value", "batch_set_value", "count_params", "function",
           "gradients", "stop_gradient", "is_keras_tensor", "is_sparse"]

# -- global settings ---------------------------------------------------------------------------

_SETTINGS: Dict[str, Any] = {"floatx": "float32", "epsilon": 1e-7,
                             "image_data_format": "channels_last", "manual_init": False,
                             "numpy_op_seeds": False}


def use_numpy_op_seeds(enabled: bool) -> None:
    """Standalone Keras 2.2.4 on TF 1.x drew the op seed of each unseeded random op it built
    (initializers, Dropout and the noise layers) from numpy, so `np.random.seed(...)` alone
    made a script repeat itself; tf1compat/shim_keras.py turns this on when a script imports
    standalone `keras` (tf.keras alone keeps TF's graph-level seeding)."""
    _SETTINGS["numpy_op_seeds"] = bool(enabled)


def numpy_op_seed(seed: Optional[int]) -> Optional[int]:
    """`seed`, or under standalone Keras's seeding a fresh `np.random.randint(10e6)`."""
    if seed is None and _SETTINGS["numpy_op_seeds"]:
        return int(np.random.randint(10e6))
    return seed


def with_numpy_op_seed(initializer: Any) -> Any:
    """An unseeded random initializer, under standalone Keras's seeding, as a copy seeded
    from numpy (drawn now: as Keras 2.2.4, when the layer creates the weight)."""
    if _SETTINGS["numpy_op_seeds"] and getattr(initializer, "seed", 0) is None:
        import copy
        initializer = copy.copy(initializer)
        initializer.seed = numpy_op_seed(None)
    return initializer


def floatx() -> str:
    """The default float type name ('float32')."""
    return _SETTINGS["floatx"]


def set_floatx(value: str) -> None:
    if value not in {"float16", "bfloat16", "float32", "float64"}:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', "
                         "'bfloat16', 'float32', 'float64'}")
    _SETTINGS["floatx"] = str(value)


def epsilon() -> float:
    """The fuzz factor Keras adds to avoid divisions by zero (1e-7)."""
    return _SETTINGS["epsilon"]


def set_epsilon(value: float) -> None:
    _SETTINGS["epsilon"] = value


def image_data_format() -> str:
    """'channels_last' (NHWC) unless set otherwise."""
    return _SETTINGS["image_data_format"]


def set_image_data_format(data_format: str) -> None:
    if data_format not in {"channels_last", "channels_first"}:
        raise ValueError(f"Unknown `data_format`: {data_format}. Expected one of "
                         "{'channels_first', 'channels_last'}")
    _SETTINGS["image_data_format"] = str(data_format)


def backend() -> str:
    return "tensorflow"


def _read_keras_config() -> None:
    """Applies `$KERAS_HOME/keras.json` (else `~/.keras/keras.json`), as TF's Keras does on
    import: its floatx, epsilon and image_data_format replace the defaults (a file that is
    not JSON counts as empty; a value of the wrong kind is an AssertionError, as in TF).
    Unlike TF, tf1compat does not create the file when it is missing."""
    keras_dir = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    path = os.path.expanduser(os.path.join(keras_dir, "keras.json"))
    if not os.path.exists(path):
        return
    try:
        with open(path) as f:
            config = json.load(f)
    except ValueError:
        config = {}
    float_type = config.get("floatx", floatx())
    fuzz = config.get("epsilon", epsilon())
    data_format = config.get("image_data_format", image_data_format())
    assert float_type in {"float16", "float32", "float64"}, f"{path}: floatx {float_type!r}"
    assert isinstance(fuzz, float), f"{path}: epsilon {fuzz!r} is not a float"
    assert data_format in {"channels_last", "channels_first"}, \
        f"{path}: image_data_format {data_format!r}"
    set_floatx(float_type)
    set_epsilon(fuzz)
    set_image_data_format(data_format)


_read_keras_config()


# -- per-graph state ---------------------------------------------------------------------------

_EAGER_KERAS_GRAPH: list = []


def get_graph() -> Graph:
    """The graph Keras builds into: the default graph in TF1 graph mode; under eager
    execution, a private graph for symbolic model-building (`tf.keras.Input`), whose
    variables are lifted out to eager variables (as TF's Keras does)."""
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        if not _EAGER_KERAS_GRAPH:
            # A function graph: it captures the (eager) weights layers read while building,
            # and init_scope lifts variable creation out of it to eager.
            from tf1compat.framework.func_graph import FuncGraph
            _EAGER_KERAS_GRAPH.append(FuncGraph("keras_graph", lift_variables=True))
        return _EAGER_KERAS_GRAPH[0]
    return get_default_graph()


def _state(graph: Optional[Graph] = None) -> Dict[str, Any]:
    graph = graph or get_default_graph()
    state = graph._extras.get("keras_backend")
    if state is None:
        state = {"learning_phase": None, "variables": [], "session": None,
                 "tf_optimizers": []}
        graph._extras["keras_backend"] = state
    return state


# tf-keras's PER_GRAPH_OBJECT_NAME_UIDS: graph -> counters. Object names count under
# (namespace, name) keys of the default graph, `get_uid` under the bare prefix of
# `get_graph()`: separate counters, and under eager execution separate graphs too.
_UIDS: "weakref.WeakKeyDictionary[Graph, collections.defaultdict]" = \
    weakref.WeakKeyDictionary()


def _uid_map(graph: Graph) -> collections.defaultdict:
    uids = _UIDS.get(graph)
    if uids is None:
        uids = _UIDS[graph] = collections.defaultdict(int)
    return uids


def unique_object_name(name: str, name_uid_map: Optional[Dict] = None,
                       avoid_names: Optional[Any] = None, namespace: str = "",
                       zero_based: bool = False) -> str:
    """`name`, `name_1`, ... unique per graph; zero_based gives `name` first, else `name_1`."""
    if name_uid_map is None:
        name_uid_map = _uid_map(get_default_graph())
    avoid_names = avoid_names or set()
    proposed = None
    while proposed is None or proposed in avoid_names:
        key = (namespace, name)
        if zero_based:
            number = name_uid_map[key]
            proposed = f"{name}_{number}" if number else name
            name_uid_map[key] += 1
        else:
            name_uid_map[key] += 1
            proposed = f"{name}_{name_uid_map[key]}"
    return proposed


def get_uid(prefix: str = "") -> int:
    """1, 2, ... per prefix in Keras' graph (`K.get_uid('dense')`), counted apart from the
    layer names `unique_object_name` gives (as tf-keras)."""
    uids = _uid_map(get_graph())
    uids[prefix] += 1
    return uids[prefix]


def reset_uids() -> None:
    """Every graph's name and uid counters start over (`K.reset_uids()`)."""
    _UIDS.clear()


def clear_session() -> None:
    """Resets the default graph and every piece of Keras state (as `K.clear_session()`),
    the graph eager model-building uses included (so weight names start over too), and
    under eager execution the eager kernels (so seeded initializers repeat)."""
    from tf1compat.framework.graph import reset_default_graph
    from tf1compat.framework import context
    reset_default_graph()
    _EAGER_KERAS_GRAPH.clear()
    reset_uids()
    if context.executing_eagerly():
        # TF's context.clear_kernel_cache(): seeded random ops start their streams over.
        from tf1compat.ops._random_stream import RandomStream
        from tf1compat.runtime import eager_executor
        eager_executor.clear_kernels(lambda state: isinstance(state, RandomStream))


def manual_variable_initialization(value: bool) -> None:
    """With True, `get_session()` no longer initializes Keras variables."""
    _SETTINGS["manual_init"] = bool(value)


def track_variable(v: Any) -> None:
    """Remembers a variable Keras created, for `get_session()` to initialize."""
    graph = getattr(v, "graph", None) or get_default_graph()
    tracked = _state(graph)["variables"]
    if not builtins.any(v is w for w in tracked):
        tracked.append(v)


def track_tf_optimizer(tf_optimizer: Any) -> None:
    """Remembers a Keras-wrapped `tf.train.Optimizer`: `get_session()` initializes its
    slot and non-slot variables too."""
    from tf1compat.framework.context import executing_eagerly
    if not executing_eagerly():
        _state()["tf_optimizers"].append(tf_optimizer)


def get_session(op_input_list: Sequence[Any] = ()) -> Any:
    """The default session, else Keras' session for the graph (created on first use);
    variables Keras created are initialized in it unless they already are."""
    from tf1compat.runtime.session import Session
    session = get_default_session()
    if session is None:
        state = _state()
        session = state["session"]
        if session is None or session._closed:
            session = Session(graph=get_default_graph())
            state["session"] = session
    if not _SETTINGS["manual_init"]:
        _initialize_variables(session)
    return session


def _initialize_variables(session: Any) -> None:
    from tf1compat.variables.collections import is_variable_initialized, variables_initializer
    state = _state(session.graph)
    if not state["tf_optimizers"] and state.get("checked") == len(state["variables"]):
        return   # (every tracked variable was checked already: the per-step call is free)
    candidates = list(state["variables"])
    with session.graph.as_default():
        for wrapper in state["tf_optimizers"]:
            candidates += [v for v in wrapper.optimizer.variables()
                           if not builtins.any(v is w for w in candidates)]
    tracked = [v for v in candidates if not getattr(v, "_keras_initialized", False)]
    if not tracked:
        state["checked"] = len(state["variables"])
        return
    with session.graph.as_default():
        flags = session.run([is_variable_initialized(v) for v in tracked])
        pending = [v for v, ok in zip(tracked, flags) if not ok]
        for v in tracked:
            v._keras_initialized = True
        state["checked"] = len(state["variables"])
        if pending:
            session.run(variables_initializer(pending))


def set_session(session: Any) -> None:
    """Makes `session` the one `get_session()` returns for its graph."""
    _state(session.graph)["session"] = session


# -- learning phase ----------------------------------------------------------------------------

def learning_phase() -> Any:
    """The learning phase: an int set by `set_learning_phase`, else the graph's bool
    placeholder `keras_learning_phase` (default False, feed True to train)."""
    state = _state()
    phase = state["learning_phase"]
    if phase is None:
        from tf1compat.ops.array_ops import placeholder_with_default
        with _v1_name_scope(""):
            phase = placeholder_with_default(False, shape=(), name="keras_learning_phase")
        state["learning_phase"] = phase
    return phase


def set_learning_phase(value: int) -> None:
    """Fixes the learning phase to 0 (test) or 1 (train) for layers built afterwards."""
    if value not in {0, 1}:
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state()["learning_phase"] = value


@contextlib.contextmanager
def learning_phase_scope(value: int) -> Iterator[None]:
    if value not in {0, 1}:
        raise ValueError("Expected learning phase to be 0 or 1.")
    state = _state()
    previous = state["learning_phase"]
    state["learning_phase"] = value
    try:
        yield
    finally:
        state["learning_phase"] = previous


def name_scope(name: str) -> Any:
    """`K.name_scope(name)`: a graph name scope (a trailing '/' re-enters exactly)."""
    return _v1_name_scope(name)


# -- tensors and variables ---------------------------------------------------------------------

def _dtype(dtype: Any) -> D.DType:
    return D.as_dtype(dtype if dtype is not None else floatx())


def placeholder(shape: Any = None, ndim: Optional[int] = None, dtype: Any = None,
                sparse: bool = False, name: Optional[str] = None, ragged: bool = False) -> Tensor:
    """A graph placeholder (`shape` may contain None; `ndim` gives an all-None shape)."""
    from tf1compat.ops.array_ops import sparse_placeholder
    from tf1compat.ops.array_ops import placeholder as _placeholder
    if ragged:
        raise NotImplementedError("K.placeholder(ragged=True) is not supported by tf1compat")
    dtype = _dtype(dtype)
    if not shape and ndim:
        shape = (None,) * ndim
    if sparse:
        return sparse_placeholder(dtype, shape=shape, name=name)
    return _placeholder(dtype, shape=shape, name=name)


def is_placeholder(x: Any) -> bool:
    return isinstance(x, Tensor) and x.op.type == "Placeholder"


def is_keras_tensor(x: Any) -> bool:
    from tf1compat.keras.engine.node import keras_history
    if not isinstance(x, Tensor):
        raise ValueError("Unexpectedly found an instance of type `" + str(type(x)) +
                         "`. Expected a symbolic tensor instance.")
    return keras_history(x) is not None


def is_sparse(tensor: Any) -> bool:
    from tf1compat.framework.sparse_tensor import SparseTensor
    return isinstance(tensor, SparseTensor)


def variable(value: Any, dtype: Any = None, name: Optional[str] = None,
             constraint: Any = None) -> Any:
    """A (resource) variable holding `value`, tracked for `get_session()` initialization."""
    from tf1compat.variables.variables import Variable
    dtype = _dtype(dtype)
    v = Variable(np.asarray(value, dtype=dtype.as_numpy_dtype) if not isinstance(value, Tensor)
                 else value, dtype=dtype, name=name, constraint=constraint, use_resource=True)
    track_variable(v)
    return v


def constant(value: Any, dtype: Any = None, shape: Any = None, name: Optional[str] = None
             ) -> Tensor:
    return _tf_constant(value, dtype=_dtype(dtype), shape=shape, name=name)


def zeros(shape: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    from tf1compat.ops.creation_ops import zeros as _zeros
    return variable(np.zeros(shape), dtype, name) if _is_static_shape(shape) \
        else _zeros(shape, dtype=_dtype(dtype), name=name)


def ones(shape: Any, dtype: Any = None, name: Optional[str] = None) -> Any:
    from tf1compat.ops.creation_ops import ones as _ones
    return variable(np.ones(shape), dtype, name) if _is_static_shape(shape) \
        else _ones(shape, dtype=_dtype(dtype), name=name)


def eye(size: int, dtype: Any = None, name: Optional[str] = None) -> Any:
    return variable(np.eye(size), dtype, name)


def _is_static_shape(shape: Any) -> bool:
    return not isinstance(shape, Tensor) and builtins.all(isinstance(d, (int, np.integer))
                                                 for d in (shape if isinstance(shape, (
                                                     list, tuple)) else [shape]))


def zeros_like(x: Any, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    from tf1compat.ops.creation_ops import zeros_like as _zeros_like
    return _zeros_like(x, dtype=dtype, name=name)


def ones_like(x: Any, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    from tf1compat.ops.creation_ops import ones_like as _ones_like
    return _ones_like(x, dtype=dtype, name=name)


def int_shape(x: Any) -> Optional[tuple]:
    """The static shape as a tuple of ints/None (None for unknown rank)."""
    try:
        shape = x.shape
        if not isinstance(shape, tuple):
            shape = tuple(TensorShape(shape).as_list())
        return shape
    except ValueError:
        return None


def shape(x: Any) -> Tensor:
    from tf1compat.ops.array_ops import shape as _shape
    return _shape(x)


def ndim(x: Any) -> Optional[int]:
    return x.shape.rank


def dtype(x: Any) -> str:
    return x.dtype.base_dtype.name


def cast(x: Any, dtype: Any) -> Tensor:
    from tf1compat.ops.math_ops import cast as _cast
    return _cast(x, dtype)


def eval(x: Any) -> np.ndarray:  # noqa: A001 - Keras' name
    return get_value(x)


def get_value(x: Any) -> Any:
    """The value of a tensor or variable (other values are returned as they are)."""
    from tf1compat.variables.variables import Variable
    if not isinstance(x, (Tensor, Variable)):
        return x
    if getattr(x, "_is_eager_tensor", False) or getattr(x, "_in_graph_mode", True) is False:
        return x.numpy()
    # In x's graph (TF's `with x.graph.as_default()`): a model's optimizer config read
    # while another graph is the default (model_to_estimator's first checkpoint).
    with x.graph.as_default():
        return get_session((x,)).run(x)


def batch_get_value(tensors: Sequence[Any]) -> List[np.ndarray]:
    """The values of tensors/variables (eager ones read directly)."""
    from tf1compat.framework.context import executing_eagerly
    if not tensors:
        return []
    if executing_eagerly():
        return [get_value(t) for t in tensors]
    return get_session(tensors).run(list(tensors))


def set_value(x: Any, value: Any) -> None:
    batch_set_value([(x, value)])


def batch_set_value(tuples: Sequence[Any]) -> None:
    """Loads values into variables through cached assign placeholders (`K.batch_set_value`)."""
    from tf1compat.ops.array_ops import placeholder as _placeholder
    if not tuples:
        return
    from tf1compat.eager.context import executing_eagerly
    if executing_eagerly():
        # Eager variables take their values directly (TF's eager path, no placeholders).
        for x, value in tuples:
            x.assign(np.asarray(value, dtype=x.dtype.base_dtype.as_numpy_dtype))
        return
    ops, feed = [], {}
    for x, value in tuples:
        value = np.asarray(value, dtype=x.dtype.base_dtype.as_numpy_dtype)
        assign = getattr(x, "_keras_assign", None)
        if assign is None:
            with x.graph.as_default():
                ph = _placeholder(x.dtype.base_dtype, shape=value.shape)
                assign = (x.assign(ph), ph)
            x._keras_assign = assign
        ops.append(assign[0])
        feed[assign[1]] = value
    get_session().run(ops, feed_dict=feed)


def count_params(x: Any) -> Any:
    return np.prod(x.shape.as_list())


class GraphExecutionFunction:
    """`K.function(inputs, outputs, updates)` in graph mode: one Session callable per feed
    signature that fetches `outputs` (+ `fetches`) and runs `updates` after `outputs[0]`.

    Values fed for numpy inputs are converted to each placeholder's dtype first (float64
    data trains a float32 model in float32, as tf-keras); None values are left unfed
    (placeholder defaults apply); tensors passed as values are fed by value. Extra
    `fetches` run with every call and each has an optional `fetch_callbacks[fetch](value)`.
    """

    def __init__(self, inputs: Sequence[Any], outputs: Any, updates: Any = None,
                 name: Optional[str] = None, **session_kwargs: Any):
        from tf1compat.util import nest
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.array_ops import identity
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.state_ops import assign
        updates = updates or []
        if not isinstance(updates, (list, tuple)):
            raise TypeError("`updates` in a TF-Keras backend function should be a list or "
                            "tuple.")
        self.inputs = nest.flatten(inputs)
        self._outputs_structure = outputs
        self.outputs = nest.flatten(outputs)
        with control_dependencies([self.outputs[0]] if self.outputs else []):
            ops = [assign(u[0], u[1]) if isinstance(u, tuple) else u for u in updates]
            self.updates_op = group(*ops)
        self.name = name
        self.feed_dict = session_kwargs.pop("feed_dict", None)
        fetches = session_kwargs.pop("fetches", [])
        self.fetches = [identity(x) for x in (fetches if isinstance(fetches, list)
                                              else [fetches])]
        self.run_options = session_kwargs.pop("options", None)
        self.run_metadata = session_kwargs.pop("run_metadata", None)
        if session_kwargs:
            raise ValueError("Some keys in session_kwargs are not supported at this time: "
                             f"{session_kwargs.keys()}")
        self.fetch_callbacks: Dict[Any, Any] = {}
        self._callable: Any = None
        self._signature: Any = None

    def __call__(self, inputs: Any) -> Any:
        from tf1compat.util import nest
        inputs = nest.flatten(inputs)
        session = get_session(inputs)
        feed_tensors, values, symbols = [], [], []
        for tensor, value in zip(self.inputs, inputs):
            if value is None:
                continue
            if isinstance(value, Tensor):
                symbols.append((tensor, value))
                continue
            feed_tensors.append(tensor)
            values.append(np.asarray(value, dtype=tensor.dtype.base_dtype.as_numpy_dtype))
        if symbols:
            # A tensor fed as a value: evaluate it in this session first (TF connects it
            # inside the callable; the result is the same).
            evaluated = session.run([v for _, v in symbols])
            for (tensor, _), value in zip(symbols, evaluated):
                feed_tensors.append(tensor)
                values.append(np.asarray(value, dtype=tensor.dtype.base_dtype.as_numpy_dtype))
        if self.feed_dict:
            for key in sorted(self.feed_dict, key=lambda t: t.name):
                feed_tensors.append(key)
                values.append(np.asarray(self.feed_dict[key],
                                         dtype=key.dtype.base_dtype.as_numpy_dtype))
        signature = (tuple(id(t) for t in feed_tensors), tuple(id(f) for f in self.fetches),
                     id(session))
        if self._callable is None or signature != self._signature:
            self._callable = session.make_callable(
                self.outputs + self.fetches + [self.updates_op], feed_tensors,
                _check_shapes=False)
            self._signature = signature
            self._fetched = list(self.fetches)
        fetched = self._callable(*values)
        n = len(self.outputs)
        for fetch, value in zip(self._fetched, fetched[n:n + len(self._fetched)]):
            callback = self.fetch_callbacks.get(fetch)
            if callback is not None:
                callback(value)
        return nest.pack_sequence_as(self._outputs_structure, fetched[:n])


def function(inputs: Sequence[Any], outputs: Any, updates: Any = None,
             name: Optional[str] = None, **kwargs: Any) -> Any:
    """`K.function`: a callable from input values to output values (graph mode: a
    GraphExecutionFunction; under eager execution: a Model over the Keras tensors)."""
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        if kwargs:
            raise ValueError("Session keyword arguments are not supported during eager "
                             f"execution. You passed: {kwargs}")
        if updates:
            raise ValueError("`updates` argument is not supported during eager execution. "
                             f"You passed: {updates}")
        return _eager_function(inputs, outputs)
    return GraphExecutionFunction(inputs, outputs, updates=updates, name=name, **kwargs)


def _eager_function(inputs: Sequence[Any], outputs: Any) -> Any:
    from tf1compat.util import nest
    from tf1compat.keras.engine.training import Model
    model = Model(inputs=inputs, outputs=outputs)
    wrap = isinstance(outputs, list) and len(outputs) == 1

    def call(values: Any) -> Any:
        out = model(values)
        if wrap:
            out = [out]
        return nest.map_structure(lambda t: t.numpy(), out)
    return call


def gradients(loss: Any, variables: Any) -> list:
    from tf1compat.autodiff.gradients import gradients as _gradients
    return _gradients(loss, variables, colocate_gradients_with_ops=True)


def stop_gradient(variables: Any) -> Any:
    from tf1compat.ops.array_ops import stop_gradient as _stop
    if isinstance(variables, (list, tuple)):
        return [_stop(v) for v in variables]
    return _stop(variables)
