"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-pp). The runs needed no tf1compat change; probing DCGAN's one failure (the
same under TF 2.x) found two shape-rule differences, fixed. The cases pin the patterns.

* carpedm20/DCGAN-tensorflow (HEAD 62c9a2a): main.py ran unchanged on fake MNIST-format
  files (`--dataset mnist --input_height 28 --batch_size 16 --train_size 48 --epoch 2`,
  the conditional DCGAN with contrib batch_norm(updates_collections=None), two Adams over
  the 'd_'/'g_' variable lists, g_optim run twice per step, summaries, Saver): all six
  printed d_loss/g_loss pairs match TF to 1.5e-7 (step 1: 1.75638425 / 0.84818161 vs
  0.84818149), the variable table of slim's model_analyzer is identical. Its load path
  (`--train False --export --visualize`) restored each side's checkpoint and the other
  side's: the 100 sampler grids of visualize(option 1) agree to 1.8e-7 across the four
  pairings. Weights after 6 steps agree to float rounding except the biases that feed a
  batch norm (their gradient is rounding noise, which Adam scales to +-lr). `--freeze`
  fails on both with TF's AssertionError (`generator_1/Tanh is not in graph`: the mnist
  generator ends in a sigmoid). The celebA branch cannot run on TF 2.x at all: its
  generator reshapes z to [-1, ...] and TF 2's Conv2DBackpropInput shape function takes
  the batch from that input (TF 1.15 took input_sizes whole), so
  `tf.reshape(deconv, deconv.get_shape())` is the same ValueError under TF 2.21 and here
  (its image loader is also broken upstream: PIL on float arrays). Probing that shape
  function showed two differences, fixed: a known input_sizes batch that disagrees with
  out_backprop's is TF's graph-build ValueError (tf1compat took out_backprop's silently),
  and DepthwiseConv2dNativeBackpropInput keeps input_sizes whole, batch included.
  carpedm20/NTM-tensorflow was skipped: its `softmax_loss_function(labels, inputs)` does
  not take the `logits=` keyword TF >= 1.2's legacy_seq2seq passes (a TypeError in TF 1.15
  too). pixel-rnn-tensorflow is Python 2 only (print statements), skipped.
