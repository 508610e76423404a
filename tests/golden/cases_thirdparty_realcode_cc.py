"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-cc).

* jakeret/tf_unet (HEAD 0dcdf2f; its test/ folder was a placeholder, removed upstream):
  Unet(layers=3, features_root=4) + Trainer on image_gen's GrayScaleDataProvider (80x80),
  momentum and Adam, 2 epochs of 3 steps, then `predict` from the stored checkpoint, ran
  unchanged; every printed loss, accuracy, error rate and prediction matched TF (graph
  seed set after the Unet's own reset_default_graph), checkpoints within float rounding.
  With `write_graph=True` its graph.pb is TF's SymbolicGradient form since session 21
  (branch export13: the transposed convolution of run-time size, the `// 2` of its
  output shape and the crop's tf.slice of -1 sizes inside the gradient's function):
  real TF imports it, initializes and trains 3 Momentum steps from it to tf1compat's
  values (max 4.7e-10); the pattern is the recorded fixture train_unet_run_time_deconv
  (tests/graph_training_nn_cases.py).
* tensorlayer/tensorlayer 1.11.1: failed at import on tf1compat; its array_ops imports
  `shape_internal` (tensorflow.python.ops.array_ops), `gen_array_ops.fill/reshape`,
  `constant_op._tensor_shape_tensor_conversion_function` and calls `context.in_eager_mode()`
  and a graph tensor's `_shape_tuple()`; its AMSGrad imports `resource_variable_ops`
  (`resource_scatter_add`). With those, under tf1compat 20 of its 28 test files that run
  offline pass unchanged (test_array_ops fails as under TF 2.21: `tf.constant(v,
  shape=<tensor>)` is TF 2's NotImplementedError where TF 1.15 raised the TypeError `alphas`
  catches). Not compared file by file with the oracle: the oracle's contrib stand-in lacked
  `xavier_initializer` when the session ran out. The cases restate those imports.
"""

from tests.golden.cases_thirdparty_realcode_o import _internal


def case_tensorlayer_alphas_internals(tf):
    """tl.alphas / alphas_like: a TensorShape converted by constant_op's conversion
    function, shape_internal (a Const when known, a Shape op otherwise), gen_array_ops'
    Fill and Reshape, context.in_eager_mode()."""
    constant_op = _internal(tf, "framework.constant_op")
    array_ops = _internal(tf, "ops.array_ops")
    gen_array_ops = _internal(tf, "ops.gen_array_ops")
    context = _internal(tf, "eager.context")
    shape = constant_op._tensor_shape_tensor_conversion_function(tf.TensorShape([4, 3]))
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    known = array_ops.shape_internal(tf.zeros([2, 5]), optimize=True)
    dynamic = array_ops.shape_internal(x, optimize=True)
    filled = gen_array_ops.fill(dynamic, tf.constant(0.5), name="filled")
    flat = gen_array_ops.reshape(shape, [-1])
    try:
        constant_op._tensor_shape_tensor_conversion_function(tf.TensorShape([2]),
                                                             dtype=tf.float32)
        error = None
    except TypeError as e:
        error = str(e)
    with tf.Session() as sess:
        values = sess.run([shape, known, filled, flat], {x: [[1, 2], [3, 4], [5, 6]]})
    return {"names": [shape.op.name, known.op.type, dynamic.op.type, filled.op.type],
            "values": values, "eager": context.in_eager_mode(), "error": error,
            "shape_tuples": [x._shape_tuple(), shape._shape_tuple(),
                             tf.placeholder(tf.float32)._shape_tuple()]}


def case_resource_scatter_add_amsgrad_slot(tf):
    """tensorlayer's AMSGrad sparse update: resource_scatter_add on a resource variable's
    handle under a control dependency, then the variable read."""
    resource_variable_ops = _internal(tf, "ops.resource_variable_ops")
    v = tf.get_variable("m", initializer=tf.constant([1.0, 2.0, 3.0, 4.0]), use_resource=True)
    op = resource_variable_ops.resource_scatter_add(v.handle, [0, 2, 2], [10.0, 1.0, 5.0])
    with tf.control_dependencies([op]):
        out = v.read_value()
    with tf.Session() as sess:
        sess.run(v.initializer)
        return {"type": op.type, "value": sess.run(out)}
