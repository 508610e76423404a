"""Golden cases: SparseTensor ops (`tf.sparse_*`, `tf.sparse.*`): values, names, static
shapes, feeding sparse placeholders, gradients through values."""

import numpy as np

from tests.golden.harness import catch, describe


def _sp(tf):
    return tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.0, -2.0, 3.0], [2, 3])


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _desc(st):
    return [describe(st.indices), describe(st.values), describe(st.dense_shape)]


def case_to_dense_and_matmul(tf):
    sp = _sp(tf)
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    mm = tf.sparse_tensor_dense_matmul(sp, b)
    mma = tf.sparse.sparse_dense_matmul(sp, tf.ones([2, 2]), adjoint_a=True)
    mmb = tf.sparse.matmul(sp, tf.transpose(b), adjoint_b=True)
    g = tf.gradients(tf.reduce_sum(mm), [sp.values, b])
    return {"vals": _run(tf, [tf.sparse.to_dense(sp), tf.sparse_tensor_to_dense(sp), mm, mma,
                              mmb, g]),
            "shapes": [describe(t) for t in (mm, mma, mmb)], "types": [mm.op.type],
            "bad": catch(lambda: _run(tf, tf.sparse_tensor_dense_matmul(sp, tf.ones([2, 2]))))}


def case_reductions(tf):
    sp = _sp(tf)
    out = {"sum1": tf.sparse_reduce_sum(sp, axis=1), "sum": tf.sparse_reduce_sum(sp),
           "sumk": tf.sparse.reduce_sum(sp, axis=0, keepdims=True),
           "max0": tf.sparse_reduce_max(sp, 0), "max1": tf.sparse.reduce_max(sp, 1),
           "maxall": tf.sparse_reduce_max(sp), "neg": tf.sparse_reduce_sum(sp, -1)}
    ss = tf.sparse_reduce_sum_sparse(sp, axis=1, keepdims=True)
    ms = tf.sparse_reduce_max_sparse(sp, 0)
    return {"vals": _run(tf, out), "sparse": _run(tf, [ss, ms]),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "sparse_shapes": _desc(ss) + _desc(ms), "names": [out["sum1"].name, ss.values.name],
            "grad": _run(tf, tf.gradients(out["sum1"] * [1.0, 2.0], sp.values)[0])}


def case_add(tf):
    sp = _sp(tf)
    other = tf.SparseTensor([[0, 1], [1, 1]], [-1.0, 5.0], [2, 3])
    s = tf.sparse_add(sp, other)
    t = tf.sparse.add(sp, other, threshold=0.5)
    d = tf.sparse_add(tf.ones([2, 3]), sp)
    g = tf.gradients(tf.reduce_sum(s.values * [1.0, 2.0, 3.0, 4.0]), [sp.values,
                                                                       other.values])
    return {"vals": _run(tf, [s, t, d, g]), "desc": _desc(s) + [describe(d)],
            "types": [s.values.op.type, d.op.type],
            "no_sparse": catch(lambda: tf.sparse_add(tf.ones([2]), tf.ones([2])))}


def case_concat_reshape_reorder(tf):
    sp = _sp(tf)
    c = tf.sparse_concat(1, [sp, sp])
    c0 = tf.sparse.concat(0, [sp, sp])
    r = tf.sparse_reshape(sp, [3, -1])
    r2 = tf.sparse.reshape(sp, [-1])
    unordered = tf.SparseTensor([[1, 0], [0, 1], [0, 0]], [5.0, 6.0, 7.0], [3, 2])
    o = tf.sparse_reorder(unordered)
    t = tf.sparse_transpose(sp)
    t3 = tf.sparse.transpose(tf.SparseTensor([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 2, 3]),
                             [2, 0, 1])
    return {"vals": _run(tf, [c, c0, r, r2, o, t, t3]),
            "desc": [_desc(x) for x in (c, r, o, t)],
            "bad_reshape": catch(lambda: tf.sparse_reshape(sp, [4, -1]), message=True),
            "grad": _run(tf, tf.gradients(tf.reduce_sum(o.values * [1.0, 2.0, 3.0]),
                                          unordered.values)[0])}


