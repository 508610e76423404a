"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-bb).

* openai/baselines (master ea25b9e, TF1; gym 0.15.7's CartPole-v0 and Pendulum-v0):
  seeded `learn()` runs of ppo2 (mlp and lstm), a2c, deepq (prioritized replay) and ddpg
  (layer-normed mlp, adaptive parameter noise plus Gaussian action noise, PopArt return
  normalization, MpiAdam and RunningMeanStd without MPI) printed TF's logger tables and
  ended with TF's trained parameters (sums agree to 1e-8 relative). deepq with
  `param_noise=True` differs from TF, and TF from itself run to run: its act function
  runs the perturbation assigns (`updates`) in the same `session.run` as the actions
  that read the perturbed variables, unordered. common/tests' serialization (its MNIST
  cases cannot download under either) and tf_util tests pass under both, except ACKTR's:
  its K-FAC optimizer (acktr/kfac.py) finds each layer's factors by walking TF's op-by-op
  gradient graph (`gradientsSampled/.../MatMul_grad` inputs), which tf1compat's single
  SymbolicGradient op does not have (docs/ARCHITECTURE.md, "Gradient graphs"); it fails
  with an IndexError there, as stable-baselines' ACKTR does.
* hill-a/stable-baselines 2.10.2a1 (TF1): seeded A2C, PPO2 (mlp with a clipped value
  loss, and MlpLstmPolicy), DQN (LnMlpPolicy, prioritized replay), SAC and TD3 on
  CartPole-v1 / Pendulum-v0, then `save` to a zip and `load`: A2C's logs and parameters
  are TF's exactly, PPO2's to 1e-7 (its near-zero policy loss to 3e-5 relative), SAC's
  equal TF's for the first training steps and drift by float rounding (3e-7 after 10
  steps, 1e-4 after 150), DQN's and TD3's parameters agree to 3e-5 after 300 / 150
  steps; loaded models predict what the trained ones did. Its tests test_tf_util,
  test_distri (a 3-sigma Monte Carlo check that fails now and then under either),
  test_log_prob, test_load_parameters and test_multiple_learn pass (PPO1/TRPO through a
  one-process mpi4py stand-in) except for ACKTR (K-FAC, above).

