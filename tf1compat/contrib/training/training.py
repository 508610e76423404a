"""`tf.contrib.training`'s training loop (TF 1.15 contrib/training/python/training/
training.py): `create_train_op` builds a tensor that applies one optimizer step and returns
the loss, `train` runs it in a MonitoredTrainingSession until a hook says stop:

    train_op = tf.contrib.training.create_train_op(
        loss, optimizer, transform_grads_fn=tf.contrib.training.clip_gradient_norms_fn(4.0))
    tf.contrib.training.train(train_op, logdir,
                              hooks=[tf.train.StopAtStepHook(num_steps=1000)])

slim's `create_train_op` (contrib/slim/learning.py) is this one with its multiplier and
clipping options given as a `transform_grads_fn`, as in TF.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import GraphKeys, control_dependencies, get_collection, \
    get_collection_ref, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.clip_ops import global_norm
from tf1compat.ops.control_flow_ops import no_op, with_dependencies
from tf1compat.ops.numerics_ops import check_numerics as _check_numerics
from tf1compat.ops.reduction_ops import clip_by_norm

__all__ = ["add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
           "create_train_op", "multiply_gradients", "train"]

GradsAndVars = List[Tuple[Any, Any]]

# The default `global_step`: use (or create) the graph's global step.
_USE_GLOBAL_STEP = 0


def gradient_summaries(grads_and_vars: GradsAndVars, separator: str) -> List[Tensor]:
    """A histogram `<var><separator>gradient` and a scalar `<var><separator>gradient_norm`
    per gradient (contrib.training joins with "_", slim with "/")."""
    from tf1compat.summary import histogram, scalar
    from tf1compat.util import tf_logging as logging
    summaries = []
    for grad, var in grads_and_vars:
        if grad is None:
            logging.info("Var %s has no gradient", var.op.name)
            continue
        values = grad.values if isinstance(grad, IndexedSlices) else grad
        summaries.append(histogram(f"{var.op.name}{separator}gradient", values))
        summaries.append(scalar(f"{var.op.name}{separator}gradient_norm",
                                global_norm([values])))
    return summaries


def add_gradients_summaries(grads_and_vars: GradsAndVars) -> List[Tensor]:
    """A histogram `<var>_gradient` and a scalar `<var>_gradient_norm` per gradient
    (variables without a gradient are logged and skipped)."""
    return gradient_summaries(grads_and_vars, "_")


def clip_gradient_norms(gradients_to_variables: GradsAndVars, max_norm: float
                        ) -> GradsAndVars:
    """Clips each gradient to `max_norm` (IndexedSlices keep their indices)."""
    clipped = []
    for grad, var in gradients_to_variables:
        if grad is not None:
            if isinstance(grad, IndexedSlices):
                grad = IndexedSlices(clip_by_norm(grad.values, max_norm), grad.indices,
                                     grad.dense_shape)
            else:
                grad = clip_by_norm(grad, max_norm)
        clipped.append((grad, var))
    return clipped


def clip_gradient_norms_fn(max_norm: float) -> Callable[[GradsAndVars], GradsAndVars]:
    """A `transform_grads_fn` for `create_train_op` that clips each gradient's norm."""
    def clip_norms(gradients_to_variables: GradsAndVars) -> GradsAndVars:
        return clip_gradient_norms(gradients_to_variables, max_norm)
    return clip_norms


def multiply_gradients(grads_and_vars: GradsAndVars, gradient_multipliers: Dict[Any, Any]
                       ) -> GradsAndVars:
    """Scales the gradients of the variables (or variable op names) in the dict."""
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty.")
    if not isinstance(gradient_multipliers, dict):
        raise ValueError("`gradient_multipliers` must be a dict.")
    out = []
    for grad, var in grads_and_vars:
        if var in gradient_multipliers or var.op.name in gradient_multipliers:
            key = var if var in gradient_multipliers else var.op.name
            if grad is None:
                raise ValueError("Requested multiple of `None` gradient.")
            multiplier = gradient_multipliers[key]
            if not isinstance(multiplier, Tensor):
                multiplier = constant(multiplier, dtype=grad.dtype)
            if isinstance(grad, IndexedSlices):
                grad = IndexedSlices(grad.values * multiplier, grad.indices, grad.dense_shape)
            else:
                grad *= multiplier
        out.append((grad, var))
    return out


