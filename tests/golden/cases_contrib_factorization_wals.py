"""Golden cases: `tf.contrib.factorization.WALSMatrixFactorization`, the Estimator over
WALSModel that alternates row and column sweeps (TF 1.15 wals.py). Recorded with TF 2.15
(the Estimator), running TF 1.15's wals.py and factorization_ops.py with the contrib.learn
Estimator stood in by tf.estimator.Estimator (scripts/oracle_contrib.py `tf115_wals`):

    PYTHONPATH=scripts /tmp/tf215/bin/python scripts/record_goldens.py \\
        cases_contrib_factorization_wals

A 5 x 4 matrix with some entries observed, fed whole as the row batch and (transposed)
as the column batch; the factors start from given values. Fitting runs whole sweeps (a
step updates every row, or every column); the factors after each fit, the evaluation's
loss keys and the projections are recorded."""

import itertools
import tempfile

import numpy as np

TF_VERSION = "2.15"

_OBSERVED = [(0, 0, 1.0), (0, 2, 0.5), (1, 1, 2.0), (2, 0, -1.0), (2, 3, 0.3),
             (3, 2, 1.5), (4, 1, -0.5), (4, 3, 0.8)]


def _wals(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.factorization.WALSMatrixFactorization
    import oracle_contrib
    return oracle_contrib.tf115_wals(tf).WALSMatrixFactorization


def _input_fn(tf, cls, project_row=True, rows=None):
    def input_fn():
        entries = [e for e in _OBSERVED if rows is None or e[0] in rows]
        indices = np.array([[r, c] for r, c, _ in entries], np.int64)
        values = np.array([v for _, _, v in entries], np.float32)
        order = np.lexsort((indices[:, 0], indices[:, 1]))
        features = {
            cls.INPUT_ROWS: tf.SparseTensor(indices, values, [5, 4]),
            cls.INPUT_COLS: tf.SparseTensor(indices[order][:, ::-1], values[order], [4, 5]),
            cls.PROJECT_ROW: tf.constant(project_row)}
        return features, None
    return input_fn


def _estimator(tf, **kwargs):
    cls = _wals(tf)
    rng = np.random.RandomState(0)
    defaults = dict(row_init=rng.randn(5, 2).astype(np.float32),
                    col_init=rng.randn(4, 2).astype(np.float32),
                    regularization_coeff=0.05, unobserved_weight=0.1)
    defaults.update(kwargs)
    config = tf.estimator.RunConfig(tf_random_seed=1, save_summary_steps=1000,
                                    log_step_count_steps=1000)
    return cls, cls(5, 4, 2, model_dir=tempfile.mkdtemp(), config=config, **defaults)


def case_fit_evaluate_predict(tf):
    cls, est = _estimator(tf)
    out = {}
    for steps in (1, 1, 2):
        est.fit(input_fn=_input_fn(tf, cls), steps=steps)
        out.setdefault("rows", []).append(est.get_row_factors())
        out.setdefault("cols", []).append(est.get_col_factors())
    out["names"] = sorted(n for n in est.get_variable_names() if "Adam" not in n)
    out["sweeps"] = est.get_variable_value(cls.COMPLETED_SWEEPS)
    out["loss_var"] = est.get_variable_value(cls.LOSS)
    out["rwse_var"] = est.get_variable_value(cls.RWSE)
    out["eval_rows"] = est.evaluate(input_fn=_input_fn(tf, cls), steps=1)
    out["eval_cols"] = est.evaluate(input_fn=_input_fn(tf, cls, project_row=False), steps=1)
    # The input_fn never runs out, so the projections are read for one batch.
    out["project_rows"] = list(itertools.islice(
        est.get_projections(_input_fn(tf, cls, rows=[1, 3])), 2))
    out["project_cols"] = list(itertools.islice(
        est.get_projections(_input_fn(tf, cls, project_row=False)), 4))
    return out


def case_max_sweeps_and_weights(tf):
    """max_sweeps stops the fit after that many sweeps; per-row/column weights, two row
    shards, no caches."""
    rows = np.random.RandomState(1).randn(5, 2).astype(np.float32)
    cls, est = _estimator(tf, max_sweeps=3, num_row_shards=2, row_init=[rows[:3], rows[3:]],
                          row_weights=[[1.0, 2.0, 0.5], [1.0, 1.5]],
                          col_weights=[0.5, 1.0, 1.0, 2.0],
                          use_factors_weights_cache_for_training=False,
                          use_gramian_cache_for_training=False)
    est.fit(input_fn=_input_fn(tf, cls), steps=10)
    return {"step": est.get_variable_value("global_step"),
            "sweeps": est.get_variable_value(cls.COMPLETED_SWEEPS),
            "rows": est.get_row_factors(), "cols": est.get_col_factors(),
            "eval": est.evaluate(input_fn=_input_fn(tf, cls), steps=1)}
