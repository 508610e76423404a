"""Golden cases: TF 1.15's contrib research cells and wrappers (ConvLSTMCell family,
AttentionCellWrapper, HighwayWrapper, IndRNN/Indy*, SRU, UGRNN, IntersectionRNN, NAS,
CoupledInputForgetGateLSTMCell, PhasedLSTMCell, CompiledWrapper) and the fused-RNN
adaptors. TF 2.x has no contrib: the oracle is TF 1.15's rnn_cell.py and fused_rnn_cell.py
run under TF 2.21's tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`).

Every case runs the cell through dynamic_rnn (or the adaptor), loads seeded values into
all variables (sorted by name; TF's own initializers are unseeded), and compares variable
names and shapes, state_size/output_size, outputs, final states and the gradients of a
loss with respect to the inputs and every trainable variable."""

import types

import numpy as np

from tests.golden.harness import catch, tolerance


def _rnn(tf):
    if hasattr(tf, "contrib"):
        return tf.contrib.rnn
    import oracle_contrib
    package = "contrib.rnn.python.ops"
    core = oracle_contrib.tf115_package(package, ["core_rnn_cell"])
    del core
    import sys
    jit = types.ModuleType("jit")
    jit.experimental_jit_scope = tf.xla.experimental.jit_scope
    layers = types.ModuleType("layers")
    layers.layer_norm = _layer_norm_stand_in(tf)
    stubs = {"tensorflow.contrib.compiler": {"jit": jit},
             "tensorflow.contrib.layers.python.layers": {"layers": layers},
             "tensorflow.contrib.rnn.python.ops":
                 {"core_rnn_cell": sys.modules[f"tf115.{package}.core_rnn_cell"]}}
    return oracle_contrib.tf115_package(package, ["rnn_cell", "fused_rnn_cell"], stubs)


def _layer_norm_stand_in(tf):
    """TF 1.15's contrib layer_norm as CoupledInputForgetGateLSTMCell calls it (variables
    already made, center and scale, normalized over all axes but the first)."""
    def layer_norm(inputs, reuse=None, scope=None):
        with tf.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse):
            shape = inputs.shape[-1:]
            beta = tf.get_variable("beta", shape, initializer=tf.zeros_initializer())
            gamma = tf.get_variable("gamma", shape, initializer=tf.ones_initializer())
            axes = list(range(1, inputs.shape.ndims))
            mean, variance = tf.nn.moments(inputs, axes, keep_dims=True)
            return tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                             variance_epsilon=1e-12)
    return layer_norm


def _rng(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)


def _size(size):
    """A state/output size as plain lists (TensorShapes as their dims)."""
    if isinstance(size, (tuple, list)):
        return [_size(s) for s in size]
    if hasattr(size, "as_list"):
        return {"shape": size.as_list()}
    return int(size)


def _value(name, shape, index):
    rng = np.random.RandomState(200 + index)
    if "/period" in name:
        return rng.uniform(2.0, 6.0, shape).astype(np.float32)
    if "/phase" in name:
        return rng.uniform(0.0, 2.0, shape).astype(np.float32)
    if "/ratio_on" in name:
        return np.full(shape, 0.3, np.float32)
    return rng.uniform(-0.6, 0.6, shape).astype(np.float32)


def _evaluate(tf, xs, outputs, state, extra=None):
    """Seeded variables; outputs, flattened final state and the gradients of a loss."""
    flat_state = tf.nest.flatten(state)
    flat_out = tf.nest.flatten(outputs)
    loss = tf.add_n([tf.reduce_sum(o * o) for o in flat_out] +
                    [tf.reduce_sum(tf.sin(s)) for s in flat_state])
    variables = sorted(tf.global_variables(), key=lambda v: v.name)
    trainable = sorted(tf.trainable_variables(), key=lambda v: v.name)
    grads = tf.gradients(loss, list(xs) + trainable)
    fetches = {"out": flat_out, "state": flat_state,
               "grads": [g for g in grads if g is not None]}
    fetches.update(extra or {})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i, v in enumerate(variables):
            sess.run(tf.assign(v, _value(v.name, v.shape.as_list(), i)))
        values = sess.run(fetches)
    values["vars"] = [[v.name, v.shape.as_list()] for v in variables]
    values["trainable"] = [v.name for v in trainable]
    values["grad_nones"] = [g is None for g in grads]
    return values


def _each(tf, makers, shape, seed, **kwargs):
    """Each named cell maker through _dynamic in a graph of its own."""
    out = {}
    for name, make in makers:
        with tf.Graph().as_default():
            out[name] = _dynamic(tf, make(), tf.constant(_rng(shape, seed)), **kwargs)
    return out


