"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-ss).

Both sides ran the projects with the same environment shim for what NumPy 2 / Python 3.11
/ SciPy 1.17 removed (`np.bool`, `np.float_`, `fractions.gcd` for networkx 1.11,
`scipy.sparse.linalg.eigen.arpack`), and under TF 2.21 with `tf.contrib.layers`'
xavier_initializer / l2_regularizer restated from TF 1.15 and contrib.rnn's BasicLSTMCell
as core's.

* tkipf/gcn (HEAD 39a4089): train.py ran unchanged on a fake 600-node planetoid dataset
  (ind.fake.{x,y,tx,ty,allx,ally,graph,test.index}: 50 binary features, 3 classes,
  shuffled test index) with `--model gcn`, `gcn_cheby` (max_degree 3: four sparse
  supports) and `dense` (MLP on sparse features), 8 / 30 epochs with dropout 0.5 and
  weight decay: every printed train / val loss and accuracy and the test line equal TF's
  (one val_loss of dense differs in its fifth decimal, 0.83709 vs 0.83710). Nothing to
  fix; tkipf/gae ran in realcode-m. The case pins the Chebyshev support stack.
* williamleif/GraphSAGE (HEAD a0fdef9, networkx 1.11): supervised_train (graphsage_mean,
  gcn, graphsage_seq, graphsage_maxpool, graphsage_meanpool with --sigmoid; graphsage_mean
  on one-hot labels with dropout 0.3, weight decay, identity features and a third layer)
  on a fake 150-node graph in its example_data format, 2 epochs of batch 32: every printed
  loss and F1 equals TF's. unsupervised_train differed from its first step: its negatives
  come from `tf.nn.fixed_unigram_candidate_sampler(distortion=0.75, unigrams=degrees)`,
  and tf1compat drew them by inverse CDF while TF draws through Walker alias tables
  (DistributionSampler: a float from one Philox word, a bucket from the next, float32
  weights raised by powf). Fixed: the sampler now draws TF's ids (and so does
  `learned_unigram_candidate_sampler`, through its WeightedPicker's integer counts, which
  had the same inverse-CDF stand-in); graphsage_mean, gcn and maxpool print TF's losses
  and MRRs, seq and meanpool agree to 1e-5 after 12 Adam steps
  (float rounding from step 2 on, at 1 ulp), saved embeddings within 1.2e-7 (meanpool
  2.3e-4). n2v: losses and embeddings (6e-8) equal; its retraining phase prints another
  train_mrr in a few batches where a negative sample is the positive node itself, a tie
  in exact arithmetic (`reduce_sum(x * y)` against `matmul`) that 1-ulp rounding breaks
  either way. TF's MRR itself comes out 1 ulp off the exact mean in some batches, because
  TF evaluates `tf.div(1.0, x)` there with Eigen's vectorized reciprocal (rcp plus a
  Newton step: 1/1 is 0.99999994), which depends on the CPU's rcp instruction; tf1compat
  divides exactly (left alone).
