"""tf.contrib.factorization.GMM (the contrib.learn Estimator) against EM restated in
numpy from the math of TF 1.15's gmm_ops.py (float64): fitted weights, means and
covariances, predictions and scores. The EM graph itself has goldens from TF 1.15's
gmm_ops.py: tests/golden/cases_contrib_factorization_gmm.py."""

from __future__ import annotations

import numpy as np

import tf1compat as tf

RS = np.random.RandomState(9)
POINTS = np.concatenate([RS.randn(15, 2) * 0.4 + [2, 0], RS.randn(15, 2) * 0.6 - [1, 2]])
POINTS = POINTS[RS.permutation(30)].astype(np.float32)
MEANS = np.array([[1.0, 0.5], [-0.5, -1.0]])
EPS = np.finfo(float).eps


def _log_probs(x, alpha, means, covs, diagonal):
    """log alpha_k + log N(x; mu_k, Sigma_k + 1e-3 I) (diagonal: Sigma_k + 1e-3)."""
    d = x.shape[1]
    out = np.zeros((len(x), len(alpha)))
    for k in range(len(alpha)):
        cov = np.diag(covs[k] + 1e-3) if diagonal else covs[k] + 1e-3 * np.eye(d)
        diff = x - means[k]
        maha = np.einsum("nd,de,ne->n", diff, np.linalg.inv(cov), diff)
        out[:, k] = -0.5 * (maha + d * np.log(2 * np.pi) + np.linalg.slogdet(cov)[1])
    return out + np.log(alpha)


def _em(x, means, steps, diagonal):
    x = x.astype(np.float64)
    k, d = len(means), x.shape[1]
    centred = x - x.mean(0)
    cov = centred.T @ centred / (len(x) - 1) + 1e-3 * np.eye(d)
    covs = np.array([np.diag(cov) if diagonal else cov] * k)
    alpha = np.full(k, 1.0 / k)
    for _ in range(steps):
        logp = _log_probs(x, alpha, means, covs, diagonal)
        w = np.exp(logp - np.logaddexp.reduce(logp, axis=1, keepdims=True))
        n_k = w.sum(0)
        alpha = n_k / (n_k.sum() + EPS)
        means = (w.T @ x) / (n_k[:, None] + EPS)
        second = np.einsum("nk,nd,ne->kde", w, x, x) / (n_k[:, None, None] + EPS)
        covs = second - np.einsum("kd,ke->kde", means, means) + 1e-3 * np.eye(d)
        if diagonal:
            covs = np.array([np.diag(c) for c in covs])
    return alpha, means, covs


def _input_fn():
    return tf.constant(POINTS), None


def _one_epoch():
    # Prediction reads until the input ends: the points once.
    return tf.train.limit_epochs(tf.constant(POINTS), num_epochs=1), None


def test_gmm_estimator_fits_as_numpy_em(tmp_path):
    for covariance_type in ("full", "diag"):
        gmm = tf.contrib.factorization.GMM(2, model_dir=str(tmp_path / covariance_type),
                                           initial_clusters=MEANS.astype(np.float32),
                                           covariance_type=covariance_type)
        gmm.fit(input_fn=_input_fn, steps=6)
        alpha, means, covs = _em(POINTS, MEANS, 6, covariance_type == "diag")
        np.testing.assert_allclose(gmm.weights(), alpha, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(gmm.clusters(), means, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(gmm.covariances(), covs, rtol=1e-3, atol=1e-5)
        logp = _log_probs(POINTS.astype(np.float64), alpha, means, covs,
                          covariance_type == "diag")
        assignments = np.array(list(gmm.predict_assignments(input_fn=_one_epoch)))
        np.testing.assert_array_equal(assignments, logp.argmax(1))
        results = gmm.evaluate(input_fn=_input_fn, steps=1)
        per_point = np.logaddexp.reduce(logp, axis=1)
        np.testing.assert_allclose(np.ravel(results["scores"]), per_point, rtol=1e-3,
                                   atol=1e-4)
        np.testing.assert_allclose(results["loss"], np.logaddexp.reduce(per_point),
                                   rtol=1e-3)
        assert results["global_step"] == 6
        np.testing.assert_allclose(gmm.score(input_fn=_input_fn, steps=1),
                                   np.logaddexp.reduce(per_point), rtol=1e-3)
