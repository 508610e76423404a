"""`tf.contrib.gan.estimator.GANEstimator` (TF 1.14's gan_estimator_impl.py): an
Estimator whose features are the generator's inputs and whose labels are the real
data. TRAIN builds gan_model + the two losses and trains with gan_train_ops (the
train op is the global-step increment; the network updates run in the hooks from
`get_hooks_fn`); EVAL reports the mean generator and discriminator losses (plus
`get_eval_metric_ops_fn`'s metrics); PREDICT runs only the generator."""

from __future__ import annotations

import enum
import functools
import inspect
from typing import Any, Callable, Optional

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.eval import summaries
from tf1compat.contrib.gan.train import _to_tensors, gan_model, gan_train_ops, \
    get_sequential_train_hooks
from tf1compat.estimator.canned.head_util import summary_key
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.framework.graph import name_scope
from tf1compat.metrics.metrics_impl import mean
from tf1compat.variables.collections import get_trainable_variables
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["GANEstimator", "SummaryType"]


class SummaryType(enum.IntEnum):
    """Which summaries GANEstimator adds to the model (`add_summaries`)."""
    NONE = 0
    VARIABLES = 1
    IMAGES = 2
    IMAGE_COMPARISON = 3


_SUMMARIES = {SummaryType.VARIABLES: summaries.add_gan_model_summaries,
              SummaryType.IMAGES: summaries.add_gan_model_image_summaries,
              SummaryType.IMAGE_COMPARISON: summaries.add_image_comparison_summaries}


def with_mode(fn: Callable[..., Any], mode: str) -> Callable[..., Any]:
    """`fn` given the mode when it has a `mode` parameter."""
    if "mode" in inspect.signature(fn).parameters:
        return functools.partial(fn, mode=mode)
    return fn


class GANEstimator(Estimator):
    """An Estimator for a generator/discriminator pair. `generator_fn(inputs[, mode])`,
    `discriminator_fn(data, generator_inputs[, mode])`, the losses are TFGAN tuple losses,
    the optimizers optimizers or functions returning one; `add_summaries` is a
    SummaryType or a list of them."""

    def __init__(self, model_dir: Optional[str] = None,
                 generator_fn: Optional[Callable[..., Any]] = None,
                 discriminator_fn: Optional[Callable[..., Any]] = None,
                 generator_loss_fn: Optional[Callable[..., Any]] = None,
                 discriminator_loss_fn: Optional[Callable[..., Any]] = None,
                 generator_optimizer: Any = None, discriminator_optimizer: Any = None,
                 get_hooks_fn: Optional[Callable[..., Any]] = None,
                 get_eval_metric_ops_fn: Optional[Callable[..., Any]] = None,
                 add_summaries: Any = None, use_loss_summaries: Optional[bool] = True,
                 config: Any = None, warm_start_from: Any = None,
                 is_chief: bool = True) -> None:
        if not callable(generator_loss_fn):
            raise ValueError("generator_loss_fn must be callable.")
        if not callable(discriminator_loss_fn):
            raise ValueError("discriminator_loss_fn must be callable.")
        check_arguments(use_loss_summaries, get_hooks_fn)

        def model_fn(features: Any, labels: Any, mode: str) -> EstimatorSpec:
            check_mode(mode)
            if mode == ModeKeys.PREDICT:
                if labels is not None:
                    raise ValueError("`labels` must be `None` when mode is `predict`. "
                                     f"Instead, found {labels}")
                model = _prediction_model(features, generator_fn)
                return EstimatorSpec(mode=mode, predictions=model.generated_data)
            model = _gan_model(generator_fn, discriminator_fn, labels, features,
                               add_summaries, mode)
            loss = namedtuples.GANLoss(
                generator_loss=generator_loss_fn(model, add_summaries=use_loss_summaries),
                discriminator_loss=discriminator_loss_fn(model,
                                                         add_summaries=use_loss_summaries))
            if mode == ModeKeys.EVAL:
                return eval_spec(model, loss, get_eval_metric_ops_fn)
            return train_spec(model, loss, generator_optimizer, discriminator_optimizer,
                              get_hooks_fn, is_chief=is_chief)

        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


