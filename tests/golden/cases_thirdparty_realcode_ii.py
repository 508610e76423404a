"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ii).

* blei-lab/edward 1.3.5 (tag 1.3.5, on PYTHONPATH from its sources): `ed.copy` rebuilds
  graph ops through TF 1.x's raw Operation protocol: `deepcopy(op.node_def)`, a new name
  and `node_def.attr['seed2'].i`, `tf.Operation(node_def, graph, [], op._output_types, [],
  [], original_op, deepcopy(op.op_def))`, `graph._add_op`, then `op._add_input(t)` per
  input, `tensorflow.python.framework.ops.set_shapes_for_outputs(op)`,
  `graph._record_op_seen_by_control_dependencies` and `graph._apply_device_functions`.
  tf1compat offered none of it (the last session stopped at the import of
  set_shapes_for_outputs); all of it is there now (framework/raw_operation.py; a traced
  while/cond region is a NotImplementedError there, since its captures are bound to the
  original op). Its own tests (tests/util, models, inferences, criticisms but the plot
  test; NumPy 1's aliases np.float / np.str / np.int / np.object as stand-ins):
  207 of 253 pass under tf1compat. The 46 others are not tf1compat's: 22 pass float32 or
  int32 numpy data that Edward's check_data refuses under NumPy >= 1.20
  (`np.issubdtype(float32, float)` is False); 19 are ed.complete_conditional's symbolic
  conjugacy (test_conjugacy, test_gibbs), which knows the op type "Add" but not "AddV2",
  which `x + y` has built since TF 1.15 as in TF 2.x; test_copy's test_scan copies a
  tf.scan (TF: dataflow ops, tf1compat: one traced While, the NotImplementedError
  above); test_simplex passes TF 1.5's `SoftmaxCentered(event_ndims=1)`, gone from TF
  1.15; test_first_order differentiates an int32 Bernoulli (None, as TF >= 1.5 gives);
  one builds `tf.zeros([1e4])` (TF 2's Dimension rejects 10000.0, as tf1compat does).
  One is open: test_inference_auto_transform's test_hmc_custom (HMC on a custom
  Softplus-transformed space) ends with a posterior mean of 0.35 against the target's
  1.41 (tolerance 0.1); not compared with TF, so not known to be tf1compat's.
  examples/bayesian_linear_regression.py's model with KLqp (40 iterations, 5 samples,
  ed.set_seed(42)), then `ed.copy(y, {w: qw, b: qb})` and ed.evaluate's MSE / MAE, runs
  and prints the same numbers on every run (losses 1172.23 -> 501.47, MSE 25.88). Not
  compared with TF: Edward 1.3.5 needs `tf.contrib.distributions` (absent from the TF 2.x
  oracles) and the input-less constructor with `_add_input` / `set_shapes_for_outputs`,
  which TF removed with its C API; the first case below pins the part TF 2.21 still
  has, `Operation.from_node_def` with all inputs given (tests/test_raw_operation.py the
  rest).
* tensorpack 0.9.8 (realcode-ff's copy and pure-Python deps): tensorpack.models._test and
  tensorpack.callbacks.param_test (6 tests) pass under both; tests/test_serializer fails
  under TF on NumPy 2 / h5py 3 / lmdb. A tiny ModelDesc (2 FullyConnected layers from
  fixed values, cross entropy + activation weight decay with add_moving_summary,
  MomentumOptimizer with a learning_rate variable) trained by SimpleTrainer from a
  QueueInput over a DataFromList, 2 epochs of 3 steps, runs unchanged: the monitor's
  losses agree with TF's to 1e-4 (1.0851/1.0862, 1.1095/1.1106 vs TF's
  1.0851/1.0861, 1.1094/1.1106), fc1's final weights to 2e-4; fc0's differ by up to
  1e-3, as TF's own runs differ from each other (tensorpack does not gate the update on
  the gradients, so with ref variables fc1's Momentum update races fc0's gradient,
  which reads fc1/W; tf1compat computes all gradients first). The second case pins that
  training graph with the gradients gated, where TF is deterministic.
* williamleif/GraphSAGE: not run (time; realcode-dd found its networkx 1.x data loading
  cannot run on Python 3.11 / NumPy 2).
