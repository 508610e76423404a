"""Golden cases from third-party layer libraries on TF1 (tflearn's patterns): attributes a
library hangs on the tensors, operations and variables it returns, generic resources
(`tensorflow.python.ops.resources`) initialized beside the variables, and a batch-norm
layer that updates its moving averages inside a `tf.cond` on a training-mode variable."""

import numpy as np

from tests.golden.harness import catch


def _resources(tf):
    """TF's internal resources module (no public tf.* name exists for it)."""
    if tf.__name__.startswith("tf1compat"):
        import importlib
        return importlib.import_module("tf1compat.ops.resources")
    from tensorflow.python.ops import resources
    return resources


def _moving_averages(tf):
    if tf.__name__.startswith("tf1compat"):
        import importlib
        return importlib.import_module("tf1compat.training.moving_averages")
    from tensorflow.python.training import moving_averages
    return moving_averages


def case_attributes_on_graph_objects(tf):
    """tflearn sets `net.scope`, `net.W`, `net.b` on each layer's output tensor."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(tf.ones([3, 2]), name="W")
    y = tf.matmul(x, w, name="out")
    y.scope = "FullyConnected/"
    y.W = w
    y.op.layer_kind = "dense"
    w.regularized = True
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(y, {y.op.inputs[0]: np.ones((1, 3), np.float32)})
    return [y.scope, y.W.op.name, y.op.layer_kind, w.regularized, value,
            hasattr(x, "scope"), catch(lambda: x.missing_attribute)]


def case_resources_initialized_beside_variables(tf):
    """tflearn's estimators run `initialize_resources(shared_resources())` with the
    variable initializer; with nothing registered that is a NoOp named `init`."""
    resources = _resources(tf)
    v = tf.Variable(2.0)
    shared = resources.shared_resources()
    init_res = resources.initialize_resources(shared)
    init_all = tf.group(tf.global_variables_initializer(), init_res)
    report = resources.report_uninitialized_resources()
    named = resources.initialize_resources([], name="make_tables")
    with tf.Session() as sess:
        sess.run(init_all)
        left = sess.run(report)
        value = sess.run(v)
    return [len(shared), len(resources.local_resources()), init_res.type, init_res.name,
            named.name, report.dtype.name, report.shape.as_list(), report.op.type,
            left.shape, value, [i.type for i in init_all.control_inputs]]


def case_batch_norm_moving_averages_in_cond(tf):
    """tflearn's batch_normalization: moments and moving-average updates (no zero
    debiasing) in the true branch of `tf.cond(is_training, ...)`; the false branch reads
    the moving averages. Values over training steps and one inference step."""
    moving_averages = _moving_averages(tf)
    rng = np.random.RandomState(5)
    data = rng.randn(6, 4).astype(np.float32) * 3 + 1
    x = tf.placeholder(tf.float32, [None, 4])
    is_training = tf.Variable(False, trainable=False, name="is_training")
    set_training = [tf.assign(is_training, True), tf.assign(is_training, False)]
    beta = tf.Variable(tf.zeros([4]), name="beta")
    gamma = tf.Variable(tf.ones([4]) * 1.5, name="gamma")
    moving_mean = tf.Variable(tf.zeros([4]), trainable=False, name="moving_mean")
    moving_var = tf.Variable(tf.ones([4]), trainable=False, name="moving_variance")

    def update():
        mean, var = tf.nn.moments(x, [0])
        up_mean = moving_averages.assign_moving_average(moving_mean, mean, 0.9,
                                                        zero_debias=False)
        up_var = moving_averages.assign_moving_average(moving_var, var, 0.9,
                                                       zero_debias=False)
        with tf.control_dependencies([up_mean, up_var]):
            return tf.identity(mean), tf.identity(var)

    mean, var = tf.cond(is_training, update, lambda: (moving_mean, moving_var))
    y = tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-5)
    loss = tf.reduce_sum(tf.square(y - 1.0))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(set_training[0])
        for step in range(3):
            sess.run(train, {x: data[step:step + 4]})
            out.append(sess.run([moving_mean, moving_var, gamma, beta]))
        sess.run(set_training[1])
        out.append(sess.run([y, moving_mean], {x: data[:2]}))
    return [mean.name, mean.shape.as_list(), out]
