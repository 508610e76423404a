"""The rest of `tf.test`: benchmarks, stubbing, graph comparison, build queries.

* `Benchmark.run_op_benchmark` runs an op `burn_iters` times, then times `min_iters`
  runs and reports their median wall time (and mean/stdev) as TF's does;
  `report_benchmark` logs TF's "Benchmark [name] iters: ..." line (TF also writes a
  BenchmarkEntries proto when TEST_REPORT_FILE_PREFIX is set; tf1compat only logs).
* `assert_equal_graph_def` compares two GraphDefs as TF's checker does: the same node
  names, and per node the op, device, attrs, data inputs in order and control inputs as
  a set; an AssertionError names the first difference.
* `StubOutForTesting` (googletest's): replace attributes, restore them with `UnsetAll`.
"""

from __future__ import annotations

import inspect
import math
import time
import unittest.mock
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.util import tf_logging

__all__ = ["Benchmark", "benchmark_config", "StubOutForTesting", "mock",
           "assert_equal_graph_def", "disable_with_predicate", "with_eager_op_as_function",
           "is_built_with_rocm", "is_built_with_xla", "is_cpu_target_available",
           "experimental"]

mock = unittest.mock


def is_built_with_rocm() -> bool:
    """Whether torch is a ROCm (AMD GPU) build."""
    import torch
    return getattr(torch.version, "hip", None) is not None


def is_built_with_xla() -> bool:
    """tf1compat has no XLA (its JIT is torch.compile)."""
    return False


def is_cpu_target_available(cpu_target: str) -> bool:
    """Whether XLA can compile for `cpu_target`: never, without XLA."""
    del cpu_target
    return False


def benchmark_config() -> Any:
    """The ConfigProto TF's benchmarks run with (no dependency optimization)."""
    from tf1compat.runtime.config import ConfigProto
    config = ConfigProto()
    config.graph_options.rewrite_options.dependency_optimization = 2  # RewriterConfig.OFF
    return config


def _report(name: str, iters: Optional[int] = None, cpu_time: Optional[float] = None,
            wall_time: Optional[float] = None, throughput: Optional[float] = None,
            extras: Optional[dict] = None, metrics: Optional[list] = None) -> None:
    if extras is not None and not isinstance(extras, dict):
        raise TypeError("extras must be a dict")
    tf_logging.info("Benchmark [%s] iters: %d, wall_time: %g, cpu_time: %g,"
                    "throughput: %g, extras: %s, metrics: %s", name,
                    iters if iters is not None else -1,
                    wall_time if wall_time is not None else -1,
                    cpu_time if cpu_time is not None else -1,
                    throughput if throughput is not None else -1,
                    str(extras) if extras else "None", str(metrics) if metrics else "None")


