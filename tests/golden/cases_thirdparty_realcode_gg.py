"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-gg).

* openai/spinningup (master 038665d, its spinup/algos/tf1; gym 0.15.7's CartPole-v0 and
  Pendulum-v0, hidden sizes (16, 16), 2 short epochs, seed 3, envs and action spaces
  seeded): vpg, ppo, trpo, ddpg, td3 and sac ran unchanged (mpi4py, which needs a compiled
  MPI, is a one-rank stand-in on both sides; the oracle gets a stand-in `torch` module for
  logx.py's import; the on-policy buffers get their size-1 action/value/logp arrays
  reshaped to their slots in the driver, since numpy 2 refuses the implicit cast numpy 1
  did). vpg, ppo (CartPole and Pendulum) print TF's EpochLogger tables row for row
  (except LossPi of ~1e-7, a mean that is zero in exact arithmetic) and end with TF's
  variables to 2.4e-6 relative. trpo's tables are TF's and its variables within 3.3e-4
  relative: its gradient and Fisher-vector products equal TF's to 3e-7, and the float32
  conjugate gradient (5 iterations, residual shrinking 0.3 -> 4e-5) amplifies that
  rounding (the case below pins the symbols). ddpg, td3 and sac differ from TF as TF
  differs from itself run to run: ddpg/td3 run `train_pi_op` and `target_update` (which
  reads the main policy) in one session.run with no order between them, and sac's
  q_backup reads `main/pi` through `pi_next` while `train_pi_op` in the same run
  updates it in place; three seeded steps of each equal one of TF's outcomes to 6e-7,
  and over 2 epochs their logger tables stay TF's to the printed digits.
* GPflow 1.5.1 (TF1; multipledispatch and decorator from PyPI, stand-ins for Python 3.11 /
  numpy 2 removals: `collections.Mapping`, `np.float`, `np.string_`, pkg_resources): it
  failed at import, registering every `tf.train.*Optimizer` only if its `__base__` is
  `tf.train.Optimizer`, which tf1compat's SyncReplicasOptimizer (a subclass of its
  one-process form) was not; then every model failed in the kernels' square distance,
  `tf.matrix_transpose` of its data holders' unknown-rank tensors (variables with
  `validate_shape=False`), and in `tf.tensordot` of those (GPflow's Linear kernel and
  mean function, the square distance with X2). All three fixed; the cases pin them.
  Then its own tests, file by file under pytest (29 files, test_param to test_gplvm, 539
  tests; multioutput, method_equivalence, hmc and expectations not run for time) have
  TF's outcome test by test (test_likelihoods' two fixture errors and test_saver's 8
  failures, numpy 2 / h5py ones, occur under both), except one: test_saver encodes
  `tf.exp` by its `__name__` and module and looks it up again, and tf1compat's `tf.exp`
  is a generated wrapper named "Exp" (left as is). The other difference in pytest's
  report is TF's session helper `test_session`, which pytest
  collects on every tf.test.TestCase under TF (skipped by setUp, or a no-op pass where
  setUp skips super) and tf1compat marks not a test. A GPR with an RBF + Linear kernel
  under ScipyOptimizer (30 iterations), an SVGP with a Linear mean function under
  AdamOptimizer (3 x 20 steps) and a Bernoulli VGP print TF's log likelihoods and
  predictions to 1e-11 relative (float64).
* blei-lab/edward 1.3.5 (tag 1.3.5): its models import
  `tensorflow.python.client.session.register_session_run_conversion_functions` (to fetch
  and feed RandomVariables) and `tensorflow.python.util.all_util.remove_undocumented`;
  both provided now (cases below). It then stops at
  `tensorflow.python.framework.ops.set_shapes_for_outputs`: `ed.copy` rebuilds graph ops
  through TF's raw `tf.Operation(node_def, graph, inputs, ...)` constructor, which
  tf1compat does not offer; not compared with TF either (Edward needs
  `tf.contrib.distributions`, which the TF 2.21 oracle lacks).
