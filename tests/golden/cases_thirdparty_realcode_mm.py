"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-mm).

* deepmind/trfl v1.0.2 (cc6de7e, `import tensorflow as tf`; distribution_ops.py and its
  test from 736151c, where the compiled project_distribution op became Python; dm-tree,
  TFP 0.8 under tf1compat and TFP 0.25 under TF 2.21): its 16 *_test.py files, run test
  by test, give the same outcomes under both: 303 pass, 41 skipped (TestCase.test_session).
  It failed at import on tf1compat first: TFP 0.8's prefer_static compares
  `tf_inspect.getfullargspec(tf.compat.v2.reduce_all)` with v2's arguments, and since
  v1's dispatchable functions became TFDecorators, the v2 functions built over them had
  copied v1's decorator record, so tf_inspect read v1's arguments (`reduction_indices`,
  `keep_dims`). Fixed (case below). dpg_ops_test's testDpgGradient needs numpy's removed
  `np.product` under either (aliased for the run). A seeded loop over 11 trfl losses
  (Q-learning family, sarsa/Q lambda, TD lambda, A2C, V-trace, retrace, categorical
  distributional Q-learning, huber, pixel control) with Adam and periodic_target_update
  matched TF's losses and parameters to 3e-7 relative over 5 steps.
* deepmind/graph_nets v1.0.5 with dm-sonnet 1.36 (its wheel; TF 2.21 ran it with a small
  tf.contrib stand-in: contrib nest, smart_cond, argsort, rnn names): its five test files
  give 377 passes and 23 skips under both, test by test. The sort demo's notebook cells
  (EncodeProcessDecode, 10 message-passing steps, batch 32, Adam) ran unchanged except
  for seeding the graph the demo creates after reset_default_graph (the demo seeds the one
  it discards, so neither TF nor tf1compat repeat it): in-graph data and initial weights
  are TF's exactly, the first loss matches to 2e-7 (5.336792 vs 5.336791); forward outputs
  drift from 5e-7 to 1e-5 relative over the 10 steps and the encoder's gradients differ
  by up to 2.5e-4 relative, where perturbing TF's own initial weights by 1e-7 moves them
  by 1e-4; after 10 Adam steps losses agree to 1.4% (1.7441 vs 1.7205).
The cases pin the compat.v2 argument specs, the sort demo's seeded in-graph data and a
graph network's layer-normed message passing with gradients.
"""

import importlib

import numpy as np

from tests.golden.harness import tolerance


def _tf_inspect(tf):
    if getattr(tf, "contrib", None) is not None:          # tf1compat (TF 2.21 has no contrib)
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS["tensorflow.python.util.tf_inspect"])
    return importlib.import_module("tensorflow.python.util.tf_inspect")


def case_compat_v2_reduce_argspecs(tf):
    """TFP 0.8's prefer_static: `tf_inspect.getfullargspec` of tf.compat.v2's reductions
    (v2's own arguments), beside v1's."""
    tf_inspect = _tf_inspect(tf)
    out = {}
    for name in ("reduce_all", "reduce_any", "reduce_sum", "reduce_max", "reduce_mean",
                 "reduce_prod", "math.reduce_min", "math.reduce_logsumexp"):
        fn, v1 = tf.compat.v2, tf
        for part in name.split("."):
            fn, v1 = getattr(fn, part), getattr(v1, part)
        spec = tf_inspect.getfullargspec(fn)
        out[name] = (spec.args, spec.defaults, spec.varargs, spec.varkw)
        out["v1." + name] = tf_inspect.getfullargspec(v1).args
    return out


def case_graph_nets_sort_demo_seeded_data(tf):
    """The sort demo's create_graph_dicts_tf: per-graph sizes from an int32 random_uniform,
    then one random_uniform of run-time length per graph, argsort for the sort indices
    and argsort of those for the normalised ranks (op seeds from the graph seed)."""
    tf.set_random_seed(1)
    num = tf.random_uniform([3], minval=4, maxval=7, dtype=tf.int32)
    out = []
    for i in range(3):
        values = tf.random_uniform(shape=[num[i]])
        sort_indices = tf.cast(tf.argsort(values, axis=-1), tf.float32)
        ranks = tf.cast(tf.argsort(sort_indices, axis=-1), tf.float32) / (
            tf.cast(num[i], tf.float32) - 1.0)
        out += [values[:, None], sort_indices, ranks]
    with tf.Session() as sess:
        first = sess.run([num] + out)
        second = sess.run(num)          # a second run draws new sizes
    return first, second


@tolerance(rtol=1e-5, atol=1e-6)
def case_graph_nets_layer_norm_message_passing(tf):
    """EncodeProcessDecode's core restated: 3 steps of edge update (concat edges, sender
    and receiver nodes, globals broadcast by repeat), unsorted_segment_sum to receivers,
    node and global updates, each an MLP then Sonnet's LayerNorm (moments over the last
    axis, batch_normalization with eps 1e-5); gradients of a softmax cross-entropy."""
    rs = np.random.RandomState(3)
    senders = tf.constant([0, 1, 2, 2, 3, 4, 4], tf.int32)
    receivers = tf.constant([1, 2, 0, 3, 4, 0, 1], tf.int32)
    n_edge = tf.constant([4, 3])
    n_node_graph = tf.constant([3, 2])
    nodes0 = tf.constant(rs.randn(5, 4).astype(np.float32))
    edges0 = tf.constant(rs.randn(7, 4).astype(np.float32))
    glob0 = tf.constant(rs.randn(2, 4).astype(np.float32))
    params = []

    def block(name, x):
        with tf.variable_scope(name, reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", initializer=(rs.randn(int(x.shape[-1]), 4) * 0.4)
                                .astype(np.float32))
            gamma = tf.get_variable("gamma", initializer=np.ones(4, np.float32))
            beta = tf.get_variable("beta", initializer=np.zeros(4, np.float32))
        if w not in params:
            params.extend([w, gamma, beta])
        h = tf.nn.relu(tf.matmul(x, w))
        mean, var = tf.nn.moments(h, [1], keep_dims=True)
        return tf.nn.batch_normalization(h, mean, var, beta, gamma, 1e-5)

    edge_graph = tf.repeat(tf.range(2), n_edge)
    node_graph = tf.repeat(tf.range(2), n_node_graph)
    nodes, edges, glob = nodes0, edges0, glob0
    outputs = []
    for _ in range(3):
        edges = block("edge", tf.concat([edges, tf.gather(nodes, senders),
                                         tf.gather(nodes, receivers),
                                         tf.gather(glob, edge_graph)], -1))
        agg = tf.unsorted_segment_sum(edges, receivers, 5)
        nodes = block("node", tf.concat([nodes, agg, tf.gather(glob, node_graph)], -1))
        glob = block("global", tf.concat([glob, tf.unsorted_segment_sum(nodes, node_graph, 2),
                                          tf.unsorted_segment_sum(edges, edge_graph, 2)], -1))
        outputs.append(edges)
    labels = tf.one_hot([0, 1, 2, 3, 0, 1, 2], 4)
    loss = tf.add_n([tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=labels, logits=e)) for e in outputs]) / 3.0
    grads = tf.gradients(loss, params)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run([loss, outputs[-1], grads])
