"""tf1compat.export.to_module / to_fx: a TF1 computation as a torch module.

The oracle is tf1compat's Session (itself checked against real TensorFlow by the golden
tests): the module's outputs equal `Session.run`'s and its parameters' gradients equal
`tf.gradients`', on the same inputs and variable values.
"""

from __future__ import annotations

import collections
import copy
import pickle

import numpy as np
import pytest
import torch

import tf1compat as tf
import tf1compat.export as tfx
from tf1compat.framework import errors


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(3)
        yield graph


def _mlp():
    x = tf.placeholder(tf.float32, [None, 5], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    with tf.variable_scope("hidden"):
        h = tf.layers.dense(x, 8, activation=tf.nn.relu)
    logits = tf.layers.dense(h, 3, name="out")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                          logits=logits))
    return x, y, logits, loss


def _data(n=6):
    rng = np.random.RandomState(0)
    return rng.randn(n, 5).astype(np.float32), rng.randint(0, 3, n).astype(np.int64)


def _grad(module, name):
    value = module.tf_variables()[name]
    return np.zeros(tuple(value.shape), np.float32) if value.grad is None \
        else value.grad.numpy()


def test_values_gradients_and_names_equal_the_session():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        module = tfx.to_module({"loss": loss, "logits": logits}, [x, y], session=sess)
        params = tf.trainable_variables()
        expected = sess.run({"loss": loss, "logits": logits}, {x: xs, y: ys})
        grads = sess.run(tf.gradients(loss, params), {x: xs, y: ys})
    assert list(module.state_dict()) == ["hidden.dense.kernel", "hidden.dense.bias",
                                         "out.kernel", "out.bias"]
    assert [n for n, _ in module.named_parameters()] == list(module.state_dict())
    assert module.variable_names["hidden.dense.kernel"] == "hidden/dense/kernel"
    out = module(torch.from_numpy(xs), torch.from_numpy(ys))
    assert set(out) == {"loss", "logits"}
    np.testing.assert_allclose(out["logits"].detach().numpy(), expected["logits"], rtol=1e-6)
    np.testing.assert_allclose(out["loss"].item(), expected["loss"], rtol=1e-6)
    out["loss"].backward()
    for p, g in zip(params, grads):
        np.testing.assert_allclose(_grad(module, p.op.name), g, rtol=1e-5, atol=1e-7)


def test_feeds_by_position_keyword_numpy_and_dtype_conversion():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    module = tfx.to_module(loss, [x, y])
    reference = module(torch.from_numpy(xs), torch.from_numpy(ys)).item()
    assert module(y=torch.from_numpy(ys), x=torch.from_numpy(xs)).item() == reference
    assert module(xs, ys.tolist()).item() == reference                   # numpy and lists
    assert module(torch.from_numpy(xs).double(), torch.from_numpy(ys).int()).item() == \
        pytest.approx(reference, rel=1e-6)                               # cast like TF feeds
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(6, 4\) for Tensor "
                                         r"x:0, which has shape \(\?, 5\)"):
        module(xs[:, :4], ys)
    named = tfx.to_module(loss, {"images": x, "labels": y})
    assert named(labels=ys, images=xs).item() == reference
    with pytest.raises(ValueError, match="Python identifiers"):
        tfx.to_module(loss, {"not valid": x, "labels": y})


def test_fetch_structures_and_ops():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    Pair = collections.namedtuple("Pair", "a b")
    noop = tf.no_op(name="nothing")
    module = tfx.to_module([loss, (logits, {"again": loss}), Pair(logits, noop)], [x, y])
    out = module(xs, ys)
    assert isinstance(out, list) and isinstance(out[1], tuple) and isinstance(out[2], Pair)
    assert out[1][1]["again"].item() == out[0].item()
    assert out[2].b is None
    single = tfx.to_module(logits, [x])
    assert isinstance(single(xs), torch.Tensor)


