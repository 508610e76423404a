"""Golden cases: the array long tail — sort/argsort, searchsorted, unique_with_counts,
setdiff1d, invert_permutation, unravel_index, roll, repeat, meshgrid, parallel_stack,
bitcast, ensure_shape, diag, tensor_scatter_*, tf.manip."""

import numpy as np

from tests.golden.harness import catch, describe

X = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, -1.0, 5.0]], np.float32)


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _run_error(tf, fetch, feed=None):
    return catch(lambda: _run(tf, fetch, feed))


def case_sort_argsort(tf):
    x = tf.constant(X)
    ints = tf.constant([[3, -1, 2], [7, 7, 0]])
    uints = tf.constant([3, 1, 200], tf.uint8)
    p = tf.placeholder(tf.float32, [None, 4])
    out = {
        "asc": tf.sort(x), "desc": tf.sort(x, direction="DESCENDING"),
        "axis0": tf.sort(x, axis=0), "ints": tf.sort(ints), "uints": tf.sort(uints),
        "arg": tf.argsort(x), "arg_desc": tf.argsort(x, direction="DESCENDING"),
        "arg0": tf.argsort(x, axis=0, stable=True), "arg_ints": tf.argsort(ints, axis=-1),
        "p": tf.sort(p, axis=1), "named": tf.sort(x, name="mysort"),
        "d3": tf.sort(tf.reshape(tf.range(24, 0, -1), [2, 3, 4]), axis=1),
    }
    vals = _run(tf, out, {p: X})
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "bad_dir": catch(lambda: tf.sort(x, direction="UP"), message=True),
            "bad_axis": catch(lambda: tf.sort(x, axis=tf.placeholder(tf.int32))),
            "types": [out["asc"].op.type, out["arg"].op.type]}


def case_searchsorted(tf):
    seq = tf.constant([[1.0, 2.0, 3.0, 3.0, 5.0], [0.0, 0.5, 1.0, 1.5, 2.0]])
    vals = tf.constant([[3.0, 0.0, 6.0], [1.0, 1.2, -1.0]])
    out = {"left": tf.searchsorted(seq, vals),
           "right": tf.searchsorted(seq, vals, side="right", out_type=tf.int64),
           "1d": tf.searchsorted([1, 3, 5, 7], [0, 3, 8])}
    bad = tf.searchsorted(tf.constant([[1.0, 2.0]]), tf.constant([[1.0], [2.0]]))
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "side": catch(lambda: tf.searchsorted(seq, vals, side="middle"), message=True),
            "mismatch": _run_error(tf, bad),
            "types": [out["left"].op.type, out["right"].op.inputs[0].op.type]}


def case_unique_setdiff_perm(tf):
    u = tf.unique_with_counts([4, 1, 4, 2, 1, 4])
    u64 = tf.unique_with_counts(tf.constant([1.5, 1.5, -2.0]), out_idx=tf.int64)
    us = tf.unique_with_counts(tf.constant(["b", "a", "b"]))
    d = tf.setdiff1d([1, 2, 3, 4, 5, 2], [2, 4])
    ds = tf.setdiff1d(tf.constant(["x", "y", "z"]), tf.constant(["y"]), index_dtype=tf.int64)
    inv = tf.invert_permutation([2, 0, 3, 1])
    un = tf.unravel_index([5, 7, 0], [3, 4])
    un1 = tf.unravel_index(tf.constant(7, tf.int64), tf.constant([3, 4], tf.int64))
    vals = _run(tf, {"u": list(u), "u64": list(u64), "us": list(us), "d": list(d),
                     "ds": list(ds), "inv": inv, "un": un, "un1": un1})
    return {"vals": vals,
            "shapes": [describe(t) for t in list(u) + list(d) + [inv, un, un1]],
            "fields": [u._fields, d._fields],
            "dup": _run_error(tf, tf.invert_permutation([0, 0])),
            "range": _run_error(tf, tf.invert_permutation([0, 3])),
            "unravel_bad": _run_error(tf, tf.unravel_index([12], [3, 4])),
            "rank": catch(lambda: tf.unique_with_counts([[1, 2]])),
            "setdiff_rank": catch(lambda: tf.setdiff1d([[1]], [1]))}