def create_train_op(total_loss: Tensor, optimizer: Any, global_step: Any = _USE_GLOBAL_STEP,
                    update_ops: Optional[Sequence[Any]] = None,
                    variables_to_train: Optional[Sequence[Any]] = None,
                    transform_grads_fn: Optional[Callable[[GradsAndVars], GradsAndVars]]
                    = None,
                    summarize_gradients: bool = False, gate_gradients: int = 1,
                    aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                    check_numerics: bool = True) -> Tensor:
    """A tensor that, when run, runs the update ops (default: the UPDATE_OPS collection),
    applies one optimizer step to `variables_to_train` (default: all trainable ones) with
    the gradients `transform_grads_fn` returns, and returns the loss; it is added to the
    TRAIN_OP collection."""
    from tf1compat.training.training_util import get_or_create_global_step
    from tf1compat.util import tf_logging as logging
    from tf1compat.variables.collections import trainable_variables
    if global_step is _USE_GLOBAL_STEP:
        global_step = get_or_create_global_step()
    global_update_ops = set(get_collection(GraphKeys.UPDATE_OPS))
    update_ops = global_update_ops if update_ops is None else set(update_ops)
    if not global_update_ops.issubset(update_ops):
        logging.warning("update_ops in create_train_op does not contain all the update_ops "
                        "in GraphKeys.UPDATE_OPS")
    if update_ops:
        with control_dependencies(update_ops):
            barrier = no_op(name="update_barrier")
        total_loss = with_dependencies([barrier], total_loss)
    if variables_to_train is None:
        variables_to_train = trainable_variables()
    else:
        for v in variables_to_train:
            assert v.trainable or v in trainable_variables()
    assert variables_to_train
    grads = optimizer.compute_gradients(total_loss, variables_to_train,
                                        gate_gradients=gate_gradients,
                                        aggregation_method=aggregation_method,
                                        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if transform_grads_fn:
        grads = transform_grads_fn(grads)
    if summarize_gradients:
        with name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    with name_scope("train_op"):
        if check_numerics:
            total_loss = _check_numerics(total_loss, "LossTensor is inf or nan")
        train_op = with_dependencies([grad_updates], total_loss)
    train_ops = get_collection_ref(GraphKeys.TRAIN_OP)
    if train_op not in train_ops:
        train_ops.append(train_op)
    return train_op


def train(train_op: Any, logdir: Optional[str], master: str = "", is_chief: bool = True,
          scaffold: Any = None, hooks: Optional[Sequence[Any]] = None,
          chief_only_hooks: Optional[Sequence[Any]] = None,
          save_checkpoint_secs: Optional[int] = 600,
          save_summaries_steps: Optional[int] = 100, config: Any = None,
          max_wait_secs: int = 7200, run_metadata: Any = None) -> Any:
    """Runs `train_op` in a MonitoredTrainingSession on `logdir` until `should_stop()`
    (a hook such as StopAtStepHook, or the input's end); returns the last loss."""
    from tf1compat.training.sessions.monitored_session import MonitoredTrainingSession
    if logdir is None and is_chief:
        if save_summaries_steps:
            raise ValueError("logdir cannot be None when save_summaries_steps is not None")
        if save_checkpoint_secs:
            raise ValueError("logdir cannot be None when save_checkpoint_secs is not None")
    with MonitoredTrainingSession(master=master, is_chief=is_chief, checkpoint_dir=logdir,
                                  scaffold=scaffold, hooks=hooks,
                                  chief_only_hooks=chief_only_hooks,
                                  save_checkpoint_secs=save_checkpoint_secs,
                                  save_summaries_steps=save_summaries_steps, config=config,
                                  max_wait_secs=max_wait_secs) as session:
        loss = None
        while not session.should_stop():
            loss = session.run(train_op, run_metadata=run_metadata)
    return loss