def test_unfed_placeholder_is_an_error_and_defaults_fold():
    x, y, logits, loss = _mlp()
    with pytest.raises(errors.InvalidArgumentError, match="must feed a value for "
                                                          "placeholder tensor 'y'"):
        tfx.to_module(loss, [x])
    scale = tf.placeholder_with_default(2.0, [], name="scale")
    scaled = logits * scale
    xs, _ = _data()
    default = tfx.to_module(scaled, [x])
    fed = tfx.to_module(scaled, [x, scale])
    np.testing.assert_allclose(default(xs).detach().numpy(),
                               fed(xs, 2.0).detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(fed(xs, 4.0).detach().numpy(),
                               2 * default(xs).detach().numpy(), rtol=1e-6)
    assert "PlaceholderWithDefault" not in default.code


def test_initial_values_from_initializers_and_uninitialized_session():
    x, y, logits, loss = _mlp()
    module = tfx.to_module(logits, [x])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in tf.trainable_variables():
            np.testing.assert_array_equal(module.tf_variables()[v.op.name].detach().numpy(),
                                          sess.run(v))
    extra = tf.get_variable("late", [5])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        later = logits + tf.reduce_sum(tf.get_variable("later", [3]))
        with pytest.raises(errors.FailedPreconditionError, match="uninitialized value later"):
            tfx.to_module(later, [x], session=sess)
    assert extra is not None


def test_variables_subset_freezes_the_others():
    x, y, logits, loss = _mlp()
    xs, _ = _data()
    out_vars = [v for v in tf.trainable_variables() if v.op.name.startswith("out/")]
    full = tfx.to_module(logits, [x])
    partial = tfx.to_module(logits, [x], variables=out_vars)
    assert list(partial.state_dict()) == ["out.kernel", "out.bias"]
    assert len(list(partial.parameters())) == 2
    np.testing.assert_allclose(partial(xs).detach().numpy(), full(xs).detach().numpy())
    with pytest.raises(TypeError, match="tf.Variable objects"):
        tfx.to_module(logits, [x], variables=["out/kernel"])


def test_one_torch_optimizer_step_equals_gradient_descent():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    train = tf.train.GradientDescentOptimizer(0.3).minimize(loss)
    module = tfx.to_module(loss, [x, y])
    optimizer = torch.optim.SGD(module.parameters(), lr=0.3)
    optimizer.zero_grad()
    module(xs, ys).backward()
    optimizer.step()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: xs, y: ys})
        for v in tf.trainable_variables():
            np.testing.assert_allclose(module.tf_variables()[v.op.name].detach().numpy(),
                                       sess.run(v), rtol=1e-5, atol=1e-7)


def test_state_dict_round_trip_deepcopy_and_pickling():
    x, y, logits, loss = _mlp()
    xs, _ = _data()
    module = tfx.to_module(logits, [x])
    twin = copy.deepcopy(module)
    with torch.no_grad():
        module.out.bias.add_(1.0)
    np.testing.assert_allclose(module(xs).detach().numpy(),
                               twin(xs).detach().numpy() + 1.0, rtol=1e-5, atol=1e-6)
    other = tfx.to_module(logits, [x])
    other.load_state_dict(module.state_dict())
    np.testing.assert_array_equal(other(xs).detach().numpy(), module(xs).detach().numpy())
    with pytest.raises(TypeError, match="state_dict"):
        pickle.dumps(module)


def test_to_device_rebuilds_the_program():
    x, y, logits, loss = _mlp()
    xs, _ = _data()
    module = tfx.to_module(logits, [x]).to("meta")
    out = module(torch.empty(4, 5, device="meta"))
    assert out.device.type == "meta" and tuple(out.shape) == (4, 3)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_module_matches_cpu():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    module = tfx.to_module(loss, [x, y])
    expected = module(xs, ys)
    expected.backward()
    cuda = copy.deepcopy(module).cuda()
    cuda.zero_grad()
    got = cuda(torch.from_numpy(xs).cuda(), torch.from_numpy(ys).cuda())
    got.backward()
    assert got.device.type == "cuda"
    np.testing.assert_allclose(got.item(), expected.item(), rtol=1e-5)
    for (name, p), q in zip(cuda.named_parameters(), module.parameters()):
        np.testing.assert_allclose(p.grad.cpu().numpy(), q.grad.numpy(), rtol=1e-4,
                                   atol=1e-6, err_msg=name)


