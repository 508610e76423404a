"""dynamic_rnn on torch's fused kernels (rnn/fused.py) against the cell loop it replaces:
same outputs, states and gradients (inputs, initial state, every variable)."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.rnn import fused
from tf1compat.rnn.fused_weights import cell_weights

B, T, D = 4, 6, 3


def _cells(kind):
    rnn = tf.nn.rnn_cell
    return {
        "basic_lstm": lambda: rnn.BasicLSTMCell(5),
        "basic_lstm_concat": lambda: rnn.BasicLSTMCell(5, forget_bias=0.3, state_is_tuple=False),
        "lstm": lambda: rnn.LSTMCell(5, forget_bias=0.5),
        "rnn_tanh": lambda: rnn.BasicRNNCell(4),
        "rnn_relu": lambda: rnn.BasicRNNCell(4, activation=tf.nn.relu),
        "multi": lambda: rnn.MultiRNNCell([rnn.LSTMCell(5), rnn.BasicLSTMCell(3)]),
    }[kind]()


def _run_both(build, feeds_fn, monkeypatch):
    """Builds the graph once; runs it with the fast path off and on; returns both
    results and how often the fused kernels ran."""
    calls = []
    original = fused._run_layers

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(fused, "_run_layers", counting)
    results = []
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        fetches, feeds = build()
        init = tf.global_variables_initializer()
        for flag in ("0", "1"):
            monkeypatch.setenv("TF1COMPAT_FUSED_RNN", flag)
            with tf.Session() as sess:
                sess.run(init)
                results.append(sess.run(fetches, feeds_fn(feeds)))
    return results, len(calls)


# With a GPU the graph runs on cuda:0 and the fused path on cuDNN, whose RNN kernels sum
# in another order than the cell loop's matmuls. Measured on an H100 over these tests'
# cases: with TF32 off (tests/conftest.py) the largest difference is 8.9e-5 (values up
# to ~3, gradients included), all within rtol 2e-4 / atol 5e-5; so float32 rounding, not
# TF32 (with TF32 on the differences reach 2.4e-2).
_TOLERANCE = dict(rtol=2e-4, atol=5e-5) if torch.cuda.is_available() else \
    dict(rtol=2e-5, atol=2e-6)


def _assert_same(a, b):
    for x, y in zip(tf.nest.flatten(a), tf.nest.flatten(b)):
        np.testing.assert_allclose(x, y, **_TOLERANCE)


def _graph(kind, lengths, time_major=False, dtype=tf.float32, use_resource=False):
    def build():
        shape = [T, B, D] if time_major else [B, T, D]
        x = tf.placeholder(dtype, shape)
        seq = tf.placeholder(tf.int32, [B]) if lengths is not None else None
        with tf.variable_scope("v", use_resource=use_resource):
            cell = _cells(kind)
            init = cell.zero_state(B, dtype)
            init = tf.nest.map_structure(lambda s: s + 0.1, init)
            out, state = tf.nn.dynamic_rnn(cell, x, sequence_length=seq, initial_state=init,
                                           time_major=time_major)
        loss = tf.reduce_sum(out * out) + sum(tf.reduce_sum(tf.sin(s))
                                               for s in tf.nest.flatten(state))
        sources = [x] + tf.nest.flatten(init) + tf.trainable_variables()
        grads = tf.gradients(loss, sources)
        return (out, state, grads), (x, seq)

    def feeds(ph):
        rng = np.random.RandomState(0)
        x, seq = ph
        shape = [T, B, D] if time_major else [B, T, D]
        d = {x: rng.randn(*shape).astype(dtype.as_numpy_dtype)}
        if seq is not None:
            d[seq] = lengths
        return d
    return build, feeds


@pytest.mark.parametrize("kind", ["basic_lstm", "basic_lstm_concat", "lstm", "rnn_tanh",
                                  "rnn_relu", "multi"])
@pytest.mark.parametrize("lengths", [None, [6, 2, 0, 9]])
def test_fused_matches_cell_loop(kind, lengths, monkeypatch):
    (loop, fast), calls = _run_both(*_graph(kind, lengths), monkeypatch)
    assert calls >= 1
    _assert_same(loop, fast)
    if lengths is not None:
        out = fast[0]
        assert not out[2].any() and not out[1, 2:].any()   # rows past their length


def test_time_major_float64_resource_variables(monkeypatch):
    (loop, fast), calls = _run_both(*_graph("lstm", [3, 6, 1, 2], time_major=True,
                                            dtype=tf.float64, use_resource=True), monkeypatch)
    assert calls >= 1
    _assert_same(loop, fast)


def test_bidirectional(monkeypatch):
    def build():
        x = tf.placeholder(tf.float32, [B, T, D])
        seq = tf.placeholder(tf.int32, [B])
        (fw, bw), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(
            tf.nn.rnn_cell.LSTMCell(4), tf.nn.rnn_cell.LSTMCell(4), x, sequence_length=seq,
            dtype=tf.float32)
        loss = tf.reduce_sum(fw * bw) + tf.reduce_sum(sf.h) + tf.reduce_sum(sb.c)
        return (fw, bw, sf, sb, tf.gradients(loss, [x] + tf.trainable_variables())), (x, seq)

    def feeds(ph):
        return {ph[0]: np.random.RandomState(1).randn(B, T, D).astype(np.float32),
                ph[1]: [6, 3, 1, 5]}
    (loop, fast), calls = _run_both(build, feeds, monkeypatch)
    assert calls >= 2
    _assert_same(loop, fast)


def test_unfusable_cells_say_why():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [B, T, D])
        tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, dtype=tf.float32, scope="g")
        tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(3, use_peepholes=True), x,
                          dtype=tf.float32, scope="p")
        tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32, scope="ok")
        loops = {op.name.split("/")[0]: op.get_attr("loop")
                 for op in tf.get_default_graph().get_operations() if op.type == "While"}
    assert "reset gate" in loops["g"].fast_path_reason and loops["g"].fast_path is None
    assert "peepholes" in loops["p"].fast_path_reason
    assert loops["ok"].fast_path is not None and loops["ok"].fast_path_reason is None


def test_training_updates_match(monkeypatch):
    def build():
        x = tf.placeholder(tf.float32, [B, T, D])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
        loss = tf.reduce_mean(tf.square(out - 0.5))
        step = tf.train.AdamOptimizer(0.05).minimize(loss)
        with tf.control_dependencies([step]):
            after = [tf.identity(v) for v in tf.trainable_variables()]
        return after, (x, None)

    def feeds(ph):
        return {ph[0]: np.random.RandomState(2).randn(B, T, D).astype(np.float32)}
    (loop, fast), calls = _run_both(build, feeds, monkeypatch)
    assert calls >= 1
    _assert_same(loop, fast)


@pytest.mark.parametrize("kind", ["lstm", "rnn_tanh"])
def test_cell_weights_gradients(kind):
    """The one autograd node re-laying TF's kernel and bias for torch's kernels."""
    depth, units = 3, 2
    gates = 4 if kind == "lstm" else 1
    kernel = torch.randn(depth + units, gates * units, dtype=torch.float64,
                         requires_grad=True)
    bias = torch.randn(gates * units, dtype=torch.float64, requires_grad=True)

    def relaid(k, b):
        return cell_weights(kind, units, 0.7, k, b, depth)[:3]
    torch.autograd.gradcheck(relaid, (kernel, bias))
    w_ih, w_hh, b_ih, b_hh = cell_weights(kind, units, 0.7, kernel, bias, depth)
    order = [0, 1, 4, 5, 2, 3, 6, 7] if kind == "lstm" else [0, 1]
    torch.testing.assert_close(w_ih, kernel[:depth, order].t())
    torch.testing.assert_close(w_hh, kernel[depth:, order].t())
    shift = torch.tensor([0, 0, 0.7, 0.7, 0, 0, 0, 0] if kind == "lstm" else [0, 0.0],
                         dtype=torch.float64)
    torch.testing.assert_close(b_ih, bias[order] + shift)
    assert not b_hh.requires_grad and not b_hh.any()
    # one buffer, in the order torch's kernels (and cuDNN) read
    assert w_hh.data_ptr() > w_ih.data_ptr() and \
        w_ih.untyped_storage().data_ptr() == b_hh.untyped_storage().data_ptr()


def test_cell_weights_backward_is_an_exact_relayout():
    """The gradients reaching TF's kernel and bias are the LSTM kernel's own weight
    gradients moved, bit for bit (no arithmetic): what lets an optimizer update a
    variable kept in torch's layout give today's results exactly (docs/performance.md
    "## lstm11")."""
    depth, units, steps, batch = 5, 4, 3, 2
    gen = torch.Generator().manual_seed(0)
    kernel = torch.randn(depth + units, 4 * units, generator=gen, requires_grad=True)
    bias = torch.randn(4 * units, generator=gen, requires_grad=True)
    x = torch.randn(steps, batch, depth, generator=gen)
    hx = (torch.randn(1, batch, units, generator=gen),) * 2
    grad_out = torch.randn(steps, batch, units, generator=gen)
    relaid = cell_weights("lstm", units, 1.0, kernel, bias, depth)
    leaves = [p.detach().clone().requires_grad_() for p in relaid[:3]] + [relaid[3]]
    for params, wrt in ((list(relaid), (kernel, bias)), (leaves, leaves[:3])):
        out = torch._VF.lstm(x, hx, params, True, 1, 0.0, True, False, False)[0]
        out.backward(grad_out, inputs=list(wrt))
    order = [*range(units), *range(2 * units, 3 * units), *range(units, 2 * units),
             *range(3 * units, 4 * units)]
    assert torch.equal(kernel.grad[:depth, order].t(), leaves[0].grad)
    assert torch.equal(kernel.grad[depth:, order].t(), leaves[1].grad)
    assert torch.equal(bias.grad[order], leaves[2].grad)


def test_training_step_has_no_unbind_stack_pair_nor_host_reads(monkeypatch):
    """The input array's block feeds the kernel, the outputs go back as one block that
    stack returns as it is, and nothing is read back from the (possibly CUDA) values."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [B, T, D])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
        loss = tf.reduce_mean(tf.square(out))
        step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: np.ones([B, T, D], np.float32)}
            sess.run(step, feed)
            calls = []
            for name in ("tolist", "item", "__int__", "__bool__", "unbind"):
                original = getattr(torch.Tensor, name)
                monkeypatch.setattr(torch.Tensor, name, (lambda name, original: lambda *a: (
                    calls.append(name), original(*a))[1])(name, original))
            sess.run(step, feed)
            monkeypatch.undo()
            with torch.profiler.profile() as prof:
                sess.run(step, feed)
    assert calls == []
    counts = {e.key: e.count for e in prof.key_averages()}
    assert not [k for k in counts if "unbind" in k.lower() or "StackBackward" in k]


@pytest.mark.parametrize("kind,want", [
    ("basic_lstm", B * 20 * (D + 5)),             # batch x 4 * units x (input + units)
    ("basic_lstm_concat", B * 20 * (D + 5)),
    ("rnn_tanh", B * 4 * (D + 4)),
    ("multi", max(B * 20 * (D + 5), B * 12 * (5 + 3))),    # the larger layer's
])
@pytest.mark.parametrize("lengths", [None, [6, 2, 0, 9]])
def test_step_macs_reads_the_largest_layer_s_product(kind, want, lengths):
    """What the thread policy reads (runtime/thread_tuner.py `small_kernels`); None
    where the batch is not static."""
    for batch, expected in ((B, want), (None, None)):
        with tf.Graph().as_default() as g:
            x = tf.placeholder(tf.float32, [batch, T, D])
            seq = None if lengths is None else tf.placeholder(tf.int32, [batch])
            tf.nn.dynamic_rnn(_cells(kind), x, sequence_length=seq, dtype=tf.float32)
            loops = [op for op in g.get_operations() if op.type == "While"]
            assert len(loops) == 1
            assert loops[0].get_attr("loop").fast_path.step_macs(loops[0]) == expected
