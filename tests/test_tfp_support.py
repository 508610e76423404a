"""The TF-internal modules TensorFlow Probability 0.8 imports (session realcode-tfp): their
paths under the shim and what each stand-in does; and, where the TFP 0.8 wheel is on the
path (it is not a test dependency), TFP's distributions against tf.distributions."""

from __future__ import annotations

import importlib
import json
import sys

import numpy as np
import pytest

import tf1compat as tf
from tf1compat import shim
from tf1compat.framework.missing import UnimplementedAPIError
from tf1compat.internal import (autograph_pyct, common_shapes, composite_tensor,
                                control_flow_util, linear_operator_addition,
                                linear_operator_util, pywrap_tensorflow, training_ops)
from tf1compat.keras.utils import tf_utils
from tf1compat.util.lazy_loader import LazyLoader

_TFP_PATHS = {
    "tensorflow.python.ops.linalg.linear_operator_util": linear_operator_util,
    "tensorflow.python.ops.linalg.linear_operator_addition": linear_operator_addition,
    "tensorflow.python.framework.common_shapes": common_shapes,
    "tensorflow.python.framework.composite_tensor": composite_tensor,
    "tensorflow.python.framework.type_spec": composite_tensor,
    "tensorflow.python.ops.control_flow_util": control_flow_util,
    "tensorflow.python.training.training_ops": training_ops,
    "tensorflow.python.autograph.pyct.transformer": autograph_pyct,
    "tensorflow.python.autograph.converters.break_statements": autograph_pyct,
    "tensorflow.python.keras.utils.tf_utils": tf_utils,
}


@pytest.fixture
def installed():
    shim.install()
    yield
    shim.uninstall()


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


def test_tfp_internal_paths_resolve(installed):
    for path, module in _TFP_PATHS.items():
        assert importlib.import_module(path) is module, path
    from tensorflow.python import pywrap_tensorflow as c_api
    from tensorflow.python.client import session as tf_session
    from tensorflow.python.ops.unconnected_gradients import UnconnectedGradients
    from tensorflow.python.util import lazy_loader
    assert lazy_loader.LazyLoader is LazyLoader
    assert callable(c_api.TF_TryEvaluateConstant_wrapper)
    assert callable(tf_session.register_session_run_conversion_functions)
    assert UnconnectedGradients.NONE.value == "none"


def test_matrix_triangular_solve_with_broadcast(graph):
    tril = np.array([[2., 0.], [1., 4.]], np.float32)
    rhs = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    solved = linear_operator_util.matrix_triangular_solve_with_broadcast(tril[None], rhs)
    upper = linear_operator_util.matrix_triangular_solve_with_broadcast(
        tril.T[None], rhs, lower=False, adjoint=True)
    assert solved.shape.as_list() == [3, 2, 2]
    with tf.Session() as sess:
        got, got_upper = sess.run([solved, upper])
    want = np.linalg.solve(np.broadcast_to(tril, (3, 2, 2)), rhs)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(got_upper, want, rtol=1e-6)


def test_ref_checks(graph):
    v = tf.Variable([1., 2.])
    assert linear_operator_util.is_ref(v) and not linear_operator_util.is_ref(v.value())
    with pytest.raises(TypeError, match=r"x: Expected argument to have non-reference dtype"):
        linear_operator_util.assert_not_ref_type(v._ref(), "x")
    linear_operator_util.assert_not_ref_type(v.value(), "x")
    with pytest.raises(TypeError, match='Mutable type must be of dtype "int32"'):
        linear_operator_util.convert_nonref_to_tensor(v, dtype=tf.int32)
    assert linear_operator_util.convert_nonref_to_tensor(3, dtype_hint=tf.float32).dtype == \
        tf.float32