def test_cond_while_and_resource_variables():
    rng = np.random.RandomState(1)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    ids = tf.placeholder(tf.int32, [None], name="ids")
    w = tf.get_variable("w", [3, 3], use_resource=True)
    v = tf.get_variable("v", [3, 3])
    emb = tf.get_variable("emb", [5, 3], use_resource=True)
    h = tf.cond(flag, lambda: tf.matmul(x, w), lambda: tf.matmul(x, v) * 2.0)
    _, acc = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.tanh(tf.matmul(a, v))),
                           [tf.constant(0), h])
    out = tf.reduce_sum(acc) + tf.reduce_sum(tf.nn.embedding_lookup(emb, ids))
    xs, index = rng.randn(4, 3).astype(np.float32), np.array([1, 4, 0], np.int32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        module = tfx.to_module(out, [x, flag, ids])
        params = [w, v, emb]
        grads = [tf.convert_to_tensor(g) for g in tf.gradients(out, params)]
        for chosen in (True, False):
            feed = {x: xs, flag: chosen, ids: index}
            expected, expected_grads = sess.run([out, grads], feed)
            module.zero_grad()
            got = module(xs, chosen, index)
            got.backward()
            np.testing.assert_allclose(got.item(), expected, rtol=1e-5)
            for p, g in zip(params, expected_grads):
                np.testing.assert_allclose(_grad(module, p.op.name), g, rtol=1e-5, atol=1e-6)


def test_moving_averages_update_buffers_and_trainable_assignments_are_refused():
    rng = np.random.RandomState(2)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    training = tf.placeholder(tf.bool, [], name="training")
    h = tf.layers.batch_normalization(x, training=training, name="bn", momentum=0.9)
    loss = tf.reduce_mean(tf.square(h))
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    xs = rng.randn(6, 4).astype(np.float32) * 3 + 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        module = tfx.to_module([loss, updates], [x, training])
        assert [n for n, _ in module.named_buffers()] == ["bn.moving_mean",
                                                          "bn.moving_variance"]
        expected, _ = sess.run([loss, updates], {x: xs, training: True})
        got, _ = module(xs, True)
        np.testing.assert_allclose(got.item(), expected, rtol=1e-6)
        np.testing.assert_allclose(module.bn.moving_mean.numpy(),
                                   sess.run("bn/moving_mean:0"), rtol=1e-6)
        np.testing.assert_allclose(module.bn.moving_variance.numpy(),
                                   sess.run("bn/moving_variance:0"), rtol=1e-6)
    w = tf.get_variable("w", [2])
    with pytest.raises(errors.UnimplementedError, match="assigns the trainable variable 'w'"):
        tfx.to_module(tf.assign_add(w, [1.0, 1.0]), [])()


def test_python_gradient_functions_and_export_problems():
    def numpy_relu(inputs):
        name = "ExportTestReluGrad"

        def gradient(op, grad):
            return grad * tf.py_func(lambda a: np.float32(a > 0), [op.inputs[0]], tf.float32)
        tf.RegisterGradient(name)(gradient)
        with tf.get_default_graph().gradient_override_map({"PyFunc": name}):
            return tf.py_func(lambda a: np.maximum(a, 0.0), [inputs], tf.float32)

    x = tf.placeholder(tf.float32, [None, 1], name="x")
    w = tf.get_variable("w", [1, 4])
    hidden = numpy_relu(tf.matmul(x, w))
    hidden.set_shape([None, 4])
    loss = tf.reduce_sum(tf.square(hidden))
    xs = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)
    module = tfx.to_module(loss, [x])
    module(xs).backward()
    # The Session on the CPU, where the module runs (on a GPU machine it would place the
    # graph on the GPU around the CPU-only py_func).
    with tf.Session(config=tf.ConfigProto(device_count={"GPU": 0})) as sess:
        sess.run(tf.global_variables_initializer())
        expected = sess.run(tf.gradients(loss, w)[0], {x: xs})
    np.testing.assert_allclose(module.w.grad.numpy(), expected, rtol=1e-5)
    (problem,) = module.problems()
    assert problem.startswith("PyFunc op 'PyFunc', defined at ") and "tf.py_func" in problem
    with pytest.raises(tfx.ExportError, match="PyFunc op 'PyFunc'.*calls Python"):
        torch.export.export(module, (torch.from_numpy(xs),), strict=False)


