"""`tf.Session` and `tf.InteractiveSession`: run graphs on torch.

Each session owns a `SessionRuntime`: the variable store (variables live in the session,
so two sessions on one graph hold independent values), per-op resources (random
streams, iterators), device placement and the plan cache. `run` maps the fetch
structure, converts feeds, finds or builds the plan for this (fetches, feed keys, graph
structure) signature, executes its generated function and converts results to numpy.
"""

from __future__ import annotations

import functools

import os
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat import _thread_policy
from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework import errors
from tf1compat.framework import hooks
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.graph import Graph, get_default_graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor, default_session_stack
from tf1compat.runtime import config as _config
from tf1compat.runtime import denormals
from tf1compat.runtime.codegen import compile_plan, failure_for_traceback, op_for_traceback
from tf1compat.runtime.fetch import (FetchHandler, FetchMapper, feed_expansion,
                                     register_session_run_conversion_functions)
from tf1compat.runtime.held_plans import held_layouts
from tf1compat.runtime.hot_plans import HotPlans
from tf1compat.runtime.interpreter import CheckingInterpreter, Interpreter
from tf1compat.runtime.mixed_precision_state import session_autocast
from tf1compat.runtime.placement import Placer, list_local_devices
from tf1compat.runtime.plan import Plan, PlanBuilder, state_key
from tf1compat.runtime.session_options import (PlacementLog, apply_gpu_memory_options,
                                               context_config, visible_gpus)
from tf1compat.runtime.session_state import RunContext, VariableStore, region_gradient_run
from tf1compat.runtime.partition_graphs import write_partition_graphs
from tf1compat.runtime.physical_store import HeldStore, hold
from tf1compat.runtime.step_stats import StepStatsInterpreter, is_traced

__all__ = ["Session", "InteractiveSession", "SessionRuntime", "VariableStore",
           "register_session_run_conversion_functions"]

# TF1COMPAT_INTERPRET=1 runs plans with the interpreter; =check also verifies every op's
# output against its static shape and dtype (the test suite replays goldens this way).
# torch.set_grad_enabled builds a context-manager object per call; the C switch does not.
_set_grad_enabled = getattr(torch._C, "_set_grad_enabled", torch.set_grad_enabled)

_USE_INTERPRETER = os.environ.get("TF1COMPAT_INTERPRET", "") not in ("", "0")
_INTERPRETER_CLASS = CheckingInterpreter if os.environ.get("TF1COMPAT_INTERPRET") == "check" \
    else Interpreter


class CompiledFunction:
    """A region of the graph compiled to Python: `fn(values, S)` or call with values."""

    __slots__ = ("fn", "state", "plan")

    def __init__(self, plan: Plan, state: VariableStore):
        self.plan = plan
        fn = region_gradient_run(state, plan.fn) if plan.state_marks else plan.fn
        self.fn = _recording(fn) if plan.needs_grad else fn
        self.state = state

    def __call__(self, *values: Any) -> tuple:
        return self.fn(values, self.state.view())


def _recording(fn: Callable[..., tuple]) -> Callable[..., tuple]:
    """A region holding its own `tf.gradients` (PGD's loop body differentiating the loss
    at the current iterate) records autograd even when the run around it does not: the
    plan of a graph whose only gradient op is inside a loop body or branch has no
    gradient op, so it runs without grad mode. Its results then come back without the
    autograd graph, or each iteration's graph would hang on to the next one's."""
    def run(values: Any, state: Any) -> tuple:
        if torch.is_grad_enabled():
            return fn(values, state)
        _set_grad_enabled(True)
        try:
            out = fn(values, state)
        finally:
            _set_grad_enabled(False)
        return tuple(v.detach() if isinstance(v, torch.Tensor) and v.requires_grad else v
                     for v in out)
    return run


