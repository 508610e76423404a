"""Golden cases: patterns from ChenglongChen/tensorflow-DeepFM, tkipf/gae, zihangdai/xlnet,
google-research/albert and openai/glow, restated small. The first four ran unchanged on
tf1compat and matched TF (to float rounding) where TF itself is deterministic, glow once
its `tensorflow.contrib.framework.python.ops` import resolved, so the cases pin the patterns
they lean on rather than a fixed bug.

Two differences in those programs are races in the programs, not in tf1compat: DeepFM builds
its training and inference batch norms outside the `tf.cond` that picks one, so every run
updates the moving statistics while the other reads them; ALBERT's (and BERT's)
`create_optimizer` increments the global step in a `tf.group` beside the update that reads
it for the learning rate; glow's optimizers do the same with their step counter and Polyak
averages. TF's order there varies from run to run; tf1compat reads first.
The cases below order such updates explicitly.

`tf.contrib.layers.layer_norm` and `l2_regularizer` are TF 1.15's, restated under the oracle
(TF 2.x has no contrib).
"""

import numpy as np


def _layer_norm(tf, x, scope):
    """`tf.contrib.layers.layer_norm(x, begin_norm_axis=-1, begin_params_axis=-1,
    scope=scope)`: contrib's own under tf1compat, TF 1.15's restated under the oracle."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.layer_norm(x, begin_norm_axis=-1, begin_params_axis=-1,
                                         scope=scope)
    with tf.variable_scope(scope):
        shape = x.shape[-1:]
        beta = tf.get_variable("beta", shape, initializer=tf.zeros_initializer())
        gamma = tf.get_variable("gamma", shape, initializer=tf.ones_initializer())
        mean, variance = tf.nn.moments(x, [x.shape.ndims - 1], keep_dims=True)
        return tf.nn.batch_normalization(x, mean, variance, beta, gamma, 1e-12)


def _l2_regularizer(tf, scale):
    """`tf.contrib.layers.l2_regularizer(scale)`."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.l2_regularizer(scale)
    return lambda w: tf.multiply(tf.convert_to_tensor(scale, w.dtype.base_dtype), tf.nn.l2_loss(w),
                                 name="l2_regularizer")


