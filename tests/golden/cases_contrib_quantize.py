"""Golden cases: `tf.contrib.quantize`. TF 2.x has no contrib: the oracle is TF 1.15's
contrib/quantize/python package run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_absolute_package`). Each case rewrites a small graph
and records the rewritten graph (every op's name, type and inputs), the range variables
and the values of training steps, so names, wiring and arithmetic are all checked."""

import numpy as np


def _quantize(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.quantize
    import oracle_contrib
    return oracle_contrib.tf115_absolute_package(
        "contrib.quantize.python", ["common", "graph_matcher", "input_to_ops", "quant_ops",
                                    "fold_batch_norms", "quantize",
                                    "quantize_graph"]).quantize_graph


def _graph_ops(graph):
    """Every op as [name, type, inputs], but for the insides of quant_delay's tf.cond
    (TF's Switch/Merge; tf1compat's one If op): its output `delayed_quant/Merge:0`, which
    the rewired consumers read, is compared through their inputs."""
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in graph.get_operations()
            if "/delayed_quant/" not in op.name]


def _images(seed=0, shape=(2, 4, 4, 3)):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _conv_fc(tf, use_resource=False):
    """conv -> bias -> relu -> reshape -> fc -> add; returns (input, output)."""
    x = tf.placeholder(tf.float32, [2, 4, 4, 3], name="x")
    with tf.variable_scope("conv1", use_resource=use_resource):
        w = tf.get_variable("weights", [3, 3, 3, 5],
                            initializer=tf.random_normal_initializer(seed=1))
        b = tf.get_variable("biases", [5], initializer=tf.constant_initializer(0.1))
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b))
    with tf.variable_scope("fc", use_resource=use_resource):
        w2 = tf.get_variable("weights", [80, 2],
                             initializer=tf.random_normal_initializer(seed=2))
        b2 = tf.get_variable("b", [2], initializer=tf.constant_initializer(-0.2))
        z = tf.matmul(tf.reshape(y, [2, 80]), w2) + b2
    return x, z


def _quant_variables(tf):
    return sorted([v.name for v in tf.global_variables() if "quant" in v.name])


def _train(tf, graph, x, out, steps=3, lr=0.05):
    """Runs `steps` SGD steps on mean(out**2) where `out` is the rewritten graph's
    output; returns the losses, the final output and every quant variable."""
    quantized = graph.get_tensor_by_name(out)
    loss = tf.reduce_mean(tf.square(quantized))
    train = tf.train.GradientDescentOptimizer(lr).minimize(loss)
    feed = {x: _images()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([loss, train], feed)[0] for _ in range(steps)]
        names = _quant_variables(tf)
        values = sess.run(names)
        return {"losses": losses, "out": sess.run(quantized, feed),
                "variables": dict(zip(names, values))}


def case_training_graph_conv_fc(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_fc(tf)
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph),
            "trainable": [v.name for v in tf.trainable_variables()],
            "run": _train(tf, graph, x, "fc/act_quant/FakeQuantWithMinMaxVars:0")}