def _dynamic(tf, cell, x, **kwargs):
    with tf.variable_scope("model"):
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, **kwargs)
    result = _evaluate(tf, [x], out, state)
    result["sizes"] = [_size(cell.state_size), _size(cell.output_size)]
    return result


# -- convolutional LSTMs -------------------------------------------------------------------------

@tolerance(1e-4, 1e-5)
def case_conv2d_lstm(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 3, 5, 4, 2], 1))
    cell = rnn.Conv2DLSTMCell(input_shape=[5, 4, 2], output_channels=3, kernel_shape=[3, 3],
                              forget_bias=0.5)
    return _dynamic(tf, cell, x, sequence_length=[3, 2])


@tolerance(1e-4, 1e-5)
def case_conv1d_lstm_no_bias(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 4, 6, 2], 2))
    cell = rnn.Conv1DLSTMCell(input_shape=[6, 2], output_channels=3, kernel_shape=[3],
                              use_bias=False)
    return _dynamic(tf, cell, x)


@tolerance(1e-4, 1e-5)
def case_conv1d_lstm_skip_connection(tf):
    # The skip connection widens the hidden state TF feeds back, so only one step runs;
    # dynamic_rnn raises (the state changes shape in the loop), as in TF 1.15.
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 6, 2], 2))
    cell = rnn.Conv1DLSTMCell(input_shape=[6, 2], output_channels=3, kernel_shape=[3],
                              skip_connection=True)
    with tf.variable_scope("model"):
        out, state = cell(x, cell.zero_state(2, tf.float32))
    result = _evaluate(tf, [x], out, state)
    result["sizes"] = [_size(cell.state_size), _size(cell.output_size)]
    result["shapes"] = [out.shape.as_list(), state.h.shape.as_list()]
    result["dynamic"] = catch(lambda: tf.nn.dynamic_rnn(
        rnn.Conv1DLSTMCell(input_shape=[6, 2], output_channels=3, kernel_shape=[3],
                           skip_connection=True, name="other"),
        tf.constant(_rng([2, 4, 6, 2], 2)), dtype=tf.float32))
    return result


@tolerance(1e-4, 1e-5)
def case_conv3d_lstm(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([1, 2, 3, 3, 2, 1], 3))
    cell = rnn.ConvLSTMCell(3, input_shape=[3, 3, 2, 1], output_channels=2,
                            kernel_shape=[2, 2, 2])
    result = _dynamic(tf, cell, x)
    result["bad_shape"] = catch(lambda: rnn.ConvLSTMCell(2, [3, 3], 2, [2, 2]), message=True)
    return result


# -- wrappers ------------------------------------------------------------------------------------

@tolerance(1e-4, 1e-5)
def case_attention_cell_wrapper(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 4, 3], 4))
    cell = rnn.AttentionCellWrapper(tf.nn.rnn_cell.LSTMCell(4), attn_length=3,
                                    attn_vec_size=5)
    result = _dynamic(tf, cell, x, sequence_length=[4, 3])
    result["bad_length"] = catch(lambda: rnn.AttentionCellWrapper(
        tf.nn.rnn_cell.GRUCell(2), attn_length=0), message=True)
    result["bad_tuple"] = catch(lambda: rnn.AttentionCellWrapper(
        tf.nn.rnn_cell.LSTMCell(2), attn_length=2, state_is_tuple=False), message=True)
    return result


@tolerance(1e-4, 1e-5)
def case_attention_cell_wrapper_concat_state(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 3, 2], 5))
    cell = rnn.AttentionCellWrapper(tf.nn.rnn_cell.GRUCell(3), attn_length=2, attn_size=4,
                                    input_size=5, state_is_tuple=False)
    return _dynamic(tf, cell, x)


@tolerance(1e-5, 1e-6)
def case_highway_wrapper(tf):
    rnn = _rnn(tf)
    x = tf.constant(_rng([2, 3, 3], 6))
    with tf.variable_scope("coupled"):
        a = _dynamic(tf, rnn.HighwayWrapper(tf.nn.rnn_cell.GRUCell(3)), x)
    with tf.variable_scope("uncoupled"):
        cell = rnn.HighwayWrapper(tf.nn.rnn_cell.BasicRNNCell(3),
                                  couple_carry_transform_gates=False, carry_bias_init=0.5)
        b = _dynamic(tf, cell, x)
    return {"coupled": a, "uncoupled": b}


