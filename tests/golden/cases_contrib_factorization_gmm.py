"""Golden cases: `tf.contrib.factorization`'s Gaussian mixture graph (gmm, GmmAlgorithm):
EM iterations with full and diagonal covariances, given and randomly drawn initial means,
data in one or two shards, the `params` subsets, the initialization guard and the
variables made. TF 2.x has no contrib: the oracle is TF 1.15's gmm_ops.py (core TF ops
only) run under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py `tf115_gmm_ops`;
record with PYTHONPATH=scripts)."""

import numpy as np

from tests.golden.harness import catch, tolerance

RS = np.random.RandomState(17)
POINTS = np.concatenate([RS.randn(12, 3) * 0.5 + [2, 0, 0], RS.randn(12, 3) * 0.8 - [0, 2, 1],
                         RS.randn(12, 3) * 0.3 + [0, 1, 2]]).astype(np.float32)
POINTS = POINTS[RS.permutation(len(POINTS))]
MEANS = [[1.5, 0.5, 0.0], [0.0, -1.5, -1.0], [0.5, 0.5, 1.5]]


def gmm_ops_of(tf):
    """tf1compat's contrib/factorization gmm_ops, or TF 1.15's under the oracle."""
    if getattr(tf, "contrib", None) is not None:
        from tf1compat.contrib.factorization import gmm_ops
        return gmm_ops
    import oracle_contrib
    return oracle_contrib.tf115_gmm_ops(tf)


def _train(tf, outputs, steps):
    loss, scores, assignments, train, init, initialized = outputs
    history = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(initialized)
        sess.run(init)
        sess.run(init)                       # a second run leaves the values alone
        for _ in range(steps):
            history.append(sess.run(loss))
            sess.run(train)
        state = sess.run({v.op.name: v for v in tf.global_variables()})
        final = sess.run([loss, assignments])
        # With several shards TF's scores squeeze a dimension of the shard count: an error.
        final.append(catch(lambda: sess.run(scores)))
    return {"before": before, "history": history, "state": state, "final": final}


@tolerance(rtol=2e-4, atol=2e-5)
def case_full_covariance_given_means(tf):
    ops = gmm_ops_of(tf)
    outputs = ops.gmm(tf.constant(POINTS), MEANS, 3, random_seed=3)
    out = _train(tf, outputs, 5)
    out["kinds"] = [outputs[0].op.type, outputs[1].op.type, outputs[3].type, outputs[4].type]
    out["variables"] = sorted((v.op.name, v.dtype.name) for v in tf.global_variables())
    return out


@tolerance(rtol=2e-4, atol=2e-5)
def case_diag_covariance_random_init(tf):
    ops = gmm_ops_of(tf)
    outputs = ops.gmm(tf.constant(POINTS), "random", 3, random_seed=5,
                      covariance_type=ops.DIAG_COVARIANCE)
    return _train(tf, outputs, 4)


@tolerance(rtol=2e-4, atol=2e-5)
def case_two_shards_and_params(tf):
    ops = gmm_ops_of(tf)
    out = {}
    for params in ("wmc", "m", "mc"):
        with tf.Graph().as_default():
            shards = [tf.constant(POINTS[:18]), tf.constant(POINTS[18:])]
            outputs = ops.gmm(shards, MEANS, 3, random_seed=1, params=params)
            out[params] = _train(tf, outputs, 3)
    return out


@tolerance(rtol=2e-4, atol=2e-5)
def case_gmm_algorithm_accessors(tf):
    ops = gmm_ops_of(tf)
    data = [tf.constant(POINTS)]
    algo = ops.GmmAlgorithm(data, 3, initial_means=tf.constant(MEANS), params="wmc",
                            covariance_type=ops.DIAG_COVARIANCE, random_seed=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(algo.init_ops())
        sess.run(algo.training_ops())
        values = sess.run([algo.alphas(), algo.clusters(), algo.covariances(),
                           algo.assignments(), algo.scores(), algo.log_likelihood_op(),
                           algo.is_initialized()])
    return {"values": values, "names": [algo.CLUSTERS_WEIGHT, algo.CLUSTERS_VARIABLE,
                                        algo.CLUSTERS_COVS_VARIABLE],
            "bad": catch(lambda: ops.GmmAlgorithm(data, 2, covariance_type="spherical"),
                         message=True)}