def case_roll_repeat_meshgrid(tf):
    x = tf.constant(X)
    p = tf.placeholder(tf.int32)
    out = {
        "roll": tf.roll(x, 1, 0), "roll2": tf.roll(x, [1, -3], [0, 1]),
        "roll_same": tf.roll(x, [1, 1], [1, 1]), "manip": tf.manip.roll(x, 2, -1),
        "roll_p": tf.roll(x, p, 1),
        "rep": tf.repeat(x, 2, axis=0), "rep_flat": tf.repeat([[1, 2], [3, 4]], [1, 0, 2, 3]),
        "rep_vec": tf.repeat(x, [2, 0, 1, 3], axis=1), "rep_scalar": tf.repeat(7, 3),
        "rep_rows": tf.repeat(x, [3, 1], axis=0),
    }
    mx, my = tf.meshgrid([1.0, 2.0, 3.0], [4.0, 5.0])
    ix, iy, iz = tf.meshgrid([1, 2], [3, 4, 5], [6], indexing="ij")
    vals = _run(tf, dict(out, mx=mx, my=my, ix=ix, iy=iy, iz=iz), {p: 3})
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "mesh": [describe(t) for t in (mx, my, ix, iy, iz)],
            "bad_roll": catch(lambda: tf.roll(x, [1], [0, 1]), message=True),
            "roll_axis": _run_error(tf, tf.roll(x, 1, 5)),
            "bad_index": catch(lambda: tf.meshgrid([1], indexing="xx"), message=True),
            "mixed": catch(lambda: tf.meshgrid([1, 2], [3.0])),
            "empty": tf.meshgrid()}


def case_parallel_stack_bitcast_ensure(tf):
    a = tf.constant([1.0, 2.0])
    ps = tf.parallel_stack([a, a * 2, a * 3])
    bc = tf.bitcast(tf.constant([[1.0, 2.0]], tf.float64), tf.int32)
    bc2 = tf.bitcast(tf.constant([[1, 1072693248]], tf.int32), tf.float64)
    bc3 = tf.bitcast(tf.constant([-1, 2], tf.int32), tf.uint32)
    bc4 = tf.bitcast(tf.constant([1.5], tf.float16), tf.int16)
    p = tf.placeholder(tf.float32)
    e = tf.ensure_shape(p, [None, 3])
    e2 = tf.ensure_shape(tf.placeholder(tf.float32, [None, None]), (2, None), name="es")
    vals = _run(tf, {"ps": ps, "bc": bc, "bc2": bc2, "bc3": bc3, "bc4": bc4, "e": e},
                {p: np.ones((2, 3), np.float32)})
    return {"vals": vals, "shapes": [describe(t) for t in (ps, bc, bc2, bc3, e, e2)],
            "types": [ps.op.type, bc.op.type, e.op.type],
            "bad_bitcast": catch(lambda: tf.bitcast(tf.constant([1, 2, 3]), tf.float64)),
            "ensure_fail": _run_error(tf, e, {p: np.ones((2, 4), np.float32)}),
            "ensure_static": catch(lambda: tf.ensure_shape(tf.ones([2, 3]), [3, 3]))}


def case_diag_scatter(tf):
    x = tf.constant(X)
    d = tf.diag([1.0, 2.0, 3.0])
    d2 = tf.diag([[1, 2], [3, 4]])
    td = tf.linalg.tensor_diag(tf.constant([1j, 2], tf.complex128))
    out = {
        "d": d, "d2": d2, "td": td, "dp": tf.diag_part(d2),
        "upd": tf.tensor_scatter_update(x, [[0, 0], [1, 3]], [9.0, 8.0]),
        "upd_rows": tf.tensor_scatter_nd_update(x, [[1]], [[7.0, 7.0, 7.0, 7.0]]),
        "add": tf.tensor_scatter_add(x, [[0], [0]], [[1.0] * 4, [2.0] * 4]),
        "nd_add": tf.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], [1.0, 2.0]),
        "sub": tf.tensor_scatter_sub(x, [[1, 1]], [5.0]),
        "nd_sub": tf.tensor_scatter_nd_sub(tf.constant([1, 2, 3]), [[2]], [10]),
        "max": tf.tensor_scatter_nd_max(x, [[0, 0], [0, 1]], [0.0, 4.0]),
        "min": tf.tensor_scatter_nd_min(x, [[0, 0], [0, 1]], [0.0, 4.0]),
    }
    vals = _run(tf, out)
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "oob": _run_error(tf, tf.tensor_scatter_update(x, [[5, 0]], [9.0])),
            "bad_shape": catch(lambda: tf.tensor_scatter_update(x, [[0, 0]], [[1.0, 2.0]])),
            "diag_scalar": catch(lambda: tf.diag(1.0))}


def case_guarantee_const(tf):
    x = tf.constant([1.0, 2.0])
    g = tf.guarantee_const(x, name="promised")
    v = tf.Variable([3.0])
    rv = tf.Variable([4.0], use_resource=True)
    gv, grv = tf.guarantee_const(v), tf.guarantee_const(rv)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        vals = sess.run([g, gv, grv, tf.guarantee_const(tf.constant("s"))])
        handle = catch(lambda: sess.run(tf.guarantee_const(rv.handle)))
    return {"vals": vals, "shapes": [describe(t) for t in (g, gv, grv)], "handle": handle,
            "grad": catch(lambda: tf.gradients(tf.reduce_sum(g * g), x))}
