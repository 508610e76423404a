"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ff).

* tensorlayer/tensorlayer 1.11.1: its 28 offline test files ran file by file under real TF
  (TF 2.21 compat.v1; the oracle's contrib stand-in is tf_slim for `tf.contrib.layers`,
  xavier_initializer included, and `tf.contrib.slim`'s nets, TF 1.15's legacy_seq2seq
  source) and under tf1compat, compared test by test. Both pass the same 22 files (all
  their tests); test_layers_normalization (tf.nn.lrn with None arguments) and
  test_optimizer_amsgrad (`variable_scope.variable`, TF 1.15's VariableV1 alias; the
  oracle restores it as scripts/oracle_contrib does) failed on tf1compat first and pass
  now. test_layers_recurrent passes on tf1compat only: TF 2.21's private `Tensor._shape`
  is a `(dims, unknown_rank)` tuple, so `int(t._shape[-1])` is 0 there (TF 1.x: a
  TensorShape, as tf1compat). Failing identically on both sides: test_array_ops (TF 2's
  NotImplementedError for `tf.constant(v, shape=<tensor>)`), test_layers_activation (a
  Tensor `alpha` to tf.nn.leaky_relu is TF's TypeError, then variable clashes),
  test_layers_convolution (TF 2's Dimension rejects 16.0), test_mnist_simple (numpy 2
  refuses tensorlayer's ragged `np.savez`) and test_timeout (a 40 s wall-clock limit for
  building InceptionV4 that neither side meets on the shared machine). The example
  tutorial_mnist_simple.py on fake MNIST (graph seed 0, 600 train / 10000 val images):
  identical layer and parameter listings (initial weight statistics included), printed
  validation losses equal to 6 digits for the first epochs and within 9e-5 after 60
  epochs of Adam (accuracies within 2/10000).
* tensorpack 0.9.8: examples/basics/mnist-convnet.py unchanged on fake MNIST, 2 epochs of
  3 steps: tf1compat prints the same losses each run (2.9593 / val 1.429); real TF's vary
  run to run (2.961, 2.9928, 2.9789 and val 1.38, 1.25, 1.40 in three runs, with and
  without gradient gating), so it was not matched number for number. Its
  add_moving_summary and dependency_of_fetches (session._FetchHandler plus graph_editor's
  backward walk; a walk seeded by tensors and ops together is TF's TypeError) patterns
  are pinned below.
"""

import numpy as np

from tests.golden.cases_contrib_graph_editor import _ge
from tests.golden.cases_thirdparty_realcode_o import _internal
from tests.golden.harness import catch, tolerance


def case_lrn_none_arguments_take_op_defaults(tf):
    """tensorlayer's LocalResponseNormLayer passes depth_radius/bias/alpha/beta=None
    straight to tf.nn.lrn: each None is the LRN op's default (5, 1.0, 1.0, 0.5)."""
    x = tf.constant(np.arange(2 * 3 * 3 * 12, dtype=np.float32).reshape(2, 3, 3, 12) / 50.0)
    none = tf.nn.lrn(x, depth_radius=None, bias=None, alpha=None, beta=None)
    mixed = tf.nn.local_response_normalization(x, depth_radius=2.7, bias=None, alpha=0.5,
                                               beta=None)
    with tf.Session() as sess:
        values = sess.run([none, mixed, tf.nn.lrn(x)])
    return {"attrs": [[op.get_attr(a) for a in ("depth_radius", "bias", "alpha", "beta")]
                      for op in (none.op, mixed.op)],
            "values": values,
            "bad_bias": catch(lambda: tf.nn.lrn(x, bias="a"), message=True),
            "bad_radius": catch(lambda: tf.nn.lrn(x, depth_radius="3"), message=True),
            "tensor_alpha": catch(lambda: tf.nn.leaky_relu(x, alpha=tf.constant(0.1)))}


def case_internal_variable_scope_variable_beta_powers(tf):
    """tensorlayer's AMSGrad._create_slots: `variable_scope.variable(beta, name=...,
    trainable=False)` (TF 1.15's alias of VariableV1) under colocate_with(first var), then
    the powers multiplied in place after each step."""
    vs = _internal(tf, "ops.variable_scope")
    make = getattr(vs, "variable", None)
    if make is None:                 # TF 2.x moved it; TF 1.15 had variable = VariableV1
        make = _internal(tf, "ops.variable_v1").VariableV1
    w = tf.get_variable("w", initializer=[1.0, 2.0])
    with tf.colocate_with(w):
        beta1 = make(0.9, name="beta1_power", trainable=False)
        beta2 = make(0.999, name="beta2_power", trainable=False)
    step = tf.group(beta1.assign(beta1 * 0.9), beta2.assign(beta2 * 0.999))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        values = sess.run([beta1, beta2])
    return {"names": [beta1.op.name, beta2.name, beta1.dtype.name],
            "trainable": [v.op.name for v in tf.trainable_variables()],
            "global": [v.op.name for v in tf.global_variables()],
            "colocation": beta1.op.colocation_groups(), "values": values}


@tolerance(rtol=1e-5, atol=1e-6)
def case_tensorlayer_mnist_simple_dropout_placeholders(tf):
    """tutorial_mnist_simple restated: under `tf.set_random_seed(0)`, DenseLayers with
    tensorlayer's truncated_normal(stddev=0.1) weights, DropoutLayers whose keep
    probabilities are float placeholders fed per run (the layer's keep while training, 1
    for evaluation: tl.utils.dict_to_one), the mean sparse softmax cross entropy and Adam
    1e-4; the losses of 3 steps and of the evaluations between them."""
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    images = rng.rand(16, 20).astype(np.float32)
    labels = rng.randint(0, 4, 16).astype(np.int64)
    x = tf.placeholder(tf.float32, [None, 20], name="x")
    y_ = tf.placeholder(tf.int64, [None], name="y_")
    keeps, h = {}, x
    for i, (keep, units, act) in enumerate(((0.8, 12, tf.nn.relu), (0.5, 12, tf.nn.relu),
                                            (0.5, 4, tf.identity))):
        p = tf.placeholder(tf.float32)
        keeps[p] = keep
        h = tf.nn.dropout(h, p, name=f"drop{i}")
        with tf.variable_scope(f"dense{i}"):
            w = tf.get_variable("W", [h.shape[-1], units],
                                initializer=tf.truncated_normal_initializer(stddev=0.1))
            b = tf.get_variable("b", [units], initializer=tf.constant_initializer(0.0))
        h = act(tf.nn.bias_add(tf.matmul(h, w), b))
    cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_, logits=h))
    train = tf.train.AdamOptimizer(1e-4).minimize(cost)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            feed = {x: images, y_: labels, **keeps}
            losses.append(sess.run([cost, train], feed)[0])
            losses.append(sess.run(cost, {x: images, y_: labels,
                                          **{p: 1.0 for p in keeps}}))
    return {"losses": losses, "layers": [h.name, cost.name]}