class SessionRuntime:
    """A session's run-time state: variables, resources, placement, plans.

    Shared by every thread running the session: resources and compiled functions are
    created under `build_lock` (so concurrent first runs create one queue, one random
    stream), variables are guarded as `session_state.VariableStore` describes.
    """

    def __init__(self, graph: Graph, config: Any = None):
        self.graph = graph
        self.state = VariableStore()
        self.resources: Dict[Any, Any] = {}
        self.build_lock = threading.RLock()
        self.run_context = RunContext()
        _, soft = _config.device_settings(config)
        gpus = visible_gpus(config)
        apply_gpu_memory_options(config, gpus)
        self.placer = Placer(gpus, soft)
        self.builder = PlanBuilder(self)
        self._functions: Dict[Any, CompiledFunction] = {}
        self.session: Any = None

    def op_resource(self, op: Any, factory: Callable[[], Any]) -> Any:
        """The session's resource for `op` (or any hashable key), created once."""
        try:
            return self.resources[op]
        except KeyError:
            pass
        with self.build_lock:
            if op not in self.resources:
                self.resources[op] = factory()
            return self.resources[op]

    def run_deadline(self) -> Optional[float]:
        """When the calling thread's run times out (`time.monotonic()`), or None."""
        return self.run_context.deadline()

    def compile_function(self, inputs: List[Tensor], outputs: List[Tensor],
                         context: Any) -> CompiledFunction:
        key = (tuple(inputs), tuple(outputs), context, self.graph._structure_version)
        fn = self._functions.get(key)
        if fn is None:
            with self.build_lock:
                fn = self._functions.get(key)
                if fn is None:
                    plan = self.builder.build(outputs, inputs, context=context,
                                              for_function=True)
                    if plan.error is not None:
                        raise plan.error
                    compile_plan(plan, name="region", outer_gradients=True)
                    fn = self._functions[key] = CompiledFunction(plan, self.state)
        return fn


def _to_numpy(value: Any, copy: bool) -> Any:
    if isinstance(value, torch.Tensor):
        if value.dtype in _ML_DTYPE_NAMES:
            arr = _ml_dtypes_numpy(value)
        else:
            arr = value.numpy(force=True)
            if copy and value.device.type == "cpu":
                arr = arr.copy()
        return arr[()] if arr.ndim == 0 else arr
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return value[()]
        return value.copy() if copy else value
    return value


# torch dtypes numpy lacks: TF hands their values back as ml_dtypes arrays.
_ML_DTYPE_NAMES = {getattr(torch, name): name for name in (
    "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz")
    if hasattr(torch, name)}


def _ml_dtypes_numpy(value: torch.Tensor) -> np.ndarray:
    as_float = value.detach().float().cpu().numpy()
    name = _ML_DTYPE_NAMES[value.dtype]
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover - ml_dtypes absent
        if value.dtype == torch.bfloat16:
            return as_float
        raise NotImplementedError(
            f"Fetching {name} values needs the ml_dtypes package (numpy has no {name} "
            "type): pip install ml_dtypes, or tf.cast the tensor to tf.float32 first"
        ) from None
    return as_float.astype(getattr(ml_dtypes, name))


def _feed_to_value(tensor: Tensor, value: Any, device: torch.device,
                   check_shape: bool = True) -> Tuple[Any, Any]:
    """Converts one feed value to the tensor's dtype: (numpy array, run-time value).

    The numpy array is what TF hands back when the fed tensor itself is fetched (TF returns
    `np.asarray(feed, dtype)`, the caller's own array when no conversion was needed).
    """
    dtype = tensor.dtype.base_dtype
    if isinstance(value, Tensor):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed "
                        "values include Python scalars, strings, lists, numpy ndarrays, or "
                        f"TensorHandles. For reference, the tensor object was {value} which "
                        f"was passed to the argument `feed_dict` with key {tensor}.")
    if getattr(value, "_is_eager_tensor", False):
        value = value.numpy()
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    if dtype == _dtypes.string:
        given = np.asarray(value, dtype=object)
        arr = _bytes_array(given)
    else:
        np_dtype = np.float32 if dtype == _dtypes.bfloat16 else dtype.as_numpy_dtype
        if isinstance(value, int) and not isinstance(value, bool):
            if np.array(value).astype(np_dtype) != value:
                raise TypeError(f"Type of feed value {value} with type {type(value)} is not "
                                f"compatible with Tensor type {np_dtype}. Try explicitly "
                                "setting the type of the feed tensor to a larger type (e.g. "
                                "int64).")
        arr = np.asarray(value, dtype=np_dtype)
    if not _shape_ok(tensor.shape._dims, arr.shape):
        if check_shape:
            raise ValueError(f"Cannot feed value of shape {arr.shape} for Tensor "
                             f"{tensor.name}, which has shape {tensor.shape}")
        # The graph's static shapes no longer describe its values (the checking
        # interpreter stops holding kernels to them).
        tensor._op._graph._extras["fed_past_static_shapes"] = True
    if dtype == _dtypes.string:
        # Fetching the fed tensor returns the caller's objects (str stays str), as TF.
        return given, (arr if arr.ndim else arr[()])
    source = arr if arr.flags.writeable and arr.flags.c_contiguous else np.array(arr)
    t = torch.from_numpy(source)
    if t.dtype != dtype.torch_dtype:
        t = t.to(dtype.torch_dtype)
    if device.type != "cpu":
        t = t.to(device, non_blocking=True)
    return arr, t


