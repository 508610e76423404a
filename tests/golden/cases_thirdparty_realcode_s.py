"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-s).

* research/slim's nasnet_cifar: seeded gradients now match TF at a tiny input. Its final
  layer drew other initial values because TF's op seeds are a per-graph counter of
  `get_seed` calls, not an op count: `slim.dropout(net, 1.0)` while training adds no op
  but its `nn.dropout` with a rate of 0 still draws an op seed (TF 2.x's dummy RNG step),
  which contrib's keep-prob-1 shortcut here skipped, so every later seeded initializer
  was one seed behind.
"""


def case_slim_dropout_keep_prob_one_draws_op_seed(tf):
    """`slim.dropout(x, 1.0)` while training returns `x` but draws an op seed, like
    `tf.nn.dropout(x, rate=0.0)`; `tf.layers.dropout(rate=0.0)` (an Identity) and the eval
    branch draw none. The seed2 of a following `random_uniform` and its values show it."""
    from tests.golden.cases_contrib_slim_zoo import _slim
    slim = _slim(tf)
    builders = {
        "slim_train": lambda x: slim.dropout(x, 1.0, is_training=True, scope="dropout"),
        "slim_eval": lambda x: slim.dropout(x, 1.0, is_training=False, scope="dropout"),
        "nn_rate0": lambda x: tf.nn.dropout(x, rate=0.0),
        "nn_keep1": lambda x: tf.nn.dropout(x, keep_prob=1.0),
        "nn_rate0_seeded": lambda x: tf.nn.dropout(x, rate=0.0, seed=5),
        "layers_rate0": lambda x: tf.layers.dropout(x, rate=0.0, training=True),
    }
    out = {}
    for name, build in builders.items():
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            x = tf.ones([2, 3])
            tf.random_normal([2])
            y = build(x)
            r = tf.random_uniform([3])
            with tf.Session() as sess:
                out[name] = {"same_tensor": y is x, "seed2": r.op.get_attr("seed2"),
                             "r": sess.run(r)}
    return out
