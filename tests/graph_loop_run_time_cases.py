"""Training graphs with a dynamic_rnn over a length known only at run time in a tf.cond
of a loop body (a seq2seq decoder's step), its outputs read where the untaken branch's
stand-in for them (cond_stand_ins.py: 1 in the run-time dim) needs more than its shape:
one row at an index other than 0 or -1 (constant or computed: the begin is 0 where the
branch is not taken), a ConcatV2 along time and Reshapes its elements do not fill (it
is padded with zeros where the branch is not taken); a branch result of a loop's
run-time shape (broadcast to the other branch's where the branch is not taken).
scripts/make_graph_fixtures_loops.py records TF's own graphs of these cases
(tests/test_graph_import.py runs and trains them);
scripts/check_tf_reads_graphs.py records real TF training from tf1compat's file
(`LOOP_RUN_TIME_CASES`, replayed by tests/test_loop_gradient_export.py).
"""

from __future__ import annotations

from tests.graph_loop_nested_cases import _flag_both_ways, _train_outer_loop, _weights


def _rnn_in_cond_in_loop(tf, after, inner: bool = False, backward: bool = False) -> dict:
    """A dynamic_rnn over the fed rows `x` (a length known only at run time) in a
    tf.cond of a loop body (with `inner`, in a tf.cond on the counter's parity in its
    then branch; with `backward`, a bidirectional_dynamic_rnn of their lengths, `out`
    both directions' outputs concatenated, `state` the forward one's),
    `after(out, state, i, w, inputs)` the branch's value; the other branches without a
    loop. GradientDescent; the flag fed both ways."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])
    cell = tf.nn.rnn_cell.BasicRNNCell(3, name="cell")
    cell(tf.zeros([1, 3]), tf.zeros([1, 3]))        # its weights, outside the loops
    if backward:
        cell_bw = tf.nn.rnn_cell.BasicRNNCell(3, name="cell_bw")
        cell_bw(tf.zeros([1, 3]), tf.zeros([1, 3]))

    def body(i, h):
        def rnn():
            inputs = tf.expand_dims(x * v + h, 0)
            if backward:
                (fw, bw), (state, _) = tf.nn.bidirectional_dynamic_rnn(
                    cell, cell_bw, inputs, sequence_length=tf.shape(x)[:1],
                    initial_state_fw=h, initial_state_bw=h)
                return after(tf.concat([fw, bw], 2), state, i, w, inputs)
            out, state = tf.nn.dynamic_rnn(cell, inputs, initial_state=h)
            return after(out, state, i, w, inputs)
        then = (lambda: tf.cond(tf.equal(i % 2, 0), rnn, lambda: tf.tanh(h) * 0.3)) \
            if inner else rnn
        return i + 1, tf.cond(flag, then, lambda: tf.tanh(tf.matmul(h, w))) * 0.9 + h * 0.1

    _train_outer_loop(tf, body, 3, 0.2)
    return _flag_both_ways(tf, fed_n=False)


def case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop(tf):
    """The outputs read at row 2 and, concatenated along time with their tanh, at row
    i + 1 of the outer counter, averaged over time and flattened to steps
    (`_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, _):
        both = tf.concat([out, tf.expand_dims(tf.tanh(tf.matmul(out[0], w)), 0)], 1)
        return state * 0.5 + out[:, 2] * 0.3 + both[:, i + 1] * 0.4 + \
            tf.reduce_mean(both, 1) * 0.2 + \
            tf.reduce_mean(tf.reshape(both, [-1, 3]), 0, keepdims=True) * 0.1
    return _rnn_in_cond_in_loop(tf, after)


def case_train_run_time_length_rnn_outputs_regrouped_in_cond_in_loop(tf):
    """The outputs regrouped by Reshapes the stand-in's elements do not fill: pairs of
    steps (`[-1, 6]`) and the fed length 4 (`[1, 4, 3]`; `_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, _):
        pairs = tf.reshape(out, [-1, 6])
        steps = tf.reshape(tf.tanh(out), [1, 4, 3])
        return state * 0.5 + tf.matmul(
            tf.expand_dims(pairs[-1, 3:] * pairs[-1, :3], 0), w) * 0.4 + \
            tf.reduce_mean(steps, 1) * 0.3
    return _rnn_in_cond_in_loop(tf, after)


