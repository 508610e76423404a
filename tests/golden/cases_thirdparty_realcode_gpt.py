"""Golden cases: patterns from GPT-2 (openai/gpt-2 and nshepperd/gpt-2's fine-tuning
script), char-rnn and the DNC run under real TF and tf1compat (session realcode-gpt).

* nshepperd/gpt-2 train.py with resource variables (`tf.enable_resource_variables()`):
  the token table `wte` is read twice, by `tf.gather` (ResourceGather, whose gradient is
  IndexedSlices) and by the output projection's `matmul(h, wte, transpose_b=True)`
  (ReadVariableOp, a dense gradient). tf1compat gave the slices the handle's shape `()`
  and refused to sum them with the dense gradient ("Shapes (300, 32) and () are
  incompatible"); TF sums them (an AddN of the densified slices). Fixed in
  autodiff/walk.py; the case pins the tied-embedding gradient and an SGD step.
"""

import numpy as np

from tests.golden.harness import catch


def _tied_embedding_lm(tf, tokens, use_resource):
    """gpt-2's shape in small: a token table gathered by the input and reused, transposed,
    as the output projection."""
    rng = np.random.RandomState(0)
    table = tf.get_variable("wte", initializer=rng.randn(7, 4).astype(np.float32) * 0.5,
                            use_resource=use_resource)
    positions = tf.get_variable("wpe", initializer=rng.randn(5, 4).astype(np.float32) * 0.1,
                                use_resource=use_resource)
    h = tf.gather(table, tokens) + tf.gather(positions, tf.range(tf.shape(tokens)[1]))
    h = tf.tanh(h)
    logits = tf.reshape(tf.matmul(tf.reshape(h, [-1, 4]), table, transpose_b=True),
                        [tf.shape(tokens)[0], tf.shape(tokens)[1], 7])
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tokens[:, 1:], logits=logits[:, :-1]))
    # A gather_nd of rows (ResourceGatherNd's slices) joins the sum too.
    loss += 0.1 * tf.reduce_sum(tf.square(tf.gather_nd(table, [[1], [6]])))
    return loss, [table, positions]


def case_tied_resource_embedding_gradient(tf):
    """The gradient of a resource variable read by a gather and by a matmul is the sum of
    the slices and the dense gradient, with the variable's shape (nshepperd/gpt-2's
    train.py under resource variables); then one SGD step on it."""
    out = {}
    for use_resource in (True, False):
        with tf.Graph().as_default():
            tokens = tf.constant([[1, 3, 3, 6, 0], [2, 2, 5, 1, 4]])
            loss, (table, positions) = _tied_embedding_lm(tf, tokens, use_resource)
            g_table, g_pos = tf.gradients(loss, [table, positions])
            step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                key = "resource" if use_resource else "ref"
                out[key] = {
                    "table_grad_shape": g_table.shape.as_list(),
                    "table_grad_dense": not isinstance(g_table, tf.IndexedSlices),
                    "position_grad_sparse": isinstance(g_pos, tf.IndexedSlices),
                    "grads": sess.run([tf.convert_to_tensor(g_table),
                                       tf.convert_to_tensor(g_pos)]),
                }
                sess.run(step)
                out[key]["after_step"] = sess.run([loss, table])
    return out


def case_list_argument_dtype_errors(tf):
    """A list argument whose values have different dtypes names them all, as TF's op helper
    does (the DNC's util.batch_gather concatenates an int32 range with int64 indices)."""
    def build(values):
        return lambda: tf.concat(values(), 0)
    return {
        "concat_int32_int64": catch(build(lambda: [tf.constant([1]), tf.constant([2], tf.int64)]),
                                    message=True),
        "concat_three": catch(build(lambda: [tf.constant([1.0]), tf.constant([2.0]),
                                             tf.constant([3], tf.int64)]), message=True),
        "concat_python_float": catch(build(lambda: [tf.constant([1]), [2.5]]), message=True),
        "concat_none": catch(build(lambda: [tf.constant([1]), None]), message=True),
        "concat_numpy_int64": catch(build(lambda: [tf.constant([1]), np.array([2], np.int64)]),
                                    message=True),
        "stack": catch(lambda: tf.stack([tf.constant(1), tf.constant(2, tf.int64)]),
                       message=True),
        "add_n": catch(lambda: tf.add_n([tf.constant(1.0), tf.constant(2.0, tf.float64)]),
                       message=True),
        "dynamic_stitch_int64_indices": catch(lambda: tf.dynamic_stitch(
            [tf.constant([0], tf.int64), tf.constant([1])], [tf.constant([1.0]),
                                                             tf.constant([2.0])]), message=True),
    }
