"""The tuples TFGAN passes between its model, loss and train steps (TF 1.14's
contrib/gan/python/namedtuples.py): plain `collections.namedtuple`s with TF's field
names and order, so `_replace`, unpacking and `isinstance` checks behave as in TF."""

from __future__ import annotations

import collections
from typing import Any, Sequence

__all__ = ["GANModel", "InfoGANModel", "ACGANModel", "CycleGANModel", "StarGANModel",
           "GANLoss", "CycleGANLoss", "GANTrainOps", "GANTrainSteps"]

_GAN_FIELDS = ("generator_inputs", "generated_data", "generator_variables",
               "generator_scope", "generator_fn", "real_data",
               "discriminator_real_outputs", "discriminator_gen_outputs",
               "discriminator_variables", "discriminator_scope", "discriminator_fn")


class GANModel(collections.namedtuple("GANModel", _GAN_FIELDS)):
    """Everything one generator/discriminator pair built by `gan_model` consists of: the
    inputs and outputs of both networks, their variables, scopes and functions."""


class InfoGANModel(collections.namedtuple("InfoGANModel", _GAN_FIELDS + (
        "structured_generator_inputs", "predicted_distributions",
        "discriminator_and_aux_fn"))):
    """A GANModel plus the structured noise, the distributions the discriminator
    predicts for it, and the discriminator function returning (logits, distributions)."""


class ACGANModel(collections.namedtuple("ACGANModel", _GAN_FIELDS + (
        "one_hot_labels", "discriminator_real_classification_logits",
        "discriminator_gen_classification_logits"))):
    """A GANModel plus the class labels and the discriminator's classification logits on
    real and generated data."""


class CycleGANModel(collections.namedtuple(
        "CycleGANModel", ("model_x2y", "model_y2x", "reconstructed_x", "reconstructed_y"))):
    """Two GANModels mapping X to Y and Y to X, and each domain's round trip."""


class StarGANModel(collections.namedtuple("StarGANModel", (
        "input_data", "input_data_domain_label", "generated_data",
        "generated_data_domain_target", "reconstructed_data",
        "discriminator_input_data_source_predication",
        "discriminator_generated_data_source_predication",
        "discriminator_input_data_domain_predication",
        "discriminator_generated_data_domain_predication", "generator_variables",
        "generator_scope", "generator_fn", "discriminator_variables", "discriminator_scope",
        "discriminator_fn"))):
    """The pieces of a StarGAN (one generator conditioned on a target domain)."""


class GANLoss(collections.namedtuple("GANLoss", ("generator_loss", "discriminator_loss"))):
    """The generator's and the discriminator's loss tensors."""


class CycleGANLoss(collections.namedtuple("CycleGANLoss", ("loss_x2y", "loss_y2x"))):
    """The GANLoss of each direction of a CycleGANModel."""


class GANTrainOps(collections.namedtuple("GANTrainOps", (
        "generator_train_op", "discriminator_train_op", "global_step_inc_op",
        "train_hooks"))):
    """The generator's and discriminator's train ops, the op that advances the global
    step, and hooks the optimizers need (SyncReplicasOptimizer's)."""

    def __new__(cls, generator_train_op: Any, discriminator_train_op: Any,
                global_step_inc_op: Any, train_hooks: Sequence[Any] = ()) -> "GANTrainOps":
        return super().__new__(cls, generator_train_op, discriminator_train_op,
                               global_step_inc_op, train_hooks)


class GANTrainSteps(collections.namedtuple("GANTrainSteps", (
        "generator_train_steps", "discriminator_train_steps"))):
    """How many generator and discriminator updates make one GAN step."""