class Benchmark:
    """`tf.test.Benchmark`: subclass it and write `benchmark*` methods."""

    @classmethod
    def is_abstract(cls) -> bool:
        return len(cls.mro()) <= 2

    def _caller_name(self) -> str:
        for frame in inspect.stack()[2:]:
            if frame.function.startswith("benchmark"):
                return f"{type(self).__name__}.{frame.function}"
        return type(self).__name__

    def report_benchmark(self, iters: Optional[int] = None, cpu_time: Optional[float] = None,
                         wall_time: Optional[float] = None,
                         throughput: Optional[float] = None, extras: Optional[dict] = None,
                         name: Optional[str] = None, metrics: Optional[list] = None) -> None:
        """Logs one benchmark result (named after the calling benchmark method)."""
        name = name or self._caller_name()
        _report(name, iters, cpu_time, wall_time, throughput, extras, metrics)

    def run_op_benchmark(self, sess: Any, op_or_tensor: Any, feed_dict: Any = None,
                         burn_iters: int = 2, min_iters: int = 10, store_trace: bool = False,
                         store_memory_usage: bool = True, name: Optional[str] = None,
                         extras: Optional[dict] = None, mbs: int = 0) -> Dict[str, Any]:
        """Times `min_iters` runs after `burn_iters` warm-up runs; returns what it reports."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas: List[float] = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        extras = dict(extras) if extras is not None else {}
        median = _median(deltas)
        mean, stdev = _mean_and_stdev(deltas)
        values: Dict[str, Any] = {"iters": min_iters, "wall_time": median, "extras": extras,
                                  "name": name or self._caller_name(),
                                  "metrics": [{"name": "wall_time_mean", "value": mean},
                                              {"name": "wall_time_stdev", "value": stdev}]}
        if mbs > 0:
            values["throughput"] = mbs / median
        _report(**values)
        return values

    def evaluate(self, tensors: Any) -> Any:
        """The values of `tensors` in the default session."""
        from tf1compat.framework.tensor import get_default_session
        sess = get_default_session()
        if sess is None:
            raise ValueError("Benchmark.evaluate needs a default session "
                             "(`with sess.as_default():`)")
        return sess.run(tensors)


def _median(x: List[float]) -> float:
    if not x:
        return -1
    s = sorted(x)
    return (s[len(x) // 2] + s[(len(x) - 1) // 2]) / 2.0


def _mean_and_stdev(x: List[float]) -> Tuple[float, float]:
    if not x:
        return -1, -1
    mean = sum(x) / len(x)
    if len(x) == 1:
        return mean, -1
    variance = sum((e - mean) * (e - mean) for e in x) / (len(x) - 1)
    return mean, math.sqrt(variance)


class StubOutForTesting:
    """Replaces attributes for a test and puts them back (googletest's helper)."""

    def __init__(self) -> None:
        self.cache: List[Tuple[Any, Any, str]] = []
        self.stubs: List[Tuple[Any, str, Any]] = []

    def __enter__(self) -> "StubOutForTesting":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.CleanUp()

    def CleanUp(self) -> None:  # noqa: N802 - googletest's names
        self.SmartUnsetAll()
        self.UnsetAll()

    def SmartSet(self, obj: Any, attr_name: str, new_attr: Any) -> None:  # noqa: N802
        """Sets `obj.attr_name`, remembering where the old value lived (class or object)."""
        if inspect.ismodule(obj) or (not inspect.isclass(obj) and attr_name in obj.__dict__):
            orig_obj, orig_attr = obj, getattr(obj, attr_name)
        else:
            if not inspect.isclass(obj):
                mro = list(inspect.getmro(obj.__class__))
            else:
                mro = list(inspect.getmro(obj))
            mro.reverse()
            orig_attr = None
            found = False
            for cls in mro:
                try:
                    orig_obj = cls
                    orig_attr = getattr(obj, attr_name)
                    found = True
                except AttributeError:
                    continue
            if not found:
                raise AttributeError(f"Attribute not found: {attr_name}")
        if isinstance(inspect.getattr_static(orig_obj, attr_name, None), staticmethod):
            orig_attr = staticmethod(orig_attr)
        self.cache.append((orig_obj, orig_attr, attr_name))
        setattr(orig_obj, attr_name, new_attr)

    def SmartUnsetAll(self) -> None:  # noqa: N802
        for obj, attr, name in reversed(self.cache):
            setattr(obj, name, attr)
        self.cache = []

    def Set(self, parent: Any, child_name: str, new_child: Any) -> None:  # noqa: N802
        """Sets `parent.child_name` (kept as a staticmethod if it was one)."""
        old_child = getattr(parent, child_name)
        old_attribute = parent.__dict__.get(child_name)
        if old_attribute is not None and isinstance(old_attribute, staticmethod):
            old_child = staticmethod(old_child)
        self.stubs.append((parent, child_name, old_child))
        setattr(parent, child_name, new_child)

    def UnsetAll(self) -> None:  # noqa: N802
        for parent, child_name, old_child in reversed(self.stubs):
            setattr(parent, child_name, old_child)
        self.stubs = []


def _node_key(node: Any) -> tuple:
    inputs = [i for i in node.input if not i.startswith("^")]
    controls = sorted(i for i in node.input if i.startswith("^"))
    return node.op, node.device, inputs, controls


def _attr_text(value: Any) -> str:
    return str(value)


def assert_equal_graph_def(actual: Any, expected: Any, checkpoint_v2: bool = False,
                           hash_table_shared_name: bool = False) -> None:
    """AssertionError naming the first difference between two GraphDefs (node order is
    ignored; control inputs compare as sets)."""
    from tf1compat.serialization.messages import GraphDef
    for arg, what in ((actual, "actual"), (expected, "expected")):
        if not isinstance(arg, GraphDef) and not hasattr(arg, "node"):
            raise TypeError(f"Expected tf.GraphDef for {what}, got {type(arg).__name__}")
    actual_nodes = {n.name: n for n in actual.node}
    expected_nodes = {n.name: n for n in expected.node}
    for name in actual_nodes:
        if name not in expected_nodes:
            raise AssertionError(f"Node named '{name}' in actual graph was not found in "
                                 "expected graph.")
    for name in expected_nodes:
        if name not in actual_nodes:
            raise AssertionError(f"Node named '{name}' in expected graph was not found in "
                                 "actual graph.")
    for name, a in actual_nodes.items():
        e = expected_nodes[name]
        ka, ke = _node_key(a), _node_key(e)
        for label, x, y in zip(("op", "device", "inputs", "control inputs"), ka, ke):
            if x != y:
                raise AssertionError(f"Node named '{name}' has {label} {x!r} in actual graph "
                                     f"but {y!r} in expected graph.")
        attrs_a, attrs_e = dict(a.attr), dict(e.attr)
        if hash_table_shared_name and a.op.endswith(("HashTable", "HashTableV2")):
            for attrs in (attrs_a, attrs_e):
                attrs.pop("shared_name", None)
        for key in sorted(set(attrs_a) | set(attrs_e)):
            if key not in attrs_a or key not in attrs_e:
                where = "actual" if key not in attrs_a else "expected"
                raise AssertionError(f"Node named '{name}' is missing attr '{key}' in the "
                                     f"{where} graph.")
            if _attr_text(attrs_a[key]) != _attr_text(attrs_e[key]):
                raise AssertionError(f"Node named '{name}' has attr '{key}' with different "
                                     f"values: {attrs_a[key]} vs. {attrs_e[key]}")
    del checkpoint_v2  # tf1compat's savers write no randomized temp-name attrs


def disable_with_predicate(pred: Callable[[], bool], skip_message: str) -> Callable:
    """Decorator: the test (or every test of a class) is skipped when `pred()` is true."""
    def decorator(func: Any) -> Any:
        if inspect.isclass(func):
            for name, value in list(vars(func).items()):
                if name.startswith("test") and callable(value):
                    setattr(func, name, decorator(value))
            return func

        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        wrapper.__name__ = func.__name__
        wrapper.__doc__ = func.__doc__
        return wrapper
    return decorator


def with_eager_op_as_function(cls: Any = None, only_as_function: bool = False) -> Any:
    """TF reruns the tests with eager ops wrapped in functions (a TF runtime mode); tf1compat
    has one runtime, so the tests run as they are."""
    if cls is None:
        return lambda c: c
    return cls


class _Experimental:
    """`tf.test.experimental`."""

    @staticmethod
    def sync_devices() -> None:
        """Waits for the work queued on every GPU (torch.cuda.synchronize)."""
        import torch
        if torch.cuda.is_available():
            for index in range(torch.cuda.device_count()):
                torch.cuda.synchronize(index)


experimental = _Experimental()