@functools.lru_cache(maxsize=None)
def _cuda_available() -> bool:
    """torch.cuda.is_available(), asked once: it costs ~1.2 us, and feeds ask per value."""
    return torch.cuda.is_available()


@functools.lru_cache(maxsize=64)
def _names_cpu(device: str) -> bool:
    """Whether a device string names a CPU: the Estimator builds its input pipeline (the
    numpy_input_fn feeder's placeholders) under `/device:CPU:0`."""
    return (DeviceSpec.from_string(device).device_type or "").upper() == "CPU"


def _fast_feed(tensor: Tensor, value: Any) -> Optional[Tuple[Any, Any]]:
    """A numpy array that already has the placeholder's dtype, on a CPU run: no conversion."""
    if type(value) is not np.ndarray or not value.flags.c_contiguous or \
            not value.flags.writeable:
        return None
    dtype = tensor._dtype
    torch_dtype = dtype.torch_dtype
    if torch_dtype is None or value.dtype != _NUMPY_OF_TORCH.get(torch_dtype):
        return None
    device = tensor._op._device
    if _cuda_available() or (device and not _names_cpu(device)):
        return None        # placement may move it: take the general path
    if not _shape_ok(tensor._shape._dims, value.shape):
        return None
    return value, torch.from_numpy(value)


_NUMPY_OF_TORCH = {torch.float32: np.dtype(np.float32), torch.float64: np.dtype(np.float64),
                   torch.int32: np.dtype(np.int32), torch.int64: np.dtype(np.int64),
                   torch.uint8: np.dtype(np.uint8), torch.bool: np.dtype(np.bool_),
                   torch.float16: np.dtype(np.float16), torch.int16: np.dtype(np.int16),
                   torch.int8: np.dtype(np.int8)}


def _shape_ok(static: Optional[tuple], actual: tuple) -> bool:
    """TensorShape.is_compatible_with on the hot feed path, without building objects."""
    if static is None:
        return True
    if len(static) != len(actual):
        return False
    for want, got in zip(static, actual):
        if want is not None and want != got:
            return False
    return True


def _bytes_array(arr: np.ndarray) -> np.ndarray:
    out = np.empty(arr.shape, dtype=object)
    flat = out.reshape(-1)
    for i, v in enumerate(arr.reshape(-1)):
        flat[i] = v.encode("utf-8") if isinstance(v, str) else bytes(v) if isinstance(
            v, (bytes, np.bytes_)) else str(v).encode()
    return out