One change came out of them: a `tf.one_hot` whose depth is a constant bakes it into the
kernel (as reshape and transpose do with theirs) instead of reading it from its tensor on
every run, which inside a compiled training step was a Dynamo graph break that printed
a warning real TF never does (tests/test_hot_plans.py pins it; the first case here pins
one_hot's values). The cases pin the patterns those programs lean on.

Under the oracle `tf.contrib.layers.layer_norm` is TF 1.15's, restated (TF 2.x has no
contrib; cases_thirdparty_realcode_m's `_layer_norm`).
"""

import numpy as np

from tests.golden.cases_thirdparty_realcode_m import _layer_norm
from tests.golden.harness import tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


def case_one_hot_constant_and_fed_depth(tf):
    """`tf.one_hot` with a Python-int depth (a Const), a fed depth, axis 0 and custom
    on/off values, run repeatedly in a training step (the categorical negative
    log-likelihood of baselines' and stable-baselines' distributions)."""
    with tf.Graph().as_default():
        actions = tf.placeholder(tf.int32, [None])
        depth = tf.placeholder(tf.int32, [])
        obs = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(_seeded([3, 4], 1))
        logits = tf.matmul(obs, w)
        nll = tf.nn.softmax_cross_entropy_with_logits_v2(
            logits=logits, labels=tf.one_hot(actions, logits.get_shape().as_list()[-1]))
        train = tf.train.AdamOptimizer(0.05).minimize(tf.reduce_mean(nll))
        fed = tf.one_hot(actions, depth, on_value=2.0, off_value=-1.0, axis=0)
        out_of_range = tf.one_hot(tf.constant([0, 5, -1]), 4, dtype=tf.int64)
        rng = np.random.RandomState(0)
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(12):
                feed = {actions: rng.randint(0, 4, 6), obs: rng.randn(6, 3)}
                losses.append(sess.run([tf.reduce_mean(nll), train], feed)[0])
            return {"losses": np.array(losses), "w": sess.run(w),
                    "shape": fed.shape.as_list(),
                    "fed": sess.run(fed, {actions: [1, 0, 2], depth: 3}),
                    "fed5": sess.run(fed, {actions: [4], depth: 5}),
                    "out_of_range": sess.run(out_of_range)}


def case_deepq_param_noise_act_graph(tf):
    """baselines' deepq `build_act_with_param_noise`: q_func copies whose variables are
    perturbed by `var + tf.random_normal(shape=tf.shape(var), stddev=scale_var)` assigns,
    the adaptive scale updated by a `tf.cond` on the KL, nested in a `tf.cond` whose other
    branch creates a `tf.Variable` (lifted out of the cond, initialized with the others).
    Each perturbation runs in its own `session.run` before what reads it: in the project
    the KL's variable reads are not ordered after the perturbation they measure (only the
    `Less` on them is, by a control dependency), and the act function's perturbations
    share a run with the actions, so TF's results there vary from run to run."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        obs = tf.placeholder(tf.float32, [None, 3])
        reset = tf.placeholder(tf.bool, ())
        update_scale_ph = tf.placeholder(tf.bool, ())

        def q_func(scope):
            with tf.variable_scope(scope):
                h = tf.layers.dense(obs, 5, tf.nn.relu, name="fc0",
                                    kernel_initializer=tf.glorot_uniform_initializer())
                return tf.layers.dense(h, 2, name="out")

        scale = tf.get_variable("param_noise_scale", (), initializer=tf.constant_initializer(
            0.01), trainable=False)
        threshold = tf.get_variable("param_noise_threshold", (),
                                    initializer=tf.constant_initializer(0.05), trainable=False)
        q, q_perturbed, q_adaptive = q_func("q"), q_func("perturbed_q"), q_func("adaptive_q")

        def perturb(src, dst):
            pairs = zip(tf.global_variables(src + "/"), tf.global_variables(dst + "/"))
            return tf.group(*[tf.assign(d, s + tf.random_normal(tf.shape(s), stddev=scale))
                              for s, d in pairs])

        perturb_adaptive = perturb("q", "adaptive_q")
        kl = tf.reduce_mean(tf.reduce_sum(tf.nn.softmax(q) * (
            tf.log(tf.nn.softmax(q)) - tf.log(tf.nn.softmax(q_adaptive))), axis=-1))

        def update_scale():
            return tf.cond(kl < threshold, lambda: scale.assign(scale * 1.01),
                           lambda: scale.assign(scale / 1.01))

        reset_op = tf.cond(reset, lambda: perturb("q", "perturbed_q"), lambda: tf.group(*[]))
        scale_op = tf.cond(update_scale_ph, update_scale,
                           lambda: tf.Variable(0., trainable=False))
        actions = tf.argmax(q_perturbed, axis=1)
        x = _seeded([4, 3], 2, 2.0)
        out = {"n_globals": len(tf.global_variables()),
               "scale_op": [scale_op.dtype.name, scale_op.shape.as_list()]}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["no_reset"] = sess.run(reset_op, {reset: False})
            sess.run(reset_op, {reset: True})
            out["perturbed"] = sess.run([actions, q_perturbed], {obs: x})
            out["scales"] = []
            for flag in (True, True, False, True):
                sess.run(perturb_adaptive)
                out["scales"].append(sess.run([scale_op, kl], {obs: x, update_scale_ph: flag}))
            out["kl"] = sess.run(kl, {obs: x})
        return out


