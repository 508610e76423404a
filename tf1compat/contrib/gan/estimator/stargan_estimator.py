"""`tf.contrib.gan.estimator.StarGANEstimator` (TF 1.14's stargan_estimator_impl.py): an
Estimator for a StarGAN, one generator conditioned on a target domain. TRAIN and EVAL read
the images as features and their one-hot domains as labels and build `stargan_model`;
`loss_fn(model)` returns the GANLoss (e.g. `tf.contrib.gan.stargan_loss`), trained and
evaluated as GANEstimator does. PREDICT reads features `(images, target domains)` (an
input_fn wrapped by `stargan_prediction_input_fn_wrapper`) and runs only the generator.

`SummaryType` is GANEstimator's: TF 1.14's estimator package exports StarGAN's, with the
same members; StarGAN adds the VARIABLES and IMAGES (`add_stargan_image_summaries`)
summaries, and IMAGE_COMPARISON raises KeyError as in TF."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.estimator.gan_estimator import (SummaryType, add_model_summaries,
                                                           check_arguments, check_mode,
                                                           eval_spec, train_spec, with_mode)
from tf1compat.contrib.gan.eval import summaries
from tf1compat.contrib.gan.train import _to_tensors, stargan_model
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.variables.collections import get_trainable_variables
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["StarGANEstimator", "SummaryType", "stargan_prediction_input_fn_wrapper"]

_SUMMARIES = {SummaryType.VARIABLES: summaries.add_gan_model_summaries,
              SummaryType.IMAGES: summaries.add_stargan_image_summaries}


class StarGANEstimator(Estimator):
    """An Estimator for a StarGAN: `generator_fn(images, target_domains[, mode])`,
    `discriminator_fn(images, num_domains[, mode])` returning (source logits, domain
    logits), `loss_fn(model)` a GANLoss; optimizers (or functions returning them) and hooks
    as GANEstimator's."""

    def __init__(self, model_dir: Optional[str] = None,
                 generator_fn: Optional[Callable[..., Any]] = None,
                 discriminator_fn: Optional[Callable[..., Any]] = None,
                 loss_fn: Optional[Callable[..., Any]] = None,
                 generator_optimizer: Any = None, discriminator_optimizer: Any = None,
                 get_hooks_fn: Optional[Callable[..., Any]] = None,
                 get_eval_metric_ops_fn: Optional[Callable[..., Any]] = None,
                 add_summaries: Any = None, use_loss_summaries: Optional[bool] = True,
                 config: Any = None) -> None:
        if not callable(loss_fn):
            raise ValueError("loss_fn must be callable.")
        check_arguments(use_loss_summaries, get_hooks_fn)

        def model_fn(features: Any, labels: Any, mode: str) -> EstimatorSpec:
            check_mode(mode)
            if mode == ModeKeys.PREDICT:
                model = _prediction_model(features[0], features[1], generator_fn)
                return EstimatorSpec(mode=mode, predictions=model.generated_data)
            model = _stargan_model(generator_fn, discriminator_fn, features, labels,
                                   add_summaries, mode)
            loss = loss_fn(model)
            if mode == ModeKeys.EVAL:
                return eval_spec(model, loss, get_eval_metric_ops_fn)
            return train_spec(model, loss, generator_optimizer, discriminator_optimizer,
                              get_hooks_fn)

        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config)


def _stargan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
                   images: Any, domains: Any, add_summaries: Any,
                   mode: str) -> namedtuples.StarGANModel:
    model = stargan_model(with_mode(generator_fn, mode), with_mode(discriminator_fn, mode),
                          images, domains, generator_scope="Generator")
    add_model_summaries(model, add_summaries, _SUMMARIES)
    return model


def _prediction_model(images: Any, targets: Any,
                      generator_fn: Callable[..., Any]) -> namedtuples.StarGANModel:
    generator_fn = with_mode(generator_fn, ModeKeys.PREDICT)
    with variable_scope("Generator") as gen_scope:
        images, targets = _to_tensors(images), _to_tensors(targets)
        generated = generator_fn(images, targets)
    return namedtuples.StarGANModel(
        input_data=images, input_data_domain_label=None, generated_data=generated,
        generated_data_domain_target=targets, reconstructed_data=None,
        discriminator_input_data_source_predication=None,
        discriminator_generated_data_source_predication=None,
        discriminator_input_data_domain_predication=None,
        discriminator_generated_data_domain_predication=None,
        generator_variables=get_trainable_variables(gen_scope),
        generator_scope="Generator", generator_fn=generator_fn,
        discriminator_variables=None, discriminator_scope=None, discriminator_fn=None)


def stargan_prediction_input_fn_wrapper(fn: Callable[[], Any]) -> Callable[[], Any]:
    """An input_fn for StarGANEstimator.predict: `fn()` returns (images, target domains),
    the features; the labels are None."""
    def input_fn() -> Any:
        return fn(), None
    return input_fn