def test_add_operators_checks(graph):
    la = tf.linalg
    with pytest.raises(ValueError, match="must contain at least one operator"):
        linear_operator_addition.add_operators([])
    with pytest.raises(TypeError, match="only LinearOperator instances"):
        linear_operator_addition.add_operators([tf.eye(2)])
    with pytest.raises(ValueError, match="same domain dimension"):
        linear_operator_addition.add_operators([la.LinearOperatorIdentity(2),
                                                la.LinearOperatorIdentity(3)])
    (total,) = linear_operator_addition.add_operators(
        [la.LinearOperatorDiag([1., 2.]), la.LinearOperatorDiag([3., 4.])], operator_name="s")
    assert total.name == "s"
    with pytest.raises(NotImplementedError, match="addition_tiers"):
        linear_operator_addition.add_operators([total], addition_tiers=[[]])


def test_broadcast_shape():
    shape = tf.TensorShape
    assert common_shapes.broadcast_shape(shape([None, 1, 3]), shape([2, 1])).as_list() == \
        [None, 2, 3]
    assert common_shapes.broadcast_shape(shape(None), shape([2])).ndims is None
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting: \(2, 3\)"):
        common_shapes.broadcast_shape(shape([2, 3]), shape([4]))


def test_lazy_loader_imports_on_first_use():
    sys.modules.pop("json.tool", None)
    scope = {}
    scope["tool"] = LazyLoader("tool", scope, "json.tool")
    assert "json.tool" not in sys.modules
    assert callable(scope["tool"].main)
    assert scope["tool"] is sys.modules["json.tool"]
    lazy = LazyLoader("j", {}, "json")
    assert lazy.dumps is json.dumps and "dumps" in dir(lazy)


def test_composite_tensor_bases():
    class Pair(composite_tensor.CompositeTensor):
        pass

    with pytest.raises(TypeError):
        Pair()
    assert issubclass(composite_tensor.BatchableTypeSpec, composite_tensor.TypeSpec)
    with pytest.raises(NotImplementedError, match="BatchableTypeSpec._batch"):
        composite_tensor.BatchableTypeSpec()._batch(2)


def test_control_flow_util(graph):
    assert control_flow_util.ENABLE_CONTROL_FLOW_V2 is False
    assert control_flow_util.GraphOrParentsInXlaContext(graph) is False


def test_gradient_descent_training_ops(graph):
    ref = tf.Variable([1., 2.])
    res = tf.Variable([1., 2.], use_resource=True)
    new_ref = training_ops.apply_gradient_descent(ref, 0.5, tf.constant([2., 4.]))
    op = training_ops.resource_apply_gradient_descent(res.handle, 0.5, tf.constant([2., 4.]))
    assert op.type == "ResourceApplyGradientDescent"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(new_ref), [0., 0.])
        sess.run(op)
        np.testing.assert_allclose(sess.run(res), [0., 0.])


def test_autograph_placeholder_raises_on_use():
    class Transformer(autograph_pyct.Base):
        pass

    with pytest.raises(NotImplementedError, match=r"transformer\.Base is not implemented"):
        Transformer(None)
    with pytest.raises(UnimplementedAPIError, match="parse_entity"):
        autograph_pyct.parse_entity(len)


def test_registered_symbolic_tensor_type(graph):
    class Boxed:
        def __init__(self, value):
            self.value = value

    tf.register_tensor_conversion_function(Boxed, lambda b, dtype=None, name=None,
                                           as_ref=False: b.value)
    tf_utils.register_symbolic_tensor_type(Boxed)
    assert tf_utils.is_symbolic_tensor(Boxed(tf.constant(1.)))
    assert tf_utils.is_symbolic_tensor(tf.Variable(1.))
    assert not tf_utils.is_symbolic_tensor(np.ones(2))


def test_try_evaluate_constant(graph):
    folded = tf.constant(2) * 3 + 1
    fed = tf.placeholder(tf.int32, [])
    assert pywrap_tensorflow.TF_TryEvaluateConstant_wrapper(
        folded.graph._c_graph, folded._as_tf_output()) == 7
    assert pywrap_tensorflow.TF_TryEvaluateConstant_wrapper(graph._c_graph,
                                                            fed._as_tf_output()) is None


