"""Golden cases: patterns from GPT-2 (openai/gpt-2 and nshepperd/gpt-2's fine-tuning
script), char-rnn and the DNC run under real TF and tf1compat (session realcode-gpt).

Both sides ran the projects unchanged through one runner (numpy and graph seeds set,
`tf.contrib` pieces TF 2.21 lacks given the same way: a contrib.training.HParams stand-in,
TF 1.15's own graph_editor and legacy_seq2seq sources, contrib.rnn as tf.nn.rnn_cell).

* openai/gpt-2 (9b63575) and nshepperd/gpt-2 (b7cda3f), a made-up byte-level BPE of 300
  tokens (encoder.json / vocab.bpe), n_layer 2, n_embd 32, n_head 4, weights saved by TF:
  logits and presents agree to 1.3e-7; generate_unconditional_samples and
  interactive_conditional_samples (top_k with top_p 0.9 / 0.8 / 0.95, temperature 0.7)
  print TF's text token for token. With openai's default `top_p=1` a sample can differ:
  its top_p_logits keeps the tokens whose cumulative probability is `<= 1.0`, and where
  float32 softmax + cumsum rounds to 1.0000001 in TF and to 1.0 here (torch's exp against
  Eigen's, 1 ulp) TF truncates to the top four tokens and tf1compat does not (left alone).
  nshepperd's train.py (n_ctx 1024, Sampler seeded): with resource variables Adam, SGD,
  `--accumulate_gradients 2`, `--memory_saving_gradients`, the samples drawn while
  training and TF-format checkpoints restored both ways print TF's losses to 7 digits.
  With ref variables (train.py's default) TF's own SGD losses change from run to run
  (5.350 / 5.380 / 5.279 at step 2): each ApplyGradientDescent updates its variable in
  place while gradients of earlier layers still read it; tf1compat computes every
  gradient first (5.4719, TF's value with resource variables). tf1compat failed under
  resource variables: the token table `wte` is read by `tf.gather` (ResourceGather, whose
  gradient is IndexedSlices) and by the output projection's `matmul(h, wte,
  transpose_b=True)`, and tf1compat gave the slices the handle's shape `()` and refused to
  sum them ("Shapes (300, 32) and () are incompatible"). Fixed in autodiff/walk.py (first
  case). memory_saving_gradients (graph_editor walks, copies and reroutes) with
  checkpoints 'collection' (n_layer 12) and 'speed' gives TF's gradients to 2e-7 under
  both; 'memory' finds no bottleneck under both (transformer residuals and shape ops).
* sherjilozair/char-rnn-tensorflow (4bff62d): train.py (2-layer LSTM, rnn_decoder,
  clip_by_global_norm, Adam with a decayed lr variable; also with input/output dropout)
  on 12,000 characters of its tinyshakespeare: 120 steps' losses (from the summaries)
  within 2.4e-7 relative; sample.py gives TF's text from either side's checkpoint;
  `--init_from` the other side's save dir continues with TF's losses. `--model gru` and
  `--sample 2` fail alike under both (the LSTM-only state feed; numpy 2's int()).
* deepmind/dnc (d3d94b3) with dm-sonnet 1.36 (TF 2.21 given contrib.framework nest /
  smart_cond, contrib.rnn names and a tensorflow_probability stand-in): access_test,
  addressing_test, util_test give the same outcome test by test: 14 pass, 4 fail alike
  (three Python 2 `xrange`, util.batch_gather's int32/int64 concat). That TypeError's
  message was tf1compat's single-input one; now TF's list message (second case).
  train.py for 30 iterations prints TF's losses to 6 decimals and the same copy-task
  boards, and each side continues the other's checkpoint with TF's losses.

The third case pins the DNC's allocation weighting (top_k sort, exclusive cumprod,
invert_permutation) with gradients."""

import numpy as np

from tests.golden.harness import catch, tolerance


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


@tolerance(rtol=1e-5, atol=1e-6)
def case_dnc_style_allocation_weighting(tf):
    """The DNC's free-slot allocation, restated: sort the free fraction of each slot with
    top_k, an exclusive cumprod of the sorted usage, then undo the sort with per-row
    invert_permutation and a batched gather_nd; with gradients through top_k's values and
    the cumprod, and a content weighting (cosine similarity, sharpened softmax) beside it."""
    rng = np.random.RandomState(3)
    usage_in = tf.constant(rng.uniform(0.05, 0.95, [2, 6]).astype(np.float32))
    memory = tf.constant(rng.randn(2, 6, 4).astype(np.float32))
    keys = tf.constant(rng.randn(2, 3, 4).astype(np.float32))
    strengths = tf.constant(rng.uniform(1.0, 3.0, [2, 3]).astype(np.float32))
    usage = 1e-6 + (1 - 1e-6) * usage_in
    free, order = tf.nn.top_k(1 - usage, k=6)
    sorted_alloc = free * tf.cumprod(1 - free, axis=1, exclusive=True)
    inverse = tf.stack([tf.invert_permutation(row) for row in tf.unstack(order)])
    rows = tf.tile(tf.expand_dims(tf.range(2), -1), [1, 6])
    alloc = tf.gather_nd(sorted_alloc, tf.stack([rows, inverse], -1))
    dot = tf.matmul(keys, memory, adjoint_b=True)
    norms = tf.sqrt(tf.reduce_sum(keys * keys, 2, keepdims=True)) * tf.transpose(
        tf.sqrt(tf.reduce_sum(memory * memory, 2, keepdims=True)), [0, 2, 1])
    content = tf.nn.softmax(dot / (norms + 1e-6) * tf.expand_dims(strengths, -1))
    loss = tf.reduce_sum(alloc * tf.range(1.0, 7.0)) + tf.reduce_sum(
        content * tf.range(1.0, 7.0))
    grads = tf.gradients(loss, [usage_in, memory, keys, strengths])
    with tf.Session() as sess:
        return {"order": sess.run(order), "alloc": sess.run(alloc),
                "content": sess.run(content), "grads": sess.run(grads)}
