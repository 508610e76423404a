"""Golden cases: what third-party TF1 scripts and research test suites tripped over (issue 12).

Dimension objects in shape lists, iterables as var_list, nested feed keys, SparseTensor
operators, sparse_retain with a mask of unknown rank, map_fn over strings, grad_ys of
another shape, `op.op_def`.
"""

import numpy as np

from tests.golden.harness import catch, describe


def case_dimension_in_shape_lists(tf):
    D = tf.Dimension
    x = tf.placeholder(tf.float32, [None, 7, 7, 64])
    flat = tf.reshape(x, [-1, D(3136)])
    flat2 = tf.reshape(x, [-1, x.shape[1] * x.shape[2] * x.shape[3]])
    z = tf.zeros([4, 6])
    out = {
        "reshape": describe(flat), "reshape_product": describe(flat2),
        "tile": describe(tf.tile(tf.zeros([2]), [D(2)])),
        "transpose": describe(tf.transpose(tf.zeros([2, 3]), [D(1), 0])),
        "fill": describe(tf.fill([D(2), 3], 1.0)),
        "zeros": describe(tf.zeros([D(2), 3])),
        "one_hot": describe(tf.one_hot([1], D(3))),
        "range": describe(tf.range(D(3))),
        "expand_dims": describe(tf.expand_dims(tf.zeros([4]), D(0))),
        "reduce_axis": describe(tf.reduce_sum(z, D(1))),
        "reduce_axis_list": describe(tf.reduce_sum(z, [D(1)])),
        "pad": describe(tf.pad(z, [[D(1), 0], [0, 0]])),
        "const_int64": describe(tf.constant([-1, D(3)], tf.int64)),
        "stack": describe(tf.stack([D(2), 3])),
        "split_dim": [describe(t) for t in tf.split(z, D(2), axis=1)],
        "split_axis_dim": [describe(t) for t in tf.split(z, 2, axis=D(1))],
        "split_one": [type(tf.split(z, 1)).__name__, len(tf.split(z, 1))],
        "getitem": describe(z[:, :D(3)]),
        "ones_dim": describe(tf.ones(D(3))),
        "resize": describe(tf.image.resize_images(tf.zeros([1, 4, 4, 3]), [D(2), D(2)])),
        "sequence_mask": describe(tf.sequence_mask([1, 2], D(3))),
        "const_no_dtype": catch(lambda: tf.constant([-1, D(3)]), message=True),
        "const_float": catch(lambda: tf.constant([1, D(3)], tf.float32), message=True),
        "slice_begin": catch(lambda: tf.slice(z, [0, D(1)], [D(2), -1])),
        "split_unknown": catch(lambda: tf.split(z, D(None)), message=True),
        "split_list": catch(lambda: tf.split(z, [D(2), 4], axis=1)),
    }
    with tf.Session() as sess:
        out["value"] = sess.run(flat, {x: np.arange(2 * 3136, dtype=np.float32).reshape(
            2, 7, 7, 64)})[:, :5]
    return out


def case_var_list_iterables(tf):
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(2.0, name="w")
    loss = v * w
    opt = tf.train.GradientDescentOptimizer(0.5)
    train = opt.minimize(loss, var_list={"b": w, "a": v}.values())
    pairs = tf.train.AdamOptimizer(0.1).compute_gradients(loss, var_list={"a": v}.values())
    ranged = opt.compute_gradients(loss, var_list=[v, (w,)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        values = sess.run([v, w])
    return {"values": values, "pairs": [(g.name, var.name) for g, var in pairs],
            "nested": [var.name for _, var in ranged],
            "generator": catch(lambda: opt.compute_gradients(loss,
                                                             var_list=(q for q in [v, w])))}


def case_feed_nested_keys(tf):
    cell = tf.nn.rnn_cell.LSTMCell(3)
    state = cell.zero_state(2, tf.float32)
    a = tf.placeholder(tf.float32, [2], name="a")
    b = tf.placeholder(tf.float32, [2], name="b")
    total = state.c + state.h
    with tf.Session() as sess:
        zeros = sess.run(state)
        fed = sess.run(total, {state: (np.ones((2, 3), np.float32),
                                       2 * np.ones((2, 3), np.float32))})
        as_value = sess.run(state.h, {state: zeros})
        pair = sess.run(a * b, {(a, b): ([1.0, 2.0], [3.0, 4.0])})
        mismatch = catch(lambda: sess.run(a, {(a, b): [1.0, 2.0, 3.0]}))
    return {"fed": fed, "as_value": as_value, "pair": pair, "mismatch": mismatch,
            "state_type": type(zeros).__name__}


def case_sparse_dense_operators(tf):
    sp = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
    dense = tf.constant([[2.0, 3.0], [4.0, 5.0]])
    ints = tf.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2])
    mul = sp * dense
    rmul = dense * sp
    div = sp / dense
    idiv = ints / tf.constant([[2, 3], [4, 5]])
    scaled = sp * 2.0
    row = sp * tf.constant([10.0, 100.0])
    bad = sp * tf.constant([1.0, 2.0, 3.0])
    names = [describe(t.values) for t in (mul, rmul, div, idiv, scaled, row)]
    with tf.Session() as sess:
        values = sess.run([t.values for t in (mul, rmul, div, idiv, scaled, row)])
        broadcast_error = catch(lambda: sess.run(bad.values))
    return {"names": names, "values": values, "broadcast_error": broadcast_error,
            "op_types": [t.values.op.type for t in (mul, div, idiv)],
            "dense_div_sparse": catch(lambda: dense / sp),
            "sparse_plus_dense": catch(lambda: sp + dense)}


