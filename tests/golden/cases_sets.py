"""Golden cases: tf.sets on dense and sparse inputs, set sizes, errors."""

from tests.golden.harness import catch, describe


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _sparse(tf, st):
    return [st.indices, st.values, st.dense_shape]


def case_sets(tf):
    a = tf.constant([[[1, 2, 3], [4, 5, 6], [0, 0, 0]], [[7, 8, 9], [1, 1, 2], [3, 3, 3]]])
    b = tf.constant([[[1, 9, 9], [5, 5, 5], [1, 1, 1]], [[9, 0, 0], [2, 2, 2], [3, 3, 3]]])
    sa = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 5]], [1, 3, 2, 9], [2, 3, 6])
    sb = tf.SparseTensor([[0, 0, 0], [1, 1, 1]], [3, 9], [2, 3, 2])
    out = {
        "dd_i": tf.sets.intersection(a, b), "dd_u": tf.sets.set_union(a, b),
        "dd_d": tf.sets.difference(a, b), "dd_d2": tf.sets.set_difference(a, b, aminusb=False),
        "ds_u": tf.sets.union(a, sa), "sd_d": tf.sets.difference(sa, a),
        "ss_i": tf.sets.set_intersection(sa, sb), "ss_d": tf.sets.difference(sb, sa),
        "strings": tf.sets.union(tf.constant([["a", "b"], ["c", "c"]]),
                                 tf.constant([["b", "z"], ["a", "c"]])),
        "rank2": tf.sets.intersection([[1, 2, 3]], [[3, 2, 7]]),
    }
    sizes = {"size": tf.sets.size(sa), "size2": tf.sets.set_size(tf.SparseTensor(
        [[0, 1], [0, 2], [1, 0]], ["a", "a", "b"], [3, 4]))}
    vals = _run(tf, dict({k: _sparse(tf, v) for k, v in out.items()}, **sizes))
    return {"vals": vals,
            "shapes": {k: [describe(t) for t in _sparse(tf, v)] for k, v in sorted(out.items())},
            "size_shapes": {k: describe(v) for k, v in sorted(sizes.items())},
            "mismatch": catch(lambda: _run(tf, tf.sets.union(
                tf.ones([2, 3], tf.int32),
                tf.placeholder_with_default(tf.ones([3, 3], tf.int32), [None, 3])).values)),
            "order": catch(lambda: _run(tf, tf.sets.size(tf.SparseTensor([[0, 1], [0, 0]], [1, 2],
                                                                         [1, 3])))),
            "static": catch(lambda: tf.sets.union(tf.ones([2, 3], tf.int32),
                                                  tf.ones([3, 3], tf.int32)), message=True),
            "float": catch(lambda: tf.sets.union(tf.ones([2, 3]), tf.ones([2, 3])), message=True),
            "types": catch(lambda: tf.sets.union(tf.ones([2, 3], tf.int32),
                                                 tf.ones([2, 3], tf.int64)), message=True),
            "dense_size": catch(lambda: tf.sets.size(tf.ones([2, 3], tf.int32))),
            "rank1": catch(lambda: tf.sets.union(tf.ones([3], tf.int32), tf.ones([3], tf.int32)))}