def test_gradients_inside_the_computation_are_refused():
    x, y, logits, loss = _mlp()
    grads = tf.gradients(loss, tf.trainable_variables())
    with pytest.raises(NotImplementedError, match="computes tf.gradients"):
        tfx.to_module(grads, [x, y])


def test_run_time_errors_are_tf_errors_naming_the_op():
    params = tf.get_variable("params", [4, 2])
    ids = tf.placeholder(tf.int32, [None], name="ids")
    module = tfx.to_module(tf.gather(params, ids, name="picked"), [ids])
    with pytest.raises(errors.InvalidArgumentError, match="(?s)node 'picked'.*not in \\[0, 4\\)"):
        module(np.array([0, 7], np.int32))


def test_names_that_clash_with_module_attributes():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    a = tf.get_variable("forward", [2])
    b = tf.get_variable("training/kernel", [2])
    c = tf.get_variable("scope", [2])
    d = tf.get_variable("scope/inner", [2])
    module = tfx.to_module(x * a + x * b + x * c + x * d, [x])
    assert module.variable_names == {"forward_": "forward", "training_.kernel": "training/kernel",
                                     "scope": "scope", "scope_.inner": "scope/inner"}
    assert module(np.ones((1, 2), np.float32)).shape == (1, 2)


def test_to_fx_is_readable_and_shares_parameters():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    module = tfx.to_module({"loss": loss, "logits": logits}, [x, y])
    gm = tfx.to_fx(module)
    assert isinstance(gm, torch.fx.GraphModule)
    code = gm.code
    assert "def forward(self, x, y):" in code
    assert "hidden_dense_mat_mul = tf_MatMul(x, hidden_dense_kernel)" in code
    assert "out_bias_add = tf_BiasAdd_1(out_mat_mul, out_bias)" in code
    assert gm.get_parameter("out.kernel") is module.get_parameter("out.kernel")
    assert sorted(gm.state_dict()) == sorted(module.state_dict())
    got, expected = gm(torch.from_numpy(xs), torch.from_numpy(ys)), module(xs, ys)
    np.testing.assert_allclose(got["loss"].item(), expected["loss"].item(), rtol=1e-6)
    twin = copy.deepcopy(gm)
    assert twin.get_parameter("out.kernel") is not gm.get_parameter("out.kernel")
    from_fetches = tfx.to_fx(logits, [x])
    assert sorted(from_fetches.state_dict()) == sorted(["hidden.dense.kernel", "hidden.dense.bias",
                                                      "out.kernel", "out.bias"])