def case_deepfm_fm_and_deep_steps(tf):
    """DeepFM.py's graph: feature embeddings and biases looked up by a fed [None, None] index
    matrix and scaled by the fed values, the first-order term, the FM second-order term
    (0.5 * (square of sum - sum of squares)), dropout with keep probabilities indexed out
    of a fed vector, a deep tower, sigmoid + `tf.losses.log_loss`, contrib's l2_regularizer
    on the projections, and Adagrad (initial accumulator 1e-8): losses, predictions and
    variables after three graph-seeded steps."""
    tf.set_random_seed(2016)
    fields, feats, k = 3, 10, 4
    rng = np.random.RandomState(1)
    feat_index = tf.placeholder(tf.int32, [None, None], name="feat_index")
    feat_value = tf.placeholder(tf.float32, [None, None], name="feat_value")
    label = tf.placeholder(tf.float32, [None, 1], name="label")
    keep_fm = tf.placeholder(tf.float32, [None], name="dropout_keep_fm")
    keep_deep = tf.placeholder(tf.float32, [None], name="dropout_keep_deep")
    embeddings_table = tf.Variable(tf.random_normal([feats, k], 0.0, 0.01))
    bias_table = tf.Variable(tf.random_uniform([feats, 1], 0.0, 1.0))
    layer = tf.Variable(rng.normal(0, 0.3, (fields * k, 5)), dtype=np.float32)
    layer_bias = tf.Variable(rng.normal(0, 0.3, (1, 5)), dtype=np.float32)
    projection = tf.Variable(rng.normal(0, 0.3, (fields + k + 5, 1)), dtype=np.float32)
    projection_bias = tf.Variable(tf.constant(0.01), dtype=np.float32)

    value = tf.reshape(feat_value, shape=[-1, fields, 1])
    embeddings = tf.multiply(tf.nn.embedding_lookup(embeddings_table, feat_index), value)
    first = tf.reduce_sum(tf.multiply(tf.nn.embedding_lookup(bias_table, feat_index), value), 2)
    first = tf.nn.dropout(first, keep_fm[0])
    summed = tf.square(tf.reduce_sum(embeddings, 1))
    squared = tf.reduce_sum(tf.square(embeddings), 1)
    second = tf.nn.dropout(0.5 * tf.subtract(summed, squared), keep_fm[1])
    deep = tf.nn.dropout(tf.reshape(embeddings, shape=[-1, fields * k]), keep_deep[0])
    deep = tf.nn.dropout(tf.nn.relu(tf.add(tf.matmul(deep, layer), layer_bias)), keep_deep[1])
    out = tf.add(tf.matmul(tf.concat([first, second, deep], axis=1), projection),
                 projection_bias)
    out = tf.nn.sigmoid(out)
    loss = tf.losses.log_loss(label, out)
    loss += _l2_regularizer(tf, 0.01)(projection) + _l2_regularizer(tf, 0.01)(layer)
    train = tf.train.AdagradOptimizer(0.1, initial_accumulator_value=1e-8).minimize(loss)

    xi = rng.randint(0, feats, (6, fields))
    xv = rng.rand(6, fields).astype(np.float32)
    y = (rng.rand(6, 1) > 0.5).astype(np.float32)
    feed = {feat_index: xi, feat_value: xv, label: y, keep_fm: [0.9, 0.8],
            keep_deep: [0.7, 0.9]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [float(sess.run([loss, train], feed)[0]) for _ in range(3)]
        feed.update({keep_fm: [1.0, 1.0], keep_deep: [1.0, 1.0]})
        return {"losses": losses, "pred": sess.run(out, feed),
                "vars": sess.run([embeddings_table, bias_table, layer, projection])}


case_deepfm_fm_and_deep_steps.rtol = 1e-4


def case_gae_vae_sparse_steps(tf):
    """gae's GCNModelVAE: sparse placeholders fed as (indices, values, shape) tuples, the
    sparse dropout (keep + uniform noise, floor, cast to bool, `sparse_retain`, scaled),
    `sparse_tensor_dense_matmul` graph convolutions, z = mean + noise * exp(log_std), the
    inner-product decoder, `weighted_cross_entropy_with_logits(targets=, pos_weight=)`
    against the densified `adj_orig` (validate_indices=False) and the KL term, with a
    `placeholder_with_default` dropout rate: costs, accuracies and embeddings."""
    tf.set_random_seed(3)
    n, f, h1, h2 = 5, 4, 6, 3
    rng = np.random.RandomState(4)
    features = tf.sparse_placeholder(tf.float32)
    adj = tf.sparse_placeholder(tf.float32)
    adj_orig = tf.sparse_placeholder(tf.float32)
    dropout = tf.placeholder_with_default(0., shape=())

    def weight(shape):
        init_range = np.sqrt(6.0 / (shape[0] + shape[1]))
        return tf.Variable(tf.random_uniform(shape, minval=-init_range, maxval=init_range))

    feature_nnz = 7
    x = features
    keep = 1 - dropout
    noise = keep + tf.random_uniform([feature_nnz])
    x = tf.sparse_retain(x, tf.cast(tf.floor(noise), dtype=tf.bool)) * (1. / keep)
    hidden = tf.nn.relu(tf.sparse_tensor_dense_matmul(
        adj, tf.sparse_tensor_dense_matmul(x, weight([f, h1]))))

    def conv(inputs):
        inputs = tf.nn.dropout(inputs, 1 - dropout)
        return tf.sparse_tensor_dense_matmul(adj, tf.matmul(inputs, weight([h1, h2])))

    z_mean, z_log_std = conv(hidden), conv(hidden)
    z = z_mean + tf.random_normal([n, h2]) * tf.exp(z_log_std)
    reconstructions = tf.reshape(tf.matmul(z, tf.transpose(z)), [-1])
    labels = tf.reshape(tf.sparse_tensor_to_dense(adj_orig, validate_indices=False), [-1])
    cost = 1.4 * tf.reduce_mean(tf.nn.weighted_cross_entropy_with_logits(
        logits=reconstructions, targets=labels, pos_weight=2.5))
    kl = (0.5 / n) * tf.reduce_mean(tf.reduce_sum(
        1 + 2 * z_log_std - tf.square(z_mean) - tf.square(tf.exp(z_log_std)), 1))
    cost -= kl
    train = tf.train.AdamOptimizer(learning_rate=0.01).minimize(cost)
    correct = tf.equal(tf.cast(tf.greater_equal(tf.sigmoid(reconstructions), 0.5), tf.int32),
                       tf.cast(labels, tf.int32))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

    feature_indices = np.array([[0, 0], [0, 3], [1, 1], [2, 2], [3, 0], [4, 1], [4, 3]])
    edges = np.array([[0, 1], [1, 0], [1, 2], [2, 1], [3, 4], [4, 3]])
    loops = np.array([[i, i] for i in range(n)])
    adj_indices = np.concatenate([edges, loops])
    feed = {features: (feature_indices, rng.rand(feature_nnz).astype(np.float32), (n, f)),
            adj: (adj_indices, rng.rand(len(adj_indices)).astype(np.float32), (n, n)),
            adj_orig: (adj_indices, np.ones(len(adj_indices), np.float32), (n, n)),
            dropout: 0.3}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        steps = [sess.run([train, cost, accuracy], feed)[1:] for _ in range(3)]
        del feed[dropout]
        return {"steps": [[float(c), float(a)] for c, a in steps],
                "z_mean": sess.run(z_mean, feed)}


case_gae_vae_sparse_steps.rtol = 1e-4


def case_xlnet_relative_attention_step(tf):
    """XLNet's relative multi-head attention on memory: the sinusoidal relative positions
    (`tf.range(klen, -qlen, -1.0)` clamped, einsum 'i,d->id'), head projections by einsum
    'ibh,hnd->ibnd', content and position scores ('ibnd,jbnd->ijbn') with `rel_shift`
    (reshape/slice through a dynamic `tf.shape`), the segment score, the masked softmax
    over axis 1, the post-attention projection + residual layer norm, the new memory
    (`tf.stop_gradient` of the last mem_len states) and one Adam step carrying it."""
    tf.set_random_seed(5)
    qlen, mlen, bsz, n_head, d_head, d_model = 4, 2, 2, 2, 3, 4
    klen = qlen + mlen
    rng = np.random.RandomState(6)
    init = tf.random_normal_initializer(stddev=0.3)
    h = tf.placeholder(tf.float32, [qlen, bsz, d_model])
    mem = tf.placeholder(tf.float32, [mlen, bsz, d_model])
    seg_mat = tf.placeholder(tf.float32, [qlen, klen, bsz, 2])
    attn_mask = tf.placeholder(tf.float32, [qlen, klen, bsz, 1])

    def rel_shift(x, klen):
        x_size = tf.shape(x)
        x = tf.reshape(x, [x_size[1], x_size[0], x_size[2], x_size[3]])
        x = tf.slice(x, [1, 0, 0, 0], [-1, -1, -1, -1])
        x = tf.reshape(x, [x_size[0], x_size[1] - 1, x_size[2], x_size[3]])
        return tf.slice(x, [0, 0, 0, 0], [-1, klen, -1, -1])

    freq_seq = tf.range(0, d_model, 2.0)
    inv_freq = 1 / (10000 ** (freq_seq / d_model))
    pos_seq = tf.clip_by_value(tf.range(klen, -qlen, -1.0), -3, 3)
    sinusoid = tf.einsum("i,d->id", pos_seq, inv_freq)
    pos_emb = tf.tile(tf.concat([tf.sin(sinusoid), tf.cos(sinusoid)], -1)[:, None, :],
                      [1, bsz, 1])
    with tf.variable_scope("rel_attn"):
        cat = tf.concat([mem, h], 0)
        proj = {name: tf.get_variable(name + "/kernel", [d_model, n_head, d_head],
                                      initializer=init) for name in "qkvr"}
        q = tf.einsum("ibh,hnd->ibnd", h, proj["q"])
        k = tf.einsum("ibh,hnd->ibnd", cat, proj["k"])
        v = tf.einsum("ibh,hnd->ibnd", cat, proj["v"])
        r = tf.einsum("ibh,hnd->ibnd", pos_emb, proj["r"])
        r_w_bias, r_r_bias, r_s_bias = (tf.get_variable(name, [n_head, d_head],
                                                        initializer=init)
                                        for name in ("r_w_bias", "r_r_bias", "r_s_bias"))
        seg_embed = tf.get_variable("seg_embed", [2, n_head, d_head], initializer=init)
        ac = tf.einsum("ibnd,jbnd->ijbn", q + r_w_bias, k)
        bd = rel_shift(tf.einsum("ibnd,jbnd->ijbn", q + r_r_bias, r), tf.shape(ac)[1])
        ef = tf.einsum("ijbs,ibns->ijbn", seg_mat,
                       tf.einsum("ibnd,snd->ibns", q + r_s_bias, seg_embed))
        score = (ac + bd + ef) * (1 / d_head ** 0.5) - 1e30 * attn_mask
        prob = tf.nn.softmax(score, 1)
        vec = tf.einsum("ijbn,jbnd->ibnd", prob, v)
        out_kernel = tf.get_variable("o/kernel", [d_model, n_head, d_head], initializer=init)
        out = _layer_norm(tf, tf.einsum("ibnd,hnd->ibh", vec, out_kernel) + h, "LayerNorm")
    new_mem = tf.stop_gradient(tf.concat([mem, out], 0)[-mlen:])
    target = rng.randn(qlen, bsz, d_model).astype(np.float32)
    loss = tf.reduce_mean(tf.square(out - target))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)

    segments = rng.randint(0, 2, (klen, bsz))
    feed = {h: rng.randn(qlen, bsz, d_model).astype(np.float32),
            seg_mat: np.eye(2, dtype=np.float32)[
                (segments[-qlen:, None, :] != segments[None, :, :]).astype(int)],
            attn_mask: (rng.rand(qlen, klen, bsz, 1) > 0.7).astype(np.float32)}
    memory = np.zeros((mlen, bsz, d_model), np.float32)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            feed[mem] = memory
            value, memory, _ = sess.run([loss, new_mem, train], feed)
            losses.append(float(value))
        return {"losses": losses, "memory": memory, "prob": sess.run(prob, feed),
                "static_shapes": [bd.shape.as_list(), prob.shape.as_list()]}