@tolerance(rtol=2e-5, atol=2e-6)
def case_ddpg_popart_critic_step(tf):
    """baselines' ddpg learner: layer-normed actor/critic, target networks by soft
    updates, a critic trained on a normalized target with an L2 penalty on its weights
    (`tf.nn.l2_loss` summed over the "critic" kernels, as contrib's apply_regularization
    does), gradients flattened by reshape+concat for a flat Adam step (MpiAdam's
    `flatgrad` / `SetFromFlat`), and PopArt's renormalization of the output layer when the
    return statistics change."""
    with tf.Graph().as_default():
        obs = tf.placeholder(tf.float32, [None, 3])
        act_ph = tf.placeholder(tf.float32, [None, 1])
        target = tf.placeholder(tf.float32, [None, 1])
        ret_mean = tf.Variable(0.0, trainable=False)
        ret_std = tf.Variable(1.0, trainable=False)
        old_mean, old_std = tf.placeholder(tf.float32, []), tf.placeholder(tf.float32, [])

        def actor(scope, reuse=False):
            with tf.variable_scope(scope, reuse=reuse):
                h = tf.layers.dense(obs, 6, kernel_initializer=tf.constant_initializer(
                    _seeded([3, 6], 1)))
                h = tf.nn.relu(_layer_norm(tf, h, "LayerNorm"))
                return tf.nn.tanh(tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(
                    _seeded([6, 1], 2, 0.3))))

        def critic(scope, action, reuse=False):
            with tf.variable_scope(scope, reuse=reuse):
                h = tf.layers.dense(tf.concat([obs, action], -1), 6,
                                    kernel_initializer=tf.constant_initializer(_seeded([4, 6], 3)))
                h = tf.nn.relu(_layer_norm(tf, h, "LayerNorm"))
                return tf.layers.dense(h, 1, name="output",
                                       kernel_initializer=tf.constant_initializer(
                                           _seeded([6, 1], 4, 0.3)))

        pi = actor("actor")
        target_pi = actor("target_actor")
        q_norm = critic("critic", act_ph)
        critic("target_critic", target_pi)
        critic_vars = tf.trainable_variables("critic/")
        tau = 0.1
        soft = tf.group(*[tf.assign(t, (1 - tau) * t + tau * v) for v, t in zip(
            tf.trainable_variables("actor/") + critic_vars,
            tf.trainable_variables("target_actor/") + tf.trainable_variables("target_critic/"))])
        norm_target = tf.clip_by_value((target - ret_mean) / ret_std, -5.0, 5.0)
        reg = 0.01 * tf.add_n([tf.nn.l2_loss(v) for v in critic_vars
                               if "kernel" in v.name and "output" not in v.name])
        loss = tf.reduce_mean(tf.square(q_norm - norm_target)) + reg
        grads = tf.gradients(loss, critic_vars)
        flat = tf.concat([tf.reshape(g, [-1]) for g in grads], axis=0)
        flat_ph = tf.placeholder(tf.float32, flat.shape)
        sizes = [int(np.prod(v.shape.as_list())) for v in critic_vars]
        pieces = tf.split(flat_ph, sizes)
        set_from_flat = tf.group(*[tf.assign(v, tf.reshape(p, v.shape))
                                   for v, p in zip(critic_vars, pieces)])
        flat_vars = tf.concat([tf.reshape(v, [-1]) for v in critic_vars], 0)
        out_w, out_b = [v for v in critic_vars if "output" in v.name]
        popart = [tf.assign(out_w, out_w * old_std / ret_std),
                  tf.assign(out_b, (out_b * old_std + old_mean - ret_mean) / ret_std)]
        rng = np.random.RandomState(5)
        m, v = np.zeros(sum(sizes), np.float32), np.zeros(sum(sizes), np.float32)
        out = {"sizes": sizes, "losses": []}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(1, 5):
                feed = {obs: rng.randn(8, 3), act_ph: rng.uniform(-1, 1, (8, 1)),
                        target: rng.randn(8, 1) * 3}
                lval, g, actions = sess.run([loss, flat, pi], feed)
                m = 0.9 * m + 0.1 * g
                v = 0.999 * v + 0.001 * g * g
                lr = 1e-2 * np.sqrt(1 - 0.999 ** step) / (1 - 0.9 ** step)
                theta = sess.run(flat_vars) - lr * m / (np.sqrt(v) + 1e-8)
                sess.run(set_from_flat, {flat_ph: theta})
                sess.run(soft)
                out["losses"].append(lval)
                sess.run([ret_mean.assign(0.5 * step), ret_std.assign(1.0 + 0.25 * step)])
                sess.run(popart, {old_mean: 0.5 * (step - 1), old_std: 1.0 + 0.25 * (step - 1)})
            out["actions"] = actions
            out["critic"] = sess.run(critic_vars)
            out["target_critic"] = sess.run(tf.trainable_variables("target_critic/"))
        return out


