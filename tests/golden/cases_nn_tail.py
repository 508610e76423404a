"""Golden cases: tf.conv, conv2d_backprop_*_v2 (no CPU kernel), dilation2d/erosion2d,
extract_volume_patches, conv_transpose, atrous_conv2d_transpose, fractional pools (seeded
regions bit-exact), safe_embedding_lookup_sparse, compute_average_loss,
scale_regularization_loss, nn.experimental dropouts."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


@tolerance(rtol=1e-5, atol=1e-4)
def case_conv_tail(tf):
    rs = np.random.RandomState(0)
    x = tf.constant(rs.randn(2, 5, 5, 3).astype(np.float32))
    w = tf.constant(rs.randn(3, 3, 3, 4).astype(np.float32))
    dy = tf.constant(rs.randn(2, 3, 3, 4).astype(np.float32))
    grouped = tf.constant(rs.randn(2, 2, 1, 6).astype(np.float32))
    kernel = tf.constant(rs.randn(2, 2, 3).astype(np.float32))
    v = tf.constant(rs.randn(1, 4, 5, 4, 2).astype(np.float32))
    out = {
        "conv": tf.conv(x, w, [1, 1, 1, 1], "VALID"),
        "conv_same": tf.conv(x, w, [1, 2, 1, 1], "SAME", dilations=[1, 1, 2, 1]),
        "conv_batch2": tf.conv(tf.reshape(x, [1, 2, 5, 5, 3]), w, [1, 1, 1, 1], "VALID",
                               batch_dims=2),
        "dilation": tf.nn.dilation2d(x, kernel, [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
        "dilation_same": tf.nn.dilation2d(x, kernel, [1, 2, 2, 1], [1, 2, 1, 1], "SAME"),
        "erosion": tf.nn.erosion2d(x, kernel, [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
        "volume": tf.extract_volume_patches(v, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
        "volume_same": tf.extract_volume_patches(v, [1, 2, 3, 2, 1], [1, 1, 2, 2, 1], "SAME"),
        "transpose": tf.nn.conv_transpose(dy, w, [2, 5, 5, 3], [1, 1, 1, 1], "VALID"),
        "transpose1d": tf.nn.conv_transpose(tf.reshape(dy, [2, 9, 4]), w[0], [2, 11, 3], 1,
                                            "VALID"),
        "atrous_valid": tf.nn.atrous_conv2d_transpose(dy, w, [2, 7, 7, 3], 2, "VALID"),
        "atrous_same": tf.nn.atrous_conv2d_transpose(dy, w, [2, 3, 3, 3], 2, "SAME"),
        "atrous_rate1": tf.nn.atrous_conv2d_transpose(dy, w, [2, 5, 5, 3], 1, "VALID"),
    }
    grads = tf.gradients(tf.reduce_sum(out["dilation"] * out["dilation"]) +
                         tf.reduce_sum(out["volume"] * out["volume"]), [x, kernel, v])
    return {"vals": _run(tf, out), "shapes": {k: describe(t) for k, t in sorted(out.items())},
            "grads": _run(tf, grads),
            "conv_grad": catch(lambda: tf.gradients(tf.reduce_sum(out["conv"]), x)),
            "rank": catch(lambda: tf.nn.dilation2d(x[0], kernel, [1, 1, 1, 1], [1, 1, 1, 1],
                                                   "VALID"), message=True),
            "transpose_len": catch(lambda: tf.nn.conv_transpose(dy, w, [2, 5], [1], "VALID"),
                                   message=True),
            "atrous_rate": catch(lambda: tf.nn.atrous_conv2d_transpose(dy, w, [2, 5, 5, 3], 0,
                                                                      "VALID"),
                                 message=True)}


def case_no_cpu_kernel(tf):
    """TF fails the whole graph (placement): run apart."""
    rs = np.random.RandomState(0)
    x = tf.constant(rs.randn(1, 4, 4, 2).astype(np.float32))
    w = tf.constant(rs.randn(2, 2, 2, 3).astype(np.float32))
    dy = tf.constant(rs.randn(1, 3, 3, 3).astype(np.float32))
    v2 = tf.conv2d_backprop_filter_v2(x, w, dy, [1, 1, 1, 1], "VALID")
    return {"shapes": [describe(v2), describe(tf.conv2d_backprop_input_v2(
                x, w, dy, [1, 1, 1, 1], "VALID"))],
            "filter_v2": catch(lambda: _run(tf, v2))}


def case_conv_unsupported_on_cpu(tf):
    rs = np.random.RandomState(0)
    x = tf.constant(rs.randn(2, 5, 5, 3).astype(np.float32))
    grouped = tf.constant(rs.randn(2, 2, 1, 6).astype(np.float32))
    w = tf.constant(rs.randn(3, 3, 3, 4).astype(np.float32))
    return {"groups": catch(lambda: _run(tf, tf.conv(x, grouped, [1, 1, 1, 1], "VALID",
                                                     groups=3))),
            "channels_first": catch(lambda: _run(tf, tf.conv(
                tf.transpose(x, [0, 3, 1, 2]), w, [1, 1, 1, 1], "VALID",
                data_format="CHANNELS_FIRST")))}


@tolerance(rtol=1e-5, atol=1e-5)
def case_fractional_pool(tf):
    x = tf.constant(np.random.RandomState(2).randn(2, 11, 9, 3).astype(np.float32))
    xi = tf.constant(np.random.RandomState(2).randint(0, 50, (1, 7, 7, 1)).astype(np.int32))
    out = {}
    settings = {"random": dict(pooling_ratio=[1, 1.44, 1.73, 1], seed=3, seed2=5),
                "pseudo": dict(pooling_ratio=[1, 1.44, 1.73, 1], pseudo_random=True, seed=3,
                               seed2=5),
                "overlap": dict(pooling_ratio=[1, 2.0, 1.5, 1], overlapping=True, seed=7,
                                seed2=1),
                "both": dict(pooling_ratio=[1, 1.2, 2.5, 1], pseudo_random=True,
                             overlapping=True, seed=1, seed2=2)}
    for key, kw in settings.items():
        out["max_" + key] = list(tf.nn.fractional_max_pool(x, deterministic=True, **kw))
        out["avg_" + key] = list(tf.nn.fractional_avg_pool(x, deterministic=True, **kw))
    out["int_avg"] = list(tf.nn.fractional_avg_pool(xi, [1, 1.5, 1.5, 1], seed=1, seed2=1,
                                                    deterministic=True))
    o = tf.nn.fractional_max_pool(x, [1, 1.44, 1.73, 1], seed=3, seed2=5,
                                  deterministic=True)[0]
    o2 = tf.nn.fractional_avg_pool(x, [1, 1.44, 1.73, 1], overlapping=True, seed=3, seed2=5,
                                   deterministic=True)[0]
    grads = tf.gradients(tf.reduce_sum(o * o) + tf.reduce_sum(o2 * o2), x)
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, out),
            # TF's static shape of the two sequences is one short of their values
            # (its shape-function bug); tf1compat gives the true length: not compared.
            "shapes": {k: describe(v[0]) for k, v in sorted(out.items())},
            "grads": _run(tf, grads),
            "type": type(tf.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1])).__name__,
            "zero_size": describe(tf.nn.fractional_max_pool(x, [1, 20, 1.5, 1])[0]),
            "seed_without_deterministic": catch(run(tf.nn.fractional_max_pool(
                x, [1, 1.5, 1.5, 1], seed=1, seed2=2)[0])),
            "batch_ratio": catch(run(tf.nn.fractional_max_pool(x, [2, 1.5, 1.5, 2])[0]))}


def case_nn_misc(tf):
    w = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1]],
                          tf.constant([1, -1, 3, 2, 0], tf.int64), [4, 2])
    wts = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1]], [1.0, 2.0, 0.0, 3.0, 1.0],
                          [4, 2])
    ids3 = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 1, 0]],
                           tf.constant([1, 2, 3], tf.int64), [2, 2, 2])
    lookups = {
        "plain": tf.nn.safe_embedding_lookup_sparse(w, ids),
        "weights": tf.nn.safe_embedding_lookup_sparse(w, ids, sparse_weights=wts),
        "sum": tf.nn.safe_embedding_lookup_sparse(w, ids, sparse_weights=wts, combiner="sum"),
        "default": tf.nn.safe_embedding_lookup_sparse(w, ids, default_id=2),
        "sqrtn": tf.nn.safe_embedding_lookup_sparse(w, ids, sparse_weights=wts,
                                                    combiner="sqrtn", default_id=0),
        "rank3": tf.nn.safe_embedding_lookup_sparse([w], ids3),
    }
    losses = {
        "avg_global": tf.nn.compute_average_loss([1., 2., 3.], global_batch_size=4),
        "avg_weight": tf.nn.compute_average_loss([1., 2., 3.], sample_weight=[1., 0., 2.]),
        "avg_expand": tf.nn.compute_average_loss([[1., 2.], [3., 4.]],
                                                 sample_weight=[[2.], [3.]]),
        "avg_f64": tf.nn.compute_average_loss(tf.constant([1., 2., 3.], tf.float64),
                                              sample_weight=2.0),
        "avg_empty": tf.nn.compute_average_loss(tf.zeros([0])),
        "scale": tf.nn.scale_regularization_loss([5.0, 2.0]),
    }
    drops = {
        "stateless": tf.nn.experimental.stateless_dropout(tf.ones([3, 4]), 0.5, seed=[1, 2]),
        "general": tf.nn.experimental.general_dropout(
            tf.ones([2, 3]), 0.5,
            lambda shape, dtype: tf.random.stateless_uniform(shape, [3, 4], dtype=dtype)),
    }
    return {"lookups": _run(tf, lookups),
            "lookup_shapes": {k: describe(v) for k, v in sorted(lookups.items())},
            "losses": _run(tf, losses), "drops": _run(tf, drops),
            "drop_shapes": {k: describe(v) for k, v in sorted(drops.items())},
            "scalar_loss": catch(lambda: tf.nn.compute_average_loss(3.0), message=True),
            "float_batch": catch(lambda: tf.nn.compute_average_loss(
                [1.0], global_batch_size=2.5), message=True)}
