"""Golden cases: tf.contrib.opt.ShampooOptimizer. TF 2.x has no contrib: the oracle is TF
1.15's shampoo.py and matrix_functions.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_absolute_package`).

Each case minimizes a small loss for a few steps and compares the variables, the slot
names, the slot variables' names and values and the variables' values after every step:
full (SVD and iterative-root) and diagonal preconditioners, momentum and decays, callable
hyper-parameters, svd/preconditioner intervals driven by a global step, and sparse
gradients on ref variables (densified, and the diagonal sparse path) and resource
variables (densified).

A vector's G is rank one per step, so with a small epsilon its powers amplify float32
rounding; the full-matrix cases use epsilon=0.1 to compare the update, not the rounding.
The diagonal sparse path on resource variables is left out: under TF 2.21 the oracle's
update of such a variable never runs (its scatter_add returns an unread variable that
the train op does not depend on), a mismatch between TF 1.15's code and TF 2.21."""

import numpy as np

from tests.golden.harness import catch, tolerance


def _shampoo(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.opt.ShampooOptimizer
    import oracle_contrib
    return oracle_contrib.tf115_absolute_package(
        "contrib.opt.python.training", ["matrix_functions", "shampoo"]).shampoo.ShampooOptimizer


def _values(shape, seed):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _train(tf, make_opt, shapes, steps=3, resource=False, sparse_ids=None, with_step=False):
    """Builds the variables, a loss over them and make_opt(global_step)'s train op, and
    runs `steps` steps; returns per-step values and the slots."""
    variables = []
    for k, shape in enumerate(shapes):
        init = _values(shape, k)
        variables.append(tf.get_variable(f"v{k}", initializer=init, use_resource=resource)
                         if resource else tf.Variable(init, name=f"v{k}"))
    loss = 0.0
    for k, v in enumerate(variables):
        if sparse_ids is not None and k == 0:
            rows = tf.gather(v, sparse_ids)
            loss += tf.reduce_sum(tf.sin(rows) * rows)
        else:
            target = _values(v.shape.as_list(), 10 + k)
            loss += tf.reduce_sum(tf.square(v - target) * (1.0 + tf.abs(target)))
    step = tf.train.get_or_create_global_step() if with_step else None
    opt = make_opt(step)
    train = opt.minimize(loss, global_step=step, var_list=variables)
    slots = [(name, opt.get_slot(v, name)) for v in variables for name in opt.get_slot_names()]
    slots = [(name, s) for name, s in slots if s is not None]
    out = {"slot_names": opt.get_slot_names(),
           "slot_vars": [[name, s.op.name, s.dtype.base_dtype.name, s.shape.as_list()]
                         for name, s in slots],
           "globals": sorted(v.op.name for v in tf.global_variables())}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["steps"] = []
        for _ in range(steps):
            sess.run(train)
            out["steps"].append(sess.run(variables))
        out["slots"] = sess.run([s for _, s in slots])
    return out


@tolerance(1e-4, 1e-5)
def case_shampoo_svd(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(learning_rate=0.1, epsilon=0.1), [[3, 4], [5]])


@tolerance(1e-4, 1e-5)
def case_shampoo_rank3_momentum_decay_callables(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(global_step=step, gbar_decay=0.9, gbar_weight=0.5,
                                       mat_gbar_decay=0.95,
                                       mat_gbar_weight=lambda t: 1.0 / t,
                                       learning_rate=lambda t: 0.2 / tf.sqrt(t), alpha=0.75),
                  [[2, 3, 4]], steps=4, with_step=True)


@tolerance(1e-4, 1e-5)
def case_shampoo_intervals_with_global_step(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(global_step=step, svd_interval=2,
                                       precond_update_interval=2, learning_rate=0.05,
                                       epsilon=0.1),
                  [[3, 2], [4]], steps=5, with_step=True)


@tolerance(1e-4, 1e-5)
def case_shampoo_diagonal_large_dimensions(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(max_matrix_size=3, learning_rate=0.1,
                                       mat_gbar_decay=0.9, gbar_decay=0.5),
                  [[5, 2], [2, 6, 3], [7]])


@tolerance(1e-3, 1e-4)
def case_shampoo_iterative_root(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(use_iterative_root=True, learning_rate=0.1,
                                       epsilon=0.1),
                  [[3, 3], [4]])


@tolerance(1e-4, 1e-5)
def case_shampoo_sparse_densified(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(learning_rate=0.1), [[6, 3]],
                  sparse_ids=np.array([0, 2, 2, 5], np.int32))


@tolerance(1e-4, 1e-5)
def case_shampoo_sparse_diagonal_rows(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(learning_rate=0.1, max_matrix_size=4), [[6, 3]],
                  sparse_ids=np.array([4, 1, 1], np.int32))


@tolerance(1e-4, 1e-5)
def case_shampoo_sparse_resource(tf):
    opt = _shampoo(tf)
    return _train(tf, lambda step: opt(learning_rate=0.1, epsilon=0.1), [[6, 3], [2]],
                  resource=True, sparse_ids=np.array([5, 0], np.int32))


def case_shampoo_sparse_diagonal_needs_unit_decay(tf):
    opt = _shampoo(tf)
    return catch(lambda: _train(tf, lambda step: opt(max_matrix_size=4, mat_gbar_decay=0.5),
                                [[6, 3]], sparse_ids=np.array([1], np.int32)))