def case_tensorpack_add_moving_summary_zero_debias(tf):
    """tensorpack's add_moving_summary (tfutils/summary.py) restated: per scalar an `EMA/`
    variable from a variable scope captured once and re-entered by scope object with its
    original name scope, assign_moving_average(zero_debias=True) (its biased/local_step
    variables), a `<name>-summary` scalar of the EMA op and the op kept in the
    MOVING_SUMMARY_OPS collection; the callback then runs the collection's ops each step."""
    moving_averages = _internal(tf, "training.moving_averages")
    step = tf.placeholder(tf.float32, [], name="s")
    with tf.name_scope("tower0"):
        cost = tf.square(step - 1.0, name="cost")
        err = tf.cast(tf.greater(step, 2.0), tf.int32, name="train_error")
    with tf.variable_scope("EMA") as vs:      # _get_cached_vs: captured once, at the root
        pass
    ema_ops = []
    for c in (cost, err):
        name = c.op.name.replace("tower0/", "")
        with tf.name_scope(None):
            c = c if c.dtype.is_floating else tf.cast(c, tf.float32)
            with tf.variable_scope(vs), tf.name_scope(vs.original_name_scope):
                ema_var = tf.get_variable(name, shape=c.shape, dtype=c.dtype,
                                          initializer=tf.constant_initializer(),
                                          trainable=False)
            with tf.name_scope(vs.original_name_scope):
                ema = moving_averages.assign_moving_average(ema_var, c, 0.95, zero_debias=True,
                                                            name=name + "_EMA_apply")
            ema_ops.append(ema)
            tf.summary.scalar(name + "-summary", ema)
    for op in ema_ops:
        tf.add_to_collection("MOVING_SUMMARY_OPS", op)
    merged = tf.summary.merge_all()
    values = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for s in (0.0, 3.0, 1.5):
            run = sess.run(tf.get_collection("MOVING_SUMMARY_OPS") + [merged], {step: s})
            summary = tf.Summary.FromString(run[-1])
            values.append([run[:-1], [(v.tag, v.simple_value) for v in summary.value]])
    return {"variables": [v.op.name for v in tf.global_variables()],
            "trainable": [v.op.name for v in tf.trainable_variables()],
            "ema_ops": [op.name for op in ema_ops],
            "summaries": [op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "original_name_scope": vs.original_name_scope, "values": values}


def case_tensorpack_dependency_of_fetches(tf):
    """tensorpack's dependency_of_fetches (tfutils/dependency.py): session's _FetchHandler
    over a nested fetch structure (dict of a list, a tensor name, an op, a variable) gives
    the fetched tensors and target ops, whose backward walk (control inputs included:
    contrib.graph_editor's get_backward_walk_ops) says which ops a run depends on."""
    session = _internal(tf, "client.session")
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.get_variable("w", initializer=[1.0, 2.0])
    y = tf.reduce_sum(x * w, name="y")
    step = tf.assign_add(w, [0.5, 0.5], name="step")
    with tf.control_dependencies([step]):
        after = tf.identity(y, name="after")
    unrelated = tf.square(x, name="unrelated")
    fetches = {"a": [y, "after:0"], "train": step.op, "w": w}
    handler = session._FetchHandler(tf.get_default_graph(), fetches, {})
    ge = _ge(tf)
    mixed = tuple(handler.fetches() + handler.targets())   # tensors then ops
    walked = ge.get_backward_walk_ops(handler.fetches(), control_inputs=True)
    walked_ops = ge.get_backward_walk_ops(handler.targets(), control_inputs=True)
    return {"fetches": sorted(t.name for t in handler.fetches()),
            "targets": sorted(op.name for op in handler.targets()),
            "depends": {t.op.name: [t.op in walked, t.op in walked_ops]
                        for t in (x, y, after, unrelated, step)},
            "mixed": catch(lambda: len(ge.get_backward_walk_ops(mixed, control_inputs=True)))}
