"""tf-keras's premade models, `tf.keras.experimental.LinearModel` and `WideDeepModel`
(also `tf.keras.models.LinearModel` / `WideDeepModel` in compat.v1).

`LinearModel` is a subclassed model: one bias-free Dense layer per input (inputs given as
a dict are taken sorted by key, each Dense named after its key), their sum, a bias and an
activation. Its weights are built by the model's first call, so they are named in the
model's scope (`linear_model/kernel`, `linear_model/kernel_1`, `linear_model/bias`), as in
tf-keras. `WideDeepModel` adds a linear model's output to a DNN model's; compiled with a
list of two optimizers, the first trains the linear model's weights and the second the
DNN's (tf-keras's v1 training function for it).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import activations, backend, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.engine.training import Model
from tf1compat.keras.layers.core import Dense
from tf1compat.ops.nn_ops import bias_add
from tf1compat.util import nest
from tf1compat.util import tf_logging as logging

__all__ = ["LinearModel", "WideDeepModel"]


def _is_shape_list(input_shape: Any) -> bool:
    """Whether `input_shape` holds the shapes of several inputs (a list of shapes)."""
    return isinstance(input_shape, (list, tuple)) and bool(input_shape) and all(
        isinstance(s, TensorShape) or (isinstance(s, (list, tuple)) and
                                       not isinstance(s, TensorShape)) for s in input_shape)


class LinearModel(Model):
    """`activation(sum_i dense_i(input_i) + bias)`: a linear (or generalized linear) model
    of one or several inputs."""

    def __init__(self, units: int = 1, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "zeros", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 **kwargs: Any):
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        super().__init__(**kwargs)

    def _dense(self, shape: Any, name: Optional[str] = None) -> Dense:
        layer = Dense(units=self.units, use_bias=False,
                      kernel_initializer=self.kernel_initializer,
                      kernel_regularizer=self.kernel_regularizer, name=name)
        layer.build(shape)
        return layer

    def build(self, input_shape: Any) -> None:
        if isinstance(input_shape, dict):
            names = sorted(input_shape)
            self.input_specs = [InputSpec(shape=input_shape[name], name=name)
                                for name in names]
            self.dense_layers = [self._dense(input_shape[name], name) for name in names]
        elif _is_shape_list(input_shape):
            self.dense_layers = [self._dense(shape) for shape in input_shape]
        else:
            self.dense_layers = [self._dense(input_shape)]
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=self.units,
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, dtype=self.dtype,
                                        trainable=True)
        else:
            self.bias = None
        Layer.build(self, input_shape)

    def call(self, inputs: Any) -> Any:
        if isinstance(inputs, dict):
            names = [layer.name for layer in self.dense_layers]
            missing = set(names) - set(inputs)
            if missing:
                raise ValueError("The `inputs` dictionary does not match the structure "
                                 f"expected by the model.\n\tExpected keys: {set(names)}"
                                 f"\n\tReceived keys: {set(inputs)}"
                                 f"\n\tMissing keys: {missing}")
            inputs = [inputs[name] for name in names]
        if isinstance(inputs, (list, tuple)):
            result = None
            for tensor, layer in zip(inputs, self.dense_layers):
                output = layer(tensor)
                result = output if result is None else result + output
        else:
            result = self.dense_layers[0](inputs)
        if self.use_bias:
            result = bias_add(result, self.bias)
        if self.activation is not None:
            return self.activation(result)
        return result

    def get_config(self) -> Dict[str, Any]:
        config = {"units": self.units,
                  "activation": activations.serialize(self.activation),
                  "use_bias": self.use_bias,
                  "kernel_initializer": initializers.serialize(self.kernel_initializer),
                  "bias_initializer": initializers.serialize(self.bias_initializer),
                  "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                  "bias_regularizer": regularizers.serialize(self.bias_regularizer)}
        return {**Layer.get_config(self), **config}

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None
                    ) -> "LinearModel":
        return cls(**config)


class WideDeepModel(Model):
    """`activation(linear_model(linear_inputs) + dnn_model(dnn_inputs))`; inputs given as
    a pair go to the two models in order, anything else to both."""

    def __init__(self, linear_model: Any, dnn_model: Any, activation: Any = None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.linear_model = linear_model
        self.dnn_model = dnn_model
        self.activation = activations.get(activation)

    def call(self, inputs: Any, training: Any = None) -> Any:
        if not isinstance(inputs, (tuple, list)) or len(inputs) != 2:
            linear_inputs = dnn_inputs = inputs
        else:
            linear_inputs, dnn_inputs = inputs
        linear_output = self.linear_model(linear_inputs)
        if self.dnn_model._expects_training_arg:
            if training is None:
                training = backend.learning_phase()
            dnn_output = self.dnn_model(dnn_inputs, training=training)
        else:
            dnn_output = self.dnn_model(dnn_inputs)
        output = nest.map_structure(lambda x, y: x + y, linear_output, dnn_output)
        if self.activation:
            return nest.map_structure(self.activation, output)
        return output

    def _make_train_function(self) -> None:
        """The v1 training function: the linear model's weights updated by the first
        optimizer, the DNN's by the second (or both by the one optimizer)."""
        has_recompiled = self._recompile_weights_loss_and_weighted_metrics()
        if len(self.trainable_weights) != len(self._collected_trainable_weights):
            # once per process, as TF's log_first_n (GANs freeze a model every step)
            logging.log_first_n(logging.WARN, "Discrepancy between trainable weights and "
                                "collected trainable weights, did you set `model.trainable` "
                                "without calling `model.compile` after ?", 1)
        if self.train_function is not None and not has_recompiled:
            return
        current = self._get_trainable_state()
        self._set_trainable_state(self._compiled_trainable_state)
        inputs = self._model_feed_inputs() + self._feed_targets + self._feed_sample_weights + \
            self._learning_phase_feed()
        if isinstance(self.optimizer, (list, tuple)):
            linear_optimizer, dnn_optimizer = self.optimizer
        else:
            linear_optimizer = dnn_optimizer = self.optimizer
        with backend.get_graph().as_default():
            with backend.name_scope("training"):
                updates: List[Any] = []
                updates += linear_optimizer.get_updates(
                    params=self.linear_model.trainable_weights, loss=self.total_loss)
                updates += dnn_optimizer.get_updates(
                    params=self.dnn_model.trainable_weights, loss=self.total_loss)
                updates += self.get_updates_for(None)
                updates += self.get_updates_for(self.inputs)
            results = [m._call_result for m in self._training_eval_metrics()
                       if hasattr(m, "_call_result")]
        with backend.name_scope("training"):
            self.train_function = backend.function(
                inputs, [self.total_loss] + results, updates=updates, name="train_function",
                **self._function_kwargs)
        self._set_trainable_state(current)

    def get_config(self) -> Dict[str, Any]:
        from tf1compat.keras.utils.serialization import serialize_keras_object
        config = {"linear_model": serialize_keras_object(self.linear_model),
                  "dnn_model": serialize_keras_object(self.dnn_model),
                  "activation": activations.serialize(self.activation)}
        return {**Layer.get_config(self), **config}

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None
                    ) -> "WideDeepModel":
        from tf1compat.keras.layers.serialization import deserialize
        config = dict(config)
        linear_model = deserialize(config.pop("linear_model"), custom_objects)
        dnn_model = deserialize(config.pop("dnn_model"), custom_objects)
        activation = activations.deserialize(config.pop("activation", None),
                                             custom_objects=custom_objects)
        return cls(linear_model=linear_model, dnn_model=dnn_model, activation=activation,
                   **config)
