"""`tf.contrib.gan.losses.wargs`: the GAN losses on explicit tensors (TF 1.14's
contrib/gan/python/losses/python/losses_impl.py). Each loss reduces with
`tf.losses.compute_weighted_loss` (default SUM_BY_NONZERO_WEIGHTS) inside its own name
scope and adds the total to `loss_collection`; two-part discriminator losses reduce each
part without collecting it and add only their sum."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from tf1compat.autodiff.gradients import gradients
from tf1compat.framework import dtypes
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.losses.losses_impl import Reduction, absolute_difference, \
    compute_weighted_loss, sigmoid_cross_entropy, softmax_cross_entropy
from tf1compat.losses.util import add_loss
from tf1compat.ops.array_ops import shape, stop_gradient
from tf1compat.ops.clip_ops import global_norm
from tf1compat.ops.creation_ops import ones_like, zeros_like
from tf1compat.ops.math_ops import abs as tf_abs, cast, maximum, sqrt, square, \
    squared_difference
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_max, reduce_mean, reduce_sum
from tf1compat.summary.summary_ops import scalar
from tf1compat.variables.collections import get_trainable_variables
from tf1compat.variables.variable_scope import variable_scope
from tf1compat.variables.variable_store import AUTO_REUSE

__all__ = ["acgan_discriminator_loss", "acgan_generator_loss",
           "least_squares_discriminator_loss", "least_squares_generator_loss",
           "modified_discriminator_loss", "modified_generator_loss",
           "minimax_discriminator_loss", "minimax_generator_loss",
           "wasserstein_discriminator_loss", "wasserstein_generator_loss",
           "wasserstein_gradient_penalty", "mutual_information_penalty",
           "combine_adversarial_loss", "cycle_consistency_loss"]

_LOSSES = GraphKeys.LOSSES
_NONZERO = Reduction.SUM_BY_NONZERO_WEIGHTS


def _float(t: Any) -> Any:
    return cast(t, dtypes.float32)


def _summaries(add: bool, **values: Any) -> None:
    if add:
        for tag, value in values.items():
            scalar(tag, value)


def wasserstein_generator_loss(discriminator_gen_outputs: Any, weights: Any = 1.0,
                               scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                               reduction: str = _NONZERO, add_summaries: bool = False) -> Any:
    """Minus the discriminator's mean score on generated data (WGAN's generator loss)."""
    with name_scope(scope, "generator_wasserstein_loss",
                    (discriminator_gen_outputs, weights)) as scope:
        loss = -_float(discriminator_gen_outputs)
        loss = compute_weighted_loss(loss, weights, scope, loss_collection, reduction)
        _summaries(add_summaries, generator_wass_loss=loss)
    return loss


def wasserstein_discriminator_loss(discriminator_real_outputs: Any,
                                   discriminator_gen_outputs: Any, real_weights: Any = 1.0,
                                   generated_weights: Any = 1.0, scope: Optional[str] = None,
                                   loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                                   add_summaries: bool = False) -> Any:
    """The critic's score on generated data minus its score on real data."""
    with name_scope(scope, "discriminator_wasserstein_loss",
                    (discriminator_real_outputs, discriminator_gen_outputs, real_weights,
                     generated_weights)) as scope:
        real = _float(discriminator_real_outputs)
        gen = _float(discriminator_gen_outputs)
        real.shape.assert_is_compatible_with(gen.shape)
        on_gen = compute_weighted_loss(gen, generated_weights, scope, loss_collection=None,
                                       reduction=reduction)
        on_real = compute_weighted_loss(real, real_weights, scope, loss_collection=None,
                                        reduction=reduction)
        loss = on_gen - on_real
        add_loss(loss, loss_collection)
        _summaries(add_summaries, discriminator_gen_wass_loss=on_gen,
                   discriminator_real_wass_loss=on_real, discriminator_wass_loss=loss)
    return loss


def acgan_discriminator_loss(discriminator_real_classification_logits: Any,
                             discriminator_gen_classification_logits: Any,
                             one_hot_labels: Any, label_smoothing: float = 0.0,
                             real_weights: Any = 1.0, generated_weights: Any = 1.0,
                             scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                             reduction: str = _NONZERO, add_summaries: bool = False) -> Any:
    """Softmax cross-entropy of the class logits on generated plus real data (label
    smoothing applies to the real part only)."""
    with name_scope(scope, "acgan_discriminator_loss",
                    (discriminator_real_classification_logits,
                     discriminator_gen_classification_logits, one_hot_labels)) as scope:
        on_gen = softmax_cross_entropy(one_hot_labels,
                                       discriminator_gen_classification_logits,
                                       weights=generated_weights, scope=scope,
                                       loss_collection=None, reduction=reduction)
        on_real = softmax_cross_entropy(one_hot_labels,
                                        discriminator_real_classification_logits,
                                        weights=real_weights, label_smoothing=label_smoothing,
                                        scope=scope, loss_collection=None,
                                        reduction=reduction)
        loss = on_gen + on_real
        add_loss(loss, loss_collection)
        _summaries(add_summaries, discriminator_gen_ac_loss=on_gen,
                   discriminator_real_ac_loss=on_real, discriminator_ac_loss=loss)
    return loss