@tolerance(1e-5, 1e-6)
def case_compiled_wrapper(tf):
    rnn = _rnn(tf)
    out = {}
    for stateful in (True, False):
        with tf.Graph().as_default():
            x = tf.constant(_rng([2, 3, 2], 7))
            cell = rnn.CompiledWrapper(tf.nn.rnn_cell.LSTMCell(3), compile_stateful=stateful)
            result = _dynamic(tf, cell, x)
            marks = set()
            for op in tf.get_default_graph().get_operations():
                if op.type in ("MatMul", "BiasAdd", "Sigmoid", "VariableV2"):
                    try:
                        marks.add((op.type, op.get_attr("_XlaCompile")))
                    except ValueError:
                        marks.add((op.type, None))
            result["xla_compile"] = sorted(marks)
            out[f"stateful_{stateful}"] = result
    return out


# -- independently recurrent and simple recurrent units ------------------------------------------

@tolerance(1e-5, 1e-6)
def case_ind_rnn_cells(tf):
    rnn = _rnn(tf)
    out = {}
    cells = (("ind", lambda: rnn.IndRNNCell(4)), ("indy_gru", lambda: rnn.IndyGRUCell(4)),
             ("indy_lstm", lambda: rnn.IndyLSTMCell(4, forget_bias=0.5)),
             ("sru", lambda: rnn.SRUCell(4)))
    for name, make in cells:
        with tf.Graph().as_default():
            xg = tf.constant(_rng([2, 4, 3], 8))
            out[name] = _dynamic(tf, make(), xg, sequence_length=[4, 2])
    return out


@tolerance(1e-5, 1e-6)
def case_ugrnn_and_intersection(tf):
    rnn = _rnn(tf)
    cells = (("ugrnn", lambda: rnn.UGRNNCell(4, forget_bias=0.5)),
             ("intersection", lambda: rnn.IntersectionRNNCell(3)),
             ("intersection_proj", lambda: rnn.IntersectionRNNCell(4, num_in_proj=4)))
    out = _each(tf, cells, [2, 3, 3], 9)
    with tf.Graph().as_default():
        xg = tf.constant(_rng([2, 3, 3], 9))
        # (class only: TF 2.21's autograph rewraps the message of TF 1.15's cell)
        out["intersection_bad"] = catch(lambda: tf.nn.dynamic_rnn(
            rnn.IntersectionRNNCell(4), xg, dtype=tf.float32))
    return out


@tolerance(1e-5, 1e-6)
def case_nas_cell(tf):
    rnn = _rnn(tf)
    configs = (("plain", {}), ("proj_bias", {"num_proj": 2, "use_bias": True}))
    return _each(tf, [(name, lambda kw=kw: rnn.NASCell(4, **kw)) for name, kw in configs],
                 [2, 3, 3], 10)


@tolerance(1e-5, 1e-6)
def case_coupled_input_forget_gate_lstm(tf):
    rnn = _rnn(tf)
    configs = (("plain", {}),
               ("peephole_proj", {"use_peepholes": True, "num_proj": 3, "proj_clip": 0.4,
                                  "forget_bias": 0.5}),
               ("shards", {"num_unit_shards": 2, "num_proj": 3, "num_proj_shards": 2}),
               ("concat_state", {"state_is_tuple": False, "num_proj": 2}),
               ("layer_norm", {"layer_norm": True, "norm_gain": 0.8, "norm_shift": 0.1,
                               "use_peepholes": True}))
    return _each(tf, [(name, lambda kw=kw: rnn.CoupledInputForgetGateLSTMCell(4, **kw))
                      for name, kw in configs], [2, 3, 3], 11)


@tolerance(1e-5, 1e-6)
def case_glstm_cell(tf):
    rnn = _rnn(tf)
    configs = (("one_group", {}), ("groups", {"number_of_groups": 2}),
               ("groups_proj", {"number_of_groups": 2, "num_proj": 2, "forget_bias": 0.5}))
    out = _each(tf, [(name, lambda kw=kw: rnn.GLSTMCell(4, **kw)) for name, kw in configs],
                [2, 3, 4], 15)
    out["bad_units"] = catch(lambda: rnn.GLSTMCell(3, number_of_groups=2), message=True)
    out["bad_proj"] = catch(lambda: rnn.GLSTMCell(4, num_proj=3, number_of_groups=2),
                            message=True)
    return out


@tolerance(1e-4, 1e-5)
def case_phased_lstm(tf):
    rnn = _rnn(tf)
    out = {}
    # (float64 times stay float64: the cycle ratio is computed in the time's dtype)
    configs = (("plain", {}, np.float32),
               ("peepholes_float64_time", {"use_peepholes": True, "trainable_ratio_on": False},
                np.float64))
    for name, kwargs, time_dtype in configs:
        with tf.Graph().as_default():
            times = np.cumsum(np.random.RandomState(12).uniform(0.3, 1.3, [2, 5, 1]), axis=1)
            t = tf.constant(times.astype(time_dtype))
            xg = tf.constant(_rng([2, 5, 3], 13))
            cell = rnn.PhasedLSTMCell(4, **kwargs)
            with tf.variable_scope("model"):
                o, s = tf.nn.dynamic_rnn(cell, (t, xg), dtype=tf.float32)
            result = _evaluate(tf, [xg], o, s)
            result["sizes"] = [_size(cell.state_size), _size(cell.output_size)]
            out[name] = result
    return out