* dennybritz/reinforcement-learning (2019 commit 06ce312; HEAD moved to gym 0.26 and its
  lib/envs no longer import under the TF1-era gym 0.15.7): the notebooks' code cells run
  by a driver (magics and plot cells dropped, episode counts cut, numpy seeded). CliffWalk
  REINFORCE with baseline (12 episodes) and Actor-Critic (10): the same episodes and
  rewards, trained tables within 5e-8 relative. DQN/dqn.py unchanged but for sizes (3
  episodes, 40 warm-up transitions, batch 8, target copy every 20 steps, no video) on a
  stand-in Breakout-v0 (seeded frames of Atari's shape; no ROMs): every step's loss
  within 1.1e-6 relative, rewards and all 40 variables' sums equal to 6 decimals. A3C's
  estimator_test passes under both; worker_test and policy_monitor_test fail alike under
  both (gym 0.15.7's TimeLimit refuses a step before reset; `tf.train.SummaryWriter` is
  TF 0.12's). The Continuous MountainCar Actor-Critic stopped on tf1compat: its policy
  update feeds the sampled action (`clip_by_value` of `Normal._sample_n`) and
  differentiates a loss that runs through it, which TF takes through the fed value (the
  producer's gradient, with the fed value where consumers read it and the sample drawn
  again in that run), and tf1compat refused with an UnimplementedError. Fixed
  (runtime/plan.py runs such a feed's producer and hands consumers the fed value carrying
  its gradient): the policy update's gradients are TF's (the mean's cancels to 0, as in
  TF); a 150-step episode ends with TF's reward to 2e-7 and weights within 1e-4, two full
  998-step episodes drift apart to 3e-3 in reward (rounding compounded over ~4000
  Adam steps). The Double DQN notebook
  stops under both at TF 0.12's `tf.merge_summary`. The cases pin the DQN step and the
  REINFORCE table estimators.
* sjchoi86/Tensorflow-101 (Nov 2016): TF 0.11/0.12 notebooks; basic_tensorflow and
  linear_regression stop under both at `tf.mul`, word2vec_simple at Python 2 syntax;
  not pursued further.
"""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch, tolerance


def _degrees():
    """Node degrees as GraphSAGE passes them (`unigrams=degrees.tolist()`), zeros for the
    validation / test nodes it leaves out of the training graph."""
    rs = np.random.RandomState(4)
    deg = rs.randint(1, 9, 40).astype(np.float64)
    deg[30:] = 0.0
    return deg.tolist()


def case_fixed_unigram_sampler_draws(tf):
    """`fixed_unigram_candidate_sampler`'s ids and expected counts, run after run: with
    and without `unique`, GraphSAGE's distortion 0.75 over degrees with zeros, reserved ids
    with shards and distortion 0, a vocabulary file, an op seed."""
    tf.set_random_seed(123)
    labels = tf.constant(np.random.RandomState(0).randint(0, 30, (8, 1)), tf.int64)
    deg = _degrees()
    vocab = os.path.join(tempfile.mkdtemp(), "vocab.csv")
    with open(vocab, "w") as f:
        f.write("".join(f"w{i},{w:g}\n" for i, w in enumerate([3, 1.5, 0, 7, 2, 2])))
    samplers = {
        "repeat": tf.nn.fixed_unigram_candidate_sampler(
            labels, 1, 20, False, 40, distortion=0.75, unigrams=deg),
        "unique": tf.nn.fixed_unigram_candidate_sampler(
            labels, 1, 20, True, 40, distortion=0.75, unigrams=deg),
        "shards": tf.nn.fixed_unigram_candidate_sampler(
            labels % 6, 1, 5, True, 6, unigrams=[1.0, 2.0, 3.0, 0.5, 4.0, 1.0, 1.0, 2.5,
                                                 1.5, 0.5],
            num_reserved_ids=3, num_shards=2, shard=1, distortion=0.0, seed=5),
        "vocab_file": tf.nn.fixed_unigram_candidate_sampler(
            labels % 6, 1, 7, False, 6, vocab_file=vocab, distortion=0.5, seed=9),
    }
    with tf.Session() as sess:
        return [sess.run(samplers) for _ in range(3)]


def _sage_graph(tf, n_nodes=30, dim=4, neg=5, batch=6):
    """GraphSAGE's unsupervised link objective on embedding tables: degree-based negatives,
    affinities by `reduce_sum(x * y)` and by `matmul`, the sigmoid xent loss, and the MRR
    from two `top_k` over the concatenated affinities. The negatives are encoded apart from
    the positives (shifted before normalizing), as GraphSAGE's sampled aggregators do, so
    that a negative drawn equal to the positive is no tie in exact arithmetic."""
    rs = np.random.RandomState(7)
    b1 = tf.placeholder(tf.int32, [None], name="batch1")
    b2 = tf.placeholder(tf.int32, [None], name="batch2")
    target = tf.Variable(rs.uniform(-1, 1, [n_nodes, dim]).astype(np.float32), name="target")
    context = tf.Variable(rs.uniform(-1, 1, [n_nodes, dim]).astype(np.float32), name="context")
    labels = tf.reshape(tf.cast(b2, tf.int64), [batch, 1])
    neg_ids, _, _ = tf.nn.fixed_unigram_candidate_sampler(
        true_classes=labels, num_true=1, num_sampled=neg, unique=False, range_max=n_nodes,
        distortion=0.75, unigrams=_degrees()[:n_nodes])
    out1 = tf.nn.l2_normalize(tf.nn.embedding_lookup(target, b1), 1)
    out2 = tf.nn.l2_normalize(tf.nn.embedding_lookup(context, b2), 1)
    negs = tf.nn.l2_normalize(tf.nn.embedding_lookup(context, neg_ids) + 0.05, 1)
    aff = tf.reduce_sum(out1 * out2, axis=1)
    neg_aff = tf.matmul(out1, tf.transpose(negs))
    true_xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones_like(aff), logits=aff)
    neg_xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros_like(neg_aff),
                                                       logits=neg_aff)
    loss = (tf.reduce_sum(true_xent) + tf.reduce_sum(neg_xent)) / tf.cast(batch, tf.float32)
    aff_all = tf.concat(axis=1, values=[neg_aff, tf.expand_dims(aff, axis=1)])
    size = tf.shape(aff_all)[1]
    _, indices_of_ranks = tf.nn.top_k(aff_all, k=size)
    _, ranks = tf.nn.top_k(-indices_of_ranks, k=size)
    step = tf.train.AdamOptimizer(0.05).minimize(loss)
    return b1, b2, neg_ids, loss, ranks, step, target


@tolerance(rtol=1e-5, atol=1e-6)
def case_graphsage_negative_sampling_steps(tf):
    """Four Adam steps of the link objective: the negatives drawn each step, the losses,
    the ranks of the positives and the trained target embeddings."""
    tf.set_random_seed(123)
    b1, b2, neg_ids, loss, ranks, step, target = _sage_graph(tf)
    rs = np.random.RandomState(1)
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(4):
            feed = {b1: rs.randint(0, 30, 6), b2: rs.randint(0, 30, 6)}
            out.append(sess.run([neg_ids, loss, ranks[:, -1], step], feed)[:3])
        return {"steps": out, "target": sess.run(target)}


def _chebyshev_supports(adj, k):
    """tkipf/gcn's chebyshev_polynomials in numpy: T_0 = I, T_1 = L~, T_k = 2 L~ T_{k-1}
    - T_{k-2}, with L~ = 2 L / lambda_max - I for the normalized Laplacian L."""
    deg = adj.sum(1)
    d = np.where(deg > 0, deg ** -0.5, 0.0)
    lap = np.eye(len(adj)) - d[:, None] * adj * d[None, :]
    scaled = 2.0 * lap / np.linalg.eigvalsh(lap).max() - np.eye(len(adj))
    out = [np.eye(len(adj)), scaled]
    for _ in range(2, k + 1):
        out.append(2 * scaled.dot(out[-1]) - out[-2])
    return out


def _sparse_value(tf, dense):
    idx = np.argwhere(dense != 0).astype(np.int64)
    return tf.SparseTensorValue(idx, dense[dense != 0].astype(np.float32),
                                np.array(dense.shape, np.int64))


@tolerance(rtol=1e-5, atol=1e-6)
def case_gcn_chebyshev_sparse_supports(tf):
    """GCN-cheby's layer: features fed as a sparse placeholder with a constant int64
    shape, sparse dropout (`keep_prob + random_uniform([nnz])`, floor, `sparse_retain`,
    scaled), one weight per support combined by `sparse_tensor_dense_matmul` and
    `add_n`, then a dense layer, masked softmax cross entropy with weight decay, Adam."""
    tf.set_random_seed(123)
    rs = np.random.RandomState(2)
    n, f, c, k = 12, 6, 3, 3
    adj = np.triu((rs.rand(n, n) < 0.3).astype(np.float64), 1)
    adj = adj + adj.T
    feats = (rs.rand(n, f) < 0.4).astype(np.float32)
    supports = [_sparse_value(tf, s) for s in _chebyshev_supports(adj, k)]
    ph_support = [tf.sparse_placeholder(tf.float32) for _ in supports]
    ph_x = tf.sparse_placeholder(tf.float32, shape=tf.constant([n, f], dtype=tf.int64))
    ph_nnz = tf.placeholder(tf.int32)
    dropout = tf.placeholder_with_default(0., shape=())
    keep = 1 - dropout
    mask_f = tf.cast(tf.floor(keep + tf.random_uniform(ph_nnz)), dtype=tf.bool)
    x = tf.sparse_retain(ph_x, mask_f) * (1. / keep)
    glorot = tf.glorot_uniform_initializer(seed=None)
    ws = [tf.Variable(glorot([f, 8]), name=f"weights_{i}") for i in range(k + 1)]
    hidden = tf.nn.relu(tf.add_n([tf.sparse_tensor_dense_matmul(
        s, tf.sparse_tensor_dense_matmul(x, w)) for s, w in zip(ph_support, ws)]))
    w2 = tf.Variable(glorot([8, c]), name="out")
    logits = tf.matmul(tf.nn.dropout(hidden, 1 - dropout), w2)
    labels = np.eye(c, dtype=np.float32)[rs.randint(0, c, n)]
    mask = tf.constant((np.arange(n) < 8).astype(np.float32))
    xent = tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=labels)
    loss = tf.reduce_mean(xent * mask / tf.reduce_mean(mask))
    loss += 5e-4 * tf.add_n([tf.nn.l2_loss(w) for w in ws])
    step = tf.train.AdamOptimizer(0.01).minimize(loss)
    sp_x = _sparse_value(tf, feats)
    feed = {ph_x: sp_x, ph_nnz: sp_x.values.shape}    # train.py feeds `features[1].shape`
    feed.update(dict(zip(ph_support, supports)))
    train = dict(feed)
    train[dropout] = 0.5
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([loss, step], train)[0] for _ in range(4)]
        return {"train": losses, "eval": sess.run([loss, logits], feed)}


def case_random_shape_must_be_a_vector(tf):
    """The random ops' shape input is a vector: a scalar count (the sparse dropout's
    `num_features_nonzero` fed as a number instead of gcn's `features[1].shape`) is an
    InvalidArgumentError when fed, and a scalar or matrix known at graph build is the
    shape function's ValueError; `tf.zeros` takes a fed scalar."""
    count = tf.placeholder(tf.int32)
    ops = {"uniform": tf.random_uniform(count), "normal": tf.random_normal(count),
           "truncated": tf.truncated_normal(count),
           "int": tf.random_uniform(count, 0, 5, dtype=tf.int32)}
    with tf.Session() as sess:
        fed = {}
        for k, v in ops.items():
            fed[k] = [catch(lambda v=v: sess.run(v, {count: 4})),
                      catch(lambda v=v: sess.run(v, {count: [[2, 2]]})),
                      sess.run(tf.shape(v), {count: [3]})]
        fed["zeros"] = sess.run(tf.zeros(count), {count: 3})
    return {"fed": fed,
            "scalar": catch(lambda: tf.random_uniform(tf.constant(5)), message=True),
            "number": catch(lambda: tf.random_normal(5), message=True),
            "matrix": catch(lambda: tf.random_uniform(tf.placeholder(tf.int32, [None, 2])),
                           message=True),
            "known_scalar": catch(lambda: tf.truncated_normal(tf.placeholder(tf.int32, [])),
                                 message=True)}


def _contrib_conv(tf, x, filters, kernel, stride, name):
    """`tf.contrib.layers.conv2d(x, filters, kernel, stride)`: Glorot-uniform kernel,
    zero bias, ReLU, SAME padding (TF 1.15's defaults), restated in core ops."""
    with tf.variable_scope(name):
        w = tf.get_variable("weights", [kernel, kernel, int(x.shape[-1]), filters],
                            initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("biases", [filters], initializer=tf.zeros_initializer())
        return tf.nn.relu(tf.nn.bias_add(
            tf.nn.conv2d(x, w, [1, stride, stride, 1], "SAME"), b))


def _contrib_dense(tf, x, units, name, activation=None):
    """`tf.contrib.layers.fully_connected`, restated as `_contrib_conv` is."""
    with tf.variable_scope(name):
        w = tf.get_variable("weights", [int(x.shape[-1]), units],
                            initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("biases", [units], initializer=tf.zeros_initializer())
        y = tf.matmul(x, w) + b
        return activation(y) if activation else y


def _dqn_estimator(tf, scope):
    with tf.variable_scope(scope):
        X = tf.placeholder(shape=[None, 21, 21, 4], dtype=tf.uint8, name="X")
        y = tf.placeholder(shape=[None], dtype=tf.float32, name="y")
        actions = tf.placeholder(shape=[None], dtype=tf.int32, name="actions")
        h = _contrib_conv(tf, tf.to_float(X) / 255.0, 4, 4, 2, "Conv")
        h = _contrib_conv(tf, h, 8, 3, 2, "Conv_1")
        h = _contrib_dense(tf, tf.reshape(h, [-1, 6 * 6 * 8]), 16, "fully_connected",
                           tf.nn.relu)
        pred = _contrib_dense(tf, h, 4, "fully_connected_1")
        batch_size = tf.shape(X)[0]
        gather_indices = tf.range(batch_size) * tf.shape(pred)[1] + actions
        picked = tf.gather(tf.reshape(pred, [-1]), gather_indices)
        loss = tf.reduce_mean(tf.squared_difference(y, picked))
        train = tf.train.RMSPropOptimizer(0.00025, 0.99, 0.0, 1e-6).minimize(
            loss, global_step=tf.train.get_global_step())
        return X, y, actions, pred, loss, train


@tolerance(rtol=1e-5, atol=1e-6)
def case_dqn_state_processor_and_q_update(tf):
    """dqn.py's StateProcessor (uint8 frame: rgb_to_grayscale, crop_to_bounding_box,
    NEAREST_NEIGHBOR resize_images, squeeze) and its Estimator (frames / 255, conv stack,
    Q values of the taken actions by a flat `gather`, squared_difference loss, RMSProp
    0.00025 / 0.99 / 0.0 / 1e-6 with the global step), two updates, then
    copy_model_parameters' assigns, sorted by name, into the target network."""
    tf.set_random_seed(0)
    rs = np.random.RandomState(3)
    frame_in = tf.placeholder(shape=[210, 160, 3], dtype=tf.uint8)
    gray = tf.image.rgb_to_grayscale(frame_in)
    gray = tf.image.crop_to_bounding_box(gray, 34, 0, 160, 160)
    gray = tf.squeeze(tf.image.resize_images(
        gray, [21, 21], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR))
    global_step = tf.Variable(0, name="global_step", trainable=False)
    X, y, actions, _, loss, train = _dqn_estimator(tf, "q")
    tX, _, _, tpred, _, _ = _dqn_estimator(tf, "target_q")
    q_vars = sorted([t for t in tf.trainable_variables() if t.name.startswith("q/")],
                    key=lambda v: v.name)
    t_vars = sorted([t for t in tf.trainable_variables() if t.name.startswith("target_q/")],
                    key=lambda v: v.name)
    copy = [t.assign(q) for q, t in zip(q_vars, t_vars)]
    frames = [rs.randint(0, 256, (210, 160, 3)).astype(np.uint8) for _ in range(6)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        states = np.stack([sess.run(gray, {frame_in: f}) for f in frames])
        batch = np.stack([np.stack([states[i + k] for k in range(4)], axis=2)
                          for i in range(3)])
        out = {"state": states[0], "losses": []}
        for step in range(2):
            feed = {X: batch, y: np.float32([0.5, -1.0, 2.0]) * (step + 1),
                    actions: [1, 3, 0]}
            out["losses"].append(sess.run([loss, train], feed)[0])
        sess.run(copy)
        out["target_pred"] = sess.run(tpred, {tX: batch})
        out["global_step"] = sess.run(global_step)
        out["names"] = [v.name for v in q_vars]
        return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_reinforce_table_estimators(tf):
    """CliffWalk REINFORCE's estimators: a scalar int state one-hot and expanded to a row,
    a layer whose weights come from `tf.zeros_initializer` passed as the class, the
    squeezed softmax and `gather` of the taken action, `-log(p) * target`, the value's
    squared_difference, Adam minimizing with `tf.train.get_global_step()`."""
    n_states, n_actions = 6, 4
    global_step = tf.Variable(0, name="global_step", trainable=False)
    heads = {}
    for scope, units, lr in (("policy_estimator", n_actions, 0.01),
                             ("value_estimator", 1, 0.1)):
        with tf.variable_scope(scope):
            state = tf.placeholder(tf.int32, [], "state")
            target = tf.placeholder(dtype=tf.float32, name="target")
            row = tf.expand_dims(tf.one_hot(state, n_states), 0)
            with tf.variable_scope("fully_connected"):
                w = tf.get_variable("weights", [n_states, units],
                                    initializer=tf.zeros_initializer)
                b = tf.get_variable("biases", [units], initializer=tf.zeros_initializer())
            out = tf.matmul(row, w) + b
            action = tf.placeholder(dtype=tf.int32, name="action")
            if units > 1:
                head = tf.squeeze(tf.nn.softmax(out))
                loss = -tf.log(tf.gather(head, action)) * target
            else:
                head = tf.squeeze(out)
                loss = tf.squared_difference(head, target)
            train = tf.train.AdamOptimizer(learning_rate=lr).minimize(
                loss, global_step=tf.train.get_global_step())
            heads[scope] = (state, target, action, head, loss, train)
    episode = [(0, 1, -1.0), (1, 2, -1.0), (4, 0, -100.0), (2, 3, -1.0)]
    ps, pt, pa, pprobs, ploss, ptrain = heads["policy_estimator"]
    vs, vt, _, vvalue, vloss, vtrain = heads["value_estimator"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = []
        for t, (s_, a_, _) in enumerate(episode):
            ret = sum(r for _, _, r in episode[t:])
            adv = ret - sess.run(vvalue, {vs: s_})
            losses.append(sess.run([vtrain, vloss], {vs: s_, vt: ret})[1])
            losses.append(sess.run([ptrain, ploss], {ps: s_, pt: adv, pa: a_})[1])
        return {"losses": losses, "probs": [sess.run(pprobs, {ps: i}) for i in range(3)],
                "step": sess.run(global_step),
                "names": [v.name for v in tf.global_variables()]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_graphsage_sampled_mean_aggregator_steps(tf):
    """GraphSAGE's supervised model: the adjacency as a non-trainable Variable initialized
    from a fed placeholder (a float array fed to int32), UniformNeighborSampler's
    `embedding_lookup` + transposed `random_shuffle` + `slice`, two MeanAggregator layers
    with seeded dropout (`reduce_mean` of neighbours, self and neighbour weights,
    `concat`), `l2_normalize`, sigmoid cross entropy, Adam on gradients clipped by value,
    and the switch to the test adjacency by `tf.assign`."""
    tf.set_random_seed(123)
    rs = np.random.RandomState(5)
    n, f, deg, c = 12, 5, 4, 3
    adj_train = rs.randint(0, n, (n + 1, deg)).astype(np.float64)
    adj_test = rs.randint(0, n, (n + 1, deg)).astype(np.float64)
    feats = tf.constant(np.vstack([rs.randn(n, f), np.zeros((1, f))]).astype(np.float32))
    batch = tf.placeholder(tf.int32, shape=(None), name="batch1")
    labels = tf.placeholder(tf.float32, shape=(None, c), name="labels")
    dropout = tf.placeholder_with_default(0., shape=(), name="dropout")
    adj_ph = tf.placeholder(tf.int32, shape=adj_train.shape)
    adj_info = tf.Variable(adj_ph, trainable=False, name="adj_info")

    def sample(ids, k):
        lists = tf.nn.embedding_lookup(adj_info, ids)
        lists = tf.transpose(tf.random_shuffle(tf.transpose(lists)))
        return tf.reshape(tf.slice(lists, [0, 0], [-1, k]), [-1])

    hop1 = sample(batch, 3)
    hop2 = sample(hop1, 2)
    h0 = [tf.nn.embedding_lookup(feats, s) for s in (batch, hop1, hop2)]
    glorot = tf.glorot_uniform_initializer()
    dims = [f, 6, 6]
    for layer in range(2):
        with tf.variable_scope(f"meanaggregator_{layer}_vars"):
            w_self = tf.get_variable("self_weights", [dims[layer] * (layer + 1), dims[layer + 1]],
                                     initializer=glorot)
            w_neigh = tf.get_variable("neigh_weights", [dims[layer] * (layer + 1),
                                                        dims[layer + 1]], initializer=glorot)
        act = tf.nn.relu if layer == 0 else (lambda x: x)
        nxt = []
        for hop in range(len(h0) - 1):
            self_vecs = tf.nn.dropout(h0[hop], 1 - dropout)
            neigh = tf.reshape(h0[hop + 1], [-1, 3 if hop == 0 else 2, dims[layer] * (layer + 1)])
            neigh_means = tf.reduce_mean(tf.nn.dropout(neigh, 1 - dropout), axis=1)
            nxt.append(act(tf.concat([tf.matmul(self_vecs, w_self),
                                      tf.matmul(neigh_means, w_neigh)], axis=1)))
        h0 = nxt
    out = tf.nn.l2_normalize(h0[0], 1)
    with tf.variable_scope("node_pred"):
        w = tf.get_variable("weights", [12, c], initializer=glorot)
    logits = tf.matmul(out, w)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=logits,
                                                                  labels=labels))
    opt = tf.train.AdamOptimizer(0.01)
    grads = opt.compute_gradients(loss)
    step = opt.apply_gradients([(tf.clip_by_value(g, -5.0, 5.0), v) for g, v in grads])
    use_test = tf.assign(adj_info, adj_test)
    y = (rs.rand(n, c) < 0.4).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer(), feed_dict={adj_ph: adj_train})
        losses = []
        for i in range(3):
            ids = rs.permutation(n)[:5]
            losses.append(sess.run([loss, step], {batch: ids, labels: y[ids],
                                                  dropout: 0.3})[0])
        hops = sess.run([hop1, hop2], {batch: [0, 1]})
        sess.run(use_test.op)
        return {"losses": losses, "hops": hops,
                "test": sess.run([loss, logits], {batch: np.arange(n), labels: y})}


def case_learned_unigram_sampler_draws(tf):
    """`learned_unigram_candidate_sampler` run after run: its counts start at one per id
    and grow by the true classes of each batch after the batch is drawn, so the ids and
    expected counts of later runs depend on the earlier batches; with and without
    `unique`, graph seed only and an op seed."""
    tf.set_random_seed(7)
    rs = np.random.RandomState(0)
    labels = tf.placeholder(tf.int64, [None, 2])
    samplers = {
        "repeat": tf.nn.learned_unigram_candidate_sampler(labels, 2, 8, False, 30),
        "unique": tf.nn.learned_unigram_candidate_sampler(labels, 2, 8, True, 30, seed=3),
        "one_true": tf.nn.learned_unigram_candidate_sampler(labels[:, :1], 1, 5, False, 16),
    }
    with tf.Session() as sess:
        return [sess.run(samplers, {labels: rs.randint(0, 6, (16, 2))}) for _ in range(4)]


@tolerance(rtol=1e-5, atol=1e-6)
def case_gradient_through_a_fed_sample(tf):
    """The Continuous MountainCar Actor-Critic's policy update: the action sampled from a
    Normal and clipped is fed back, and the loss's gradient runs through it. TF reads the
    fed action where the loss reads it and takes the clip's and the sample's gradients
    with the values that run computes (the noise drawn again, so the stream advances);
    a placeholder-free graph, seeded."""
    tf.set_random_seed(1)
    x = tf.Variable(0.3)
    mu = x * 2.0
    sigma = tf.nn.softplus(x) + 1e-5
    dist = tf.distributions.Normal(mu, sigma)
    action = tf.clip_by_value(dist.sample([3]), -1.0, 1.0)
    target = tf.placeholder(tf.float32, name="target")
    loss = tf.reduce_sum(-dist.log_prob(action) * target) - 0.1 * dist.entropy()
    g = tf.gradients(loss, x)[0]
    step = tf.train.AdamOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(action)
        fed = np.float32([0.5, -0.2, 2.0])
        grads = sess.run(g, {action: fed, target: 1.5})
        sess.run(step, {action: first, target: -0.5})
        return {"first": first, "grad": grads, "after": sess.run(action),
                "x": sess.run(x), "fetched_fed": sess.run(action, {action: fed})}