def _gan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
               real_data: Any, generator_inputs: Any, add_summaries: Any,
               mode: str) -> namedtuples.GANModel:
    model = gan_model(with_mode(generator_fn, mode), with_mode(discriminator_fn, mode),
                      real_data, generator_inputs, generator_scope="Generator",
                      check_shapes=False)
    add_model_summaries(model, add_summaries, _SUMMARIES)
    return model


def add_model_summaries(model: Any, add_summaries: Any, table: dict) -> None:
    """The summaries `add_summaries` (a SummaryType or a list of them) names, from
    `table`, at the root name scope."""
    if add_summaries:
        kinds = add_summaries if isinstance(add_summaries, (tuple, list)) \
            else [add_summaries]
        with name_scope(None):
            for kind in kinds:
                table[kind](model)


def check_arguments(use_loss_summaries: Any, get_hooks_fn: Any) -> None:
    """TF's checks of the GAN estimators' common arguments."""
    if use_loss_summaries not in (True, False, None):
        raise ValueError("use_loss_summaries must be True, False or None.")
    if get_hooks_fn is not None and not callable(get_hooks_fn):
        raise TypeError("get_hooks_fn must be callable.")


def check_mode(mode: str) -> None:
    if mode not in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
        raise ValueError(f"Mode not recognized: {mode}")


def _prediction_model(generator_inputs: Any,
                      generator_fn: Callable[..., Any]) -> namedtuples.GANModel:
    generator_fn = with_mode(generator_fn, ModeKeys.PREDICT)
    with variable_scope("Generator") as gen_scope:
        generator_inputs = _to_tensors(generator_inputs)
        generated_data = generator_fn(generator_inputs)
    return namedtuples.GANModel(
        generator_inputs, generated_data, get_trainable_variables(gen_scope), gen_scope,
        generator_fn, real_data=None, discriminator_real_outputs=None,
        discriminator_gen_outputs=None, discriminator_variables=None,
        discriminator_scope=None, discriminator_fn=None)


def train_spec(model: Any, loss: namedtuples.GANLoss, generator_optimizer: Any,
               discriminator_optimizer: Any, get_hooks_fn: Optional[Callable[..., Any]],
               is_chief: bool = True) -> EstimatorSpec:
    """The TRAIN spec: gan_train_ops (optimizers, or functions returning them, called
    here), the global-step increment as the train op, the hooks of `get_hooks_fn`
    (default: sequential training hooks) and the sum of the two losses."""
    gen_opt = generator_optimizer() if callable(generator_optimizer) else generator_optimizer
    dis_opt = discriminator_optimizer() if callable(discriminator_optimizer) \
        else discriminator_optimizer
    train_ops = gan_train_ops(model, loss, gen_opt, dis_opt, is_chief=is_chief)
    hooks_fn = get_hooks_fn or get_sequential_train_hooks()
    return EstimatorSpec(loss=loss.generator_loss + loss.discriminator_loss,
                         mode=ModeKeys.TRAIN, train_op=train_ops.global_step_inc_op,
                         training_hooks=hooks_fn(train_ops))


def eval_spec(model: Any, loss: namedtuples.GANLoss,
              get_eval_metric_ops_fn: Optional[Callable[..., Any]],
              head_name: Optional[str] = None) -> EstimatorSpec:
    """The EVAL spec: the mean generator and discriminator losses (keys suffixed
    `/head_name` for a named GANHead) plus `get_eval_metric_ops_fn(model)`'s metrics; the
    predictions are the generated data."""
    with name_scope(None, "metrics", [loss.generator_loss, loss.discriminator_loss]):
        metrics = {summary_key(head_name, "generator_loss"): mean(loss.generator_loss),
                   summary_key(head_name, "discriminator_loss"):
                       mean(loss.discriminator_loss)}
        if get_eval_metric_ops_fn is not None:
            custom = get_eval_metric_ops_fn(model)
            if not isinstance(custom, dict):
                raise TypeError(f"get_eval_metric_ops_fn must return a dict, received: "
                                f"{custom}")
            metrics.update(custom)
    return EstimatorSpec(mode=ModeKeys.EVAL, predictions=model.generated_data,
                         loss=loss.generator_loss + loss.discriminator_loss,
                         eval_metric_ops=metrics)
