"""Golden cases: TF's BlockLSTM / BlockLSTMV2 ops (values up to seq_len_max and TF's
BlockLSTMGrad gradients) and tf.contrib.rnn.LSTMBlockFusedCell. TF 2 has no tf.contrib:
the recorder builds LSTMBlockFusedCell as TF 1.15 does (a tf.layers Layer calling
tf.raw_ops.BlockLSTM, the sequence_length masking and final-state gather of TF 1.15's
LSTMBlockWrapper), so the op itself is TF's."""

import numpy as np


def _rng(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32) * 0.5


def _raw_inputs(tf, units=4, size=3, steps=5, batch=2):
    return dict(x=tf.constant(_rng((steps, batch, size), 1)),
                cs_prev=tf.constant(_rng((batch, units), 2)),
                h_prev=tf.constant(_rng((batch, units), 3)),
                w=tf.constant(_rng((size + units, 4 * units), 4)),
                wci=tf.constant(_rng((units,), 5)), wcf=tf.constant(_rng((units,), 6)),
                wco=tf.constant(_rng((units,), 7)), b=tf.constant(_rng((4 * units,), 8)))


def _block_lstm_case(tf, op, **attrs):
    inputs = _raw_inputs(tf)
    outs = op(seq_len_max=tf.constant(3, tf.int64), **inputs, **attrs)
    # TF's gradient reads only the cs and h outputs' gradients.
    loss = tf.reduce_sum(outs.h * outs.h) + tf.reduce_sum(tf.sin(outs.cs))
    names = sorted(inputs)
    grads = tf.gradients(loss, [inputs[k] for k in names])
    with tf.Session() as sess:
        values, grad_values = sess.run([list(outs), grads])
    # Past seq_len_max TF's CPU kernel leaves the outputs' memory as it found it (its
    # documentation says zeros; tf1compat writes zeros): only the first 3 steps compare.
    return {"outputs": [v[:3] for v in values], "grads": dict(zip(names, grad_values)),
            "shapes": [o.shape.as_list() for o in outs]}


def case_block_lstm(tf):
    return _block_lstm_case(tf, tf.raw_ops.BlockLSTM, forget_bias=0.5, cell_clip=-1.0,
                            use_peephole=False)


def case_block_lstm_peephole_clip(tf):
    return _block_lstm_case(tf, tf.raw_ops.BlockLSTM, forget_bias=1.0, cell_clip=0.4,
                            use_peephole=True)


def case_block_lstm_v2(tf):
    # (values only: TF's gradient of BlockLSTMV2 is V1's BlockLSTMGrad, which reads the
    # gates in V1's order - a TF bug tf1compat does not copy)
    result = _block_lstm_case(tf, tf.raw_ops.BlockLSTMV2, cell_clip=0.0, use_peephole=True)
    del result["grads"]
    return result


def _fused_cell_class(tf):
    if hasattr(tf, "contrib"):
        return tf.contrib.rnn.LSTMBlockFusedCell

    class LSTMBlockFusedCell(tf.layers.Layer):
        def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                     name="lstm_fused_cell"):
            super().__init__(name=name)
            self._units, self._forget_bias = num_units, forget_bias
            self._clip = -1 if cell_clip is None else cell_clip
            self._peephole = use_peephole

        def build(self, input_shape):
            size = input_shape.dims[2].value
            self._kernel = self.add_weight("kernel", [size + self._units, self._units * 4])
            self._bias = self.add_weight("bias", [self._units * 4],
                                         initializer=tf.constant_initializer(0.0))
            if self._peephole:
                self._diag = [self.add_weight(n, [self._units])
                              for n in ("w_i_diag", "w_f_diag", "w_o_diag")]
            self.built = True

        def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
            batch = inputs.shape.dims[1].value
            time_len = inputs.shape.dims[0].value
            if initial_state is None:
                zeros = tf.zeros(tf.stack([batch, self._units]), dtype=dtype)
                initial_state = zeros, zeros
            wci, wcf, wco = self._diag if self._peephole else \
                [tf.zeros([self._units], dtype=dtype)] * 3
            max_len = tf.cast(time_len, tf.int64) if sequence_length is None else \
                tf.cast(tf.reduce_max(sequence_length), tf.int64)
            out = tf.raw_ops.BlockLSTM(
                seq_len_max=max_len, x=inputs, cs_prev=initial_state[0],
                h_prev=initial_state[1], w=self._kernel, wci=wci, wcf=wcf, wco=wco,
                b=self._bias, forget_bias=self._forget_bias, cell_clip=self._clip,
                use_peephole=self._peephole)
            cs, h = out.cs, out.h
            if sequence_length is None:
                return h, tf.nn.rnn_cell.LSTMStateTuple(cs[-1], h[-1])
            mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype))
            h *= tf.tile(tf.expand_dims(mask, [-1]), [1, 1, self._units])
            cs = tf.concat([tf.expand_dims(initial_state[0], [0]), cs], 0)
            hs = tf.concat([tf.expand_dims(initial_state[1], [0]), h], 0)
            where = tf.stack([sequence_length, tf.range(batch)], axis=1)
            return h, tf.nn.rnn_cell.LSTMStateTuple(tf.gather_nd(cs, where),
                                                    tf.gather_nd(hs, where))
    return LSTMBlockFusedCell


def case_lstm_block_fused_cell(tf):
    x = tf.constant(_rng((6, 3, 2), 9))
    lengths = tf.constant([6, 2, 0])
    with tf.variable_scope("rnn", initializer=tf.glorot_uniform_initializer(seed=1)):
        cell = _fused_cell_class(tf)(5, forget_bias=0.5, use_peephole=True)
        outputs, state = cell(x, dtype=tf.float32, sequence_length=lengths)
        plain_outputs, plain_state = _fused_cell_class(tf)(5, name="plain")(
            x, dtype=tf.float32)
    loss = tf.reduce_sum(outputs) + tf.reduce_sum(state.c * plain_state.h)
    variables = tf.trainable_variables()
    grads = tf.gradients(loss, variables)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run({"outputs": outputs, "c": state.c, "h": state.h,
                           "plain": plain_outputs, "plain_h": plain_state.h, "grads": grads})
    values["variables"] = [(v.name, v.shape.as_list()) for v in variables]
    values["names"] = [outputs.name, state.c.name]
    return values