def test_to_fx_reads_resource_variables_as_attributes():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.get_variable("w", [3, 2], use_resource=True)
    gm = tfx.to_fx(tf.matmul(x, w), [x])
    assert "w = self.w" in gm.code and "ReadVariableOp" not in gm.code
    xs = np.ones((2, 3), np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(gm(torch.from_numpy(xs)).detach().numpy(),
                                   xs @ sess.run(w), rtol=1e-6)


def test_torch_export_of_a_feed_forward_graph():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    module = tfx.to_module({"loss": loss, "logits": logits}, [x, y])
    program = torch.export.export(module, (torch.from_numpy(xs), torch.from_numpy(ys)),
                                  strict=False)
    targets = {n.target for n in program.graph_module.graph.nodes if n.op == "call_function"}
    assert torch.ops.aten.matmul.default in targets
    assert all(isinstance(t, torch._ops.OpOverload) for t in targets), targets
    got, expected = program.module()(torch.from_numpy(xs), torch.from_numpy(ys)), \
        module(xs, ys)
    np.testing.assert_allclose(got["loss"].item(), expected["loss"].item(), rtol=1e-6)
    with pytest.raises(Exception, match="tf1compat: a kernel's input validation failed"):
        program.module()(torch.from_numpy(xs), torch.from_numpy(ys) + 5)


@pytest.mark.parametrize("strict", [False, True], ids=["non_strict", "strict"])
def test_torch_export_of_a_pooling_graph_holds_aten_ops_only(strict):
    # (Compiled plans pool through tf1compat's custom ops, ops/_traced_pool.py; an
    # exported program must run without tf1compat.)
    if strict and tuple(int(p) for p in torch.__version__.split(".")[:2]) < (2, 11):
        pytest.skip("strict torch.export of an ExportedModule needs torch >= 2.11")
    x = tf.placeholder(tf.float32, [None, 8, 8, 2], name="x")
    out = tf.layers.max_pooling2d(tf.layers.conv2d(x, 3, 3, padding="same"), 2, 2)
    module = tfx.to_module(out, [x])
    xs = torch.rand(2, 8, 8, 2)
    program = torch.export.export(module, (xs,), strict=strict)
    targets = {str(n.target) for n in program.graph_module.graph.nodes
               if n.op == "call_function"}
    assert "aten.max_pool2d.default" in targets and \
        not any(t.startswith("tf1compat") for t in targets), targets
    np.testing.assert_allclose(program.module()(xs).detach().numpy(),
                               module(xs).detach().numpy(), rtol=1e-6)


# Strict mode traces the module with dynamo; torch 2.4's dynamo cannot read the module's
# state mapping (checked on 2.11 and 2.13).
@pytest.mark.skipif(tuple(int(p) for p in torch.__version__.split(".")[:2]) < (2, 11),
                    reason="strict torch.export of an ExportedModule needs torch >= 2.11")
def test_strict_torch_export_of_a_static_graph():
    x = tf.placeholder(tf.float32, [None, 5], name="x")
    logits = tf.layers.dense(tf.nn.relu(tf.layers.dense(x, 4)), 2)
    module = tfx.to_module(logits, [x])
    xs = torch.from_numpy(_data()[0])
    program = torch.export.export(module, (xs,), strict=True)
    np.testing.assert_allclose(program.module()(xs).detach().numpy(),
                               module(xs).detach().numpy(), rtol=1e-6)


def test_random_ops_block_torch_export_unless_sampled_by_torch():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    keep = tf.placeholder_with_default(1.0, [], name="keep")
    out = tf.nn.dropout(tf.layers.dense(x, 3, name="d"), keep_prob=keep)
    xs = torch.from_numpy(np.ones((2, 4), np.float32))
    module = tfx.to_module(out, [x])
    (problem,) = module.problems()
    assert "RandomUniform op 'dropout/random_uniform/RandomUniform'" in problem
    with pytest.raises(tfx.ExportError, match="random_ops='torch'"):
        torch.export.export(module, (xs,), strict=False)
    sampled = tfx.to_module(out, [x], random_ops="torch")
    assert sampled.problems() == []
    program = torch.export.export(sampled, (xs,), strict=False)
    np.testing.assert_allclose(program.module()(xs).detach().numpy(),
                               module(xs).detach().numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="random_ops"):
        tfx.to_module(out, [x], random_ops="numpy")


def test_tf_random_streams_match_a_fresh_session():
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    out = tf.nn.dropout(x, keep_prob=0.5, seed=4)
    xs = np.ones((3, 6), np.float32)
    module = tfx.to_module(out, [x])
    with tf.Session() as sess:
        for _ in range(2):   # the streams continue across runs, as the session's
            np.testing.assert_array_equal(module(xs).numpy(), sess.run(out, {x: xs}))


def test_torch_compile():
    x, y, logits, loss = _mlp()
    xs, ys = _data()
    module = tfx.to_module(loss, [x, y])
    compiled = torch.compile(module, backend="aot_eager")
    got = compiled(torch.from_numpy(xs), torch.from_numpy(ys))
    got.backward()
    grads = [p.grad.clone() for p in module.parameters()]
    module.zero_grad()
    expected = module(xs, ys)
    expected.backward()
    np.testing.assert_allclose(got.item(), expected.item(), rtol=1e-6)
    for g, p in zip(grads, module.parameters()):
        np.testing.assert_allclose(g.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-7)