def case_train_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop(tf):
    """The outputs concatenated with the rnn's inputs along the units (a skip
    connection: the stand-in, 1 in time, broadcast to the inputs' length) and
    projected, averaged over time (`_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, inputs):
        both = tf.concat([out, inputs], 2)
        return state * 0.5 + tf.tanh(tf.matmul(tf.reduce_mean(both, 1)[:, 1:4], w))
    return _rnn_in_cond_in_loop(tf, after)


def case_train_run_time_length_rnn_outputs_attending_in_cond_in_loop(tf):
    """The outputs attending over the rnn's inputs (BatchMatMulV2 scores against them,
    softmax over the inputs' steps, their weighted sum), projected and averaged over
    time (`_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, inputs):
        scores = tf.matmul(out, inputs, transpose_b=True)
        context = tf.matmul(tf.nn.softmax(scores), inputs)
        return state * 0.5 + tf.reduce_mean(tf.tanh(context * out), 1) * 0.5
    return _rnn_in_cond_in_loop(tf, after)


def case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop(tf):
    """The outputs read at row 2 and regrouped to pairs of steps, the rnn in a tf.cond
    on the counter's parity in a tf.cond's branch (`_rnn_in_cond_in_loop`): where the
    outer branch is not taken, the inner one stands in whatever its predicate (the
    begin and the padding take both predicates)."""
    def after(out, state, i, w, _):
        pairs = tf.reshape(out, [-1, 6])
        return state * 0.5 + out[:, 2] * 0.3 + tf.matmul(
            tf.expand_dims(pairs[-1, 3:], 0), w) * 0.4
    return _rnn_in_cond_in_loop(tf, after, inner=True)


def case_train_run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop(tf):
    """The outputs projected by `w` over the units (tf.tensordot: Reshapes to shapes
    computed from `tf.shape(outputs)`, as `tf.layers.dense` of a 3-D value) and masked
    to all steps but the last (`tf.sequence_mask(lengths, tf.shape(outputs)[1])`)
    before the sum over time (`_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, inputs):
        projected = tf.tensordot(out, w, [[2], [0]])
        lengths = tf.reshape(tf.shape(inputs)[1] - 1, [1])
        mask = tf.sequence_mask(lengths, tf.shape(out)[1], dtype=tf.float32)
        return state * 0.5 + tf.reduce_sum(tf.tanh(projected) * tf.expand_dims(mask, 2),
                                           1) * 0.3
    return _rnn_in_cond_in_loop(tf, after)


def case_train_run_time_length_birnn_outputs_in_cond_in_loop(tf):
    """A bidirectional_dynamic_rnn over the fed rows and their length (its
    ReverseSequences of the outputs, lowered as products with a permutation: none
    past the stand-in's size) in a tf.cond of a loop body, both directions averaged
    over time and projected (`_rnn_in_cond_in_loop`)."""
    def after(out, state, i, w, _):
        both = tf.reduce_mean(out, 1)
        return state * 0.5 + tf.matmul(both[:, :3] * both[:, 3:], w) * 0.4
    return _rnn_in_cond_in_loop(tf, after, backward=True)


def _loop_result_in_cond_in_loop(tf, else_loop: bool) -> dict:
    """A loop over the fed rows (a count known only at run time) in a tf.cond of an
    outer loop body whose state has a row per fed row ([None]): the branch returns
    the stacked rows' sums plus the state's mean, a value of the loop's run-time shape;
    the other branch scales the state (with `else_loop`, returns the same of a loop of
    its own, of rows scaled by 0.7). GradientDescent; the flag fed both ways."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    flag = tf.placeholder(tf.bool, [], name="flag")
    w, v = _weights(tf, 0.3, [0.4, -0.2, 0.3])

    def looped(h, scale):
        n = tf.shape(x)[0]
        _, ta = tf.while_loop(lambda j, ta: j < n, lambda j, ta: (
            j + 1, ta.write(j, tf.tanh(tf.matmul(x[j:j + 1] * scale, w))[0] * v)),
            [tf.constant(0), tf.TensorArray(tf.float32, n, element_shape=[3])])
        return tf.reduce_sum(ta.stack(), 1) + tf.reduce_mean(h) * 0.5

    def body(i, h):
        return i + 1, tf.cond(flag, lambda: looped(h, 1.0),
                              lambda: looped(h, 0.7) if else_loop else h * 0.9)

    _, h = tf.while_loop(lambda i, h: i < 3, body,
                         [tf.constant(0), tf.reduce_sum(x, 1) * 0.1],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _flag_both_ways(tf, fed_n=False)


def case_train_run_time_length_loop_result_in_cond_in_loop(tf):
    """`_loop_result_in_cond_in_loop`, the other branch without a loop (the untaken
    branch's stand-in broadcast to the other branch's shape)."""
    return _loop_result_in_cond_in_loop(tf, False)


def case_train_run_time_length_loop_results_in_both_branches_in_loop(tf):
    """`_loop_result_in_cond_in_loop` with a loop in each branch (each branch's
    stand-in, where it is not taken, broadcast to the taken one's shape)."""
    return _loop_result_in_cond_in_loop(tf, True)


LOOP_RUN_TIME_CASES = [case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_loop,
                       case_train_run_time_length_rnn_outputs_regrouped_in_cond_in_loop,
                       case_train_run_time_length_rnn_outputs_beside_inputs_in_cond_in_loop,
                       case_train_run_time_length_rnn_outputs_attending_in_cond_in_loop,
                       case_train_run_time_length_rnn_outputs_read_at_rows_in_cond_in_cond_in_loop,
                       case_train_run_time_length_rnn_outputs_projected_and_masked_in_cond_in_loop,
                       case_train_run_time_length_birnn_outputs_in_cond_in_loop,
                       case_train_run_time_length_loop_result_in_cond_in_loop,
                       case_train_run_time_length_loop_results_in_both_branches_in_loop]