case_xlnet_relative_attention_step.rtol = 1e-4


def case_albert_lamb_steps(tf):
    """ALBERT's LAMBOptimizer (a `tf.train.Optimizer` subclass whose `apply_gradients`
    makes its m/v slots with `tf.get_variable` and writes every update with `assign`): the
    layer-wise trust ratio (nested `tf.where` on the norms), decoupled weight decay
    excluded by name, polynomial decay with linear warmup by the global step, global-norm
    clipping, and the step incremented after the update (ordered, unlike ALBERT's
    `tf.group`): losses, learning rates and variables after four steps."""
    import re

    class LAMBOptimizer(tf.train.Optimizer):
        def __init__(self, learning_rate, weight_decay_rate=0.01, beta_1=0.9, beta_2=0.999,
                     epsilon=1e-6, exclude=("LayerNorm", "bias")):
            super().__init__(False, "LAMBOptimizer")
            self.learning_rate, self.weight_decay_rate = learning_rate, weight_decay_rate
            self.beta_1, self.beta_2, self.epsilon, self.exclude = beta_1, beta_2, epsilon, \
                exclude

        def apply_gradients(self, grads_and_vars, global_step=None, name=None):
            assignments = []
            for grad, param in grads_and_vars:
                param_name = re.match("^(.*):\\d+$", param.name).group(1)
                m = tf.get_variable(param_name + "/adam_m", param.shape.as_list(), tf.float32,
                                    trainable=False, initializer=tf.zeros_initializer())
                v = tf.get_variable(param_name + "/adam_v", param.shape.as_list(), tf.float32,
                                    trainable=False, initializer=tf.zeros_initializer())
                next_m = tf.multiply(self.beta_1, m) + tf.multiply(1.0 - self.beta_1, grad)
                next_v = tf.multiply(self.beta_2, v) + tf.multiply(1.0 - self.beta_2,
                                                                   tf.square(grad))
                update = next_m / (tf.sqrt(next_v) + self.epsilon)
                excluded = any(re.search(r, param_name) for r in self.exclude)
                if not excluded:
                    update += self.weight_decay_rate * param
                ratio = 1.0
                if not excluded:
                    w_norm = tf.norm(param, ord=2)
                    g_norm = tf.norm(update, ord=2)
                    ratio = tf.where(tf.greater(w_norm, 0), tf.where(
                        tf.greater(g_norm, 0), (w_norm / g_norm), 1.0), 1.0)
                assignments.extend([param.assign(param - ratio * self.learning_rate * update),
                                    m.assign(next_m), v.assign(next_v)])
            return tf.group(*assignments, name=name)

    rng = np.random.RandomState(7)
    x = tf.constant(rng.randn(6, 4).astype(np.float32))
    y = tf.constant(rng.randn(6, 2).astype(np.float32))
    with tf.variable_scope("bert"):
        kernel = tf.get_variable("dense/kernel", initializer=rng.randn(4, 4).astype(np.float32))
        bias = tf.get_variable("dense/bias", initializer=np.full([4], 0.5, np.float32))
        hidden = _layer_norm(tf, tf.matmul(x, kernel) + bias, "LayerNorm")
        out = tf.matmul(hidden, tf.get_variable("output/kernel",
                                                initializer=rng.randn(4, 2).astype(np.float32)))
    loss = tf.reduce_mean(tf.square(out - y))
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.train.polynomial_decay(tf.constant(0.1), global_step, 6,
                                              end_learning_rate=0.0, power=1.0, cycle=False)
    steps_int = tf.cast(global_step, tf.int32)
    is_warmup = tf.cast(steps_int < 2, tf.float32)
    learning_rate = (1.0 - is_warmup) * learning_rate + \
        is_warmup * (0.1 * tf.cast(steps_int, tf.float32) / 2.0)
    tvars = tf.trainable_variables()
    grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), clip_norm=1.0)
    train_op = LAMBOptimizer(learning_rate).apply_gradients(zip(grads, tvars),
                                                            global_step=global_step)
    with tf.control_dependencies([train_op]):
        train_op = global_step.assign(global_step + 1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        steps = [sess.run([loss, learning_rate, train_op])[:2] for _ in range(4)]
        return {"steps": [[float(a), float(b)] for a, b in steps],
                "vars": {v.op.name: sess.run(v) for v in tf.global_variables()}}


case_albert_lamb_steps.rtol = 1e-4


def case_glow_actnorm_ddi_and_invertible_conv(tf):
    """glow's flow step: `get_variable_ddi` (a variable made with no initializer, then, in
    the data-dependent-init graph built again under reuse, assigned from the first batch's
    statistics and read under that assign's control dependency), actnorm (center, then
    log-scale), the invertible 1x1 convolution with its log|det| from
    `tf.matrix_determinant` in float64 and its inverse from `tf.matrix_inverse`, and the
    objective's gradient through the determinant: the init values, objectives, the
    reconstruction error of the reverse pass and variables after two Adam steps."""
    rng = np.random.RandomState(9)
    x = tf.placeholder(tf.float32, [4, 2, 2, 3])

    def get_variable_ddi(name, shape, initial_value, init):
        w = tf.get_variable(name, shape, tf.float32, None)
        if init:
            w = w.assign(initial_value)
            with tf.control_dependencies([w]):
                return w
        return w

    def flow(z, init, reverse=False):
        logdet = tf.zeros([4])
        with tf.variable_scope("actnorm"):
            b = get_variable_ddi("b", (1, 1, 1, 3),
                                 -tf.reduce_mean(z, [0, 1, 2], keepdims=True), init)
            centered = z + b
            var = tf.reduce_mean(centered ** 2, [0, 1, 2], keepdims=True)
            logs = get_variable_ddi("logs", (1, 1, 1, 3),
                                    tf.log(1. / (tf.sqrt(var) + 1e-6)) / 3., init) * 3.
            z = centered * tf.exp(logs)
            logdet += tf.reduce_sum(logs) * 4
        with tf.variable_scope("invconv"):
            w = tf.get_variable("W", dtype=tf.float32,
                                initializer=np.linalg.qr(rng.randn(3, 3))[0].astype("float32"))
            dlogdet = tf.cast(tf.log(abs(tf.matrix_determinant(tf.cast(w, "float64")))),
                              "float32") * 4
            out = tf.nn.conv2d(z, tf.reshape(w, [1, 1, 3, 3]), [1, 1, 1, 1], "SAME")
            back = tf.nn.conv2d(out, tf.reshape(tf.matrix_inverse(w), [1, 1, 3, 3]),
                                [1, 1, 1, 1], "SAME")
        return out, logdet + dlogdet, tf.reduce_max(tf.abs(back - z))

    with tf.variable_scope("model"):
        z, logdet, _ = flow(x, init=False)
    with tf.variable_scope("model", reuse=True):
        init_z, _, _ = flow(x, init=True)
    with tf.variable_scope("model", reuse=True):
        _, _, error = flow(x, init=False)
    objective = tf.reduce_mean(0.5 * tf.reduce_sum(z ** 2, [1, 2, 3]) - logdet)
    train = tf.train.AdamOptimizer(0.05).minimize(objective)
    data = rng.randn(4, 2, 2, 3).astype(np.float32) * 2 + 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        init_out = sess.run(init_z, {x: data})
        # A batch other than the init batch: on that one the gradient of `b` is rounding
        # noise (the batch is centered), which Adam would scale up to a full step.
        batch = rng.randn(4, 2, 2, 3).astype(np.float32)
        objectives = [float(sess.run([objective, train], {x: batch})[0]) for _ in range(2)]
        return {"init_out": init_out, "objectives": objectives,
                "error_small": bool(sess.run(error, {x: data}) < 1e-4),
                "vars": {v.op.name: sess.run(v) for v in tf.trainable_variables()}}


case_glow_actnorm_ddi_and_invertible_conv.rtol = 1e-4
