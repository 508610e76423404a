"""`tf.contrib.gan.estimator.GANHead` / `gan_head` (TF 1.14's head_impl.py): a canned-head
interface for a GAN whose "logits" are a `GANModel`. PREDICT returns the generated data
(with a `predict` export output), EVAL the summed losses and their means, TRAIN the
`train_op_fn` ops (TFGAN's gan_train_ops by default) with `get_hooks_fn`'s hooks and the
global-step increment as the train op. TF deprecated both in favour of GANEstimator and
logs that on construction."""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.estimator.gan_estimator import eval_spec
from tf1compat.contrib.gan.train import gan_train_ops, get_sequential_train_hooks
from tf1compat.estimator.canned.head import Head
from tf1compat.estimator.export.export_output import PredictOutput
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.framework.graph import name_scope
from tf1compat.util.deprecation import deprecated

__all__ = ["GANHead", "gan_head"]

_DEPRECATION = ("Please use tf.contrib.gan.GANEstimator without explicitly making a "
                "GANHead.")


class GANHead(Head):
    """`Head` for GAN training: `create_loss` gives a GANLoss, `create_estimator_spec` the
    spec of each mode from a GANModel passed as `logits`."""

    @deprecated(None, _DEPRECATION)
    def __init__(self, generator_loss_fn: Callable[..., Any],
                 discriminator_loss_fn: Callable[..., Any], generator_optimizer: Any,
                 discriminator_optimizer: Any, use_loss_summaries: Optional[bool] = True,
                 get_hooks_fn: Optional[Callable[..., Any]] = None,
                 get_eval_metric_ops_fn: Optional[Callable[..., Any]] = None,
                 name: Optional[str] = None) -> None:
        if not callable(generator_loss_fn):
            raise TypeError("generator_loss_fn must be callable.")
        if not callable(discriminator_loss_fn):
            raise TypeError("discriminator_loss_fn must be callable.")
        if use_loss_summaries not in (True, False, None):
            raise ValueError("use_loss_summaries must be True, False or None.")
        if get_hooks_fn is not None and not callable(get_hooks_fn):
            raise TypeError("get_hooks_fn must be callable.")
        if name is not None and not isinstance(name, str):
            raise TypeError("name must be string.")
        if use_loss_summaries in (True, False):
            generator_loss_fn = functools.partial(generator_loss_fn,
                                                  add_summaries=use_loss_summaries)
            discriminator_loss_fn = functools.partial(discriminator_loss_fn,
                                                      add_summaries=use_loss_summaries)
        super().__init__(name=name, weight_column=None, loss_reduction=None, loss_fn=None)
        self._generator_loss_fn = generator_loss_fn
        self._discriminator_loss_fn = discriminator_loss_fn
        self._generator_optimizer = generator_optimizer
        self._discriminator_optimizer = discriminator_optimizer
        self._get_hooks_fn = get_hooks_fn or get_sequential_train_hooks()
        self._get_eval_metric_ops_fn = get_eval_metric_ops_fn

    @property
    def logits_dimension(self) -> None:
        return None

    def create_loss(self, features: Any, mode: str, logits: Any,
                    labels: Any) -> namedtuples.GANLoss:
        """The GANLoss of the GANModel `logits` (`features` and `mode` unused, `labels`
        must be None)."""
        _validate_logits_and_labels(logits, labels)
        return namedtuples.GANLoss(generator_loss=self._generator_loss_fn(logits),
                                   discriminator_loss=self._discriminator_loss_fn(logits))

    def create_estimator_spec(self, features: Any, mode: str, logits: Any,
                              labels: Any = None,
                              train_op_fn: Optional[Callable[..., Any]] = gan_train_ops
                              ) -> EstimatorSpec:
        """The EstimatorSpec of `mode` for the GANModel `logits`; `features` and `labels`
        must be None; `train_op_fn(model, loss, generator_optimizer,
        discriminator_optimizer)` returns a GANTrainOps in TRAIN."""
        _validate_logits_and_labels(logits, labels)
        if features is not None:
            raise ValueError(f"`features` should be `None`. Instead, found: {features}")
        model = logits
        with name_scope("GANHead"):
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(
                    mode=ModeKeys.PREDICT, predictions=model.generated_data,
                    export_outputs={"predict": PredictOutput(model.generated_data)})
            if mode == ModeKeys.EVAL:
                loss = self.create_loss(None, mode, model, None)
                return eval_spec(model, loss, self._get_eval_metric_ops_fn,
                                 head_name=self._name)
            if mode == ModeKeys.TRAIN:
                if train_op_fn is None:
                    raise ValueError("train_op_fn can not be None.")
                loss = self.create_loss(None, mode, model, None)
                train_ops = train_op_fn(model, loss, self._generator_optimizer,
                                        self._discriminator_optimizer)
                return EstimatorSpec(loss=loss.generator_loss + loss.discriminator_loss,
                                     mode=ModeKeys.TRAIN,
                                     train_op=train_ops.global_step_inc_op,
                                     training_hooks=self._get_hooks_fn(train_ops))
            raise ValueError(f"Mode not recognized: {mode}")


@deprecated(None, _DEPRECATION)
def gan_head(generator_loss_fn: Callable[..., Any], discriminator_loss_fn: Callable[..., Any],
             generator_optimizer: Any, discriminator_optimizer: Any,
             use_loss_summaries: Optional[bool] = True,
             get_hooks_fn: Optional[Callable[..., Any]] = None,
             get_eval_metric_ops_fn: Optional[Callable[..., Any]] = None,
             name: Optional[str] = None) -> GANHead:
    """A `GANHead` (TF's default `get_hooks_fn` is the sequential 1:1 training hooks)."""
    return GANHead(generator_loss_fn=generator_loss_fn,
                   discriminator_loss_fn=discriminator_loss_fn,
                   generator_optimizer=generator_optimizer,
                   discriminator_optimizer=discriminator_optimizer,
                   use_loss_summaries=use_loss_summaries, get_hooks_fn=get_hooks_fn,
                   get_eval_metric_ops_fn=get_eval_metric_ops_fn, name=name)


def _validate_logits_and_labels(logits: Any, labels: Any) -> None:
    if labels is not None:
        raise ValueError("`GANHead`'s `create_estimator_spec` input `labels` must be "
                         f"`None`. Instead, found: {labels}")
    if not isinstance(logits, namedtuples.GANModel):
        # TF's message spells "instnace".
        raise ValueError("`GANHead`'s `create_estimator_spec` input `logits` must be an "
                         f"instnace of a `GANModel`. Instead, found: {logits}")