def acgan_generator_loss(discriminator_gen_classification_logits: Any, one_hot_labels: Any,
                         weights: Any = 1.0, scope: Optional[str] = None,
                         loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                         add_summaries: bool = False) -> Any:
    """Softmax cross-entropy of the class logits on generated data."""
    with name_scope(scope, "acgan_generator_loss",
                    (discriminator_gen_classification_logits, one_hot_labels)) as scope:
        loss = softmax_cross_entropy(one_hot_labels, discriminator_gen_classification_logits,
                                     weights=weights, scope=scope,
                                     loss_collection=loss_collection, reduction=reduction)
        _summaries(add_summaries, generator_ac_loss=loss)
    return loss


def wasserstein_gradient_penalty(real_data: Any, generated_data: Any, generator_inputs: Any,
                                 discriminator_fn: Any, discriminator_scope: Any,
                                 epsilon: float = 1e-10, target: float = 1.0,
                                 one_sided: bool = False, weights: Any = 1.0,
                                 scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                                 reduction: str = _NONZERO,
                                 add_summaries: bool = False) -> Any:
    """WGAN-GP: (|grad D(x_hat)| / target - 1)^2 at random points x_hat between real and
    generated examples (one uniform draw per example); `one_sided` only penalizes
    norms above the target. The discriminator is called again in its own scope (reused)."""
    with name_scope(scope, "wasserstein_gradient_penalty",
                    (real_data, generated_data)) as scope:
        real_data = convert_to_tensor(real_data)
        generated_data = convert_to_tensor(generated_data)
        if real_data.shape.ndims is None:
            raise ValueError("`real_data` can't have unknown rank.")
        if generated_data.shape.ndims is None:
            raise ValueError("`generated_data` can't have unknown rank.")
        differences = generated_data - real_data
        batch_size = differences.shape.dims[0].value or shape(differences)[0]
        alpha = random_uniform([batch_size] + [1] * (differences.shape.ndims - 1))
        interpolates = real_data + alpha * differences
        # The discriminator's update ops must land in its own scope, not this one.
        with name_scope(None):
            with variable_scope(discriminator_scope, "gpenalty_dscope", reuse=AUTO_REUSE):
                disc_interpolates = discriminator_fn(interpolates, generator_inputs)
        if isinstance(disc_interpolates, tuple):
            disc_interpolates = disc_interpolates[0]
        grads = gradients(disc_interpolates, interpolates)[0]
        squares = reduce_sum(square(grads), axis=list(range(1, grads.shape.ndims)))
        if isinstance(batch_size, int):
            squares.set_shape([batch_size] + squares.shape.as_list()[1:])
        penalties = sqrt(squares + epsilon) / target - 1.0
        if one_sided:
            penalties = maximum(0., penalties)
        penalty = compute_weighted_loss(square(penalties), weights, scope=scope,
                                        loss_collection=loss_collection, reduction=reduction)
        _summaries(add_summaries, gradient_penalty_loss=penalty)
        return penalty


def minimax_discriminator_loss(discriminator_real_outputs: Any,
                               discriminator_gen_outputs: Any, label_smoothing: float = 0.25,
                               real_weights: Any = 1.0, generated_weights: Any = 1.0,
                               scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                               reduction: str = _NONZERO, add_summaries: bool = False) -> Any:
    """Sigmoid cross-entropy of real logits against 1 (smoothed) plus generated logits
    against 0."""
    with name_scope(scope, "discriminator_minimax_loss",
                    (discriminator_real_outputs, discriminator_gen_outputs, real_weights,
                     generated_weights, label_smoothing)) as scope:
        on_real = sigmoid_cross_entropy(ones_like(discriminator_real_outputs),
                                        discriminator_real_outputs, real_weights,
                                        label_smoothing, scope, loss_collection=None,
                                        reduction=reduction)
        on_gen = sigmoid_cross_entropy(zeros_like(discriminator_gen_outputs),
                                       discriminator_gen_outputs, generated_weights,
                                       scope=scope, loss_collection=None, reduction=reduction)
        loss = on_real + on_gen
        add_loss(loss, loss_collection)
        _summaries(add_summaries, discriminator_gen_minimax_loss=on_gen,
                   discriminator_real_minimax_loss=on_real, discriminator_minimax_loss=loss)
    return loss