@tolerance(rtol=2e-5, atol=2e-6)
def case_sac_squashed_gaussian_steps(tf):
    """stable-baselines' SAC: a squashed diagonal Gaussian policy (reparameterized with
    `tf.random_normal(tf.shape(mu))`, log-std clipped, tanh with the log-det correction),
    twin Q and a value function with a Polyak target, the automatic entropy coefficient
    (`log_ent_coef` toward a target entropy) and the train ops ordered by control
    dependencies as SAC orders them (policy, then values and entropy, then target)."""
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        obs = tf.placeholder(tf.float32, [None, 3])
        obs_next = tf.placeholder(tf.float32, [None, 3])
        act_ph = tf.placeholder(tf.float32, [None, 1])
        rew = tf.placeholder(tf.float32, [None, 1])
        done = tf.placeholder(tf.float32, [None, 1])
        eps = 1e-6

        def mlp(x, scope, n_out, seed, reuse=False):
            with tf.variable_scope(scope, reuse=reuse):
                h = tf.layers.dense(x, 8, tf.nn.relu, name="fc0",
                                    kernel_initializer=tf.constant_initializer(
                                        _seeded([x.shape[-1].value, 8], seed)))
                return tf.layers.dense(h, n_out, name="out",
                                       kernel_initializer=tf.constant_initializer(
                                           _seeded([8, n_out], seed + 1, 0.3)))

        with tf.variable_scope("model"):
            out = mlp(obs, "pi", 2, 1)
            mu, log_std = out[:, :1], tf.clip_by_value(out[:, 1:], -20.0, 2.0)
            std = tf.exp(log_std)
            pi = mu + tf.random_normal(tf.shape(mu)) * std
            logp = tf.reduce_sum(-0.5 * (((pi - mu) / (std + eps)) ** 2 + 2 * log_std
                                         + np.log(2 * np.pi)), axis=1)
            squashed = tf.tanh(pi)
            logp -= tf.reduce_sum(tf.log(1 - squashed ** 2 + eps), axis=1)
            qf1 = mlp(tf.concat([obs, act_ph], -1), "qf1", 1, 3)
            qf2 = mlp(tf.concat([obs, act_ph], -1), "qf2", 1, 5)
            qf1_pi = mlp(tf.concat([obs, squashed], -1), "qf1", 1, 3, reuse=True)
            qf2_pi = mlp(tf.concat([obs, squashed], -1), "qf2", 1, 5, reuse=True)
            value = mlp(obs, "vf", 1, 7)
        with tf.variable_scope("target"):
            value_target = mlp(obs_next, "vf", 1, 7)
        log_ent_coef = tf.get_variable("log_ent_coef", dtype=tf.float32,
                                       initializer=np.log(1.0).astype(np.float32))
        ent_coef = tf.exp(log_ent_coef)
        min_q_pi = tf.minimum(qf1_pi, qf2_pi)
        q_backup = tf.stop_gradient(rew + (1 - done) * 0.99 * value_target)
        qf_losses = [0.5 * tf.reduce_mean((q_backup - q) ** 2) for q in (qf1, qf2)]
        ent_loss = -tf.reduce_mean(log_ent_coef * tf.stop_gradient(logp - 1.0))
        policy_loss = tf.reduce_mean(ent_coef * logp - min_q_pi)
        v_backup = tf.stop_gradient(min_q_pi - ent_coef * logp)
        value_loss = 0.5 * tf.reduce_mean((value - v_backup) ** 2)
        pi_vars = tf.trainable_variables("model/pi")
        q_vars = tf.trainable_variables("model/qf") + tf.trainable_variables("model/vf")
        policy_train = tf.train.AdamOptimizer(3e-3).minimize(policy_loss, var_list=pi_vars)
        with tf.control_dependencies([policy_train]):
            values_train = tf.train.AdamOptimizer(3e-3).minimize(
                qf_losses[0] + qf_losses[1] + value_loss, var_list=q_vars)
            ent_train = tf.train.AdamOptimizer(3e-3).minimize(ent_loss, var_list=[log_ent_coef])
            with tf.control_dependencies([values_train, ent_train]):
                polyak = tf.group(*[tf.assign(t, 0.995 * t + 0.005 * s) for s, t in zip(
                    tf.trainable_variables("model/vf"), tf.trainable_variables("target/vf"))])
        rng = np.random.RandomState(2)
        result = {"losses": []}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(4):
                feed = {obs: rng.randn(6, 3), obs_next: rng.randn(6, 3),
                        act_ph: rng.uniform(-1, 1, (6, 1)), rew: rng.randn(6, 1),
                        done: (rng.rand(6, 1) < 0.2).astype(np.float32)}
                result["losses"].append(sess.run(
                    [policy_loss, qf_losses[0], qf_losses[1], value_loss, ent_loss, ent_coef,
                     polyak, values_train, ent_train], feed)[:6])
            result["target"] = sess.run(tf.trainable_variables("target/vf"))
            result["deterministic"] = sess.run(tf.tanh(mu), {obs: _seeded([3, 3], 9)})
        return result


