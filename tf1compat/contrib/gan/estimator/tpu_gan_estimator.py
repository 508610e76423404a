"""`tf.contrib.gan.estimator.TPUGANEstimator` (TF 1.14's tpu_gan_estimator_impl.py) on
tf1compat's TPUEstimator, which runs with `use_tpu=False` (`use_tpu=True` raises
NotImplementedError there: there is no TPU).

Unlike GANEstimator, a training step is one train op: the discriminator's
`create_train_op` (contrib.training: each increments the global step, so a step adds 2)
runs before the generator's, or both in one group with `joint_train`; only 1:1
`gan_train_steps` are accepted. EVAL gives TPUEstimatorSpec `eval_metrics` whose
metric_fn averages the losses computed without reduction (plus
`get_eval_metric_ops_fn(generator_inputs, generated_data, real_data,
discriminator_real_outputs, discriminator_gen_outputs)`'s metrics); PREDICT gives the
generated data under `generated_data`. Summaries (the model's and the losses') are only
added off the TPU: in training when `use_tpu` is False, in evaluation when `eval_on_tpu`
is False (its default is True, so evaluation adds none, as in TF)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.estimator.gan_estimator import (_gan_model, _prediction_model,
                                                           check_mode)
from tf1compat.contrib.gan.train import _split_update_ops
from tf1compat.contrib.training.training import create_train_op
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.tpu.tpu_estimator import TPUEstimator, TPUEstimatorSpec
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.losses.losses_impl import Reduction
from tf1compat.metrics.metrics_impl import mean
from tf1compat.ops.control_flow_ops import group

__all__ = ["TPUGANEstimator"]


class TPUGANEstimator(TPUEstimator):
    """A GANEstimator on TPUEstimator (see the module docstring); the TPUEstimator
    arguments (`params`, `use_tpu`, the batch sizes, `eval_on_tpu`, ...) are its own."""

    def __init__(self, generator_fn: Optional[Callable[..., Any]] = None,
                 discriminator_fn: Optional[Callable[..., Any]] = None,
                 generator_loss_fn: Optional[Callable[..., Any]] = None,
                 discriminator_loss_fn: Optional[Callable[..., Any]] = None,
                 generator_optimizer: Any = None, discriminator_optimizer: Any = None,
                 get_eval_metric_ops_fn: Optional[Callable[..., Any]] = None,
                 add_summaries: Any = None, joint_train: bool = False,
                 gan_train_steps: Any = namedtuples.GANTrainSteps(1, 1),
                 model_dir: Optional[str] = None, config: Any = None, params: Any = None,
                 use_tpu: bool = True, train_batch_size: Optional[int] = None,
                 eval_batch_size: Optional[int] = None,
                 predict_batch_size: Optional[int] = None, batch_axis: Any = None,
                 eval_on_tpu: bool = True, export_to_tpu: bool = True,
                 warm_start_from: Any = None) -> None:
        if not callable(generator_loss_fn):
            raise ValueError("generator_loss_fn must be callable.")
        if not callable(discriminator_loss_fn):
            raise ValueError("discriminator_loss_fn must be callable.")
        if not isinstance(gan_train_steps, namedtuples.GANTrainSteps):
            raise ValueError("`gan_train_steps` must be `tfgan_tuples.GANTrainSteps`. "
                             "Instead, was type: %s" % type(gan_train_steps))
        if (gan_train_steps.generator_train_steps != 1 or
                gan_train_steps.discriminator_train_steps != 1):
            raise ValueError("Estimator currently only supports 1:1 training.")

        def model_fn(features: Any, labels: Any, mode: str, params: Any) -> Any:
            del params
            check_mode(mode)
            on_tpu = {ModeKeys.TRAIN: use_tpu, ModeKeys.EVAL: eval_on_tpu}.get(mode, False)
            if mode == ModeKeys.PREDICT:
                model = _prediction_model(features, generator_fn)
                return TPUEstimatorSpec(mode=mode,
                                        predictions={"generated_data": model.generated_data})
            model = _gan_model(generator_fn, discriminator_fn, labels, features,
                               None if on_tpu else add_summaries, mode)
            loss = namedtuples.GANLoss(
                generator_loss=generator_loss_fn(model, add_summaries=not on_tpu),
                discriminator_loss=discriminator_loss_fn(model, add_summaries=not on_tpu))
            if mode == ModeKeys.EVAL:
                unreduced = namedtuples.GANLoss(
                    generator_loss=generator_loss_fn(model, add_summaries=False,
                                                     reduction=Reduction.NONE),
                    discriminator_loss=discriminator_loss_fn(model, add_summaries=False,
                                                             reduction=Reduction.NONE))
                return _eval_spec(model, loss, unreduced, get_eval_metric_ops_fn)
            gen_opt = generator_optimizer() if callable(generator_optimizer) \
                else generator_optimizer
            dis_opt = discriminator_optimizer() if callable(discriminator_optimizer) \
                else discriminator_optimizer
            return _train_spec(model, loss, gen_opt, dis_opt, joint_train)

        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config,
                         params=params, use_tpu=use_tpu, train_batch_size=train_batch_size,
                         eval_batch_size=eval_batch_size,
                         predict_batch_size=predict_batch_size, batch_axis=batch_axis,
                         eval_on_tpu=eval_on_tpu, export_to_tpu=export_to_tpu,
                         warm_start_from=warm_start_from)


def _eval_spec(model: namedtuples.GANModel, loss: namedtuples.GANLoss,
               unreduced: namedtuples.GANLoss,
               get_eval_metric_ops_fn: Optional[Callable[..., Any]]) -> TPUEstimatorSpec:
    tensors = {"generator_loss": unreduced.generator_loss,
               "discriminator_loss": unreduced.discriminator_loss}
    if get_eval_metric_ops_fn is not None:
        tensors.update(generator_inputs=model.generator_inputs,
                       generated_data=model.generated_data, real_data=model.real_data,
                       discriminator_real_outputs=model.discriminator_real_outputs,
                       discriminator_gen_outputs=model.discriminator_gen_outputs)

    def metric_fn(generator_loss: Any, discriminator_loss: Any, **model_tensors: Any
                  ) -> dict:
        metrics = {"generator_loss": mean(generator_loss),
                   "discriminator_loss": mean(discriminator_loss)}
        if get_eval_metric_ops_fn is not None:
            custom = get_eval_metric_ops_fn(
                model_tensors["generator_inputs"], model_tensors["generated_data"],
                model_tensors["real_data"], model_tensors["discriminator_real_outputs"],
                model_tensors["discriminator_gen_outputs"])
            if not isinstance(custom, dict):
                raise TypeError("`get_eval_metric_ops_fn` must return a dict, "
                                "received: {}".format(custom))
            metrics.update(custom)
        return metrics

    return TPUEstimatorSpec(mode=ModeKeys.EVAL, predictions=model.generated_data,
                            loss=loss.generator_loss + loss.discriminator_loss,
                            eval_metrics=(metric_fn, tensors))


def _train_spec(model: namedtuples.GANModel, loss: namedtuples.GANLoss, gen_opt: Any,
                dis_opt: Any, joint_train: bool) -> TPUEstimatorSpec:
    gen_updates, dis_updates = _split_update_ops({}, model.generator_scope.name,
                                                 model.discriminator_scope.name, True)

    def train_op(network: str, total: Any, optimizer: Any, variables: Any,
                 updates: Any) -> Any:
        with name_scope(f"{network}_train"):
            return create_train_op(total_loss=total, optimizer=optimizer,
                                   variables_to_train=variables, update_ops=updates)

    def gen_train() -> Any:
        return train_op("generator", loss.generator_loss, gen_opt, model.generator_variables,
                        gen_updates)

    def dis_train() -> Any:
        return train_op("discriminator", loss.discriminator_loss, dis_opt,
                        model.discriminator_variables, dis_updates)

    if joint_train:
        step = group(gen_train(), dis_train(), name="joint_train")
    else:
        with control_dependencies([dis_train()]):
            step = gen_train()
    return TPUEstimatorSpec(loss=loss.generator_loss + loss.discriminator_loss,
                            mode=ModeKeys.TRAIN, train_op=step)
