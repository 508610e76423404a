"""`tf.contrib.gan.losses`: the losses of `losses.wargs` taking a GAN model tuple
(TF 1.14's tuple_losses_impl.py). Each argument whose name is a field of the tuple is
read from it; the others come as keyword arguments. `combine_adversarial_loss`,
`cycle_consistency_loss` and the StarGAN wrappers take their pieces explicitly."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.losses import wargs

__all__ = ["acgan_discriminator_loss", "acgan_generator_loss",
           "least_squares_discriminator_loss", "least_squares_generator_loss",
           "modified_discriminator_loss", "modified_generator_loss",
           "minimax_discriminator_loss", "minimax_generator_loss",
           "wasserstein_discriminator_loss", "wasserstein_generator_loss",
           "wasserstein_gradient_penalty", "mutual_information_penalty",
           "combine_adversarial_loss", "cycle_consistency_loss",
           "stargan_generator_loss_wrapper", "stargan_discriminator_loss_wrapper",
           "stargan_gradient_penalty_wrapper", "wargs"]


def _from_model(loss_fn: Callable[..., Any]) -> Callable[..., Any]:
    """`loss_fn(gan_model, **kwargs)`: required arguments named like a field of the model
    come from it (others must be in kwargs); an argument with a default takes the model's
    field when that is not None, else the keyword, else the default. A keyword that
    names any field of the model is ambiguous (ValueError), as in TF."""
    params = inspect.signature(loss_fn).parameters.values()
    required = [p.name for p in params if p.default is p.empty]
    defaults = {p.name: p.default for p in params if p.default is not p.empty}

    def new_loss_fn(gan_model: Any, **kwargs: Any) -> Any:
        fields = dict(zip(gan_model._fields, gan_model))
        for name in required:
            if name not in fields and name not in kwargs:
                raise ValueError(f"`{name}` must be supplied to {loss_fn.__name__} loss "
                                 f"function.")
        ambiguous = set(fields) & set(kwargs)
        if ambiguous:
            raise ValueError(f"The following args are present in both the tuple and "
                             f"keyword args for {loss_fn.__name__}: {ambiguous}")
        for name in required:
            if name in fields:
                kwargs[name] = fields[name]
        for name, default in defaults.items():
            from_model = fields.get(name)
            from_kwargs = kwargs.get(name)
            kwargs[name] = (from_model if from_model is not None else
                            from_kwargs if from_kwargs is not None else default)
        return loss_fn(**kwargs)

    new_loss_fn.__name__ = loss_fn.__name__
    new_loss_fn.__doc__ = (f"`losses.wargs.{loss_fn.__name__}` with its arguments taken "
                           f"from a GAN model tuple where the tuple has them.")
    return new_loss_fn


wasserstein_generator_loss = _from_model(wargs.wasserstein_generator_loss)
wasserstein_discriminator_loss = _from_model(wargs.wasserstein_discriminator_loss)
wasserstein_gradient_penalty = _from_model(wargs.wasserstein_gradient_penalty)
acgan_discriminator_loss = _from_model(wargs.acgan_discriminator_loss)
acgan_generator_loss = _from_model(wargs.acgan_generator_loss)
minimax_discriminator_loss = _from_model(wargs.minimax_discriminator_loss)
minimax_generator_loss = _from_model(wargs.minimax_generator_loss)
modified_discriminator_loss = _from_model(wargs.modified_discriminator_loss)
modified_generator_loss = _from_model(wargs.modified_generator_loss)
least_squares_generator_loss = _from_model(wargs.least_squares_generator_loss)
least_squares_discriminator_loss = _from_model(wargs.least_squares_discriminator_loss)
mutual_information_penalty = _from_model(wargs.mutual_information_penalty)


def combine_adversarial_loss(gan_loss: Any, gan_model: Any, non_adversarial_loss: Any,
                             weight_factor: Any = None, gradient_ratio: Any = None,
                             gradient_ratio_epsilon: float = 1e-6,
                             scalar_summaries: bool = True,
                             gradient_summaries: bool = True) -> Any:
    """`gan_loss` with its generator loss replaced by `non_adversarial_loss` plus the
    weighted adversarial (generator) loss, gradients measured on the generator's
    variables."""
    combined = wargs.combine_adversarial_loss(
        non_adversarial_loss, gan_loss.generator_loss, weight_factor, gradient_ratio,
        gradient_ratio_epsilon, gan_model.generator_variables, scalar_summaries,
        gradient_summaries)
    return gan_loss._replace(generator_loss=combined)


def cycle_consistency_loss(cyclegan_model: Any, scope: Any = None,
                           add_summaries: bool = False) -> Any:
    """The cycle-consistency loss of a CycleGANModel's two round trips."""
    if not isinstance(cyclegan_model, namedtuples.CycleGANModel):
        raise ValueError("`cyclegan_model` must be a `CycleGANModel`. Instead, was "
                         f"{type(cyclegan_model)}.")
    return wargs.cycle_consistency_loss(
        cyclegan_model.model_x2y.generator_inputs, cyclegan_model.reconstructed_x,
        cyclegan_model.model_y2x.generator_inputs, cyclegan_model.reconstructed_y,
        scope, add_summaries)


def _named_like(new_fn: Callable[..., Any], loss_fn: Callable[..., Any],
                what: str) -> Callable[..., Any]:
    new_fn.__name__ = loss_fn.__name__
    new_fn.__doc__ = f"`{loss_fn.__name__}` applied to a StarGANModel's {what}."
    return new_fn


def stargan_generator_loss_wrapper(loss_fn: Callable[..., Any]) -> Callable[..., Any]:
    """A generator loss on explicit tensors turned into one on a StarGANModel (the
    discriminator's source prediction on generated data)."""
    def new_loss_fn(stargan_model: Any, **kwargs: Any) -> Any:
        return loss_fn(stargan_model.discriminator_generated_data_source_predication,
                       **kwargs)
    return _named_like(new_loss_fn, loss_fn, "source prediction on generated data")


def stargan_discriminator_loss_wrapper(loss_fn: Callable[..., Any]) -> Callable[..., Any]:
    """A discriminator loss on explicit tensors turned into one on a StarGANModel."""
    def new_loss_fn(stargan_model: Any, **kwargs: Any) -> Any:
        return loss_fn(stargan_model.discriminator_input_data_source_predication,
                       stargan_model.discriminator_generated_data_source_predication,
                       **kwargs)
    return _named_like(new_loss_fn, loss_fn, "source predictions")


def stargan_gradient_penalty_wrapper(loss_fn: Callable[..., Any]) -> Callable[..., Any]:
    """`wasserstein_gradient_penalty` on a StarGANModel: the discriminator gets the
    number of domains as its second argument."""
    def new_loss_fn(stargan_model: Any, **kwargs: Any) -> Any:
        num_domains = stargan_model.input_data_domain_label.shape.as_list()[-1]
        return loss_fn(real_data=stargan_model.input_data,
                       generated_data=stargan_model.generated_data,
                       generator_inputs=num_domains,
                       discriminator_fn=stargan_model.discriminator_fn,
                       discriminator_scope=stargan_model.discriminator_scope, **kwargs)
    return _named_like(new_loss_fn, loss_fn, "input and generated data")