def case_ppo2_clipped_value_loss(tf):
    """stable-baselines' PPO2 with `cliprange_vf`: the value prediction clipped around
    the old one, the maximum of clipped and unclipped squared errors, the ratio-clipped
    surrogate, approx-KL and clip fraction from the same feeds."""
    with tf.Graph().as_default():
        vpred = tf.placeholder(tf.float32, [None])
        old_vpred = tf.placeholder(tf.float32, [None])
        returns = tf.placeholder(tf.float32, [None])
        neglogp = tf.placeholder(tf.float32, [None])
        old_neglogp = tf.placeholder(tf.float32, [None])
        adv = tf.placeholder(tf.float32, [None])
        clip, clip_vf = tf.placeholder(tf.float32, []), tf.placeholder(tf.float32, [])
        clipped = old_vpred + tf.clip_by_value(vpred - old_vpred, -clip_vf, clip_vf)
        vf_loss = 0.5 * tf.reduce_mean(tf.maximum(tf.square(vpred - returns),
                                                  tf.square(clipped - returns)))
        ratio = tf.exp(old_neglogp - neglogp)
        pg_loss = tf.reduce_mean(tf.maximum(-adv * ratio, -adv * tf.clip_by_value(
            ratio, 1.0 - clip, 1.0 + clip)))
        approxkl = 0.5 * tf.reduce_mean(tf.square(neglogp - old_neglogp))
        clipfrac = tf.reduce_mean(tf.cast(tf.greater(tf.abs(ratio - 1.0), clip), tf.float32))
        rng = np.random.RandomState(4)
        feed = {vpred: rng.randn(16), old_vpred: rng.randn(16), returns: rng.randn(16) * 2,
                neglogp: rng.rand(16) + 0.3, old_neglogp: rng.rand(16) + 0.3,
                adv: rng.randn(16), clip: 0.2, clip_vf: 0.1}
        with tf.Session() as sess:
            return sess.run({"vf": vf_loss, "pg": pg_loss, "kl": approxkl, "clipfrac": clipfrac},
                            feed)