def case_training_graph_quant_delay(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_fc(tf)
    qg.create_training_graph(quant_delay=2)
    return {"ops": _graph_ops(graph),
            "run": _train(tf, graph, x, "fc/act_quant/delayed_quant/Merge:0", steps=4)}


def case_eval_graph_conv_fc(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_fc(tf)
    qg.create_eval_graph()
    out = graph.get_tensor_by_name("fc/act_quant/FakeQuantWithMinMaxVars:0")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for name, value in [("conv1/weights_quant/min:0", -1.5),
                            ("conv1/weights_quant/max:0", 2.0),
                            ("conv1/act_quant/max:0", 3.0), ("fc/act_quant/min:0", -4.0)]:
            var = [v for v in tf.global_variables() if v.name == name][0]
            sess.run(var.assign(value))
        return {"ops": _graph_ops(graph), "out": sess.run(out, {x: _images()}),
                "variables": _quant_variables(tf)}


def case_resource_variables_and_relu6_depthwise(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [2, 4, 4, 3], name="x")
    with tf.variable_scope("dw", use_resource=True):
        w = tf.get_variable("depthwise_weights", [3, 3, 3, 2],
                            initializer=tf.random_normal_initializer(seed=3))
        b = tf.get_variable("biases", [6], initializer=tf.constant_initializer(0.05))
        y = tf.nn.relu6(tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME") + b)
    with tf.variable_scope("pw"):
        w2 = tf.get_variable("weights", [1, 1, 6, 4],
                             initializer=tf.random_normal_initializer(seed=4))
        z = tf.nn.conv2d(y, w2, [1, 1, 1, 1], "VALID")
        tf.identity(z, name="out")
    qg.create_training_graph(graph)
    return {"ops": _graph_ops(graph),
            "run": _train(tf, graph, x, "pw/out:0", steps=2)}


def case_residual_bypass_and_activation_add(tf):
    """A residual block: conv -> bias -> add(input) -> relu (bypass before the
    activation), a second conv whose relu output is added to the block's input
    (post-activation bypass), and an add of two quantized outputs."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [2, 4, 4, 3], name="x")
    with tf.variable_scope("block"):
        with tf.variable_scope("conv_a"):
            w = tf.get_variable("weights", [3, 3, 3, 3],
                                initializer=tf.random_normal_initializer(seed=5))
            b = tf.get_variable("biases", [3], initializer=tf.constant_initializer(0.1))
            a = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b) + x)
        with tf.variable_scope("conv_b"):
            w2 = tf.get_variable("weights", [3, 3, 3, 3],
                                 initializer=tf.random_normal_initializer(seed=6))
            c = x + tf.nn.relu(tf.nn.conv2d(a, w2, [1, 1, 1, 1], "SAME"))
        with tf.variable_scope("conv_c"):
            w3 = tf.get_variable("weights", [1, 1, 3, 3],
                                 initializer=tf.random_normal_initializer(seed=7))
            d = tf.nn.relu(tf.nn.conv2d(x, w3, [1, 1, 1, 1], "SAME"))
        tf.identity(a * 0.5 + d, name="out")
        tf.identity(c, name="out_c")
    qg.create_training_graph(graph)
    feed = {x: _images(1)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(["block/out:0", "block/out_c:0"], feed)
        second = sess.run(["block/out:0", "block/out_c:0"], feed)
        names = _quant_variables(tf)
        return {"ops": _graph_ops(graph), "first": first, "second": second,
                "variables": dict(zip(names, sess.run(names)))}


def case_experimental_symmetric_bits_and_scope(tf):
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x, _ = _conv_fc(tf)
    qg.experimental_create_training_graph(weight_bits=4, activation_bits=5, symmetric=True,
                                          quant_delay=0, scope="fc")
    out = {"ops": _graph_ops(graph),
           "run": _train(tf, graph, x, "fc/act_quant/FakeQuantWithMinMaxVars:0")}
    with tf.Graph().as_default() as eval_graph:
        x, _ = _conv_fc(tf)
        qg.experimental_create_eval_graph(weight_bits=3, activation_bits=6, symmetric=True)
        out["eval_ops"] = _graph_ops(eval_graph)
        fq = [op for op in eval_graph.get_operations()
              if op.type == "FakeQuantWithMinMaxVars"]
        out["eval_attrs"] = [[op.name, op.get_attr("num_bits"), op.get_attr("narrow_range")]
                             for op in fq]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["eval"] = sess.run(fq[-1].outputs[0], {x: _images(2)})
    return out


def case_graph_with_training_ops_refused(tf):
    qg = _quantize(tf)
    x, z = _conv_fc(tf)
    tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(z))
    try:
        qg.create_training_graph()
    except ValueError as e:
        return {"error": type(e).__name__, "message": str(e)[:33]}
    return "no error"


def case_eval_graph_folds_inference_batch_norms(tf):
    """Fused batch norms with is_training=False after a conv, a depthwise conv and a
    matmul (reshaped to 4-D around the batch norm) are folded into their weights, then
    quantized."""
    qg = _quantize(tf)
    graph = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [2, 4, 4, 3], name="x")
    rng = np.random.RandomState(8)

    def batch_norm(y, channels, name):
        stats = [tf.constant(rng.uniform(0.5, 1.5, channels).astype(np.float32)),
                 tf.constant(rng.randn(channels).astype(np.float32)),
                 tf.constant(rng.randn(channels).astype(np.float32)),
                 tf.constant(rng.uniform(0.5, 2.0, channels).astype(np.float32))]
        return tf.nn.fused_batch_norm(y, stats[0], stats[1], mean=stats[2],
                                      variance=stats[3], epsilon=0.01, is_training=False,
                                      name=name)[0]

    with tf.variable_scope("conv"):
        w = tf.get_variable("weights", [3, 3, 3, 4],
                            initializer=tf.random_normal_initializer(seed=9))
        y = tf.nn.relu(batch_norm(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), 4, "BatchNorm"))
    with tf.variable_scope("dw"):
        w = tf.get_variable("depthwise_weights", [3, 3, 4, 1],
                            initializer=tf.random_normal_initializer(seed=10))
        y = tf.nn.relu6(batch_norm(tf.nn.depthwise_conv2d(y, w, [1, 1, 1, 1], "SAME"), 4,
                                   "BatchNorm"))
    with tf.variable_scope("fc"):
        w = tf.get_variable("weights", [64, 5], initializer=tf.random_normal_initializer(seed=11))
        z = tf.matmul(tf.reshape(y, [2, 64]), w)
        z = tf.reshape(batch_norm(tf.reshape(z, [2, 1, 1, 5]), 5, "BatchNorm"), [2, 5])
        tf.nn.relu(z, name="out")
    qg.create_eval_graph()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"ops": _graph_ops(graph), "out": sess.run("fc/out:0", {x: _images(3)})}