"""

import copy

import numpy as np

from tests.golden.harness import tolerance


def case_edward_copy_op_from_edited_node_def(tf):
    """ed.copy's op copy: an op's NodeDef deep-copied, renamed and given a new `seed2`,
    rebuilt with `Operation.from_node_def` (TF 1.x: `tf.Operation(...)`) on new inputs;
    the copy is in the graph under its name, infers its output shape and computes."""
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3), name="a")
        b = tf.placeholder(tf.float32, [None, 3], name="b")
        c = tf.add(a, b, name="c")
        tf.random_uniform([2, 3], seed=5, name="u")
        u = g.get_operation_by_name("u/RandomUniform")
        node = copy.deepcopy(c.op.node_def)
        node.name = "copied/c"
        c2 = tf.Operation.from_node_def(node, g, [a, a * 2.0], c.op._output_types[:])
        node = copy.deepcopy(u.node_def)
        node.name = "copied/u"
        node.attr["seed2"].i = 9
        u2 = tf.Operation.from_node_def(node, g, [u.inputs[0]], u._output_types)
        with tf.Session(graph=g) as sess:
            vals = sess.run([c2.outputs[0], u2.outputs[0], u.outputs[0]])
    return {"names": [c2.name, u2.name, g.get_operation_by_name("copied/u") is u2],
            "types": [c2.type, u2.type, list(c2._output_types)],
            "shapes": [str(c.shape), str(c2.outputs[0].shape), str(u2.outputs[0].shape)],
            "seed2": [u.get_attr("seed2"), u2.get_attr("seed2")],
            "inputs": [t.name for t in c2.inputs], "c2": vals[0],
            "u2_shape": list(vals[1].shape), "u2_in_range": bool(np.all(vals[1] < 1.0)),
            "u2_differs": bool(np.any(vals[1] != vals[2]))}


@tolerance(rtol=2e-5, atol=2e-6)
def case_tensorpack_modeldesc_simple_trainer_queue_input(tf):
    """tensorpack 0.9.8's ModelDesc trained by SimpleTrainer from a QueueInput, restated:
    the input FIFOQueue fed by an enqueue op of the inputs' placeholders and dequeued
    with their shapes restored, FullyConnected layers (`fc0/W`, `fc0/b`), the cost
    `add_n([cross_entropy_loss, regularize_loss], name='total_cost')`, a
    `learning_rate` variable and `MomentumOptimizer.apply_gradients(name='train_op')`
    after `compute_gradients(colocate_gradients_with_ops=True)`. The update waits for
    all gradients here: with TF's ref variables and no such wait, TF applies fc1's update
    while fc0's gradient may still read fc1/W, which varies run to run."""
    rs = np.random.RandomState(0)
    w1 = rs.uniform(-0.5, 0.5, (4, 8)).astype(np.float32)
    w2 = rs.uniform(-0.5, 0.5, (8, 3)).astype(np.float32)
    xs = rs.uniform(-1, 1, (6, 5, 4)).astype(np.float32)
    ys = rs.randint(0, 3, (6, 5)).astype(np.int32)
    g = tf.Graph()
    with g.as_default():
        x_ph = tf.placeholder(tf.float32, (None, 4), "x")
        y_ph = tf.placeholder(tf.int32, (None,), "label")
        with tf.name_scope("QueueInput"):
            queue = tf.FIFOQueue(50, [tf.float32, tf.int32], name="input_queue")
            enqueue = queue.enqueue([x_ph, y_ph], name="enqueue")
            x, y = queue.dequeue(name="input_deque")
            x.set_shape(x_ph.shape)
            y.set_shape(y_ph.shape)

        def fc(name, inp, units, w0, act):
            with tf.variable_scope(name):
                w = tf.get_variable("W", initializer=tf.constant(w0))
                b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
                return act(tf.nn.xw_plus_b(inp, w, b), name="output")

        h = fc("fc0", x, 8, w1, tf.nn.relu)
        logits = fc("fc1", h, 3, w2, tf.identity)
        cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            logits=logits, labels=y), name="cross_entropy_loss")
        wd = tf.multiply(1e-3, tf.nn.l2_loss(h), name="regularize_loss")
        total = tf.add_n([cost, wd], name="total_cost")
        lr = tf.get_variable("learning_rate", initializer=0.1, trainable=False)
        opt = tf.train.MomentumOptimizer(lr, 0.9)
        grads = opt.compute_gradients(total, colocate_gradients_with_ops=True)
        with tf.control_dependencies([gv[0] for gv in grads]):
            train_op = opt.apply_gradients(grads, global_step=tf.train.get_or_create_global_step(),
                                           name="train_op")
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(6):
                sess.run(enqueue, {x_ph: xs[i], y_ph: ys[i]})
            losses = [sess.run([train_op, cost, total])[1:] for _ in range(6)]
            final = {v.op.name: sess.run(v) for v in tf.global_variables()}
    return {"losses": np.array(losses), "vars": final,
            "names": sorted(final), "train_op": train_op.name, "deque": [x.name, y.name]}