# -- fused adaptors ------------------------------------------------------------------------------

@tolerance(1e-5, 1e-6)
def case_fused_rnn_adaptors(tf):
    rnn = _rnn(tf)
    out = {}
    for name, dynamic in (("static", False), ("dynamic", True)):
        with tf.Graph().as_default():
            x = tf.constant(_rng([4, 2, 3], 14))
            lengths = tf.constant([4, 2])
            fused = rnn.FusedRNNCellAdaptor(tf.nn.rnn_cell.GRUCell(3), use_dynamic_rnn=dynamic)
            o, s = fused(x, dtype=tf.float32, sequence_length=lengths, scope="fw")
            reverse = rnn.TimeReversedFusedRNN(
                rnn.FusedRNNCellAdaptor(tf.nn.rnn_cell.LSTMCell(2), use_dynamic_rnn=dynamic))
            ro, rs = reverse(x, dtype=tf.float32, sequence_length=lengths, scope="bw")
            steps = tf.unstack(x)
            lo, ls = reverse(steps, dtype=tf.float32, scope="bw_list")
            out[name] = _evaluate(tf, [x], [o, ro, lo], [s, rs, ls])
            out[name]["list_out"] = [type(lo).__name__, len(lo)]
    return out


# -- time-frequency LSTMs ------------------------------------------------------------------------

@tolerance(1e-5, 1e-6)
def case_time_freq_lstm(tf):
    # TF 1.15's state_size (2 * units) is not the state the cell carries (2 * units per
    # frequency window), so the cell is stepped by hand from an explicit state.
    rnn = _rnn(tf)
    out = {}
    configs = (("plain", {}), ("peephole_clip_shards", {"use_peepholes": True,
                                                        "cell_clip": 0.3,
                                                        "num_unit_shards": 2}))
    for name, kwargs in configs:
        with tf.Graph().as_default():
            xs = [tf.constant(_rng([2, 5], 16 + t)) for t in range(3)]
            cell = rnn.TimeFreqLSTMCell(3, feature_size=3, frequency_skip=2, **kwargs)
            state = tf.constant(_rng([2, 12], 19))
            outputs = []
            with tf.variable_scope("model"):
                for x in xs:
                    o, state = cell(x, state)
                    outputs.append(o)
            result = _evaluate(tf, xs, outputs, state)
            result["sizes"] = [_size(cell.state_size), _size(cell.output_size)]
            out[name] = result
    return out


@tolerance(1e-5, 1e-6)
def case_grid_lstm(tf):
    rnn = _rnn(tf)
    configs = (
        ("plain", {"feature_size": 2, "frequency_skip": 1, "num_frequency_blocks": [3]}),
        ("blocks_peephole_shared_coupled", {
            "feature_size": 2, "frequency_skip": 1, "num_frequency_blocks": [2, 2],
            "start_freqindex_list": [0, 1], "end_freqindex_list": [3, 4],
            "use_peepholes": True, "share_time_frequency_weights": True,
            "couple_input_forget_gates": True, "cell_clip": 0.5}),
        ("peephole_concat_state", {
            "feature_size": 3, "frequency_skip": 1, "num_frequency_blocks": [2],
            "use_peepholes": True, "state_is_tuple": False, "forget_bias": 0.5}))
    out = _each(tf, [(name, lambda kw=kw: rnn.GridLSTMCell(2, **kw)) for name, kw in configs],
                [2, 3, 4], 20)
    with tf.Graph().as_default():
        x = tf.constant(_rng([2, 3, 4], 20))
        out["bad_blocks"] = catch(lambda: tf.nn.dynamic_rnn(rnn.GridLSTMCell(
            2, feature_size=2, frequency_skip=1, num_frequency_blocks=[2]), x,
            dtype=tf.float32))
    out["no_blocks"] = catch(lambda: rnn.GridLSTMCell(2), message=True)
    return out


@tolerance(1e-5, 1e-6)
def case_bidirectional_grid_lstm(tf):
    rnn = _rnn(tf)
    configs = (("plain", {}), ("offset_peephole", {"backward_slice_offset": 1,
                                                   "use_peepholes": True}))
    return _each(tf, [(name, lambda kw=kw: rnn.BidirectionalGridLSTMCell(
        2, feature_size=2, frequency_skip=1, num_frequency_blocks=[3], **kw))
        for name, kw in configs], [2, 3, 4], 21)