class BaseSession:
    """Common machinery of Session and InteractiveSession."""

    def __init__(self, target: str = "", graph: Optional[Graph] = None, config: Any = None):
        if graph is None:
            graph = get_default_graph()
        elif not isinstance(graph, Graph):
            raise TypeError(f'Argument `graph` must be a tf.Graph, but got "{type(graph).__name__}"')
        if config is None:
            config = context_config()     # TF: the eager context's config (tf.config)
        if not isinstance(config, _config.ConfigProto):
            raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
        self._graph = graph
        self._target = target
        self._config = config
        self._closed = False
        self._runtime = SessionRuntime(graph, config)
        self._runtime.session = self
        self._placement_log = PlacementLog(config, self._runtime.placer)
        self._plans: Dict[Any, Plan] = {}
        self._default_graph_context_manager: Any = None
        self._default_session_context_manager: Any = None
        self._apply_thread_settings(config)
        self._hot_plans = HotPlans(_jit_enabled(config))
        # A "grpc://" target of a tf.train.Server in this process keeps the ps variables there.
        remote = hooks.SESSION_TARGETS.get(target.split("://")[0]) \
            if isinstance(target, str) and "://" in target else None
        self._remote_variables = remote(self, target) if remote is not None else None
        self._timeout_ms = int(getattr(config, "operation_timeout_in_ms", 0) or 0)
        # enable_mixed_precision_graph_rewrite: float16 autocast on CUDA, fixed at creation
        self._autocast = session_autocast(config, self._runtime.placer.default)

    @staticmethod
    def _apply_thread_settings(config: Any) -> None:
        _thread_policy.apply_session_config(config)

    # -- properties -------------------------------------------------------------------
    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def graph_def(self) -> Any:
        return self._graph.as_graph_def()

    @property
    def sess_str(self) -> str:
        return self._target

    def list_devices(self) -> list:
        out = []
        for d in list_local_devices():
            d.memory_limit_bytes = d.memory_limit
            d.name = "/job:localhost/replica:0/task:0" + d.name
            out.append(d)
        return out

    # -- default-session protocol -----------------------------------------------------------
    def as_default(self) -> Any:
        return _DefaultSessionContext(self)

    def __enter__(self) -> "BaseSession":
        if self._default_graph_context_manager is None:
            self._default_graph_context_manager = self._graph.as_default()
        else:
            raise RuntimeError("Session context managers are not re-entrant. Use "
                               "`Session.as_default()` if you want to enter a session "
                               "multiple times.")
        if self._default_session_context_manager is None:
            self._default_session_context_manager = self.as_default()
        self._default_graph_context_manager.__enter__()
        return self._default_session_context_manager.__enter__()

    def __exit__(self, exec_type: Any, exec_value: Any, exec_tb: Any) -> None:
        try:
            self._default_session_context_manager.__exit__(exec_type, exec_value, exec_tb)
        finally:
            self._default_graph_context_manager.__exit__(exec_type, exec_value, exec_tb)
        self._default_session_context_manager = None
        self._default_graph_context_manager = None
        self.close()

    def close(self) -> None:
        """Frees the session's variables and resources; later runs raise RuntimeError."""
        if not self._closed:
            self._closed = True
            # Resources' close() cancels what blocks on them (queues), so threads running
            # this session wake with CancelledError instead of hanging.
            for resource in list(self._runtime.resources.values()):
                closer = getattr(resource, "close", None)
                if callable(closer):
                    try:
                        closer()
                    except Exception:  # noqa: BLE001 - closing is best effort
                        pass
            self._runtime.state.clear()
            self._runtime.resources.clear()
            self._plans.clear()

    def __del__(self) -> None:
        pass

    # -- running ----------------------------------------------------------------------------
    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Runs the graph to compute `fetches` (any nesting of tensors, ops and names)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        graph = self._graph
        if graph.version == 0:
            raise RuntimeError("The Session graph is empty. Add operations to the graph "
                               "before calling run().")
        if type(fetches) is Tensor and fetches._op._graph is graph:
            elements, mapper = [fetches], None        # the common single-tensor fast path
        else:
            mapper = FetchMapper.for_fetch(fetches, graph)
            elements = mapper.unique_fetches()
        if graph._unfetchable:
            for e in elements:
                if not graph.is_fetchable(e):
                    raise errors.InaccessibleTensorError(
                        f"Operation {getattr(e, 'op', e).name} has been marked as not "
                        "fetchable. Typically this happens when it is defined in another "
                        "function or code block. Use return values, explicit Python locals "
                        "or TensorFlow collections to access it.")
        feed_tensors, feed_values = self._process_feeds(feed_dict)
        if options is not None or run_metadata is not None or self._timeout_ms:
            values = self._execute_with_options(elements, feed_tensors, feed_values, options,
                                                run_metadata)
        else:
            values = self._execute(elements, feed_tensors, feed_values)
        return values[0] if mapper is None else mapper.build_results(values)

    def _execute_with_options(self, elements: Sequence[Any], feed_tensors: Sequence[Tensor],
                              feeds: Sequence[Tuple[Any, Any]], options: Any,
                              run_metadata: Any = None) -> List[Any]:
        """`_execute` under the run's deadline: `RunOptions.timeout_in_ms`, else the
        config's `operation_timeout_in_ms` (blocking kernels then raise
        DeadlineExceededError, as TF). `run_metadata` is rewritten by every run, as TF's:
        a traced run (`trace_level` above NO_TRACE) records its step statistics into
        `run_metadata.step_stats` (runtime/step_stats.py), `output_partition_graphs` the
        graphs run (runtime/partition_graphs.py)."""
        if run_metadata is not None:
            run_metadata.Clear()
        trace = run_metadata.step_stats if is_traced(options, run_metadata) else None
        timeout_ms = getattr(options, "timeout_in_ms", 0) or self._timeout_ms
        if timeout_ms <= 0:
            values = self._execute(elements, feed_tensors, feeds, trace)
        else:
            context = self._runtime.run_context
            previous = context.set_deadline(timeout_ms)
            try:
                values = self._execute(elements, feed_tensors, feeds, trace)
            finally:
                context.restore(previous)
        if run_metadata is not None and getattr(options, "output_partition_graphs", False):
            placer = self._runtime.placer
            write_partition_graphs(self._plan_for(elements, feed_tensors), feed_tensors,
                                   elements, lambda op: placer.tf_device_name(
                                       placer.device_for(op)), run_metadata)
        return values

    def _process_feeds(self, feed_dict: Any) -> Tuple[List[Tensor], List[Any]]:
        if not feed_dict:
            return [], []
        graph = self._graph
        pairs: Dict[Tensor, Any] = {}
        for key, value in feed_dict.items():
            if type(key) is Tensor and key._op._graph is graph and not graph._unfeedable:
                pairs[key] = value                    # the common case, no lookups
                continue
            for subkey, subvalue in feed_expansion(key, value):
                try:
                    tensor = graph.as_graph_element(subkey, allow_tensor=True,
                                                    allow_operation=False)
                except TypeError as e:
                    raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e}") from None
                except (ValueError, KeyError) as e:
                    raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e}") from None
                if not graph.is_feedable(tensor):
                    raise ValueError(f"Tensor {tensor.name} may not be fed.")
                pairs[tensor] = subvalue
        if len(pairs) == 1:
            tensors = list(pairs)
        else:
            tensors = sorted(pairs, key=lambda t: (t._op._id, t._value_index))
        placer = self._runtime.placer
        values = []
        for t in tensors:
            value = pairs[t]
            fast = _fast_feed(t, value)
            values.append(fast if fast is not None else
                          _feed_to_value(t, value, placer.device_for(t._op)))
        return tensors, values

    def _plan_for(self, elements: Sequence[Any], feed_tensors: Sequence[Tensor]) -> Plan:
        key = (tuple(elements), tuple(feed_tensors), self._graph._structure_version)
        plan = self._plans.get(key)
        if plan is None:
            # One thread builds a signature's plan (kernel factories create per-session
            # resources); others starting the same run meanwhile wait for it.
            with self._runtime.build_lock:
                plan = self._plans.get(key)
                if plan is None:
                    plan = self._runtime.builder.build(elements, feed_tensors)
                    if plan.error is None:
                        plan.held_keys = held_layouts(plan)
                        compile_plan(plan)
                        self._hot_plans.track(plan)
                    self._plans[key] = plan
        return plan

    def plan_source(self, fetches: Any, feed_list: Sequence[Any] = ()) -> str:
        """The Python code `run(fetches, feed_dict)` executes when `feed_list` are the
        fed tensors (a tf1compat debugging aid, not a TF API): one line per op, values
        named after tensors, kernels after op types (see runtime/codegen.py).
        `TF1COMPAT_SHOW_PLAN=1` prints every plan as it is compiled."""
        graph = self._graph
        elements = FetchMapper.for_fetch(fetches, graph).unique_fetches()
        feeds = [graph.as_graph_element(f, allow_tensor=True, allow_operation=False)
                 for f in feed_list]
        feeds = sorted(feeds, key=lambda t: (t._op._id, t._value_index)) if len(feeds) > 1 \
            else feeds
        plan = self._plan_for(elements, feeds)
        if plan.error is not None:
            raise plan.error
        return plan.source

    def _execute(self, elements: Sequence[Any], feed_tensors: Sequence[Tensor],
                 feeds: Sequence[Tuple[Any, Any]], trace: Any = None) -> List[Any]:
        if self._placement_log.enabled:
            self._placement_log.maybe_log(self._graph)
        plan = self._plan_for(elements, feed_tensors)
        feed_values = [value for _, value in feeds]
        if plan.error is not None:
            raise plan.error
        state = self._runtime.state
        if plan.held_keys is not None:
            hold(state, plan.held_keys)
        elif type(state) is HeldStore:
            state.release_all()      # another plan: the variables in TF's layout
        previous = torch.is_grad_enabled()
        _set_grad_enabled(plan.needs_grad)
        store = state.begin_run(plan.state_marks)
        flushing = denormals.enter()
        pulled = None
        try:
            if self._remote_variables is not None:
                pulled = self._remote_variables.before_run(state, plan)
            if self._autocast is not None:
                raw = self._run_autocast(plan, feed_values, store, elements)
            elif trace is not None:
                raw = StepStatsInterpreter(plan, trace, self._runtime.placer.tf_device_name
                                           ).run(feed_values, store)
            elif _USE_INTERPRETER:
                raw = _INTERPRETER_CLASS(plan).run(feed_values, store)
            else:
                raw = plan.fn(feed_values, store)
            if pulled is not None:
                pushing, pulled = pulled, None
                self._remote_variables.after_run(state, pushing)
        except errors.OpError as e:
            raise self._closed_error(e) or _with_op(e, _failing_op(e)) from None
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except Exception as e:  # noqa: BLE001 - mapped to TF's error classes
            raise self._closed_error(e) or _map_exception(e) from e
        finally:
            if pulled is not None:      # the run failed before pushing
                self._remote_variables.abandon_run(state, pulled)
            if flushing:
                denormals.leave()
            state.end_run(store)
            _set_grad_enabled(previous)
        results = [_to_numpy(v, c) for v, c in zip(raw, plan.fetch_copies)]
        if feeds:
            # A fetched fed tensor comes back as the fed numpy array itself, as in TF.
            fed = {t: arr for t, (arr, _) in zip(feed_tensors, feeds)}
            for i, e in enumerate(elements):
                if e in fed:
                    results[i] = fed[e]
        wrappers = plan.fetch_wrappers
        if wrappers is None:     # once per plan: most plans fetch nothing wrapped
            table = hooks.FETCHED_VALUES
            wrappers = plan.fetch_wrappers = [
                (i, table[e._op.type]) for i, e in enumerate(elements)
                if type(e) is Tensor and e._op.type in table]
        for i, wrap in wrappers:
            results[i] = wrap(results[i], elements[i], self)
        return results

    def _run_autocast(self, plan: Plan, feed_values: List[Any], store: Any,
                      elements: Sequence[Any]) -> List[Any]:
        """Runs `plan` under the mixed-precision autocast; fetched tensors are cast back
        to their declared dtypes, as TF's rewrite keeps the graph's outputs."""
        state = self._runtime.state
        before = {k: v.dtype for k, v in dict.items(state) if isinstance(v, torch.Tensor)}
        with self._autocast():
            raw = list(plan.fn(feed_values, store))
        # Variables keep their dtypes (TF's rewrite casts before writing them).
        for key, value in list(dict.items(state)):
            if isinstance(value, torch.Tensor) and \
                    value.dtype in (torch.float16, torch.bfloat16):
                declared = before.get(key) or self._declared_variable_dtype(key)
                if declared is not None and declared != value.dtype:
                    state[key] = value.to(declared)
        for i, element in enumerate(elements):
            value = raw[i]
            if type(element) is Tensor and isinstance(value, torch.Tensor) and \
                    value.dtype in (torch.float16, torch.bfloat16):
                declared = element.dtype.torch_dtype
                if declared is not None and declared != value.dtype:
                    raw[i] = value.to(declared)
        return raw

    def _declared_variable_dtype(self, key: str) -> Optional[torch.dtype]:
        """The torch dtype of the variable op named `key` (None when there is none)."""
        try:
            dtype = self._graph.get_operation_by_name(key).get_attr("dtype")
        except (KeyError, ValueError):
            return None
        return getattr(dtype, "torch_dtype", None)

    def _direct_run_error(self, e: errors.OpError, op: Operation) -> errors.OpError:
        """What a run raises when `op`'s kernel fails with `e`: for callers that run a
        kernel's work themselves (the numpy_input_fn feeder's enqueue, feeding.py)."""
        return self._closed_error(e) or _with_op(e, op)

    def _runs_plainly(self) -> bool:
        """Whether a run does nothing around its kernels but call them: no run timeout,
        remote variables, autocast or GPU (a caller may then skip the plan)."""
        return not (self._timeout_ms or self._remote_variables is not None or
                    self._autocast is not None or _cuda_available())

    def _closed_error(self, e: Exception) -> Optional[errors.OpError]:
        """A run the session's `close()` cut short fails with TF's CancelledError,
        whatever the interrupted kernel saw (its queue cancelled, its variable gone)."""
        if not self._closed or isinstance(e, errors.CancelledError):
            return None
        return errors.CancelledError(None, None, "Session has been closed.")

    def make_callable(self, fetches: Any, feed_list: Optional[Sequence[Any]] = None,
                      accept_options: bool = False, _check_shapes: bool = True
                      ) -> Callable[..., Any]:
        """A function that runs `fetches` with positional feed values for `feed_list`.

        `_check_shapes=False` is TF's `_make_callable_from_options` path that tf-keras runs
        its v1 training functions through: fed values are not held against the feeds'
        static shapes (a sparse label of shape [batch, time] fills a custom loss's target
        placeholder of shape [?, ?, ?])."""
        graph = self._graph
        mapper = FetchMapper.for_fetch(fetches, graph)
        elements = mapper.unique_fetches()
        feed_tensors = [graph.as_graph_element(f, allow_tensor=True, allow_operation=False)
                        for f in (feed_list or [])]
        order = sorted(range(len(feed_tensors)),
                       key=lambda i: (feed_tensors[i]._op._id, feed_tensors[i]._value_index))
        sorted_tensors = [feed_tensors[i] for i in order]
        placer = self._runtime.placer

        def call(*args: Any, **kwargs: Any) -> Any:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            if len(args) != len(feed_tensors):
                # As TF's callable: the values pair with the feeds in order (zip), so
                # extra values are ignored and feeds left without one stay unfed (an
                # unfed placeholder is InvalidArgumentError).
                return self.run(fetches, feed_dict=dict(zip(feed_tensors, args)))
            values = [_fast_feed(sorted_tensors[k], args[i]) or
                      _feed_to_value(sorted_tensors[k], args[i],
                                     placer.device_for(sorted_tensors[k]._op), _check_shapes)
                      for k, i in enumerate(order)]
            options = kwargs.get("options") if accept_options else None
            if options is not None or self._timeout_ms:
                raw = self._execute_with_options(elements, sorted_tensors, values, options,
                                                 kwargs.get("run_metadata"))
            else:
                raw = self._execute(elements, sorted_tensors, values)
            return mapper.build_results(raw)
        return call

    def partial_run_setup(self, fetches: Any, feeds: Any = None) -> Any:
        raise NotImplementedError("Session.partial_run_setup is not supported by tf1compat; "
                                  "run the fetches with Session.run instead.")

    def partial_run(self, handle: Any, fetches: Any, feed_dict: Any = None) -> Any:
        raise NotImplementedError("Session.partial_run is not supported by tf1compat; run the "
                                  "fetches with Session.run instead.")

    @staticmethod
    def reset(target: str, containers: Any = None, config: Any = None) -> None:
        """Distributed-session reset: nothing to do for in-process sessions."""