def test_tensor_protocol_tfp_edits(graph):
    assert isinstance(tf.Tensor.OVERLOADABLE_OPERATORS, set)
    with pytest.raises(TypeError, match="as a Python `bool`"):
        tf.constant(True).__nonzero__()


def test_module_no_dependency(graph):
    module = tf.Module()
    v = tf.Variable(1.)
    module.tracked = [v]
    module.untracked = module._no_dependency([v])
    assert type(module.untracked) is list
    assert [name for name, _ in module._checkpoint_dependencies] == ["tracked"]
    module.tracked = module._no_dependency(v)
    assert module._checkpoint_dependencies == [] and module.tracked is v


def test_tfp_distributions_match_tf_distributions(installed):
    tfp = pytest.importorskip("tensorflow_probability")
    tfd = tfp.distributions
    x = np.array([[-1.0, 0.5, 2.0], [0.3, -0.2, 1.1]], np.float32)
    with tf.Graph().as_default():
        n = tfd.Normal(loc=[0., 1., -1.], scale=[1., 2., 0.5])
        ref = tf.distributions.Normal(loc=[0., 1., -1.], scale=[1., 2., 0.5])
        mvn = tfd.MultivariateNormalDiag(loc=[0., 1., -1.], scale_diag=[1., 2., 0.5])
        pairs = [(n.log_prob(x), ref.log_prob(x)), (n.entropy(), ref.entropy()),
                 (mvn.log_prob(x), tf.reduce_sum(ref.log_prob(x), -1)),
                 (tfd.kl_divergence(n, tfd.Normal(0.5, 1.5)),
                  tf.distributions.kl_divergence(ref, tf.distributions.Normal(0.5, 1.5)))]
        with tf.Session() as sess:
            for got, want in sess.run(pairs):
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_nn_ops_convolution_checks(graph):
    from tf1compat.internal import nn_ops
    with pytest.raises(ValueError, match="rank of input or filter must be known"):
        nn_ops.Convolution(tf.TensorShape(None), tf.TensorShape(None), "SAME")
    with pytest.raises(ValueError, match="input tensor must have rank 4"):
        nn_ops.Convolution(tf.TensorShape([2, 3]), tf.TensorShape([3, 3, 3, 4]), "SAME")
    with pytest.raises(ValueError, match=r"number of input channels does not match "
                                         r"corresponding dimension of filter, 3 != 5"):
        nn_ops.Convolution(tf.TensorShape([1, 4, 4, 3]), tf.TensorShape([3, 3, 5, 4]), "SAME")
    conv = nn_ops.Convolution(tf.TensorShape([1, 3, 4, 4]), tf.TensorShape([3, 3, 3, 2]),
                              "VALID", data_format="NCHW")
    assert conv.data_format == "NCHW" and conv.padding == "VALID"


def test_assert_near_eager_describes_tensors():
    # TFP's Categorical(validate_args=True) checks probs with assert_near; an eager tensor
    # has no name, so TF's message gives its shape and dtype instead
    from tf1compat.eager.context import eager_mode
    with eager_mode():
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"x \(shape=\(2,\) dtype=float32\) = "):
            tf.debugging.assert_near(tf.constant([1., 2.]), tf.constant([1., 3.]))


def test_test_util_path_has_mode_decorators(installed):
    from tensorflow.python.framework import test_util
    assert callable(test_util.run_all_in_graph_and_eager_modes)
    assert callable(test_util.run_in_graph_and_eager_modes)


def test_assigning_a_read_only_property_its_own_value(graph):
    class Shaped(tf.Module):
        def __init__(self, value):
            super().__init__()
            self._value = value

        @property
        def shape(self):
            return self._value.shape

    t = tf.zeros([2, 3])
    obj = Shaped(t)
    obj.shape = t.shape
    assert obj.shape.as_list() == [2, 3]
    with pytest.raises(AttributeError):
        obj.shape = tf.TensorShape([4])
