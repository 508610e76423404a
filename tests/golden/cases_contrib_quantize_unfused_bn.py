"""Golden cases: `tf.contrib.quantize` folding UNFUSED batch norms (TF 1.15
fold_batch_norms.py `_FoldUnfusedBatchNorms`: the `.../BatchNorm/batchnorm_1/...` op groups
that `contrib.layers.batch_norm(fused=False)` builds, found by name; the layer is cloned
over the batch norm's own scale, with the training-mode corrections and freeze_bn_delay).
The oracle is TF 1.15's contrib/quantize/python package run under TF 2.21
(scripts/oracle_contrib.py, as tests/golden/cases_contrib_quantize.py).

TF 2.21's layers name the batch norm's arithmetic `batchnorm`, TF 1.15's (and
tf1compat's) `batchnorm_1`, so the batch norms are built here from core ops with TF 1.15's
names on both sides: `BatchNorm/moments`, moving averages updated in UPDATE_OPS under
`AssignMovingAvg(_1)` with their `decay`, and tf.nn.batch_normalization as
`BatchNorm/batchnorm_1`. The rewritten graph and the values of training steps are recorded."""

from tests.golden import cases_contrib_quantize_training_bn as training_bn
from tests.golden.cases_contrib_quantize import _graph_ops, _images, _quantize


def _batch_norm(tf, y, channels, scale=True, training=True, momentum=0.9):
    """An unfused batch norm with TF 1.15's op names; returns its output."""
    axes = list(range(len(y.shape) - 1))
    with tf.variable_scope("BatchNorm"):
        beta = tf.get_variable("beta", [channels],
                               initializer=tf.random_uniform_initializer(-0.2, 0.2, seed=12))
        gamma = tf.get_variable("gamma", [channels],
                                initializer=tf.random_uniform_initializer(0.5, 1.5, seed=11)
                                ) if scale else None
        moving_mean = tf.get_variable("moving_mean", [channels], trainable=False,
                                      initializer=tf.zeros_initializer())
        moving_variance = tf.get_variable("moving_variance", [channels], trainable=False,
                                          initializer=tf.ones_initializer())
        if training:
            mean, variance = tf.nn.moments(y, axes, name="moments")
            for moving, batch, name in ((moving_mean, mean, "AssignMovingAvg"),
                                        (moving_variance, variance, "AssignMovingAvg_1")):
                with tf.name_scope(name):
                    decay = tf.constant(1.0 - momentum, name="decay")
                    tf.add_to_collection(tf.GraphKeys.UPDATE_OPS,
                                         tf.assign_sub(moving, (moving - batch) * decay))
        else:
            mean, variance = moving_mean, moving_variance
        return tf.nn.batch_normalization(y, mean, variance, beta, gamma, 0.001,
                                         name="batchnorm_1")


def _net(tf, depthwise=False, training=True):
    """conv -> BN (scaled) -> relu [-> depthwise -> BN -> relu6] -> fc -> BN (no scale)
    -> relu, every layer in a scope of its own."""
    x = tf.placeholder(tf.float32, [4, 5, 5, 3], name="x")
    with tf.variable_scope("conv"):
        w = tf.get_variable("weights", [3, 3, 3, 4],
                            initializer=tf.random_normal_initializer(seed=1))
        y = tf.nn.relu(_batch_norm(tf, tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), 4,
                                   training=training))
    if depthwise:
        with tf.variable_scope("dw"):
            w = tf.get_variable("depthwise_weights", [3, 3, 4, 1],
                                initializer=tf.random_normal_initializer(seed=2))
            y = tf.nn.relu6(_batch_norm(
                tf, tf.nn.depthwise_conv2d(y, w, [1, 1, 1, 1], "SAME"), 4,
                training=training))
    with tf.variable_scope("fc"):
        w = tf.get_variable("weights", [100, 3],
                            initializer=tf.random_normal_initializer(seed=3))
        z = tf.matmul(tf.reshape(y, [4, 100]), w)
        y = tf.nn.relu(_batch_norm(tf, z, 3, scale=False, training=training), name="Relu")
    return x, y


def _train(tf, graph, x, out, steps=3, lr=0.02):
    return training_bn._train(tf, graph, x, out, steps, lr, update_runs=None)


def case_unfused_training_conv_fc(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _net(tf)
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph), "run": _train(tf, graph, x, "fc/Relu:0")}


def case_unfused_training_depthwise(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _net(tf, depthwise=True)
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph), "run": _train(tf, graph, x, "fc/Relu:0", steps=2,
                                                    lr=0.05)}


def case_unfused_freeze_bn_delay(tf):
    """freeze_bn_delay=2 with quant_delay=1 (the smart_conds' insides left out of the
    graph listing, as tests/golden/cases_contrib_quantize_training_bn.py does)."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _net(tf)
    qg.experimental_create_training_graph(graph, quant_delay=1, freeze_bn_delay=2)
    ops = [op for op in _graph_ops(graph)
           if not any(f"/{name}/" in op[0] for name in (
               "freeze_moving_mean", "freeze_moving_var", "correction_recip",
               "correction_offset"))]
    return {"ops": ops, "run": _train(tf, graph, x, "fc/Relu:0", steps=4, lr=0.002)}


def case_unfused_eval_graph(tf):
    """An eval rewrite of inference-mode unfused batch norms (moving statistics)."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, y = _net(tf, depthwise=True, training=False)
    qg.create_eval_graph(graph)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"ops": _graph_ops(graph), "out": sess.run(y, {x: _images(5, (4, 5, 5, 3))})}