def minimax_generator_loss(discriminator_gen_outputs: Any, label_smoothing: float = 0.0,
                           weights: Any = 1.0, scope: Optional[str] = None,
                           loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                           add_summaries: bool = False) -> Any:
    """The original GAN's generator loss: minus the discriminator's minimax loss with the
    generated logits on both sides (real side labelled 1, generated side 0)."""
    with name_scope(scope, "generator_minimax_loss") as scope:
        loss = -minimax_discriminator_loss(ones_like(discriminator_gen_outputs),
                                           discriminator_gen_outputs, label_smoothing,
                                           weights, weights, scope, loss_collection,
                                           reduction, add_summaries=False)
    _summaries(add_summaries, generator_minimax_loss=loss)
    return loss


def modified_discriminator_loss(discriminator_real_outputs: Any,
                                discriminator_gen_outputs: Any, label_smoothing: float = 0.25,
                                real_weights: Any = 1.0, generated_weights: Any = 1.0,
                                scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                                reduction: str = _NONZERO, add_summaries: bool = False) -> Any:
    """The minimax discriminator loss under the scope 'discriminator_modified_loss'."""
    return minimax_discriminator_loss(discriminator_real_outputs, discriminator_gen_outputs,
                                      label_smoothing, real_weights, generated_weights,
                                      scope or "discriminator_modified_loss",
                                      loss_collection, reduction, add_summaries)


def modified_generator_loss(discriminator_gen_outputs: Any, label_smoothing: float = 0.0,
                            weights: Any = 1.0, scope: Optional[str] = None,
                            loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                            add_summaries: bool = False) -> Any:
    """The non-saturating generator loss: sigmoid cross-entropy of generated logits
    against 1."""
    with name_scope(scope, "generator_modified_loss", [discriminator_gen_outputs]) as scope:
        loss = sigmoid_cross_entropy(ones_like(discriminator_gen_outputs),
                                     discriminator_gen_outputs, weights, label_smoothing,
                                     scope, loss_collection, reduction)
        _summaries(add_summaries, generator_modified_loss=loss)
    return loss


def least_squares_generator_loss(discriminator_gen_outputs: Any, real_label: Any = 1,
                                 weights: Any = 1.0, scope: Optional[str] = None,
                                 loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                                 add_summaries: bool = False) -> Any:
    """LSGAN: (D(G(z)) - real_label)^2 / 2."""
    with name_scope(scope, "lsq_generator_loss",
                    (discriminator_gen_outputs, real_label)) as scope:
        loss = squared_difference(_float(discriminator_gen_outputs), real_label) / 2.0
        loss = compute_weighted_loss(loss, weights, scope, loss_collection, reduction)
    _summaries(add_summaries, generator_lsq_loss=loss)
    return loss


def least_squares_discriminator_loss(discriminator_real_outputs: Any,
                                     discriminator_gen_outputs: Any, real_label: Any = 1,
                                     fake_label: Any = 0, real_weights: Any = 1.0,
                                     generated_weights: Any = 1.0, scope: Optional[str] = None,
                                     loss_collection: Any = _LOSSES, reduction: str = _NONZERO,
                                     add_summaries: bool = False) -> Any:
    """LSGAN: (D(x) - real_label)^2 / 2 + (D(G(z)) - fake_label)^2 / 2."""
    with name_scope(scope, "lsq_discriminator_loss",
                    (discriminator_gen_outputs, real_label)) as scope:
        real = _float(discriminator_real_outputs)
        gen = _float(discriminator_gen_outputs)
        real.shape.assert_is_compatible_with(gen.shape)
        real_losses = squared_difference(real, real_label) / 2.0
        fake_losses = squared_difference(gen, fake_label) / 2.0
        on_real = compute_weighted_loss(real_losses, real_weights, scope,
                                        loss_collection=None, reduction=reduction)
        on_gen = compute_weighted_loss(fake_losses, generated_weights, scope,
                                       loss_collection=None, reduction=reduction)
        loss = on_real + on_gen
        add_loss(loss, loss_collection)
    _summaries(add_summaries, discriminator_gen_lsq_loss=on_gen,
               discriminator_real_lsq_loss=on_real, discriminator_lsq_loss=loss)
    return loss