def _with_op(e: errors.OpError, op: Optional[Operation]) -> errors.OpError:
    if e.op is not None:
        return e
    if op is None:
        # No op to blame (e.g. an uninitialized variable fetched directly, which TF reports
        # at its `_retval` node): TF's Session still starts every run-time error message
        # with its "Graph execution error:" header.
        if e.message.startswith("Graph execution error:"):
            return e
        new = type(e)(None, None, f"Graph execution error:\n\n{e.message}")
        for attr in ("_variable_key",):
            if hasattr(e, attr):
                setattr(new, attr, getattr(e, attr))
        return new
    key = getattr(e, "_variable_key", None)
    if key is not None:
        for t in op._inputs:
            if state_key(t) == key:
                op = t._op
                break
    message = e.message
    new = type(e)(None, op, errors.graph_execution_message(op, message))
    return new


def _failing_op(e: BaseException) -> Optional[Operation]:
    return getattr(e, "_tf1compat_op", None) or op_for_traceback(e.__traceback__)


def _map_exception(e: Exception) -> errors.OpError:
    """A kernel's Python exception as TF's OpError naming the failing op; where the op
    declares `kernel_error` and its inputs can be seen again, with TF's own message."""
    op = getattr(e, "_tf1compat_op", None)
    args = getattr(e, "_tf1compat_args", None)
    if op is None:
        op, args = failure_for_traceback(e.__traceback__)
    cls, text = errors.from_python_exception(e)
    if cls is errors.InvalidArgumentError and op is not None and args is not None:
        text = errors.kernel_error_message(op._op_def, op, args) or text
    return errors.op_error(cls, op, text)


