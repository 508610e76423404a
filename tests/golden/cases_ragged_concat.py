"""Golden cases: tf.concat / tf.stack / tf.gather given RaggedTensors (TF's
ragged_concat_ops and ragged_gather_ops, through ragged dispatch)."""

from tests.golden.harness import catch


def _fetch(tf, out, static=True):
    with tf.Session() as sess:
        got = sess.run(out)

    def plain(v):
        return v.to_list() if hasattr(v, "to_list") else v
    return {k: {"value": plain(v), "dtype": out[k].dtype.name,
                "ragged_rank": getattr(out[k], "ragged_rank", 0),
                "static": out[k].shape.as_list() if static else None}
            for k, v in got.items()}


def case_concat_stack(tf):
    a = tf.ragged.constant([[1, 2], [], [3]])
    b = tf.ragged.constant([[4], [5, 6], [7, 8, 9]])
    n = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    s = tf.ragged.constant([["a"], ["b", "c"], []])
    out = {"concat0": tf.concat([a, b], 0), "concat1": tf.concat([a, b], axis=1),
           "concat_neg": tf.concat([a, b, a], -1), "concat_dense": tf.concat([a, [[0, 0]]], 0),
           "concat_nested": tf.concat([n, n], 0), "concat_str1": tf.concat([s, s], 1),
           "stack0": tf.stack([a, b]), "stack_nested": tf.stack([n, n], axis=0),
           "concat_one": tf.concat([a], 0), "ragged_stack": tf.ragged.stack([a, b, a]),
           "ragged_stack_dense": tf.ragged.stack([a, [[1, 2], [3, 4]]])}
    return _fetch(tf, out)


def case_gather(tf):
    a = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    n = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
    m = tf.ragged.constant([[[1., 2.]], [[3., 4.], [5., 6.]]], ragged_rank=1)
    out = {"rows": tf.gather(a, [2, 0, 2]), "empty": tf.gather(a, tf.zeros([0], tf.int32)),
           "nested": tf.gather(n, [2, 0]), "matrix": tf.gather(m, [1, 1, 0]),
           "kw": tf.gather(params=a, indices=[1, 2]),
           "ragged_indices": tf.gather([10, 20, 30, 40], tf.ragged.constant([[3, 0], [],
                                                                             [1]])),
           "int64": tf.gather(a, tf.constant([1, 0], tf.int64))}
    # TF's RaggedGather leaves the number of rows statically unknown; tf1compat's gather
    # knows it (docs/math.md), so only the inner static dimensions are compared here.
    return _fetch(tf, out, static=False) | {
        "inner_static": {k: v.shape.as_list()[1:] for k, v in sorted(out.items())}}


def case_gather_errors(tf):
    a = tf.ragged.constant([[1, 2], [], [3, 4, 5]])

    def run(t):
        with tf.Session() as sess:
            return sess.run(t).to_list()
    return {"out_of_range": catch(lambda: run(tf.gather(a, [5]))),
            "dense_unchanged": catch(lambda: tf.gather([[1, 2]], [0]).shape.as_list())}


def case_to_tensor_shape(tf):
    a = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    m = tf.ragged.constant([[[1., 2.]], [[3., 4.], [5., 6.]]], ragged_rank=1)
    s = tf.ragged.constant([["a", "b"], ["c"]])
    shapes = {"cut": [2, 2], "pad": [4, 5], "rows_only": [2, None], "cols": [None, 1],
              "inner": [3, 1, None], "strings": [3, 1]}
    out = {k: (s if k == "strings" else m if k == "inner" else a).to_tensor(
        -1 if k == "cols" else None, shape=shape) for k, shape in shapes.items()}
    with tf.Session() as sess:
        got = sess.run(out)
    # Only the requested dimensions' static sizes are compared: where `shape` says None,
    # tf1compat's Pad may know the size from constants TF does not fold (docs/math.md).
    return {"values": {k: {"value": v, "static": [d if w is not None else None for d, w in
                                                  zip(out[k].shape.as_list(), shapes[k])]}
                       for k, v in got.items()},
            "inner_mismatch": catch(lambda: m.to_tensor(shape=[3, 1, 3]))}
