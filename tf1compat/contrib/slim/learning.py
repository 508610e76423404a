"""`tf.contrib.slim.learning`: building slim training ops (`create_train_op`) and the
gradient helpers it uses. `slim.learning.train` (a Supervisor-driven training loop) is
not provided.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from tf1compat.framework.graph import GraphKeys, control_dependencies, get_collection, \
    get_collection_ref, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.constant_op import constant
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.clip_ops import global_norm
from tf1compat.ops.reduction_ops import clip_by_norm
from tf1compat.ops.control_flow_ops import no_op, with_dependencies
from tf1compat.ops.numerics_ops import check_numerics as _check_numerics

__all__ = ["create_train_op", "clip_gradient_norms", "multiply_gradients",
           "add_gradients_summaries", "train"]

GradsAndVars = List[Tuple[Any, Any]]

# The default `global_step`: use (or create) the graph's global step.
_USE_GLOBAL_STEP = 0


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


def add_gradients_summaries(grads_and_vars: GradsAndVars) -> List[Tensor]:
    """A histogram and a norm summary per gradient."""
    from tf1compat.util import tf_logging as logging
    from tf1compat.summary import histogram, scalar
    summaries = []
    for grad, var in grads_and_vars:
        if grad is None:
            logging.info("Var %s has no gradient", var.op.name)
            continue
        values = grad.values if isinstance(grad, IndexedSlices) else grad
        summaries.append(histogram(var.op.name + "/gradient", values))
        summaries.append(scalar(var.op.name + "/gradient_norm", global_norm([values])))
    return summaries




def create_train_op(total_loss: Tensor, optimizer: Any, global_step: Any = _USE_GLOBAL_STEP,
                    update_ops: Optional[Sequence[Any]] = None,
                    variables_to_train: Optional[Sequence[Any]] = None,
                    clip_gradient_norm: float = 0, summarize_gradients: bool = False,
                    gate_gradients: int = 1, aggregation_method: Any = None,
                    colocate_gradients_with_ops: bool = False,
                    gradient_multipliers: Optional[Dict[Any, Any]] = None,
                    check_numerics: bool = True) -> Tensor:
    """A tensor that, when run, runs the update ops, applies one optimizer step and
    returns the loss (slim's train op, added to the TRAIN_OP collection)."""
    from tf1compat.util import tf_logging as logging
    from tf1compat.training.training_util import get_or_create_global_step
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
    if gradient_multipliers:
        with name_scope("multiply_grads"):
            grads = multiply_gradients(grads, gradient_multipliers)
    if clip_gradient_norm > 0:
        with name_scope("clip_grads"):
            grads = clip_gradient_norms(grads, clip_gradient_norm)
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


def train(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("tf.contrib.slim.learning.train (the Supervisor training loop) "
                              "is not provided by tf1compat; run the train op from "
                              "slim.learning.create_train_op in a tf.Session loop")
