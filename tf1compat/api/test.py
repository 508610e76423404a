"""`tf.test`: TestCase with TF's assertion helpers, `main`, GPU queries."""

from __future__ import annotations

import contextlib
import os
import tempfile
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
    """Runs the tests of `__main__` with absltest (flags parsed from `argv`)."""
    absltest.main(argv=argv)


class TestCase(absltest.TestCase):
    """absltest.TestCase (as TF's: assertItemsEqual, assertLen, ...) with TF1's session
    helpers and numeric assertions."""

    def setUp(self) -> None:
        from tf1compat.framework.graph import reset_default_graph, has_default_graph
        if not has_default_graph():
            reset_default_graph()
        super().setUp()

    def get_temp_dir(self) -> str:
        return tempfile.mkdtemp(dir=get_temp_dir())

    @contextlib.contextmanager
    def session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                force_gpu: bool = False) -> Iterator[Any]:
        from tf1compat.framework.graph import get_default_graph
        from tf1compat.runtime.session import Session
        graph = graph or get_default_graph()
        with graph.as_default():
            with Session(graph=graph, config=config) as sess:
                yield sess

    cached_session = session

    @contextlib.contextmanager
    def test_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                     force_gpu: bool = False) -> Iterator[Any]:
        """TF1's name for `session`. Not a test: pytest does not collect it (a unittest
        runner does, by name; as with TF's fixture, calling it does nothing)."""
        if self.id().endswith(".test_session"):
            self.skipTest("Tests that have the name \"test_session\" are automatically "
                          "skipped by TensorFlow test fixture, as the name is reserved for "
                          "creating sessions within tests. Please rename your test if you "
                          "have a test with this name.")
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

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertTrue(np.all(np.asarray(a) >= comparison_target))

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertTrue(np.all(np.asarray(a) <= comparison_target))

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        diff = set(np.unique(np.asarray(target)).tolist()) - set(expected_set)
        if diff:
            self.fail(f"{sorted(diff)} unexpected values not in {sorted(expected_set)}")

    def assertNDArrayNear(self, ndarray1: Any, ndarray2: Any, err: float,  # noqa: N802
                          msg: Optional[str] = None) -> None:
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) <= err,
                        msg=msg)

    def assertRaisesIncompatibleShapesError(self, exception_type: Any = None) -> Any:  # noqa: N802
        from tf1compat.framework.errors import InvalidArgumentError
        return self.assertRaisesWithPredicateMatch(
            exception_type or InvalidArgumentError,
            r"Incompatible shapes|Dimensions must be equal|required broadcastable shapes")

    def evaluate(self, tensors: Any) -> Any:
        from tf1compat.framework.tensor import get_default_session
        sess = get_default_session()
        if sess is None:
            with self.session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: Optional[str] = None) -> None:
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol,
                                   err_msg=msg or "")

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6,  # noqa: N802
                                      atol: float = 1e-6, float_rtol: float = 1e-6,
                                      float_atol: float = 1e-6, half_rtol: float = 1e-3,
                                      half_atol: float = 1e-3, **kwargs: Any) -> None:
        a = np.asarray(a)
        if a.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        elif a.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol)

    def assertAllEqual(self, a: Any, b: Any, msg: Optional[str] = None) -> None:  # noqa: N802
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=msg or "")

    def assertNotAllClose(self, a: Any, b: Any, **kwargs: Any) -> None:  # noqa: N802
        try:
            self.assertAllClose(a, b, **kwargs)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements")

    def assertShapeEqual(self, np_array: Any, tf_tensor: Any, msg: Optional[str] = None  # noqa: N802
                         ) -> None:
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg)

    def assertArrayNear(self, farray1: Any, farray2: Any, err: float,  # noqa: N802
                        msg: Optional[str] = None) -> None:
        self.assertAllClose(farray1, farray2, rtol=0, atol=err, msg=msg)

    def assertNear(self, f1: float, f2: float, err: float, msg: Optional[str] = None) -> None:  # noqa: N802
        self.assertTrue(abs(f1 - f2) <= err, msg or f"{f1} != {f2} +/- {err}")

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertTrue(np.all(np.asarray(a) > comparison_target))

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertTrue(np.all(np.asarray(a) < comparison_target))

    def assertAllInRange(self, target: Any, lower: Any, upper: Any, **kwargs: Any) -> None:  # noqa: N802
        t = np.asarray(target)
        self.assertTrue(np.all((t >= lower) & (t <= upper)))

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        self.assertEqual(np.asarray(target).dtype, np.dtype(expected_dtype))

    @contextlib.contextmanager
    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Iterator[None]:  # noqa: N802
        from tf1compat.framework.errors import OpError
        with self.assertRaisesRegex(OpError, expected_err_re_or_predicate):
            yield

    def assertRaisesWithPredicateMatch(self, exception_type: Any, predicate: Any,  # noqa: N802
                                       *args: Any, **kwargs: Any) -> Any:
        return self.assertRaisesRegex(exception_type, predicate, *args, **kwargs)


from tf1compat.api.test_extras import (Benchmark, StubOutForTesting,  # noqa: E402
                                      assert_equal_graph_def, benchmark_config,
                                      disable_with_predicate, experimental,
                                      is_built_with_rocm, is_built_with_xla,
                                      is_cpu_target_available, mock,
                                      with_eager_op_as_function)
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('test', globals())