def case_sparse_retain_unknown_rank_mask(tf):
    sp = tf.SparseTensor([[0], [1], [2]], [1.0, 2.0, 3.0], [3])
    mask = tf.placeholder(tf.bool)
    kept = tf.sparse_retain(sp, mask)
    with tf.Session() as sess:
        value = sess.run(kept, {mask: [True, False, True]})
    return {"indices": describe(kept.indices), "values": describe(kept.values),
            "value": [value.indices, value.values, value.dense_shape]}


def case_map_fn_strings(tf):
    words = tf.constant(["a", "bb", "ccc"])
    lengths = tf.map_fn(lambda s: tf.strings.length(s), words, dtype=tf.int32)
    shout = tf.map_fn(lambda s: s + "!", words)
    rows = tf.map_fn(lambda r: tf.strings.reduce_join(r), tf.constant([["a", "b"], ["c", "d"]]))
    to_text = tf.map_fn(lambda x: tf.as_string(x), tf.constant([1, 2]), dtype=tf.string)
    with tf.Session() as sess:
        return sess.run({"lengths": lengths, "shout": shout, "rows": rows,
                         "to_text": to_text})


def case_gradients_grad_ys_shapes(tf):
    out = {}

    def grads(name, make):
        tf.reset_default_graph()
        try:
            gs = make()
            with tf.Session() as sess:
                out[name] = {"tensors": [describe(g) for g in gs],
                             "values": sess.run(gs)}
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            out[name] = {"error": type(e).__name__}

    def x():
        return tf.constant([[1.0, 2.0], [3.0, 4.0]])

    def reshape_op():
        a = x()
        return tf.gradients(tf.reshape(a, [4]), a, grad_ys=tf.constant([[1.0, 2.0], [3.0, 4.0]]))

    def full_sum():
        a = x()
        return tf.gradients(tf.reduce_sum(a), a, grad_ys=tf.constant([3.0]))

    def row_sum():
        a = x()
        return tf.gradients(tf.reduce_sum(a, axis=1), a, grad_ys=tf.constant([[3.0], [5.0]]))

    def mean_square():
        a = x()
        return tf.gradients(tf.reduce_mean(tf.square(a)), a, grad_ys=tf.constant([[2.0]]))

    def column_max():
        a = x()
        return tf.gradients(tf.reduce_max(a, axis=0), a, grad_ys=tf.constant([[1.0, 2.0]]))

    def tanh():
        a = x()
        return tf.gradients(tf.tanh(a), a, grad_ys=tf.constant([1.0, 2.0, 3.0, 4.0]))

    def identity():
        a = x()
        return tf.gradients(tf.identity(a), a, grad_ys=tf.constant([1.0, 2.0, 3.0, 4.0]))

    def add():
        a = x()
        return tf.gradients(a + a, a, grad_ys=tf.constant([1.0, 2.0, 3.0, 4.0]))

    def mul():
        a = x()
        return tf.gradients(a * 2.0, a, grad_ys=tf.constant([1.0, 2.0, 3.0, 4.0]))

    def scalar_mul():
        a, b = tf.constant(3.0), tf.constant(2.0)
        return tf.gradients(a * b, [a, b], grad_ys=tf.constant([2.0]))

    def matmul():
        a = x()
        return tf.gradients(tf.matmul(a, a), a, grad_ys=tf.constant([1.0, 2.0, 3.0, 4.0]))

    def wrong_count():
        a = x()
        return tf.gradients(tf.reshape(a, [4]), a, grad_ys=tf.constant([1.0, 2.0, 3.0]))

    for name, make in sorted(locals().items()):
        if callable(make) and name not in ("grads", "x"):
            grads(name, make)
    return out


def case_op_def_view(tf):
    a = tf.placeholder(tf.float32, [2, 2], name="a")
    v = tf.Variable(1.0, name="v")
    ops = {"placeholder": a.op, "matmul": tf.matmul(a, a).op, "const": tf.constant(1.0).op,
           "split": tf.split(a, 2)[0].op, "assign": tf.assign(v, 2.0).op, "variable": v.op,
           "add_n": tf.add_n([a, a]).op, "random": tf.random_uniform([2]).op}
    out = {}
    for key, op in ops.items():
        d = op.op_def
        out[key] = {
            "name": d.name, "is_stateful": d.is_stateful,
            "inputs": [(x.name, x.type_attr, x.number_attr, x.is_ref) for x in d.input_arg],
            "outputs": [(x.name, x.type_attr, x.number_attr, x.is_ref) for x in d.output_arg],
            "attr_types": {x.name: x.type for x in d.attr},
        }
    out["split_dim_type"] = ops["split"].op_def.input_arg[0].type
    out["n_minimum"] = [(x.has_minimum, x.minimum) for x in ops["add_n"].op_def.attr
                        if x.name == "N"]
    return out