def _check_distributions(structured_generator_inputs: Sequence[Any],
                         predicted_distributions: Any) -> None:
    if not isinstance(predicted_distributions, (list, tuple)):
        raise ValueError("`distributions` must be a list or tuple. Instead, found "
                         f"{type(predicted_distributions)}.")
    for dist in predicted_distributions:
        if not callable(getattr(dist, "log_prob", None)):
            raise ValueError("`distributions` must be a list of `Distributions`. Instead, "
                             f"found {type(dist)}.")
    if len(structured_generator_inputs) != len(predicted_distributions):
        raise ValueError(f"`structured_generator_inputs` length "
                         f"{len(structured_generator_inputs)} must be the same as "
                         f"`predicted_distributions` length {len(predicted_distributions)}.")


def mutual_information_penalty(structured_generator_inputs: Sequence[Any],
                               predicted_distributions: Sequence[Any], weights: Any = 1.0,
                               scope: Optional[str] = None, loss_collection: Any = _LOSSES,
                               reduction: str = _NONZERO, add_summaries: bool = False) -> Any:
    """InfoGAN's penalty: minus the weighted mean over the structured inputs of each one's
    mean log-likelihood under the distribution the discriminator predicted for it."""
    _check_distributions(structured_generator_inputs, predicted_distributions)
    with name_scope(scope, "mutual_information_loss") as scope:
        log_probs = [reduce_mean(dist.log_prob(noise)) for dist, noise in
                     zip(predicted_distributions, structured_generator_inputs)]
        loss = -1 * compute_weighted_loss(log_probs, weights, scope,
                                          loss_collection=loss_collection,
                                          reduction=reduction)
        _summaries(add_summaries, mutual_information_penalty=loss)
    return loss


def _stable_global_norm(tensors: Sequence[Any]) -> Any:
    """global_norm of the tensors divided by their largest magnitude, times it: the
    squares of large gradients would overflow float32."""
    present = [t for t in tensors if t is not None]
    if not present:
        return 0.0
    largest = reduce_max([reduce_max(tf_abs(t)) for t in present])
    return largest * global_norm([t / largest for t in present])


def combine_adversarial_loss(main_loss: Any, adversarial_loss: Any,
                             weight_factor: Any = None, gradient_ratio: Any = None,
                             gradient_ratio_epsilon: float = 1e-6,
                             variables: Optional[Sequence[Any]] = None,
                             scalar_summaries: bool = True, gradient_summaries: bool = True,
                             scope: Optional[str] = None) -> Any:
    """main_loss + c * adversarial_loss, with c either `weight_factor` or chosen so the
    adversarial gradient's norm is 1/`gradient_ratio` of the main one's (c carries no
    gradient). A constant zero weight returns `main_loss` itself."""
    for loss in (main_loss, adversarial_loss):
        loss.shape.assert_is_compatible_with([])
    if weight_factor is None and gradient_ratio is None:
        raise ValueError("`weight_factor` and `gradient_ratio` cannot both be `None.`")
    if weight_factor is not None and gradient_ratio is not None:
        raise ValueError("`weight_factor` and `gradient_ratio` cannot both be specified.")
    if variables is None:
        variables = get_trainable_variables()
    with name_scope(scope, "adversarial_loss", values=[main_loss, adversarial_loss]):
        if gradient_summaries or gradient_ratio is not None:
            main_mag = _stable_global_norm(gradients(main_loss, variables))
            adv_mag = _stable_global_norm(gradients(adversarial_loss, variables))
        if scalar_summaries:
            scalar("main_loss", main_loss)
            scalar("adversarial_loss", adversarial_loss)
        if gradient_summaries:
            scalar("main_loss_gradients", main_mag)
            scalar("adversarial_loss_gradients", adv_mag)
        used = weight_factor if weight_factor is not None else gradient_ratio
        if constant_value(convert_to_tensor(used)) == 0:
            return main_loss
        if weight_factor is not None:
            return main_loss + stop_gradient(weight_factor) * adversarial_loss
        coefficient = main_mag / (adv_mag + gradient_ratio_epsilon) / gradient_ratio
        scalar("adversarial_coefficient", coefficient)
        return main_loss + stop_gradient(coefficient) * adversarial_loss


def cycle_consistency_loss(data_x: Any, reconstructed_data_x: Any, data_y: Any,
                           reconstructed_data_y: Any, scope: Optional[str] = None,
                           add_summaries: bool = False) -> Any:
    """CycleGAN's loss: the mean of the two round trips' mean absolute differences."""
    with name_scope(scope, "cycle_consistency_loss",
                    values=[data_x, reconstructed_data_x, data_y, reconstructed_data_y]):
        loss_x2x = absolute_difference(data_x, reconstructed_data_x)
        loss_y2y = absolute_difference(data_y, reconstructed_data_y)
        loss = (loss_x2x + loss_y2y) / 2.0
        _summaries(add_summaries, cycle_consistency_loss_x2x=loss_x2x,
                   cycle_consistency_loss_y2y=loss_y2y, cycle_consistency_loss=loss)
    return loss