class _DefaultSessionContext:
    def __init__(self, session: BaseSession):
        self._session = session
        self.enforce_nesting = True

    def __enter__(self) -> BaseSession:
        default_session_stack.append(self._session)
        return self._session

    def __exit__(self, *exc: Any) -> None:
        stack = default_session_stack
        if stack and stack[-1] is self._session:
            stack.pop()
        elif self._session in stack:
            stack.remove(self._session)


class Session(BaseSession):
    """`tf.Session(target='', graph=None, config=None)`."""


class InteractiveSession(BaseSession):
    """A session that installs itself as the default session (and its graph as default)."""

    _active_count = 0
    _count_lock = threading.Lock()

    def __init__(self, target: str = "", graph: Optional[Graph] = None, config: Any = None):
        from tf1compat.util import tf_logging
        super().__init__(target, graph, config)
        with InteractiveSession._count_lock:
            # TF logs (does not raise) when notebooks open a second one without closing.
            if InteractiveSession._active_count > 0:
                tf_logging.error(
                    "An interactive session is already active. This can cause out-of-memory "
                    "errors or some other unexpected errors (due to the unpredictable timing "
                    "of garbage collection) in some cases. You must explicitly call "
                    "`InteractiveSession.close()` to release resources held by the other "
                    "session(s). Please use `tf.Session()` if you intend to productionize.")
            InteractiveSession._active_count += 1
        self._explicitly_closed = False
        self._default_session = self.as_default()
        self._default_session.__enter__()
        self._explicit_graph = graph
        self._graph_ctx = None
        if graph is not None:
            self._graph_ctx = graph.as_default()
            self._graph_ctx.__enter__()

    def close(self) -> None:
        super().close()
        with InteractiveSession._count_lock:
            if self._explicitly_closed:
                return
            InteractiveSession._active_count -= 1
            self._explicitly_closed = True
        if self._default_session is not None:
            self._default_session.__exit__(None, None, None)
            self._default_session = None
        if self._graph_ctx is not None:
            self._graph_ctx.__exit__(None, None, None)
            self._graph_ctx = None


def _jit_enabled(config: Any) -> bool:
    if config is None:
        return False
    level = config.graph_options.optimizer_options.global_jit_level
    return level in (_config.OptimizerOptions.ON_1, _config.OptimizerOptions.ON_2)


# TF's private name (tensorflow.python.client.session._FetchHandler), which libraries
# import to split fetches as Session.run does.
_FetchHandler = FetchHandler
