"""TFGAN's model builders, combined losses and training (TF 1.14's
contrib/gan/python/train.py): `gan_model` & co. build the generator in its variable scope
and the discriminator twice in another (generated data first, then real data reusing
it); `gan_loss` adds the optional penalties and each network's regularization losses;
`gan_train_ops` makes one `contrib.training.create_train_op` per network; `gan_train`
runs the global-step increment on a MonitoredTrainingSession whose hooks run the
generator and discriminator updates."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan import losses as tfgan_losses
from tf1compat.contrib.gan.losses import wargs
from tf1compat.contrib.slim.learning import train_step as _slim_train_step
from tf1compat.contrib.training.training import create_train_op, train as _train
from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, get_collection, name_scope
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.losses.losses_impl import absolute_difference, softmax_cross_entropy
from tf1compat.losses.util import get_regularization_loss
from tf1compat.ops.array_ops import concat, identity
from tf1compat.ops.check_ops import assert_greater_equal
from tf1compat.ops.creation_ops import one_hot
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_mean, reduce_sum
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.sessions.session_run_hook import SessionRunHook
from tf1compat.training.training_util import get_or_create_global_step
from tf1compat.variables.collections import get_trainable_variables
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["gan_model", "infogan_model", "acgan_model", "cyclegan_model", "stargan_model",
           "gan_loss", "cyclegan_loss", "stargan_loss", "gan_train_ops", "gan_train",
           "get_sequential_train_hooks", "get_joint_train_hooks",
           "get_sequential_train_steps", "RunTrainOpsHook"]


def _to_tensors(value: Any) -> Any:
    """A tensor, or a list / dict of tensors, from what the caller passed."""
    if isinstance(value, (list, tuple)):
        return [convert_to_tensor(x) for x in value]
    if isinstance(value, dict):
        return {k: convert_to_tensor(v) for k, v in value.items()}
    return convert_to_tensor(value)


def _check_shapes(generated_data: Any, real_data: Any) -> None:
    if not generated_data.shape.is_compatible_with(real_data.shape):
        raise ValueError(f"Generator output shape ({generated_data.shape}) must be the "
                         f"same shape as real data ({real_data.shape}).")


def gan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
              real_data: Any, generator_inputs: Any, generator_scope: Any = "Generator",
              discriminator_scope: Any = "Discriminator",
              check_shapes: bool = True) -> namedtuples.GANModel:
    """Builds `generator_fn(generator_inputs)` in `generator_scope` and
    `discriminator_fn(data, generator_inputs)` on generated then real data in
    `discriminator_scope` (the second call reuses its variables)."""
    with variable_scope(generator_scope) as gen_scope:
        generator_inputs = _to_tensors(generator_inputs)
        generated_data = generator_fn(generator_inputs)
    with variable_scope(discriminator_scope) as dis_scope:
        dis_gen_outputs = discriminator_fn(generated_data, generator_inputs)
    with variable_scope(dis_scope, reuse=True):
        real_data = _to_tensors(real_data)
        dis_real_outputs = discriminator_fn(real_data, generator_inputs)
    if check_shapes:
        _check_shapes(generated_data, real_data)
    return namedtuples.GANModel(
        generator_inputs, generated_data, get_trainable_variables(gen_scope), gen_scope,
        generator_fn, real_data, dis_real_outputs, dis_gen_outputs,
        get_trainable_variables(dis_scope), dis_scope, discriminator_fn)


def infogan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
                  real_data: Any, unstructured_generator_inputs: Sequence[Any],
                  structured_generator_inputs: Sequence[Any],
                  generator_scope: Any = "Generator",
                  discriminator_scope: Any = "Discriminator") -> namedtuples.InfoGANModel:
    """An InfoGAN: the generator sees the unstructured then the structured noise (one
    list); the discriminator returns (logits, one predicted distribution per structured
    input)."""
    with variable_scope(generator_scope) as gen_scope:
        unstructured = _to_tensors(unstructured_generator_inputs)
        structured = _to_tensors(structured_generator_inputs)
        generator_inputs = unstructured + structured
        generated_data = generator_fn(generator_inputs)
    with variable_scope(discriminator_scope) as dis_scope:
        dis_gen_outputs, predicted_distributions = discriminator_fn(generated_data,
                                                                    generator_inputs)
    if not isinstance(predicted_distributions, (tuple, list)):
        raise ValueError("`predicted_distributions` must be a list. Instead, found "
                         f"{type(predicted_distributions)}.")
    if len(predicted_distributions) != len(structured):
        raise ValueError(f"Length of `predicted_distributions` "
                         f"{len(predicted_distributions)} must be the same as the length "
                         f"of structured noise {len(structured)}.")
    with variable_scope(dis_scope, reuse=True):
        real_data = convert_to_tensor(real_data)
        dis_real_outputs, _ = discriminator_fn(real_data, generator_inputs)
    _check_shapes(generated_data, real_data)
    return namedtuples.InfoGANModel(
        generator_inputs, generated_data, get_trainable_variables(gen_scope), gen_scope,
        generator_fn, real_data, dis_real_outputs, dis_gen_outputs,
        get_trainable_variables(dis_scope), dis_scope,
        lambda x, y: discriminator_fn(x, y)[0], structured, predicted_distributions,
        discriminator_fn)


def _acgan_outputs(outputs: Any) -> Tuple[Any, Any]:
    try:
        logits, classification_logits = outputs
    except (TypeError, ValueError):
        raise TypeError("A discriminator function for ACGAN must output a tuple consisting "
                        "of (discrimination logits, classification logits).") from None
    return logits, classification_logits


def acgan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
                real_data: Any, generator_inputs: Any, one_hot_labels: Any,
                generator_scope: Any = "Generator", discriminator_scope: Any = "Discriminator",
                check_shapes: bool = True) -> namedtuples.ACGANModel:
    """An ACGAN: the discriminator returns (logits, classification logits); its two
    calls get the name scopes '<scope>/generated/' and '<scope>/real/'."""
    with variable_scope(generator_scope) as gen_scope:
        generator_inputs = _to_tensors(generator_inputs)
        generated_data = generator_fn(generator_inputs)
    with variable_scope(discriminator_scope) as dis_scope:
        with name_scope(dis_scope.name + "/generated/"):
            dis_gen_outputs, dis_gen_class_logits = _acgan_outputs(
                discriminator_fn(generated_data, generator_inputs))
    with variable_scope(dis_scope, reuse=True):
        with name_scope(dis_scope.name + "/real/"):
            real_data = convert_to_tensor(real_data)
            dis_real_outputs, dis_real_class_logits = _acgan_outputs(
                discriminator_fn(real_data, generator_inputs))
    if check_shapes:
        _check_shapes(generated_data, real_data)
    return namedtuples.ACGANModel(
        generator_inputs, generated_data, get_trainable_variables(gen_scope), gen_scope,
        generator_fn, real_data, dis_real_outputs, dis_gen_outputs,
        get_trainable_variables(dis_scope), dis_scope, discriminator_fn, one_hot_labels,
        dis_real_class_logits, dis_gen_class_logits)


def cyclegan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
                   data_x: Any, data_y: Any, generator_scope: Any = "Generator",
                   discriminator_scope: Any = "Discriminator",
                   model_x2y_scope: Any = "ModelX2Y", model_y2x_scope: Any = "ModelY2X",
                   check_shapes: bool = True) -> namedtuples.CycleGANModel:
    """Two gan_models (X->Y under `model_x2y_scope`, Y->X under `model_y2x_scope`) and the
    reconstructions G(F(X)), F(G(Y)) built by reusing each generator."""
    def partial_model(input_data: Any, output_data: Any) -> namedtuples.GANModel:
        return gan_model(generator_fn, discriminator_fn, real_data=output_data,
                         generator_inputs=input_data, generator_scope=generator_scope,
                         discriminator_scope=discriminator_scope, check_shapes=check_shapes)
    with variable_scope(model_x2y_scope):
        model_x2y = partial_model(data_x, data_y)
    with variable_scope(model_y2x_scope):
        model_y2x = partial_model(data_y, data_x)
    with variable_scope(model_y2x.generator_scope, reuse=True):
        reconstructed_x = model_y2x.generator_fn(model_x2y.generated_data)
    with variable_scope(model_x2y.generator_scope, reuse=True):
        reconstructed_y = model_x2y.generator_fn(model_y2x.generated_data)
    return namedtuples.CycleGANModel(model_x2y, model_y2x, reconstructed_x, reconstructed_y)


def stargan_model(generator_fn: Callable[..., Any], discriminator_fn: Callable[..., Any],
                  input_data: Any, input_data_domain_label: Any,
                  generator_scope: Any = "Generator",
                  discriminator_scope: Any = "Discriminator") -> namedtuples.StarGANModel:
    """A StarGAN: `generator_fn(data, target_domain_one_hot)` maps the inputs to random
    target domains and back; `discriminator_fn(data, num_domains)` returns (source,
    domain) predictions. Lists of inputs/labels are concatenated along the batch."""
    input_data = _to_tensors(input_data)
    labels = _to_tensors(input_data_domain_label)
    if isinstance(input_data, (list, tuple)):
        input_data = concat([convert_to_tensor(x) for x in input_data], 0)
    if isinstance(labels, (list, tuple)):
        labels = concat([convert_to_tensor(x) for x in labels], 0)
    labels.shape.assert_has_rank(2)
    labels.shape.assert_is_fully_defined()
    batch_size, num_domains = labels.shape.as_list()
    with variable_scope(generator_scope) as gen_scope:
        target = one_hot(random_uniform([batch_size], minval=0, maxval=num_domains,
                                        dtype=dtypes.int32), num_domains)
        generated_data = generator_fn(input_data, target)
    with variable_scope(gen_scope, reuse=True):
        reconstructed_data = generator_fn(generated_data, labels)
    with variable_scope(discriminator_scope) as dis_scope:
        gen_source, gen_domain = discriminator_fn(generated_data, num_domains)
    with variable_scope(dis_scope, reuse=True):
        input_source, input_domain = discriminator_fn(input_data, num_domains)
    return namedtuples.StarGANModel(
        input_data=input_data, input_data_domain_label=labels,
        generated_data=generated_data, generated_data_domain_target=target,
        reconstructed_data=reconstructed_data,
        discriminator_input_data_source_predication=input_source,
        discriminator_generated_data_source_predication=gen_source,
        discriminator_input_data_domain_predication=input_domain,
        discriminator_generated_data_domain_predication=gen_domain,
        generator_variables=get_trainable_variables(gen_scope), generator_scope=gen_scope,
        generator_fn=generator_fn, discriminator_variables=get_trainable_variables(dis_scope),
        discriminator_scope=dis_scope, discriminator_fn=discriminator_fn)


def _validate_weight(weight: Any, name: str) -> Any:
    """A tensor weight gets a run-time check that it is >= 0; a number is checked now."""
    if isinstance(weight, Tensor):
        weight.shape.assert_is_compatible_with([])
        with control_dependencies([assert_greater_equal(weight, 0.0)]):
            return identity(weight)
    if weight is not None and weight < 0:
        raise ValueError(f"`{name}` must be greater than 0. Instead, was {weight}")
    return weight


def _used(weight: Any) -> bool:
    if weight is None:
        return False
    return True if isinstance(weight, Tensor) else weight > 0


def _pooled_model(model: Any, tensor_pool_fn: Callable[..., Any]) -> Any:
    """The model with its generated data (and inputs) drawn from `tensor_pool_fn` and the
    discriminator rerun on them, reusing its variables."""
    if isinstance(model, namedtuples.GANModel):
        inputs, data = tensor_pool_fn((model.generator_inputs, model.generated_data))
        with variable_scope(model.discriminator_scope, reuse=True):
            outputs = model.discriminator_fn(data, inputs)
        return model._replace(generator_inputs=inputs, generated_data=data,
                              discriminator_gen_outputs=outputs)
    if isinstance(model, namedtuples.ACGANModel):
        inputs, data = tensor_pool_fn((model.generator_inputs, model.generated_data))
        with variable_scope(model.discriminator_scope, reuse=True):
            outputs, class_logits = model.discriminator_fn(data, inputs)
        return model._replace(generator_inputs=inputs, generated_data=data,
                              discriminator_gen_outputs=outputs,
                              discriminator_gen_classification_logits=class_logits)
    if isinstance(model, namedtuples.InfoGANModel):
        inputs, data, structured = tensor_pool_fn(
            (model.generator_inputs, model.generated_data, model.structured_generator_inputs))
        with variable_scope(model.discriminator_scope, reuse=True):
            outputs, distributions = model.discriminator_and_aux_fn(data, inputs)
        return model._replace(generator_inputs=inputs, generated_data=data,
                              structured_generator_inputs=structured,
                              discriminator_gen_outputs=outputs,
                              predicted_distributions=distributions)
    raise ValueError(f"Tensor pool does not support `model`: {type(model)}.")


def gan_loss(model: Any,
             generator_loss_fn: Callable[..., Any] = tfgan_losses.wasserstein_generator_loss,
             discriminator_loss_fn: Callable[..., Any] =
             tfgan_losses.wasserstein_discriminator_loss,
             gradient_penalty_weight: Any = None, gradient_penalty_epsilon: float = 1e-10,
             gradient_penalty_target: float = 1.0, gradient_penalty_one_sided: bool = False,
             mutual_information_penalty_weight: Any = None,
             aux_cond_generator_weight: Any = None, aux_cond_discriminator_weight: Any = None,
             tensor_pool_fn: Optional[Callable[..., Any]] = None,
             add_summaries: bool = True) -> namedtuples.GANLoss:
    """The generator and discriminator losses of a GAN model tuple, plus (when their
    weights are given and > 0) the Wasserstein gradient penalty, InfoGAN's mutual
    information penalty, ACGAN's classification losses, and each network's
    regularization losses. With `tensor_pool_fn` the discriminator-side losses see
    generated data drawn from the pool."""
    gradient_penalty_weight = _validate_weight(gradient_penalty_weight,
                                               "gradient_penalty_weight")
    mutual_information_penalty_weight = _validate_weight(mutual_information_penalty_weight,
                                                         "infogan_weight")
    aux_cond_generator_weight = _validate_weight(aux_cond_generator_weight,
                                                 "aux_cond_generator_weight")
    aux_cond_discriminator_weight = _validate_weight(aux_cond_discriminator_weight,
                                                     "aux_cond_discriminator_weight")
    if (_used(mutual_information_penalty_weight)
            and not isinstance(model, namedtuples.InfoGANModel)):
        raise ValueError("When `mutual_information_penalty_weight` is provided, `model` "
                         f"must be an `InfoGANModel`. Instead, was {type(model)}.")
    if ((_used(aux_cond_generator_weight) or _used(aux_cond_discriminator_weight))
            and not isinstance(model, namedtuples.ACGANModel)):
        raise ValueError("When `aux_cond_generator_weight` or "
                         "`aux_cond_discriminator_weight` is provided, `model` must be an "
                         f"`ACGANModel`. Instead, was {type(model)}.")
    pooled = _pooled_model(model, tensor_pool_fn) if tensor_pool_fn else model
    gen_loss = generator_loss_fn(model, add_summaries=add_summaries)
    dis_loss = discriminator_loss_fn(pooled, add_summaries=add_summaries)
    if _used(gradient_penalty_weight):
        penalty = tfgan_losses.wasserstein_gradient_penalty(
            pooled, epsilon=gradient_penalty_epsilon, target=gradient_penalty_target,
            one_sided=gradient_penalty_one_sided, add_summaries=add_summaries)
        dis_loss += gradient_penalty_weight * penalty
    if _used(mutual_information_penalty_weight):
        gen_info = tfgan_losses.mutual_information_penalty(model, add_summaries=add_summaries)
        dis_info = gen_info if tensor_pool_fn is None else \
            tfgan_losses.mutual_information_penalty(pooled, add_summaries=add_summaries)
        gen_loss += mutual_information_penalty_weight * gen_info
        dis_loss += mutual_information_penalty_weight * dis_info
    if _used(aux_cond_generator_weight):
        gen_loss += aux_cond_generator_weight * tfgan_losses.acgan_generator_loss(
            model, add_summaries=add_summaries)
    if _used(aux_cond_discriminator_weight):
        dis_loss += aux_cond_discriminator_weight * tfgan_losses.acgan_discriminator_loss(
            pooled, add_summaries=add_summaries)
    gen_reg = get_regularization_loss(model.generator_scope.name) \
        if model.generator_scope else 0
    dis_reg = get_regularization_loss(model.discriminator_scope.name) \
        if model.discriminator_scope else 0
    return namedtuples.GANLoss(gen_loss + gen_reg, dis_loss + dis_reg)


def cyclegan_loss(model: namedtuples.CycleGANModel,
                  generator_loss_fn: Callable[..., Any] =
                  tfgan_losses.least_squares_generator_loss,
                  discriminator_loss_fn: Callable[..., Any] =
                  tfgan_losses.least_squares_discriminator_loss,
                  cycle_consistency_loss_fn: Callable[..., Any] =
                  tfgan_losses.cycle_consistency_loss,
                  cycle_consistency_loss_weight: Any = 10.0,
                  **kwargs: Any) -> namedtuples.CycleGANLoss:
    """gan_loss of each direction (under 'cyclegan_loss_x2y' / 'cyclegan_loss_y2x'),
    each generator loss plus the weighted cycle-consistency loss."""
    if not isinstance(model, namedtuples.CycleGANModel):
        raise ValueError(f"`model` must be a `CycleGANModel`. Instead, was {type(model)}.")
    cycle_loss = cycle_consistency_loss_fn(model,
                                           add_summaries=kwargs.get("add_summaries", True))
    weight = _validate_weight(cycle_consistency_loss_weight, "cycle_consistency_loss_weight")
    aux_loss = weight * cycle_loss

    def partial_loss(partial_model: Any) -> namedtuples.GANLoss:
        loss = gan_loss(partial_model, generator_loss_fn=generator_loss_fn,
                        discriminator_loss_fn=discriminator_loss_fn, **kwargs)
        return loss._replace(generator_loss=loss.generator_loss + aux_loss)
    with name_scope("cyclegan_loss_x2y"):
        loss_x2y = partial_loss(model.model_x2y)
    with name_scope("cyclegan_loss_y2x"):
        loss_y2x = partial_loss(model.model_y2x)
    return namedtuples.CycleGANLoss(loss_x2y, loss_y2x)


def stargan_loss(model: namedtuples.StarGANModel,
                 generator_loss_fn: Callable[..., Any] =
                 tfgan_losses.stargan_generator_loss_wrapper(wargs.wasserstein_generator_loss),
                 discriminator_loss_fn: Callable[..., Any] =
                 tfgan_losses.stargan_discriminator_loss_wrapper(
                     wargs.wasserstein_discriminator_loss),
                 gradient_penalty_weight: Any = 10.0, gradient_penalty_epsilon: float = 1e-10,
                 gradient_penalty_target: float = 1.0,
                 gradient_penalty_one_sided: bool = False,
                 reconstruction_loss_fn: Callable[..., Any] = absolute_difference,
                 reconstruction_loss_weight: Any = 10.0,
                 classification_loss_fn: Callable[..., Any] = softmax_cross_entropy,
                 classification_loss_weight: Any = 1.0, classification_one_hot: bool = True,
                 add_summaries: bool = True) -> namedtuples.GANLoss:
    """StarGAN's losses: the adversarial pair (+ gradient penalty on the discriminator),
    the weighted reconstruction loss on the generator, and each side's domain
    classification loss."""
    def classification_loss(labels: Any, logits: Any, scope_name: str) -> Any:
        with name_scope(scope_name, values=(labels, logits)):
            loss = classification_loss_fn(onehot_labels=labels, logits=logits)
            if not classification_one_hot:
                loss = reduce_sum(loss, axis=1)
            loss = reduce_mean(loss)
            if add_summaries:
                scalar(scope_name, loss)
            return loss
    model.input_data_domain_label.shape.assert_has_rank(2)
    model.input_data_domain_label.shape[1:].assert_is_fully_defined()
    generator_loss = generator_loss_fn(model, add_summaries=add_summaries)
    discriminator_loss = discriminator_loss_fn(model, add_summaries=add_summaries)
    if _used(gradient_penalty_weight):
        penalty_fn = tfgan_losses.stargan_gradient_penalty_wrapper(
            wargs.wasserstein_gradient_penalty)
        discriminator_loss += penalty_fn(
            model, epsilon=gradient_penalty_epsilon, target=gradient_penalty_target,
            one_sided=gradient_penalty_one_sided,
            add_summaries=add_summaries) * gradient_penalty_weight
    reconstruction = reconstruction_loss_fn(model.input_data, model.reconstructed_data)
    generator_loss += reconstruction * reconstruction_loss_weight
    if add_summaries:
        scalar("reconstruction_loss", reconstruction)
    generator_loss += classification_loss(
        model.generated_data_domain_target,
        model.discriminator_generated_data_domain_predication,
        "generator_classification_loss") * classification_loss_weight
    discriminator_loss += classification_loss(
        model.input_data_domain_label, model.discriminator_input_data_domain_predication,
        "discriminator_classification_loss") * classification_loss_weight
    return namedtuples.GANLoss(generator_loss, discriminator_loss)


def _split_update_ops(kwargs: dict, gen_scope: str, dis_scope: str,
                      check_for_unused_ops: bool) -> Tuple[List[Any], List[Any]]:
    """The UPDATE_OPS (or kwargs' `update_ops`) under each network's scope; any other
    update op is an error when `check_for_unused_ops`."""
    if "update_ops" in kwargs:
        update_ops = set(kwargs.pop("update_ops"))
    else:
        update_ops = set(get_collection(GraphKeys.UPDATE_OPS))
    gen_ops = set(get_collection(GraphKeys.UPDATE_OPS, gen_scope))
    dis_ops = set(get_collection(GraphKeys.UPDATE_OPS, dis_scope))
    if check_for_unused_ops:
        unused = update_ops - gen_ops - dis_ops
        if unused:
            raise ValueError(f"There are unused update ops: {unused}")
    return list(gen_ops & update_ops), list(dis_ops & update_ops)


def _sync_step(optimizer: Any, name: str, global_step: Any, update_ops: List[Any],
               hooks: List[Any], is_chief: bool) -> Any:
    """A SyncReplicasOptimizer gets its own step variable, kept equal to the global step,
    so that only `global_step_inc_op` advances the global step."""
    # Matched by class name: tf1compat.distribute sits above contrib in the layering.
    if not any(c.__name__ == "SyncReplicasOptimizer" for c in type(optimizer).__mro__):
        return None
    step = get_variable(name, shape=[], dtype=global_step.dtype.base_dtype,
                        initializer=zeros_initializer(), trainable=False,
                        collections=[GraphKeys.GLOBAL_VARIABLES])
    update_ops.append(step.assign(global_step))
    hooks.append(optimizer.make_session_run_hook(is_chief))
    return step


def gan_train_ops(model: Any, loss: Any, generator_optimizer: Any,
                  discriminator_optimizer: Any, check_for_unused_update_ops: bool = True,
                  is_chief: bool = True, **kwargs: Any) -> namedtuples.GANTrainOps:
    """One create_train_op per network (under 'generator_train' / 'discriminator_train'),
    each on its own variables and update ops and not advancing the global step, plus
    `global_step.assign_add(1)`. A CycleGANModel gets a pair of each."""
    if isinstance(model, namedtuples.CycleGANModel):
        params = dict(generator_optimizer=generator_optimizer,
                      discriminator_optimizer=discriminator_optimizer,
                      check_for_unused_update_ops=check_for_unused_update_ops,
                      is_chief=is_chief, **kwargs)
        with name_scope("cyclegan_x2y_train"):
            x2y = gan_train_ops(model.model_x2y, loss.loss_x2y, **params)
        with name_scope("cyclegan_y2x_train"):
            y2x = gan_train_ops(model.model_y2x, loss.loss_y2x, **params)
        return namedtuples.GANTrainOps(
            (x2y.generator_train_op, y2x.generator_train_op),
            (x2y.discriminator_train_op, y2x.discriminator_train_op),
            get_or_create_global_step().assign_add(1))
    global_step = get_or_create_global_step()
    global_step_inc = global_step.assign_add(1)
    gen_update_ops, dis_update_ops = _split_update_ops(
        kwargs, model.generator_scope.name, model.discriminator_scope.name,
        check_for_unused_update_ops)
    sync_hooks: List[Any] = []
    gen_step = _sync_step(generator_optimizer, "dummy_global_step_generator", global_step,
                          gen_update_ops, sync_hooks, is_chief)
    with name_scope("generator_train"):
        gen_train_op = create_train_op(
            total_loss=loss.generator_loss, optimizer=generator_optimizer,
            variables_to_train=model.generator_variables, global_step=gen_step,
            update_ops=gen_update_ops, **kwargs)
    dis_step = _sync_step(discriminator_optimizer, "dummy_global_step_discriminator",
                          global_step, dis_update_ops, sync_hooks, is_chief)
    with name_scope("discriminator_train"):
        disc_train_op = create_train_op(
            total_loss=loss.discriminator_loss, optimizer=discriminator_optimizer,
            variables_to_train=model.discriminator_variables, global_step=dis_step,
            update_ops=dis_update_ops, **kwargs)
    return namedtuples.GANTrainOps(gen_train_op, disc_train_op, global_step_inc, sync_hooks)


class RunTrainOpsHook(SessionRunHook):
    """Before every step of the session it is attached to, runs `train_ops`
    `train_steps` times (how TFGAN interleaves generator and discriminator updates)."""

    def __init__(self, train_ops: Any, train_steps: int) -> None:
        self._train_ops = train_ops if isinstance(train_ops, (list, tuple)) else [train_ops]
        self._train_steps = train_steps

    def before_run(self, run_context: Any) -> None:
        for _ in range(self._train_steps):
            run_context.session.run(self._train_ops)


def get_sequential_train_hooks(train_steps: namedtuples.GANTrainSteps =
                               namedtuples.GANTrainSteps(1, 1)) -> Callable[..., List[Any]]:
    """A function of GANTrainOps giving hooks that run the generator's train op
    `generator_train_steps` times, then the discriminator's, before each global step."""
    def get_hooks(train_ops: namedtuples.GANTrainOps) -> List[Any]:
        return [RunTrainOpsHook(train_ops.generator_train_op,
                                train_steps.generator_train_steps),
                RunTrainOpsHook(train_ops.discriminator_train_op,
                                train_steps.discriminator_train_steps)] + \
            list(train_ops.train_hooks)
    return get_hooks


def get_joint_train_hooks(train_steps: namedtuples.GANTrainSteps =
                          namedtuples.GANTrainSteps(1, 1)) -> Callable[..., List[Any]]:
    """Like get_sequential_train_hooks, but min(g, d) steps run both train ops in one
    session.run; the remaining steps of the network with more run alone."""
    both = min(train_steps.generator_train_steps, train_steps.discriminator_train_steps)
    g_only = train_steps.generator_train_steps - both
    d_only = train_steps.discriminator_train_steps - both

    def get_hooks(train_ops: namedtuples.GANTrainOps) -> List[Any]:
        g_op, d_op = train_ops.generator_train_op, train_ops.discriminator_train_op
        return [RunTrainOpsHook([g_op, d_op], both), RunTrainOpsHook(g_op, g_only),
                RunTrainOpsHook(d_op, d_only)] + list(train_ops.train_hooks)
    return get_hooks


def gan_train(train_ops: namedtuples.GANTrainOps, logdir: Optional[str],
              get_hooks_fn: Callable[..., List[Any]] = get_sequential_train_hooks(),
              master: str = "", is_chief: bool = True, scaffold: Any = None,
              hooks: Optional[Sequence[Any]] = None,
              chief_only_hooks: Optional[Sequence[Any]] = None,
              save_checkpoint_secs: Optional[int] = 600,
              save_summaries_steps: Optional[int] = 100, config: Any = None) -> Any:
    """Runs `global_step_inc_op` with contrib.training.train until a hook stops it (give
    a StopAtStepHook); `get_hooks_fn(train_ops)`'s hooks do the network updates.
    Returns the last global step value."""
    new_hooks = get_hooks_fn(train_ops)
    hooks = list(hooks) + list(new_hooks) if hooks is not None else new_hooks
    return _train(train_ops.global_step_inc_op, logdir, master=master, is_chief=is_chief,
                  scaffold=scaffold, hooks=hooks, chief_only_hooks=chief_only_hooks,
                  save_checkpoint_secs=save_checkpoint_secs,
                  save_summaries_steps=save_summaries_steps, config=config)


def get_sequential_train_steps(train_steps: namedtuples.GANTrainSteps =
                               namedtuples.GANTrainSteps(1, 1)) -> Callable[..., Any]:
    """A `train_step_fn` for `contrib.slim.learning.train`: the generator's steps, then
    the discriminator's (slim's train_step each), then the global-step increment;
    returns (summed losses, should_stop)."""
    def sequential_train_steps(sess: Any, train_ops: namedtuples.GANTrainOps,
                               global_step: Any, train_step_kwargs: dict) -> Tuple[Any, bool]:
        kwargs = dict(train_step_kwargs)
        should_stop_op = kwargs.pop("should_stop", None)
        gen_loss = 0
        for _ in range(train_steps.generator_train_steps):
            loss, _ = _slim_train_step(sess, train_ops.generator_train_op, global_step,
                                       kwargs)
            gen_loss += loss
        dis_loss = 0
        for _ in range(train_steps.discriminator_train_steps):
            loss, _ = _slim_train_step(sess, train_ops.discriminator_train_op, global_step,
                                       kwargs)
            dis_loss += loss
        sess.run(train_ops.global_step_inc_op)
        should_stop = sess.run(should_stop_op) if should_stop_op is not None else False
        return gen_loss + dis_loss, should_stop
    return sequential_train_steps
