"""`tf.test`: TestCase with TF's assertion helpers, `main`, GPU queries."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from typing import Any, Iterator, Optional

import numpy as np
from absl.testing import absltest

__all__ = ["TestCase", "main", "is_gpu_available", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_built_with_rocm", "is_built_with_xla",
           "is_cpu_target_available", "get_temp_dir", "test_src_dir_path",
           "compute_gradient", "compute_gradient_error", "Benchmark", "benchmark_config",
           "StubOutForTesting", "mock", "assert_equal_graph_def", "disable_with_predicate",
           "with_eager_op_as_function", "experimental", "create_local_cluster"]

# (section: gradients)
from tf1compat.autodiff.gradient_checker import (compute_gradient,  # noqa: E402
                                                 compute_gradient_error)
# (section: clusters)
from tf1compat.distribute.local_cluster import create_local_cluster  # noqa: E402


def is_built_with_cuda() -> bool:
    import torch
    return torch.version.cuda is not None


is_built_with_gpu_support = is_built_with_cuda


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: Any = None) -> bool:
    from tf1compat.runtime.placement import cuda_device_count
    return cuda_device_count() > 0


def gpu_device_name() -> str:
    return "/device:GPU:0" if is_gpu_available() else ""


_TEMP_DIR: list = []


def get_temp_dir() -> str:
    if not _TEMP_DIR:
        _TEMP_DIR.append(tempfile.mkdtemp(prefix="tf1compat_test_"))
    return _TEMP_DIR[0]


def test_src_dir_path(relative_path: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(__file__)), relative_path)


def main(argv: Any = None) -> None:
    """Runs the tests of `__main__` as TF 1.x's `tf.test.main`: `tf.app.run` parses the
    flags absl knows from `argv` (default sys.argv; unknown ones are left), then absltest
    runs the tests with the arguments left over (test names, unittest's options). The
    script's own flags (`tf.flags.DEFINE_*`) thus never reach unittest's parser."""
    from tf1compat.util import app
    app.run(main=lambda args: absltest.main(argv=args),
            argv=sys.argv if argv is None else argv)


@contextlib.contextmanager
def _as_default_session(sess: Any) -> Iterator[Any]:
    """The session and its graph as defaults for the block; the session stays open."""
    with sess.graph.as_default(), sess.as_default():
        yield sess


class TestCase(absltest.TestCase):
    """absltest.TestCase (as TF's: assertItemsEqual, assertLen, ...) with TF1's session
    helpers and numeric assertions."""

    def __init__(self, methodName: str = "runTest") -> None:  # noqa: N803 (unittest's name)
        super().__init__(methodName)
        # Here and not only in setUp: TF1 tests often override setUp without calling
        # super().setUp() and still use test_session / cached_session.
        self._cached_session = None
        self._tempdir: Optional[str] = None

    def setUp(self) -> None:
        """As TF's fixture: Python's and numpy's RNGs and the graph-level seed set to TF's
        default seed (so unseeded random ops repeat from run to run), a fresh default
        graph (unless the test runs inside a `with g.as_default()`), no cached session;
        a method named `test_session` is skipped: it is the session helper, not a test."""
        import random
        from tf1compat.framework.graph import has_default_graph, reset_default_graph
        from tf1compat.framework.random_seed import DEFAULT_GRAPH_SEED, set_random_seed
        super().setUp()
        self._clear_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        if not has_default_graph():
            reset_default_graph()
        set_random_seed(DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    def tearDown(self) -> None:
        self._clear_cached_session()
        super().tearDown()

    def _clear_cached_session(self) -> None:
        cached = getattr(self, "_cached_session", None)
        self._cached_session = None
        if cached is not None:
            cached.close()

    def get_temp_dir(self) -> str:
        """This test's own temporary directory: the same one on every call in the test
        (TF's; a test writes files there in setUp and passes the directory again)."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    @contextlib.contextmanager
    def session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                force_gpu: bool = False) -> Iterator[Any]:
        """A new session on `graph` (default: the default graph), its default session."""
        from tf1compat.framework.graph import get_default_graph
        from tf1compat.runtime.session import Session
        graph = graph or get_default_graph()
        with graph.as_default():
            with Session(graph=graph, config=config) as sess:
                yield sess

    @contextlib.contextmanager
    def cached_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                       force_gpu: bool = False) -> Iterator[Any]:
        """One session per test, reused by every call (variables keep their values between
        the `with` blocks); closed when the test ends. ValueError for another graph."""
        with self._cached(graph, config, strict=True) as sess:
            yield sess

    def _cached(self, graph: Any, config: Any, strict: bool) -> Any:
        from tf1compat.framework.graph import get_default_graph
        from tf1compat.runtime.session import Session
        if self._cached_session is None:
            graph = graph or get_default_graph()
            self._cached_session = Session(graph=graph, config=config)
        elif strict and graph is not None and graph is not self._cached_session.graph:
            raise ValueError("The graph used to get the cached session is different than "
                             "the one that was used to create the session. Maybe create a "
                             "new session with self.session()")
        return _as_default_session(self._cached_session)

    @contextlib.contextmanager
    def test_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                     force_gpu: bool = False) -> Iterator[Any]:
        """TF1's name for `cached_session` (a new session when given a graph). Not a test:
        pytest does not collect it; a unittest runner does, by name, and setUp skips it."""
        if graph is None:
            with self._cached(None, config, strict=False) as sess:
                yield sess
        else:
            with self.session(graph, config, use_gpu, force_gpu) as sess:
                yield sess

    test_session.__test__ = False  # type: ignore[attr-defined]

    def assertDeviceEqual(self, device1: Any, device2: Any,  # noqa: N802
                          msg: Optional[str] = None) -> None:
        """The two device specs name the same device once canonicalized."""
        from tf1compat.framework.device_spec import canonical_name
        device1, device2 = canonical_name(device1), canonical_name(device2)
        self.assertEqual(device1, device2,
                         f"Devices {device1} and {device2} are not equal. {msg}")

    def evaluate(self, tensors: Any) -> Any:
        """The values of `tensors` (a nested structure): run in the default (or a new)
        session, or, under eager execution, each tensor's and variable's value."""
        from tf1compat.framework.context import executing_eagerly
        from tf1compat.framework.tensor import get_default_session
        if executing_eagerly():
            from tf1compat.util.nest import map_structure
            return map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t,
                                 tensors)
        sess = get_default_session()
        if sess is None:
            with self.session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    # -- value assertions: tensors (and variables) are run in the test's session first, as
    # TF's test_util does, so `assertAllEqual(tf.square([2, 3]), [4, 9])` works.

    def _GetNdArray(self, a: Any) -> np.ndarray:  # noqa: N802 - TF's name, subclasses call it
        """`a` as an ndarray; a tensor is evaluated (graph) or read (eager) first."""
        from tf1compat.framework.misc import is_tensor
        if is_tensor(a):
            a = a.numpy() if getattr(a, "_is_eager_tensor", False) else self.evaluate(a)
        if isinstance(a, np.ndarray):
            return a
        try:
            return np.array(a)
        except ValueError as e:
            # NumPy >= 1.24 refuses ragged nests; TF's test_util retries with
            # dtype=object, restoring the comparison of lists of unequal lengths.
            if "inhomogeneous shape" in str(e):
                return np.array(a, dtype=object)
            raise

    def evaluate_if_both_tensors(self, a: Any, b: Any) -> Any:
        """Both graph tensors: run together, in one step (their random ops agree)."""
        from tf1compat.framework.misc import is_tensor
        if is_tensor(a) and is_tensor(b) and not getattr(a, "_is_eager_tensor", False) \
                and not getattr(b, "_is_eager_tensor", False):
            return tuple(self.evaluate((a, b)))
        return a, b

    def _assert_shapes_equal(self, a: np.ndarray, b: np.ndarray, msg: Any) -> None:
        contents = f" Contents: {b!r}." if b.ndim <= 3 or b.size < 500 else ""
        self.assertEqual(a.shape, b.shape,
                         f"Shape mismatch: expected {a.shape}, got {b.shape}.{contents} {msg or ''}")

    def _assert_arrays_close(self, a: Any, b: Any, rtol: float, atol: float,
                             msg: Any) -> None:
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        self._assert_shapes_equal(a, b, msg)
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=str(msg or ""))

    def _assert_nested_close(self, a: Any, b: Any, rtol: float, atol: float, path: list,
                             msg: Any) -> None:
        """Dicts by key, namedtuples as dicts, lists/tuples as one array when they make
        one, else element by element; anything else as arrays."""
        where = "".join(f"[{p}]" for p in path)
        a = a._asdict() if hasattr(a, "_asdict") else a
        b = b._asdict() if hasattr(b, "_asdict") else b
        if isinstance(a, Mapping) != isinstance(b, Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{where} vs b{where}. {msg or ''}")
        if isinstance(a, Mapping):
            self.assertItemsEqual(a.keys(), b.keys(),
                                  msg=f"mismatched keys: a{where} has keys {a.keys()}, but "
                                      f"b{where} has keys {b.keys()}. {msg or ''}")
            for key in a:
                self._assert_nested_close(a[key], b[key], rtol, atol, path + [key], msg)
            return
        detail = f"Mismatched value: a{where} is different from b{where}. {msg or ''}"
        if isinstance(a, (list, tuple)):
            try:
                self._assert_arrays_close(a, b, rtol, atol, detail)
                return
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{where} has {len(a)} items, but "
                                     f"b{where} has {len(b)} items. {msg or ''}") from None
            for i, (x, y) in enumerate(zip(a, b)):
                self._assert_nested_close(x, y, rtol, atol, path + [str(i)], msg)
            return
        self._assert_arrays_close(a, b, rtol, atol, detail)

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: Optional[str] = None) -> None:
        """Nested structures of arrays or tensors with equal shapes and near values."""
        self._assert_nested_close(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6,  # noqa: N802
                                      atol: float = 1e-6, float_rtol: float = 1e-6,
                                      float_atol: float = 1e-6, half_rtol: float = 1e-3,
                                      half_atol: float = 1e-3, bfloat16_rtol: float = 1e-2,
                                      bfloat16_atol: float = 1e-2,
                                      msg: Optional[str] = None) -> None:
        """assertAllClose with the tolerances widened to the less precise dtype."""
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        kinds = {a.dtype, b.dtype}
        if kinds & {np.dtype(np.float32), np.dtype(np.complex64)}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if np.dtype(np.float16) in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if any(kind.name == "bfloat16" for kind in kinds):
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: Optional[str] = None) -> None:
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllEqual(self, a: Any, b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        """Equal shapes and equal elements (NaNs equal each other in float arrays)."""
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        self._assert_shapes_equal(a, b, msg)
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            np.testing.assert_array_equal(a, b, err_msg=str(msg or ""))

    def assertNotAllEqual(self, a: Any, b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        a, comparison_target = self.evaluate_if_both_tensors(a, comparison_target)
        self.assertGreater(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        a, comparison_target = self.evaluate_if_both_tensors(a, comparison_target)
        self.assertLess(np.max(self._GetNdArray(a)), comparison_target)

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        a, comparison_target = self.evaluate_if_both_tensors(a, comparison_target)
        self.assertGreaterEqual(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        a, comparison_target = self.evaluate_if_both_tensors(a, comparison_target)
        self.assertLessEqual(np.max(self._GetNdArray(a)), comparison_target)

    def assertAllInRange(self, target: Any, lower_bound: Any, upper_bound: Any,  # noqa: N802
                         open_lower_bound: bool = False, open_upper_bound: bool = False) -> None:
        """Every element in the range; NaNs and non-numeric dtypes fail."""
        t = self._GetNdArray(target)
        if not (np.issubdtype(t.dtype, np.floating) or np.issubdtype(t.dtype, np.integer)):
            raise AssertionError(f"The value of {t} does not have an ordered numeric type, "
                                 f"instead it has type: {t.dtype}")
        if np.any(np.isnan(t)):
            raise AssertionError(f"{int(np.sum(np.isnan(t)))} of the {t.size} element(s) "
                                 "are NaN.")
        below = t <= lower_bound if open_lower_bound else t < lower_bound
        above = t >= upper_bound if open_upper_bound else t > upper_bound
        outside = np.logical_or(below, above)
        if np.any(outside):
            bounds = (("(" if open_lower_bound else "[") + f"{lower_bound}, {upper_bound}" +
                      (")" if open_upper_bound else "]"))
            raise AssertionError(f"{int(np.sum(outside))} of the {t.size} element(s) are "
                                 f"outside the range {bounds}.")

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        diff = np.setdiff1d(self._GetNdArray(target).flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError(f"{np.size(diff)} unique element(s) are not in the set "
                                 f"{expected_set}: {diff}")

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        self.assertEqual(self._GetNdArray(target).dtype, expected_dtype)

    def assertNDArrayNear(self, ndarray1: Any, ndarray2: Any, err: float,  # noqa: N802
                          msg: Optional[str] = None) -> None:
        self.assertTrue(np.linalg.norm(ndarray1 - ndarray2) < err, msg=msg)

    def assertArrayNear(self, farray1: Any, farray2: Any, err: float,  # noqa: N802
                        msg: Optional[str] = None) -> None:
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNear(self, f1: float, f2: float, err: float, msg: Optional[str] = None) -> None:  # noqa: N802
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = abs(f1 - f2)
            self.assertTrue(diff <= err, f"{f1:f} != {f2:f} +/- {err:f} (difference: {diff:g})"
                            + (f" ({msg})" if msg is not None else ""))

    def assertShapeEqual(self, np_array: Any, tf_tensor: Any, msg: Optional[str] = None  # noqa: N802
                         ) -> None:
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg)

    def assertRaisesIncompatibleShapesError(self, exception_type: Any = None) -> Any:  # noqa: N802
        from tf1compat.framework.errors import InvalidArgumentError
        return self.assertRaisesWithPredicateMatch(
            exception_type or InvalidArgumentError,
            r"Incompatible shapes|Dimensions must be equal|required broadcastable shapes")

    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        from tf1compat.framework.errors import OpError
        return self.assertRaisesWithPredicateMatch(OpError, expected_err_re_or_predicate)

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type: Any,  # noqa: N802
                                       expected_err_re_or_predicate: Any) -> Iterator[None]:
        """TF's context manager: the block must raise `exception_type` whose message (an
        OpError's plus "Caused by" lines for its op's original ops) matches the regex, or
        for which the predicate holds. Any other exception becomes an AssertionError
        naming it (a test failure, not an error), as TF's does."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e: BaseException) -> Any:
                from tf1compat.framework.errors import OpError
                err_str = e.message if isinstance(e, OpError) else str(e)
                op = e.op if isinstance(e, OpError) else None
                while op is not None:
                    err_str += "\nCaused by: " + op.name
                    op = getattr(op, "_original_op", None)
                return re.search(expected_err_re_or_predicate, err_str)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001 - TF turns every mismatch into a failure
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e


from tf1compat.api.test_extras import (Benchmark, StubOutForTesting,  # noqa: E402
                                      assert_equal_graph_def, benchmark_config,
                                      disable_with_predicate, experimental,
                                      is_built_with_rocm, is_built_with_xla,
                                      is_cpu_target_available, mock,
                                      with_eager_op_as_function)
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('test', globals())