"""

import sys
import types

import numpy as np

from tests.golden.cases_thirdparty_realcode_o import _internal
from tests.golden.harness import catch, tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


def case_train_optimizers_subclass_optimizer_directly(tf):
    """gpflow/training/tensorflow_optimizer.py: every `tf.train` name ending in
    "Optimizer" is registered only if its class's `__base__` is `tf.train.Optimizer`
    (ValueError at GPflow's import otherwise)."""
    out = {}
    for name in dir(tf.train):
        if name != "Optimizer" and name.endswith("Optimizer"):
            out[name] = getattr(tf.train, name).__base__ is tf.train.Optimizer
    return out


def case_matrix_transpose_of_unknown_rank(tf):
    """GPflow's kernels: `Xs + tf.matrix_transpose(Xs)` where X is a data holder, a
    variable made with `validate_shape=False`, so of unknown rank: TF builds the
    permutation at run time from Rank, Range and a concat."""
    x = tf.Variable(_seeded([5, 2], 1).astype(np.float64), validate_shape=False, name="X")
    xs = tf.reduce_sum(tf.square(x), axis=-1, keepdims=True)
    dist = -2 * tf.matmul(x, x, transpose_b=True)
    dist += xs + tf.matrix_transpose(xs)
    batched = tf.matrix_transpose(tf.Variable(np.arange(24.0).reshape(2, 3, 4),
                                              validate_shape=False))
    ops = [op.type for op in tf.get_default_graph().get_operations()
           if op.name.startswith("matrix_transpose/")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"shapes": [str(t.shape) for t in (xs, dist, batched)], "ops": ops,
                "dist": sess.run(dist), "batched": sess.run(batched)}


def case_tensordot_of_unknown_rank(tf):
    """GPflow's Linear kernel and square distance with X2 (`tf.tensordot(X, X2, [[-1],
    [-1]])`) and its Linear mean function (`tf.tensordot(X, A, [[-1], [0]])`) on data
    holders of unknown rank: TF's run-time transpose/reshape/MatMul form, int axes as a
    Range from the Rank, a fully-defined side reshaped statically."""
    rng = np.random.RandomState(2)
    x = tf.Variable(rng.randn(5, 3), validate_shape=False)
    x2 = tf.Variable(rng.randn(4, 3), validate_shape=False)
    a = tf.constant(rng.randn(3, 2))
    outs = [tf.tensordot(x, x2, [[-1], [-1]]), tf.tensordot(x, a, [[-1], [0]]),
            tf.tensordot(x, a, 1), tf.tensordot(a, x2, [[0], [1]])]
    ops = [op.type for op in tf.get_default_graph().get_operations()
           if op.name.startswith("Tensordot/")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"shapes": [str(t.shape) for t in outs], "ops": ops, "values": sess.run(outs)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_spinup_trpo_fisher_vector_product_and_flat_assign(tf):
    """spinup/algos/tf1/trpo/core.py: the categorical policy's KL to placeholder old log
    probs, `flat_grad` (concat of reshaped `tf.gradients`), the Hessian-vector product as
    the gradient of `reduce_sum(g * x)` with a placeholder x of g's static shape, plus
    damping, and `assign_params_from_flat` (split by `int(np.prod(p.shape.as_list()))`)."""
    x_ph = tf.placeholder(tf.float32, [None, 4])
    a_ph = tf.placeholder(tf.int32, [None])
    adv_ph = tf.placeholder(tf.float32, [None])
    logp_old_ph = tf.placeholder(tf.float32, [None])
    old_logp_all = tf.placeholder(tf.float32, [None, 2])
    with tf.variable_scope("pi"):
        h = tf.layers.dense(x_ph, 8, tf.tanh, kernel_initializer=tf.constant_initializer(
            _seeded([4, 8], 2)))
        logits = tf.layers.dense(h, 2, kernel_initializer=tf.constant_initializer(
            _seeded([8, 2], 3)))
    logp_all = tf.nn.log_softmax(logits)
    logp = tf.reduce_sum(tf.one_hot(a_ph, depth=2) * logp_all, axis=1)
    d_kl = tf.reduce_mean(tf.reduce_sum(tf.exp(old_logp_all) * (old_logp_all - logp_all), 1))
    pi_loss = -tf.reduce_mean(tf.exp(logp - logp_old_ph) * adv_ph)
    params = [v for v in tf.trainable_variables() if "pi" in v.name]

    def flat_concat(xs):
        return tf.concat([tf.reshape(t, (-1,)) for t in xs], axis=0)

    def flat_grad(f):
        return flat_concat(tf.gradients(xs=params, ys=f))

    gradient = flat_grad(pi_loss)
    g = flat_grad(d_kl)
    v_ph = tf.placeholder(tf.float32, shape=g.shape)
    hvp = flat_grad(tf.reduce_sum(g * v_ph)) + 0.1 * v_ph
    sizes = [int(np.prod(p.shape.as_list())) for p in params]
    new = [tf.reshape(t, p.shape) for p, t in zip(params, tf.split(v_ph, sizes))]
    set_params = tf.group([tf.assign(p, t) for p, t in zip(params, new)])
    rng = np.random.RandomState(4)
    xs = rng.randn(12, 4).astype(np.float32)
    acts = rng.randint(0, 2, 12)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        old = sess.run(logp_all, {x_ph: xs})
        feed = {x_ph: xs, a_ph: acts, adv_ph: rng.randn(12).astype(np.float32),
                logp_old_ph: old[np.arange(12), acts], old_logp_all: old}
        grad = sess.run(gradient, feed)
        vec = rng.randn(grad.size).astype(np.float32)
        out = {"g_shape": str(g.shape), "gradient": grad,
               "hvp": sess.run(hvp, {**feed, v_ph: vec})}
        sess.run(set_params, {v_ph: sess.run(flat_concat(params)) - 0.05 * grad})
        out["kl_after"] = sess.run([d_kl, pi_loss], feed)
        return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_spinup_mpi_adam_py_func_gradients_and_param_sync(tf):
    """spinup/utils/mpi_tf.py's MpiAdamOptimizer in one process: `compute_gradients`
    flattened, averaged through a `tf.py_func` writing a numpy buffer (`set_shape` of the
    flat gradient's static shape), split and reshaped back; `apply_gradients` grouped with
    a py_func "broadcast" of the flat parameters assigned back under a control
    dependency on the update."""
    class MpiAdam(tf.train.AdamOptimizer):
        def compute_gradients(self, loss, var_list, **kwargs):
            gvs = [(g, v) for g, v in super().compute_gradients(loss, var_list, **kwargs)
                   if g is not None]
            flat = tf.concat([tf.reshape(g, (-1,)) for g, _ in gvs], axis=0)
            sizes = [int(np.prod(v.shape.as_list())) for _, v in gvs]
            buf = np.zeros(flat.shape, np.float32)

            def collect(x):
                np.copyto(buf, x)
                np.divide(buf, 1.0, out=buf)
                return buf

            avg = tf.py_func(collect, [flat], tf.float32)
            avg.set_shape(flat.shape)
            return [(tf.reshape(g, v.shape), v)
                    for g, (_, v) in zip(tf.split(avg, sizes, axis=0), gvs)]

        def apply_gradients(self, grads_and_vars, global_step=None, name=None):
            opt = super().apply_gradients(grads_and_vars, global_step, name)
            params = [v for _, v in grads_and_vars]
            with tf.control_dependencies([opt]):
                flat = tf.concat([tf.reshape(p, (-1,)) for p in params], axis=0)
                synced = tf.py_func(lambda x: x, [flat], tf.float32)
                sizes = [int(np.prod(p.shape.as_list())) for p in params]
                sync = tf.group([tf.assign(p, tf.reshape(t, p.shape)) for p, t in
                                 zip(params, tf.split(synced, sizes))])
            return tf.group([opt, sync])

    x = tf.constant(_seeded([6, 3], 5))
    w = tf.Variable(_seeded([3, 2], 6), name="w")
    b = tf.Variable(np.zeros(2, np.float32), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
    train = MpiAdam(learning_rate=0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([loss, train])[0] for _ in range(3)]
        return {"losses": losses, "w": sess.run(w), "b": sess.run(b)}


def case_gpflow_gpr_likelihood_of_unknown_shape_holders(tf):
    """GPflow's GPR log marginal likelihood over data holders of unknown shape: an RBF
    kernel from the square distance above, `tf.eye(tf.shape(X)[0])` times a softplus-
    transformed noise variance, Cholesky, triangular solve, the multivariate normal
    log density, and its gradient with respect to the unconstrained parameters."""
    rng = np.random.RandomState(7)
    x = tf.Variable(rng.randn(6, 1), validate_shape=False, trainable=False, name="X")
    y = tf.Variable(rng.randn(6, 1), validate_shape=False, trainable=False, name="Y")
    raw_var = tf.Variable(0.3, dtype=tf.float64, name="variance")
    raw_len = tf.Variable(-0.2, dtype=tf.float64, name="lengthscales")
    raw_noise = tf.Variable(-1.0, dtype=tf.float64, name="noise")
    variance, lengthscale, noise = (tf.nn.softplus(v) + 1e-6
                                    for v in (raw_var, raw_len, raw_noise))
    xl = x / lengthscale
    xs = tf.reduce_sum(tf.square(xl), axis=-1, keepdims=True)
    dist = -2 * tf.matmul(xl, xl, transpose_b=True)
    dist += xs + tf.matrix_transpose(xs)
    k = variance * tf.exp(-tf.maximum(dist, 1e-40) / 2)
    k += tf.eye(tf.shape(x)[0], dtype=tf.float64) * noise
    chol = tf.cholesky(k)
    alpha = tf.matrix_triangular_solve(chol, y, lower=True)
    num_dims = tf.cast(tf.shape(y)[0], tf.float64)
    logp = (-0.5 * tf.reduce_sum(tf.square(alpha), 0) - 0.5 * num_dims * np.log(2 * np.pi)
            - tf.reduce_sum(tf.log(tf.matrix_diag_part(chol))))
    grads = tf.gradients(tf.reduce_sum(logp), [raw_var, raw_len, raw_noise])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"shapes": [str(t.shape) for t in (k, chol, alpha, logp)],
                "logp": sess.run(logp), "grads": sess.run(grads)}


def case_client_session_run_conversion_functions(tf):
    """Edward's RandomVariable: a Python class registered with
    `tensorflow.python.client.session.register_session_run_conversion_functions` (fetch:
    its value tensor, contracted back; feed: its value tensor) and as a tensor
    conversion, then fetched, fed and used in ops."""
    session = _internal(tf, "client.session")

    class Wrapped:
        def __init__(self, value):
            self._value = value

        def value(self):
            return self._value

    session.register_session_run_conversion_functions(
        Wrapped, lambda w: ([w.value()], lambda val: val[0]),
        lambda feed, feed_val: [(feed.value(), feed_val)],
        lambda feed: [feed.value()])
    tf.register_tensor_conversion_function(
        Wrapped, lambda v, dtype=None, name=None, as_ref=False: v.value())
    x = Wrapped(tf.placeholder_with_default(tf.constant([1.0, 2.0]), [2]))
    y = tf.reduce_sum(tf.convert_to_tensor(x) * 3.0)
    with tf.Session() as sess:
        return {"fetch": sess.run(x), "pair": sess.run([x, y]),
                "fed": sess.run(y, {x: np.array([5.0, 7.0], np.float32)})}


def case_all_util_remove_undocumented(tf):
    """`edward.models`' `remove_undocumented(__name__, allowed_exception_list=...)`: public
    names not referenced by a `@@name` docstring line and not allowed are deleted; names
    with "_" stay; `reveal_undocumented` restores one, LookupError for others."""
    all_util = _internal(tf, "util.all_util")
    name = "golden_all_util_module"
    module = types.ModuleType(name, "Doc.\n\n@@Normal\n@@missing\n  @@indented\n")
    for attr in ("Normal", "Bernoulli", "RandomVariable", "indented", "_private"):
        setattr(module, attr, attr.lower())
    sys.modules[name] = module
    try:
        made = sorted(all_util.make_all(name))
        all_util.remove_undocumented(name, allowed_exception_list=["RandomVariable"])
        after = sorted(n for n in dir(module) if not n.startswith("__"))
        all_util.reveal_undocumented(name + ".Bernoulli")
        return {"make_all": made, "after": after,
                "revealed": getattr(module, "Bernoulli", None),
                "unknown": catch(lambda: all_util.reveal_undocumented(name + ".Nope"),
                                 message=True)}
    finally:
        del sys.modules[name]
