"""`tf.contrib.factorization.WALSMatrixFactorization` (TF 1.15 wals.py): a
`tf.contrib.learn.Estimator` over WALSModel that trains by alternating sweeps.

Features: `input_rows` (a SparseTensor of whole rows of the matrix), `input_cols` (whole
columns, transposed: row i of it is column i), `project_row` (a bool: which of the two
evaluation and prediction use) and optionally `projection_weights`. Training runs no
train op of its own: its hooks do the work. Before each step `_SweepHook` runs the
model's worker init once, switches between row and column sweeps when the last sweep
covered every item (`is_sweep_done`; the switch also clears `processed_rows` /
`processed_cols`), runs the new sweep's prep ops (gramian, cache init), and fetches the
sweep's train op: the factor update, `WALS_loss` (loss plus regularization) and
`WALS_RWSE` (sqrt(loss / sum of weights)), the processed items marked, `completed_sweeps`
counted. `_IncrementGlobalStepHook` adds one to the global step before each step, and
`max_sweeps` stops training once that many sweeps are done. Evaluation reports the loss
of one update of the chosen axis (not applied); prediction, under `projection`, the
factors the chosen input's rows project to.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.contrib.factorization.wals_model import WALSModel
from tf1compat.contrib.learn.estimator import Estimator, ModelFnOps
from tf1compat.framework import dtypes
from tf1compat.framework.graph import colocate_with, control_dependencies, get_default_graph
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import fill, ones_like
from tf1compat.ops.math_ops import cast, logical_not, sqrt
from tf1compat.ops.reduction_ops import reduce_all
from tf1compat.ops.state_ops import assign, assign_add, scatter_update
from tf1compat.summary.summary_ops import scalar as summary_scalar
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.training.training_util import get_global_step
from tf1compat.util import tf_logging as logging
from tf1compat.variables.variables import Variable

__all__ = ["WALSMatrixFactorization"]


class _SweepHook(SessionRunHook):
    """Runs the init, switch and prep ops between steps and fetches the current sweep's
    train op with each step."""

    def __init__(self, is_row_sweep: Any, is_sweep_done: Any, init_op: Any,
                 row_prep_ops: List[Any], col_prep_ops: List[Any], row_train_op: Any,
                 col_train_op: Any, switch_op: Any):
        self._is_row_sweep, self._is_sweep_done = is_row_sweep, is_sweep_done
        self._init_op, self._switch_op = init_op, switch_op
        self._prep_ops = {True: row_prep_ops, False: col_prep_ops}
        self._train_ops = {True: row_train_op, False: col_train_op}
        self._initialized = False

    def before_run(self, run_context: Any) -> SessionRunArgs:
        sess = run_context.session
        sweep_done = bool(sess.run(self._is_sweep_done))
        if not self._initialized:
            logging.info("SweepHook running init op.")
            sess.run(self._init_op)
        if sweep_done:
            logging.info("SweepHook starting the next sweep.")
            sess.run(self._switch_op)
        row_sweep = bool(sess.run(self._is_row_sweep))
        if sweep_done or not self._initialized:
            for op in self._prep_ops[row_sweep]:
                sess.run(op)
        self._initialized = True
        return SessionRunArgs(fetches=[self._train_ops[row_sweep]])


class _IncrementGlobalStepHook(SessionRunHook):
    """Adds one to the global step before each step (the train op is a no_op)."""

    def __init__(self) -> None:
        step = get_global_step()
        self._increment = assign_add(step, 1, name="global_step_incr").op if step is not None \
            else None

    def before_run(self, run_context: Any) -> None:
        if self._increment is not None:
            run_context.session.run(self._increment)


class _StopAtSweepHook(SessionRunHook):
    """Requests a stop once `completed_sweeps` reaches `last_sweep`."""

    def __init__(self, last_sweep: int):
        self._last_sweep = last_sweep
        self._completed: Any = None

    def begin(self) -> None:
        try:
            self._completed = get_default_graph().get_tensor_by_name(
                WALSMatrixFactorization.COMPLETED_SWEEPS + ":0")
        except KeyError:
            raise RuntimeError(WALSMatrixFactorization.COMPLETED_SWEEPS +
                               " counter should be created to use StopAtSweepHook.")

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._completed)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        if run_values.results >= self._last_sweep:
            run_context.request_stop()


def _state(value: Any, name: str) -> Variable:
    return Variable(value, trainable=False, name=name,
                    collections=[GraphKeys.GLOBAL_VARIABLES])


def _model(params: Dict[str, Any], training: bool) -> WALSModel:
    return WALSModel(
        params["num_rows"], params["num_cols"], params["embedding_dimension"],
        unobserved_weight=params["unobserved_weight"],
        regularization=params["regularization_coeff"], row_init=params["row_init"],
        col_init=params["col_init"], num_row_shards=params["num_row_shards"],
        num_col_shards=params["num_col_shards"], row_weights=params["row_weights"],
        col_weights=params["col_weights"],
        use_factors_weights_cache=params["use_factors_weights_cache_for_training"]
        and training,
        use_gramian_cache=params["use_gramian_cache_for_training"] and training)


def _train_ops(model: WALSModel, features: Dict[str, Any], params: Dict[str, Any]
               ) -> ModelFnOps:
    cls = WALSMatrixFactorization
    is_row_sweep = _state(True, "is_row_sweep")
    is_sweep_done = _state(False, "is_sweep_done")
    completed_sweeps = _state(0, cls.COMPLETED_SWEEPS)
    loss_var = _state(0.0, cls.LOSS)
    rwse_var = _state(0.0, cls.RWSE)
    summary_scalar("loss", loss_var)
    summary_scalar("root_weighted_squared_error", rwse_var)
    summary_scalar("completed_sweeps", completed_sweeps)

    def axis_ops(sp_input: Any, num_items: int, update: Any, axis: str) -> tuple:
        """(the op that marks every item unprocessed, the axis' train op)."""
        unprocessed = fill(dims=[num_items], value=False)
        with colocate_with(unprocessed):
            processed = _state(unprocessed, "processed_" + axis)
        _, update_op, loss, reg, sum_weights = update(sp_input)
        ids = sp_input.indices[:, 0]
        with control_dependencies([update_op, assign(loss_var, loss + reg),
                                   assign(rwse_var, sqrt(loss / sum_weights))]):
            with colocate_with(processed):
                mark = scatter_update(processed, ids,
                                      ones_like(ids, dtype=dtypes.bool),
                                      name=f"update_processed_{axis}_indices")
            with control_dependencies([mark]):
                done = reduce_all(processed)
                train_op = group(assign(is_sweep_done, done),
                                 assign_add(completed_sweeps, cast(done, dtypes.int32)),
                                 name=f"{axis}_sweep_train_op")
        return processed.initializer, train_op

    reset_rows, row_train_op = axis_ops(
        features[cls.INPUT_ROWS], params["num_rows"],
        lambda x: model.update_row_factors(sp_input=x, transpose_input=False), "rows")
    reset_cols, col_train_op = axis_ops(
        features[cls.INPUT_COLS], params["num_cols"],
        lambda x: model.update_col_factors(sp_input=x, transpose_input=True), "cols")
    switch_op = group(assign(is_row_sweep, logical_not(is_row_sweep)), reset_rows,
                      reset_cols, name="sweep_switch_op")
    hooks: List[SessionRunHook] = [
        _SweepHook(is_row_sweep, is_sweep_done, model.worker_init,
                   [model.row_update_prep_gramian_op, model.initialize_row_update_op],
                   [model.col_update_prep_gramian_op, model.initialize_col_update_op],
                   row_train_op, col_train_op, switch_op),
        _IncrementGlobalStepHook()]
    if params["max_sweeps"] is not None:
        hooks.append(_StopAtSweepHook(params["max_sweeps"]))
    return ModelFnOps(mode="train", predictions={}, loss=loss_var, eval_metric_ops={},
                      train_op=no_op(), training_hooks=hooks)


def _model_fn(features: Dict[str, Any], labels: Any, mode: str,
              params: Dict[str, Any]) -> ModelFnOps:
    assert labels is None
    cls = WALSMatrixFactorization
    model = _model(params, mode == "train")
    rows, cols = features[cls.INPUT_ROWS], features[cls.INPUT_COLS]
    if mode == "train":
        return _train_ops(model, features, params)
    if mode == "infer":
        weights = features.get(cls.PROJECTION_WEIGHTS)
        projection = cond(
            features[cls.PROJECT_ROW],
            lambda: model.project_row_factors(sp_input=rows, projection_weights=weights,
                                              transpose_input=False),
            lambda: model.project_col_factors(sp_input=cols, projection_weights=weights,
                                              transpose_input=True))
        return ModelFnOps(mode="infer", predictions={cls.PROJECTION_RESULT: projection},
                          loss=None, eval_metric_ops={}, train_op=no_op(), training_hooks=[])
    if mode == "eval":
        def axis_loss(update: Any, sp_input: Any) -> Any:
            _, _, loss, reg, _ = update(sp_input=sp_input, transpose_input=sp_input is cols)
            return loss + reg
        loss = cond(features[cls.PROJECT_ROW],
                    lambda: axis_loss(model.update_row_factors, rows),
                    lambda: axis_loss(model.update_col_factors, cols))
        return ModelFnOps(mode="eval", predictions={}, loss=loss, eval_metric_ops={},
                          train_op=no_op(), training_hooks=[])
    raise ValueError("mode=%s is not recognized." % str(mode))


class WALSMatrixFactorization(Estimator):
    """`tf.contrib.factorization.WALSMatrixFactorization(num_rows, num_cols,
    embedding_dimension, ...)`: matrix factorization by weighted alternating least squares
    as an Estimator (see the module docstring for its features and training)."""

    INPUT_ROWS = "input_rows"
    INPUT_COLS = "input_cols"
    PROJECT_ROW = "project_row"
    PROJECTION_WEIGHTS = "projection_weights"
    PROJECTION_RESULT = "projection"
    COMPLETED_SWEEPS = "completed_sweeps"
    LOSS = "WALS_loss"
    RWSE = "WALS_RWSE"

    def __init__(self, num_rows: int, num_cols: int, embedding_dimension: int,
                 unobserved_weight: float = 0.1, regularization_coeff: Optional[float] = None,
                 row_init: Any = "random", col_init: Any = "random", num_row_shards: int = 1,
                 num_col_shards: int = 1, row_weights: Any = 1, col_weights: Any = 1,
                 use_factors_weights_cache_for_training: bool = True,
                 use_gramian_cache_for_training: bool = True, max_sweeps: Optional[int] = None,
                 model_dir: Optional[str] = None, config: Any = None):
        params = {
            "num_rows": num_rows, "num_cols": num_cols,
            "embedding_dimension": embedding_dimension,
            "unobserved_weight": unobserved_weight,
            "regularization_coeff": regularization_coeff, "row_init": row_init,
            "col_init": col_init, "num_row_shards": num_row_shards,
            "num_col_shards": num_col_shards, "row_weights": row_weights,
            "col_weights": col_weights, "max_sweeps": max_sweeps,
            "use_factors_weights_cache_for_training": use_factors_weights_cache_for_training,
            "use_gramian_cache_for_training": use_gramian_cache_for_training}
        self._row_factors_names = ["row_factors_shard_%d" % i for i in range(num_row_shards)]
        self._col_factors_names = ["col_factors_shard_%d" % i for i in range(num_col_shards)]
        super().__init__(model_fn=_model_fn, params=params, model_dir=model_dir, config=config)
        if config is not None and getattr(config, "num_worker_replicas", 1) > 1:
            raise ValueError("WALSMatrixFactorization must be run on a single worker "
                             "replica.")

    def get_row_factors(self) -> List[Any]:
        """The row factors of the latest checkpoint, one array per shard."""
        return [self.get_variable_value(name) for name in self._row_factors_names]

    def get_col_factors(self) -> List[Any]:
        """The column factors of the latest checkpoint, one array per shard."""
        return [self.get_variable_value(name) for name in self._col_factors_names]

    def get_projections(self, input_fn: Any) -> Any:
        """A generator of the projections of `input_fn`'s rows (or columns)."""
        return (result[WALSMatrixFactorization.PROJECTION_RESULT]
                for result in self.predict(input_fn=input_fn))
