"""`tf.contrib.gan.estimator.get_latent_gan_estimator` (TF 1.14's
latent_gan_estimator_impl.py): an Estimator that trains only a new latent input
`new_var_z_input` of an already trained TFGAN generator/discriminator (e.g. image
inpainting: find the z whose generated image fits the known pixels). The GAN's variables
are warm-started from `ckpt_dir` (every variable but z and the optimizer's, which live
under `latent_gan_optimizer`), z is clipped to `params['input_clip']` after each update."""

from __future__ import annotations

import functools
from typing import Any, Callable

from tf1compat.contrib.gan.train import gan_model
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.estimator.warm_start_settings import WarmStartSettings
from tf1compat.autodiff.gradients import gradients
from tf1compat.ops.clip_ops import global_norm
from tf1compat.ops.reduction_ops import clip_by_value
from tf1compat.ops.random_ops import truncated_normal
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.training_util import get_or_create_global_step
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["get_latent_gan_estimator"]

INPUT_NAME = "new_var_z_input"
OPTIMIZER_NAME = "latent_gan_optimizer"


def _latent_gan_model_fn(generator_fn: Callable[..., Any],
                         discriminator_fn: Callable[..., Any],
                         loss_fn: Callable[..., Any],
                         optimizer: Callable[..., Any]) -> Callable[..., EstimatorSpec]:
    def model_fn(features: Any, labels: Any, mode: str, params: dict) -> EstimatorSpec:
        input_clip = params["input_clip"]
        z = get_variable(
            name=INPUT_NAME,
            initializer=truncated_normal([params["batch_size"]] + params["z_shape"]),
            constraint=lambda x: clip_by_value(x, -input_clip, input_clip))
        model = gan_model(generator_fn=functools.partial(generator_fn, mode=mode),
                          discriminator_fn=functools.partial(discriminator_fn, mode=mode),
                          real_data=labels, generator_inputs=z, check_shapes=False)
        loss = loss_fn(model, features, labels, params["add_summaries"])
        # The optimizer's slots get a scope of their own, which the warm start skips.
        with variable_scope(OPTIMIZER_NAME):
            opt = optimizer(learning_rate=params["learning_rate"], **params["opt_kwargs"])
            train_op = opt.minimize(loss=loss, global_step=get_or_create_global_step(),
                                    var_list=[z])
        if params["add_summaries"]:
            scalar("z_loss/z_grads", global_norm(gradients(loss, z)))
            scalar("z_loss/loss", loss)
        return EstimatorSpec(mode=mode, predictions=model.generated_data, loss=loss,
                             train_op=train_op)
    return model_fn


def get_latent_gan_estimator(generator_fn: Callable[..., Any],
                             discriminator_fn: Callable[..., Any],
                             loss_fn: Callable[..., Any], optimizer: Callable[..., Any],
                             params: dict, config: Any, ckpt_dir: str,
                             warmstart_options: Any = True) -> Estimator:
    """An Estimator training a latent input z of a trained GAN.

    `generator_fn(net, mode)` / `discriminator_fn(net, condition, mode)` rebuild the GAN,
    `loss_fn(gan_model, features, labels, add_summaries)` gives z's loss, `optimizer(
    learning_rate=..., **opt_kwargs)` returns a tf.train optimizer. `params` needs
    batch_size, z_shape (without the batch), learning_rate, input_clip, add_summaries
    (opt_kwargs defaults to {}, set in `params` as TF does). `warmstart_options`: True
    (warm-start every GAN variable from `ckpt_dir`), a WarmStartSettings, or False/None.
    """
    model_fn = _latent_gan_model_fn(generator_fn, discriminator_fn, loss_fn, optimizer)
    if isinstance(warmstart_options, WarmStartSettings):
        warm_start = warmstart_options
    elif warmstart_options:
        warm_start = WarmStartSettings(
            ckpt_to_initialize_from=ckpt_dir,
            vars_to_warm_start=f"^(?!.*({INPUT_NAME}|{OPTIMIZER_NAME}).*)")
    else:
        warm_start = None
    params.setdefault("opt_kwargs", {})
    return Estimator(model_fn=model_fn, config=config, params=params,
                     warm_start_from=warm_start)