* awjuliani/DeepRL-Agents (HEAD f3c9a3f; notebooks' code cells run with only their loop
  counts lowered; gym 0.15.7 seeded, numpy >= 1.24's ragged arrays given dtype=object):
  Q-Network (FrozenLake, 300 episodes) ends with TF's weights bit for bit; Policy-Network
  (CartPole, 100 episodes, gradients accumulated in numpy and fed to Adam's
  apply_gradients through shapeless placeholders) prints TF's rewards, weights within
  2.3e-7; Model-Network prints TF's 34 "World Perf" lines, model weights within 1.4e-5
  relative, then both stop at the same numpy 2 TypeError (`'%f' %` of a 1-element
  array); Double-Dueling-DQN (gridworld, slim convs, target network soft updates, 100
  Adam steps) prints TF's lines and saves TF's variables (one conv element in 12800
  differs by Adam-scaled noise); A3C-Doom with a fake ViZDoom game and one worker thread
  (slim convs, BasicLSTMCell under dynamic_rnn with a run-time sequence_length, gradients
  of the local network clipped by global norm and applied to the global one) ends with
  TF's variables (one element of 663k beyond 1e-6).
* vahidk/EffectiveTensorflow (branch v1, TF1 guide): its 90 snippets, each in a fresh graph
  with the fragments it continues, print the same values and name/shape/dtype the same
  tensors on both sides in 80 cases, 2 more to float rounding. The rest: timing prints;
  the guide's read/assign race (TF's executor prints 3 or 7, tf1compat reads first);
  Adam driven by a zero-in-exact-arithmetic gradient (the guide's "non-differentiable"
  entropy) walks by rounding noise; `compute_gradient_error`'s finite differences of an
  ulp-level different softmax; the assert's guard is an Identity named Merge here
  (ops/cond.py); the estimator snippets are placeholders (`...`). Its training framework
  (vahidk/TensorflowFramework at the pinned 30a3391: Estimator, tf.data from numpy,
  keras Conv2D/Dense `.apply`, weight averaging, custom hooks) trained fake MNIST under TF
  2.15 + tensorflow-estimator and here with a seeded RunConfig: step-1 loss 8.862392 vs
  8.862391, final loss 574.31665 vs 574.30975 after 6 steps of a diverging model; its
  evaluation: accuracy 0.09375 on both, loss 89.0051 vs 89.00513. (Writing `--results`
  then fails here and not under TF 2.15 only because of numpy 2's `np.float32(...)` repr,
  which the framework parses back with ast.literal_eval; TF 2.15's venv has numpy 1.26.)
"""

import os
import tempfile
import uuid

import numpy as np

from tests.golden.cases_contrib_slim_zoo import _slim
from tests.golden.harness import catch, tolerance


def _lrelu(tf, x):
    return tf.maximum(x, 0.2 * x)


def _cond_concat(tf, x, yb):
    """A label map [N, 1, 1, C] tiled over a feature map's spatial dims and concatenated."""
    s = x.get_shape()
    return tf.concat([x, yb * tf.ones([s[0], s[1], s[2], yb.get_shape()[3]])], 3)


def _dense(tf, x, units, scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("Matrix", [x.get_shape().as_list()[1], units], tf.float32,
                            tf.random_normal_initializer(stddev=0.2))
        b = tf.get_variable("bias", [units], initializer=tf.constant_initializer(0.0))
        return tf.matmul(x, w) + b


def _bn(tf, x, scope, train):
    return _slim(tf).batch_norm(x, decay=0.9, updates_collections=None, epsilon=1e-5,
                                scale=True, is_training=train, scope=scope)


def _deconv(tf, x, out_shape, scope):
    """conv2d_transpose to a static output_shape, bias added, reshaped to its own shape."""
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [5, 5, out_shape[-1], x.get_shape()[-1]],
                            initializer=tf.random_normal_initializer(stddev=0.2))
        y = tf.nn.conv2d_transpose(x, w, output_shape=out_shape, strides=[1, 2, 2, 1])
        b = tf.get_variable("biases", [out_shape[-1]], initializer=tf.constant_initializer(0.0))
        return tf.reshape(tf.nn.bias_add(y, b), y.get_shape())


def _generator(tf, z, y, n, train, reuse):
    with tf.variable_scope("generator", reuse=reuse):
        yb = tf.reshape(y, [n, 1, 1, 3])
        h = tf.nn.relu(_bn(tf, _dense(tf, tf.concat([z, y], 1), 16, "g_h0_lin"), "g_bn0",
                           train))
        h = tf.nn.relu(_bn(tf, _dense(tf, tf.concat([h, y], 1), 2 * 2 * 4, "g_h1_lin"),
                           "g_bn1", train))
        h = _cond_concat(tf, tf.reshape(h, [n, 2, 2, 4]), yb)
        h = tf.nn.relu(_bn(tf, _deconv(tf, h, [n, 4, 4, 4], "g_h2"), "g_bn2", train))
        return tf.nn.sigmoid(_deconv(tf, _cond_concat(tf, h, yb), [n, 8, 8, 1], "g_h3"))


def _discriminator(tf, image, y, n, reuse):
    with tf.variable_scope("discriminator", reuse=reuse):
        yb = tf.reshape(y, [n, 1, 1, 3])
        x = _cond_concat(tf, image, yb)
        with tf.variable_scope("d_h0_conv"):
            w = tf.get_variable("w", [5, 5, 4, 4],
                                initializer=tf.truncated_normal_initializer(stddev=0.2))
            h = _lrelu(tf, tf.nn.conv2d(x, w, [1, 2, 2, 1], "SAME"))
        h = tf.reshape(_cond_concat(tf, h, yb), [n, -1])
        h = _lrelu(tf, _bn(tf, _dense(tf, tf.concat([h, y], 1), 8, "d_h2_lin"), "d_bn2",
                           True))
        logits = _dense(tf, tf.concat([h, y], 1), 1, "d_h3_lin")
        return tf.nn.sigmoid(logits), logits


@tolerance(rtol=1e-5, atol=1e-5)
def case_dcgan_conditional_steps_and_checkpoint(tf):
    """DCGAN's conditional (y_dim) model: label maps concatenated onto feature maps,
    contrib batch_norm updating its moving statistics in place (updates_collections=None)
    and a sampler reusing the generator in inference mode, sigmoid cross entropies against
    ones_like/zeros_like, two Adams over the 'd_'/'g_' variable lists (the generator's run
    twice per step); then Saver(max_to_keep=1) saves with a global step, and a fresh
    session restores the checkpoint named by get_checkpoint_state."""
    tf.set_random_seed(5)
    n = 4
    rs = np.random.RandomState(0)
    images = rs.uniform(0, 1, [n, 8, 8, 1]).astype(np.float32)
    labels = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
    zs = rs.uniform(-1, 1, [3, n, 5]).astype(np.float32)
    y = tf.placeholder(tf.float32, [n, 3], name="y")
    real = tf.placeholder(tf.float32, [n, 8, 8, 1], name="real_images")
    z = tf.placeholder(tf.float32, [None, 5], name="z")
    g = _generator(tf, z, y, n, True, False)
    _, d_logits = _discriminator(tf, real, y, n, False)
    sampler = _generator(tf, z, y, n, False, True)
    d_fake, d_logits_ = _discriminator(tf, g, y, n, True)
    xent = tf.nn.sigmoid_cross_entropy_with_logits
    d_loss = (tf.reduce_mean(xent(logits=d_logits, labels=tf.ones_like(d_logits)))
              + tf.reduce_mean(xent(logits=d_logits_, labels=tf.zeros_like(d_fake))))
    g_loss = tf.reduce_mean(xent(logits=d_logits_, labels=tf.ones_like(d_fake)))
    t_vars = tf.trainable_variables()
    d_vars = [v for v in t_vars if "d_" in v.name]
    g_vars = [v for v in t_vars if "g_" in v.name]
    saver = tf.train.Saver(max_to_keep=1)
    d_optim = tf.train.AdamOptimizer(2e-3, beta1=0.5).minimize(d_loss, var_list=d_vars)
    g_optim = tf.train.AdamOptimizer(2e-3, beta1=0.5).minimize(g_loss, var_list=g_vars)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            feed = {real: images, z: zs[step], y: labels}
            sess.run(d_optim, feed)
            sess.run(g_optim, {z: zs[step], y: labels})
            sess.run(g_optim, {z: zs[step], y: labels})
            losses.append(sess.run([d_loss, g_loss], feed))
        sample = sess.run(sampler, {z: zs[0], y: labels})
        # Moving variances only: the moving means carry the biases that feed each batch
        # norm, whose gradient is rounding noise that Adam scales to +-lr (both sides).
        stats = sess.run([v for v in tf.global_variables() if "moving_variance" in v.name])
        ckpt_dir = tempfile.mkdtemp()
        saver.save(sess, os.path.join(ckpt_dir, "model.b4"), global_step=3)
        saver.save(sess, os.path.join(ckpt_dir, "model.b4"), global_step=6)
    state = tf.train.get_checkpoint_state(ckpt_dir)
    name = os.path.basename(state.model_checkpoint_path)
    with tf.Session() as sess:
        saver.restore(sess, os.path.join(ckpt_dir, name))
        restored = sess.run(sampler, {z: zs[0], y: labels})
    # The sampler's values carry those biases too (inference mode): compare its shape and
    # that the restored model reproduces it.
    return {"losses": losses, "sample_shape": list(sample.shape), "moving_stats": stats,
            "names": [v.op.name for v in tf.global_variables()],
            "d_vars": len(d_vars), "g_vars": len(g_vars), "ckpt": name,
            "counter": int(name.split("-")[-1]),
            "kept": sorted(os.path.basename(p) for p in state.all_model_checkpoint_paths),
            "files": sorted(os.listdir(ckpt_dir)),
            "restored_equal": bool(np.array_equal(restored, sample))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_policy_gradient_buffered_apply(tf):
    """DeepRL-Agents' policy network: the log-likelihood of a Bernoulli 'fake label',
    `tf.gradients` of the advantage-weighted loss run per episode, summed in numpy and fed
    to Adam's apply_gradients through placeholders declared without a shape."""
    obs = tf.placeholder(tf.float32, [None, 4], name="input_x")
    w1 = tf.get_variable("W1", shape=[4, 6], initializer=tf.glorot_uniform_initializer(seed=1))
    w2 = tf.get_variable("W2", shape=[6, 1], initializer=tf.glorot_uniform_initializer(seed=2))
    prob = tf.nn.sigmoid(tf.matmul(tf.nn.relu(tf.matmul(obs, w1)), w2))
    tvars = tf.trainable_variables()
    input_y = tf.placeholder(tf.float32, [None, 1], name="input_y")
    adv = tf.placeholder(tf.float32, name="reward_signal")
    loglik = tf.log(input_y * (input_y - prob) + (1 - input_y) * (input_y + prob))
    loss = -tf.reduce_mean(loglik * adv)
    new_grads = tf.gradients(loss, tvars)
    batch_grad = [tf.placeholder(tf.float32, name="batch_grad1"),
                  tf.placeholder(tf.float32, name="batch_grad2")]
    update = tf.train.AdamOptimizer(1e-2).apply_gradients(zip(batch_grad, tvars))
    rs = np.random.RandomState(3)
    out = {"grad_shapes": [str(g.shape) for g in batch_grad]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        buffer = [v * 0 for v in sess.run(tvars)]
        for episode in range(4):
            x = rs.normal(size=[5, 4]).astype(np.float32)
            ys = rs.randint(0, 2, [5, 1]).astype(np.float32)
            r = np.cumsum(np.ones([5, 1], np.float32), 0)[::-1]
            r = (r - r.mean()) / r.std()
            for i, g in enumerate(sess.run(new_grads, {obs: x, input_y: ys, adv: r})):
                buffer[i] += g
            if episode % 2 == 1:
                sess.run(update, dict(zip(batch_grad, buffer)))
                buffer = [b * 0 for b in buffer]
        out["vars"] = sess.run(tf.global_variables())
        out["names"] = [v.op.name for v in tf.global_variables()]
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_dueling_dqn_and_soft_target_update(tf):
    """The Double-Dueling DQN: slim convs without biases, the last split into advantage
    and value streams, `xavier_initializer()` called with a shape for plain tf.Variables,
    Q = V + (A - mean(A, keep_dims=True)), the one-hot action's Q, and the target network
    moved toward the main one by assign ops built from `var.value()`."""
    slim = _slim(tf)
    tf.set_random_seed(7)
    xavier = (tf.contrib.layers.xavier_initializer() if hasattr(tf, "contrib")
              else tf.glorot_uniform_initializer())

    def qnet():
        inp = tf.placeholder(shape=[None, 108], dtype=tf.float32)
        image = tf.reshape(inp, shape=[-1, 6, 6, 3])
        c1 = slim.conv2d(inputs=image, num_outputs=4, kernel_size=[3, 3], stride=[1, 1],
                         padding="VALID", biases_initializer=None)
        c2 = slim.conv2d(inputs=c1, num_outputs=8, kernel_size=[4, 4], stride=[1, 1],
                         padding="VALID", biases_initializer=None)
        stream_a, stream_v = tf.split(c2, 2, 3)
        aw = tf.Variable(xavier([4, 3]))
        vw = tf.Variable(xavier([4, 1]))
        adv = tf.matmul(slim.flatten(stream_a), aw)
        q = tf.matmul(slim.flatten(stream_v), vw) + tf.subtract(
            adv, tf.reduce_mean(adv, axis=1, keep_dims=True))
        actions = tf.placeholder(shape=[None], dtype=tf.int32)
        target = tf.placeholder(shape=[None], dtype=tf.float32)
        q_a = tf.reduce_sum(tf.multiply(q, tf.one_hot(actions, 3, dtype=tf.float32)), axis=1)
        loss = tf.reduce_mean(tf.square(target - q_a))
        train = tf.train.AdamOptimizer(learning_rate=1e-2).minimize(loss)
        return inp, q, tf.argmax(q, 1), actions, target, train

    main, target_net = qnet(), qnet()
    init = tf.global_variables_initializer()
    tvars = tf.trainable_variables()
    half = len(tvars) // 2
    tau = 0.1
    soft = [tvars[i + half].assign(tvars[i].value() * tau + (1 - tau) * tvars[i + half].value())
            for i in range(half)]
    rs = np.random.RandomState(4)
    out = {"names": [v.op.name for v in tvars], "q": []}
    with tf.Session() as sess:
        sess.run(init)
        for _ in range(3):
            s = rs.uniform(0, 1, [5, 108]).astype(np.float32)
            s1 = rs.uniform(0, 1, [5, 108]).astype(np.float32)
            best = sess.run(main[2], {main[0]: s1})
            q2 = sess.run(target_net[1], {target_net[0]: s1})
            tq = rs.uniform(-1, 1, 5).astype(np.float32) + 0.99 * q2[range(5), best]
            sess.run(main[5], {main[0]: s, main[4]: tq, main[3]: rs.randint(0, 3, 5)})
            for op in soft:
                sess.run(op)
            out["q"].append(sess.run(main[1], {main[0]: s}))
        out["vars"] = sess.run(tvars)
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_a3c_lstm_worker_update(tf):
    """A3C's actor-critic: slim conv + fully_connected, a BasicLSTMCell under dynamic_rnn
    with `sequence_length=tf.shape(x)[:1]` and an LSTMStateTuple of placeholders, the state
    sliced [:1, :], heads initialised by a numpy function returning tf.constant, the local
    gradients clipped by global norm and applied to the global network's variables, and
    the local copy refreshed by assign ops between variable-scope collections."""
    slim = _slim(tf)
    tf.set_random_seed(11)
    rnn = tf.nn.rnn_cell
    rs_init = np.random.RandomState(9)

    def columns(std):
        def init(shape, dtype=None, partition_info=None):
            out = rs_init.randn(*shape).astype(np.float32)
            out *= std / np.sqrt(np.square(out).sum(axis=0, keepdims=True))
            return tf.constant(out)
        return init

    def network(scope, trainer):
        with tf.variable_scope(scope):
            inp = tf.placeholder(shape=[None, 64], dtype=tf.float32)
            image = tf.reshape(inp, shape=[-1, 8, 8, 1])
            conv = slim.conv2d(activation_fn=tf.nn.elu, inputs=image, num_outputs=4,
                               kernel_size=[3, 3], stride=[2, 2], padding="VALID",
                               weights_initializer=tf.glorot_uniform_initializer(seed=1))
            hidden = slim.fully_connected(slim.flatten(conv), 8, activation_fn=tf.nn.elu,
                                          weights_initializer=tf.glorot_uniform_initializer(
                                              seed=2))
            cell = rnn.BasicLSTMCell(6, state_is_tuple=True)
            c_in = tf.placeholder(tf.float32, [1, 6])
            h_in = tf.placeholder(tf.float32, [1, 6])
            outs, state = tf.nn.dynamic_rnn(
                cell, tf.expand_dims(hidden, [0]), initial_state=rnn.LSTMStateTuple(c_in, h_in),
                sequence_length=tf.shape(image)[:1], time_major=False)
            state_out = (state[0][:1, :], state[1][:1, :])
            flat = tf.reshape(outs, [-1, 6])
            policy = slim.fully_connected(flat, 3, activation_fn=tf.nn.softmax,
                                          weights_initializer=columns(0.01),
                                          biases_initializer=None)
            value = slim.fully_connected(flat, 1, activation_fn=None,
                                         weights_initializer=columns(1.0),
                                         biases_initializer=None)
            net = {"inp": inp, "c": c_in, "h": h_in, "state": state_out, "policy": policy,
                   "value": value}
            if trainer is None:
                return net
            actions = tf.placeholder(shape=[None], dtype=tf.int32)
            target_v = tf.placeholder(shape=[None], dtype=tf.float32)
            adv = tf.placeholder(shape=[None], dtype=tf.float32)
            chosen = tf.reduce_sum(policy * tf.one_hot(actions, 3, dtype=tf.float32), [1])
            value_loss = 0.5 * tf.reduce_sum(tf.square(target_v - tf.reshape(value, [-1])))
            entropy = -tf.reduce_sum(policy * tf.log(policy))
            loss = 0.5 * value_loss - tf.reduce_sum(tf.log(chosen) * adv) - entropy * 0.01
            local = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope)
            grads, norm = tf.clip_by_global_norm(tf.gradients(loss, local), 1.0)
            glob = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, "global")
            net.update(actions=actions, target_v=target_v, adv=adv, norm=norm,
                       var_norm=tf.global_norm(local),
                       apply=trainer.apply_gradients(zip(grads, glob)),
                       sync=[t.assign(f) for f, t in zip(glob, local)])
            return net

    trainer = tf.train.AdamOptimizer(learning_rate=1e-2)
    network("global", None)
    worker = network("worker_0", trainer)
    rs = np.random.RandomState(2)
    zeros = np.zeros((1, 6), np.float32)
    out = {"norms": [], "values": []}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(worker["sync"])
            frames = rs.uniform(0, 1, [5, 64]).astype(np.float32)
            v, (c, h) = sess.run([worker["value"], worker["state"]],
                                 {worker["inp"]: frames, worker["c"]: zeros, worker["h"]: zeros})
            norm, var_norm, _ = sess.run(
                [worker["norm"], worker["var_norm"], worker["apply"]],
                {worker["inp"]: frames, worker["c"]: c, worker["h"]: h,
                 worker["actions"]: rs.randint(0, 3, 5),
                 worker["target_v"]: rs.uniform(-1, 1, 5).astype(np.float32),
                 worker["adv"]: rs.uniform(-1, 1, 5).astype(np.float32)})
            out["norms"].append([norm, var_norm])
            out["values"].append(v)
        out["names"] = [v.op.name for v in tf.global_variables()]
        out["vars"] = sess.run(tf.global_variables())
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_effective_tf_guide_patterns(tf):
    """Effective TensorFlow's snippets: a reshape merging a static and a dynamic dim
    (`tf.unstack(tf.shape(x))` mixed with known sizes), a `tf.make_template` reusing its
    weights, a py_func ReLU whose gradient is another py_func registered under a fresh
    name through `gradient_override_map({"PyFunc": ...})` and checked by
    `compute_gradient_error`, a while_loop growing a tensor without shape invariants (TF's
    ValueError), `tf.assert_rank` failing at graph build, and the stable softmax cross
    entropy against the naive one (nan) with its gradient."""
    tf.set_random_seed(13)
    out = {}
    x = tf.placeholder(tf.float32, [None, 3, 4])
    static, dynamic = x.shape.as_list(), tf.unstack(tf.shape(x))
    dims = [d if d is not None else t for d, t in zip(static, dynamic)]
    merged = tf.reshape(x, [dims[0], dims[1] * dims[2]])
    out["merged_shape"] = str(merged.shape)
    conv = tf.make_template("conv3x3", lambda t: tf.layers.conv2d(t, 2, 3))
    img = tf.constant(np.random.RandomState(1).uniform(-1, 1, [1, 5, 5, 1]), tf.float32)
    f1, f2 = conv(img), conv(img * 2.0)
    out["template_vars"] = [v.op.name for v in tf.trainable_variables()]

    def relu(inputs, name):
        def grad_op(op, grad):
            return grad * tf.py_func(lambda v: np.float32(v > 0), [op.inputs[0]], tf.float32)
        tf.RegisterGradient(name)(grad_op)
        with tf.get_default_graph().gradient_override_map({"PyFunc": name}):
            return tf.py_func(lambda v: np.maximum(v, 0.0), [inputs], tf.float32)

    r_in = tf.constant([-1.5, -0.2, 0.3, 2.0, 0.7])
    # A fresh name per build, as the guide does: a gradient name registers once a process.
    r_out = relu(r_in * r_in - 0.5, "RealcodePpReluGrad_" + uuid.uuid4().hex)
    r_out.set_shape([5])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["merged"] = sess.run(merged, {x: np.arange(24, dtype=np.float32).reshape(2, 3, 4)})
        out["template"] = sess.run([f1, f2])
        out["relu"] = sess.run(r_out)
        out["relu_grad"] = sess.run(tf.gradients(r_out, r_in))
        out["grad_error_small"] = bool(
            tf.test.compute_gradient_error(r_in, [5], r_out, [5]) < 1e-2)
    n = tf.constant(5)
    try:
        tf.while_loop(lambda i, a, b, c: i < n,
                      lambda i, a, b, c: (i + 1, b, a + b, tf.concat([c, [a + b]], 0)),
                      (2, 1, 1, tf.constant([1, 1])))
    except ValueError as e:
        out["while_error"] = str(e).split(". ")[0].replace(
            str(e).split("'")[1], "<tensor>") if "'" in str(e) else str(e)
    try:
        tf.assert_rank(tf.constant([[1.], [2.]]), 1)
    except ValueError as e:
        out["rank_error"] = type(e).__name__
    labels = tf.constant([0.5, 0.5])
    logits = tf.constant([1000., 0.])
    naive = -tf.reduce_sum(labels * tf.log(tf.exp(logits) / tf.reduce_sum(tf.exp(logits))))
    scaled = logits - tf.reduce_max(logits)
    stable = -tf.reduce_sum(labels * (scaled - tf.reduce_logsumexp(scaled)))
    with tf.Session() as sess:
        out["xent"] = sess.run([naive, stable])
        out["xent_grad"] = sess.run(tf.gradients(stable, logits))
    return out


def case_conv2d_transpose_batch_dimension(tf):
    """DCGAN's deconv2d under TF 2's shape functions: conv2d_transpose to a static
    output_shape takes its batch from the input (unknown after a reshape to [-1, ...]),
    so `tf.reshape(deconv, deconv.get_shape())` cannot convert the shape; a batch that
    contradicts output_shape's is a ValueError at graph build; the depthwise backprop
    keeps input_sizes' batch."""
    w = tf.zeros([5, 5, 8, 4])
    out = {}
    z = tf.placeholder(tf.float32, [None, 16])
    h = tf.reshape(z, [-1, 2, 2, 4])
    y = tf.nn.conv2d_transpose(h, w, output_shape=[3, 4, 4, 8], strides=[1, 2, 2, 1])
    out["unknown_batch"] = str(y.shape)
    out["reshape_to_own_shape"] = catch(lambda: tf.reshape(y, y.get_shape()))
    fixed = tf.placeholder(tf.float32, [2, 2, 2, 4])
    out["batch_mismatch"] = catch(lambda: str(tf.nn.conv2d_transpose(
        fixed, w, output_shape=[3, 4, 4, 8], strides=[1, 2, 2, 1], name="up").shape),
        message=True)
    out["batch_match"] = str(tf.nn.conv2d_transpose(
        fixed, w, output_shape=[2, 4, 4, 8], strides=[1, 2, 2, 1]).shape)
    out["unknown_rank"] = str(tf.nn.conv2d_transpose(
        tf.placeholder(tf.float32), w, output_shape=[3, 4, 4, 8], strides=[1, 2, 2, 1]).shape)
    for key, x in (("depthwise_unknown", z), ("depthwise_other", fixed)):
        x = tf.reshape(x, [-1, 2, 2, 4])
        out[key] = str(tf.nn.depthwise_conv2d_native_backprop_input(
            [3, 4, 4, 4], tf.zeros([3, 3, 4, 1]), x, [1, 2, 2, 1], "SAME").shape)
    with tf.Session() as sess:
        value = sess.run(y, {z: np.ones([3, 16], np.float32)})
    out["run_shape"] = list(value.shape)
    return out
