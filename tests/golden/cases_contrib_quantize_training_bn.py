"""Golden cases: `tf.contrib.quantize` folding batch norms in training mode (TF 1.15
fold_batch_norms.py: the batch statistics fold into the weights, with the correction
factors that keep the moving statistics' scale, FoldFusedBatchNormGrad's gradients through
the batch mean and variance, and `freeze_bn_delay`, which freezes the moving averages and
switches the fold to them). The oracle is TF 1.15's contrib/quantize/python package run
under TF 2.21 (scripts/oracle_contrib.py, as tests/golden/cases_contrib_quantize.py).

The batch norms are fused (tf.nn.fused_batch_norm with is_training=True) with their
moving averages updated as TF's layers do (`moving -= (moving - batch) * decay`), so the
rewrite finds the decay it reroutes. The rewritten graph (names, types, inputs; the
insides of tf.cond, which are one If op in tf1compat, left out) and the values of training
steps (losses, outputs, moving statistics, quant ranges) are recorded."""

from tests.golden.cases_contrib_quantize import _graph_ops, _images, _quantize


def _batch_norm(tf, y, channels, name="BatchNorm", momentum=0.9):
    """A fused training-mode batch norm with gamma/beta variables and moving averages
    updated in UPDATE_OPS; returns its output."""
    with tf.variable_scope(name):
        gamma = tf.get_variable("gamma", [channels],
                                initializer=tf.random_uniform_initializer(0.5, 1.5, seed=11))
        beta = tf.get_variable("beta", [channels],
                               initializer=tf.random_uniform_initializer(-0.2, 0.2, seed=12))
        moving_mean = tf.get_variable("moving_mean", [channels], trainable=False,
                                      initializer=tf.zeros_initializer())
        moving_variance = tf.get_variable("moving_variance", [channels], trainable=False,
                                          initializer=tf.ones_initializer())
        out, mean, variance = tf.nn.fused_batch_norm(y, gamma, beta, epsilon=0.001,
                                                     is_training=True,
                                                     name="FusedBatchNorm")
        for moving, batch, what in ((moving_mean, mean, "mean"),
                                    (moving_variance, variance, "variance")):
            with tf.name_scope(f"AssignMovingAvg_{what}"):
                decay = tf.constant(1.0 - momentum, name="decay")
                tf.add_to_collection(tf.GraphKeys.UPDATE_OPS,
                                     tf.assign_sub(moving, (moving - batch) * decay))
        return out


def _conv_bn(tf, depthwise=False, dense=True):
    x = tf.placeholder(tf.float32, [4, 5, 5, 3], name="x")
    with tf.variable_scope("conv"):
        w = tf.get_variable("weights", [3, 3, 3, 4],
                            initializer=tf.random_normal_initializer(seed=1))
        y = tf.nn.relu(_batch_norm(tf, tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), 4))
    if depthwise:
        with tf.variable_scope("dw"):
            w = tf.get_variable("depthwise_weights", [3, 3, 4, 1],
                                initializer=tf.random_normal_initializer(seed=2))
            y = tf.nn.relu6(_batch_norm(tf, tf.nn.depthwise_conv2d(y, w, [1, 1, 1, 1],
                                                                   "SAME"), 4))
    if dense:
        with tf.variable_scope("fc"):
            w = tf.get_variable("weights", [100, 3],
                                initializer=tf.random_normal_initializer(seed=3))
            z = tf.matmul(tf.reshape(y, [4, 100]), w)
            z = tf.reshape(_batch_norm(tf, tf.reshape(z, [4, 1, 1, 3]), 3), [4, 3])
            y = tf.nn.relu(z, name="out")
    return x, y


def _train(tf, graph, x, out, steps=3, lr=0.02, update_runs=1):
    """`steps` training steps; `update_runs=None` runs each moving-average update alone
    (where one layer's batch statistics read an earlier layer's fold, whose corrections
    read that layer's moving statistics: TF's ref-variable reads race with their
    updates in one run)."""
    quantized = graph.get_tensor_by_name(out)
    loss = tf.reduce_mean(tf.square(quantized - 0.3))
    # The moving averages update in a run of their own after each step: in one run with
    # the step, TF reads them racing with their updates.
    train = tf.train.GradientDescentOptimizer(lr).minimize(loss)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    feeds = [{x: _images(seed, (4, 5, 5, 3))} for seed in range(steps)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = []
        for feed in feeds:
            losses.append(sess.run([loss, train], feed)[0])
            for group in ([updates] if update_runs == 1 else [[u] for u in updates]):
                sess.run(group, feed)
        names = sorted(v.name for v in tf.global_variables()
                       if "quant" in v.name or "moving" in v.name)
        return {"losses": losses, "out": sess.run(quantized, feeds[0]),
                "variables": dict(zip(names, sess.run(names))),
                "trainable": sess.run(tf.trainable_variables())}


def case_fused_training_conv_fc(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_bn(tf)
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph), "run": _train(tf, graph, x, "fc/out:0")}


def case_fused_training_depthwise(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, y = _conv_bn(tf, depthwise=True, dense=False)
    tf.identity(y, name="out")
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph), "run": _train(tf, graph, x, "out:0", steps=2, lr=0.1)}


def case_freeze_bn_delay(tf):
    """freeze_bn_delay=2: from the third run of the quantization step on, the moving
    averages stop updating and the fold uses them (with the fake quants active from
    quant_delay=1)."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_bn(tf)
    qg.experimental_create_training_graph(graph, quant_delay=1, freeze_bn_delay=2)
    ops = [op for op in _graph_ops(graph)
           if not any(f"/{name}/" in op[0] for name in (
               "freeze_moving_mean", "freeze_moving_var", "correction_recip",
               "correction_offset"))]
    return {"ops": ops, "run": _train(tf, graph, x, "fc/out:0", steps=4, lr=0.002)}


def case_eval_graph_with_training_batch_norm(tf):
    """An eval rewrite of a graph whose batch norms still use batch statistics: folded
    with the batch mean and (Bessel-corrected back) variance, without corrections."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_bn(tf, dense=False)
    qg.create_eval_graph(graph)
    out = graph.get_tensor_by_name("conv/Relu:0")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"ops": _graph_ops(graph), "out": sess.run(out, {x: _images(5, (4, 5, 5, 3))})}