def case_retain_fill_slice(tf):
    sp = _sp(tf)
    r = tf.sparse_retain(sp, [True, False, True])
    holes = tf.SparseTensor([[1, 2], [1, 0], [3, 1]], [5.0, 6.0, 7.0], [5, 3])
    f, empty = tf.sparse_fill_empty_rows(holes, -1.0)
    s = tf.sparse_slice(sp, [0, 1], [2, 2])
    s2 = tf.sparse.slice(sp, [1, 0], [5, 5])
    return {"vals": _run(tf, [r, f, empty, s, s2]),
            "desc": [_desc(x) for x in (r, f, s)] + [describe(empty)]}


def case_softmax_extremes_split(tf):
    sp = _sp(tf)
    sm = tf.sparse_softmax(sp)
    other = tf.SparseTensor([[0, 1], [1, 1]], [5.0, -6.0], [2, 3])
    mx = tf.sparse_maximum(sp, other)
    mn = tf.sparse.minimum(sp, other)
    parts = tf.sparse_split(sp_input=tf.SparseTensor([[0, 1], [1, 4], [1, 2]],
                                                     [-1.0, -2.0, 3.0], [2, 5]),
                            num_split=2, axis=1)
    g = tf.gradients(tf.reduce_sum(sm.values * [1.0, 2.0, 3.0]), sp.values)[0]
    return {"vals": _run(tf, [sm, mx, mn, parts, g]),
            "desc": [_desc(x) for x in [sm, mx] + parts],
            "names": [sm.values.name, mx.indices.name]}


def case_eye_from_dense_expand(tf):
    e = tf.sparse.eye(3)
    e2 = tf.sparse.eye(2, 4, dtype=tf.int32)
    fd = tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]]))
    ex = tf.sparse.expand_dims(_sp(tf), 0)
    ex2 = tf.sparse.expand_dims(_sp(tf), -1)
    return {"vals": _run(tf, [e, e2, fd, ex, ex2]),
            "desc": [_desc(x) for x in (e, fd, ex)], "shape": ex.shape.as_list()}


def case_sparse_placeholder_feeds(tf):
    p = tf.sparse_placeholder(tf.float32)
    q = tf.sparse_placeholder(tf.float32, shape=[None, 4])
    total = tf.sparse_reduce_sum(p)
    dense = tf.sparse.to_dense(q)
    value = tf.SparseTensorValue([[0, 0], [1, 3]], [1.5, 2.5], [2, 4])
    with tf.Session() as sess:
        a = sess.run(total, {p: value})
        b = sess.run(dense, {q: (np.array([[1, 1]]), np.array([3.0], np.float32),
                                 np.array([2, 4]))})
        c = sess.run(p, {p: value})
    return {"a": a, "b": b, "c": c, "desc": _desc(p) + _desc(q),
            "q_shape": q.shape.as_list(), "dense": describe(dense)}


def case_serialize_sparse_and_tensor(tf):
    sp = _sp(tf)
    batch = tf.SparseTensor([[0, 0, 1], [1, 1, 0]], [1, 2], [2, 2, 3])
    one = tf.io.serialize_sparse(sp)
    many = tf.serialize_many_sparse(batch, name="many")
    back = tf.io.deserialize_many_sparse(many, tf.int32, rank=3)
    unknown = tf.deserialize_many_sparse(many, tf.int32)
    st = tf.io.serialize_tensor(tf.constant([[1.5, -2.0]]))
    parsed = tf.io.parse_tensor(st, tf.float32)
    legacy = tf.parse_tensor(tf.serialize_tensor(tf.constant(["a", "bc"])), tf.string)
    return {"vals": _run(tf, [one, many, back, st, parsed, legacy]),
            "shapes": [describe(t) for t in (one, many, st, parsed)] + _desc(back) +
            _desc(unknown),
            "types": [t.op.type for t in (one, many, back.indices, st, parsed)],
            "bad": [catch(lambda: _run(tf, tf.io.parse_tensor(st, tf.int32))),
                    catch(lambda: tf.io.deserialize_many_sparse(one, tf.float32))]}
