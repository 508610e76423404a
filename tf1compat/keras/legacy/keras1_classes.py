"""The classes of standalone `import keras` that take Keras 1 arguments, as Keras 2.2.4's.

Each is a subclass of its tf.keras class whose constructor (and, for models, `fit` and the
generator methods) first applies Keras 2.2.4's conversion rule (legacy/interfaces.py):
`keras.layers.Dense(output_dim=10, init='normal')` warns "Update your `Dense` call to the
Keras 2 API: `Dense(units=10, kernel_initializer="normal")`" and builds a tf.keras Dense.
The subclasses answer `isinstance`/`issubclass` for every instance of their tf.keras class
(a model loaded from a file holds tf.keras layers; `isinstance(layer, keras.layers.Dense)`
still holds), serialize under the tf.keras class name, and leave `tf.keras` itself strict
(TypeError for Keras 1 arguments, as TF's). tf1compat/shim_keras.py looks names up here
before tf.keras's.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Tuple

from tf1compat.keras import layers as keras_layers
from tf1compat.keras.engine import base_layer, input_layer, sequential, training
from tf1compat.keras.legacy import interfaces
from tf1compat.keras.legacy.interfaces import LegacyInterface

__all__ = ["CLASSES", "Model", "Network", "Sequential", "InputLayer", "Layer"]


class _Keras2Alias(type):
    """Metaclass of a Keras 1 front class: its tf.keras base's instances and subclasses
    count as its own (user subclasses of the front class check as usual)."""

    def __instancecheck__(cls, instance: Any) -> bool:
        base = cls.__dict__.get("_keras2_class")
        return isinstance(instance, base) if base is not None else super().__instancecheck__(
            instance)

    def __subclasscheck__(cls, subclass: type) -> bool:
        base = cls.__dict__.get("_keras2_class")
        return issubclass(subclass, base) if base is not None else super().__subclasscheck__(
            subclass)


def _front_class(base: type, rule: LegacyInterface, extra: Optional[Dict[str, Any]] = None,
                 mixins: Tuple[type, ...] = ()) -> type:
    """`base` under its own name, its constructor converting Keras 1 arguments by `rule`
    (`mixins` come first in its bases, `extra` in its namespace)."""
    base_init = base.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        args, kwargs = rule.convert(type(self).__name__, (self,) + args, kwargs)
        base_init(*args, **kwargs)

    namespace = {"__init__": __init__, "__doc__": base.__doc__, "_keras2_class": base,
                 "__module__": __name__, **(extra or {})}
    return _Keras2Alias(base.__name__, mixins + (base,), namespace)


def _simple_rnn_rule() -> LegacyInterface:
    """SimpleRNN's rule also drops `implementation` with Keras 2.2.4's warning."""
    rule = interfaces.legacy_recurrent_support

    class SimpleRNNRule(LegacyInterface):
        def convert(self, object_name: str, args: Tuple[Any, ...], kwargs: Dict[str, Any],
                    stacklevel: int = 3) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
            args, kwargs = rule.convert(object_name, args, kwargs, stacklevel + 1)
            if "implementation" in kwargs:
                kwargs.pop("implementation")
                warnings.warn("The `implementation` argument in `SimpleRNN` has been "
                              "deprecated. Please remove it from your layer call.",
                              stacklevel=stacklevel + 1)
            return args, kwargs

    return SimpleRNNRule()


# tf.keras layer class name -> Keras 2.2.4's rule for its constructor.
_LAYER_RULES: Dict[str, LegacyInterface] = {
    "Dense": interfaces.legacy_dense_support,
    "Dropout": interfaces.legacy_dropout_support,
    "SpatialDropout1D": interfaces.legacy_spatialdropout1d_support,
    "SpatialDropout2D": interfaces.legacy_spatialdropoutNd_support,
    "SpatialDropout3D": interfaces.legacy_spatialdropoutNd_support,
    "Lambda": interfaces.legacy_lambda_support,
    "Embedding": interfaces.legacy_embedding_support,
    "PReLU": interfaces.legacy_prelu_support,
    "GaussianNoise": interfaces.legacy_gaussiannoise_support,
    "GaussianDropout": interfaces.legacy_gaussiandropout_support,
    "BatchNormalization": interfaces.legacy_batchnorm_support,
    "Conv1D": interfaces.legacy_conv1d_support,
    "Conv2D": interfaces.legacy_conv2d_support,
    "Conv3D": interfaces.legacy_conv3d_support,
    "Conv2DTranspose": interfaces.legacy_deconv2d_support,
    "SeparableConv2D": interfaces.legacy_separable_conv2d_support,
    "LocallyConnected1D": interfaces.legacy_conv1d_support,
    "LocallyConnected2D": interfaces.legacy_conv2d_support,
    "ConvLSTM2D": interfaces.legacy_convlstm2d_support,
    "UpSampling1D": interfaces.legacy_upsampling1d_support,
    "UpSampling2D": interfaces.legacy_upsampling2d_support,
    "UpSampling3D": interfaces.legacy_upsampling3d_support,
    "ZeroPadding2D": interfaces.legacy_zeropadding2d_support,
    "ZeroPadding3D": interfaces.legacy_zeropadding3d_support,
    "Cropping2D": interfaces.legacy_cropping2d_support,
    "Cropping3D": interfaces.legacy_cropping3d_support,
    "MaxPooling1D": interfaces.legacy_pooling1d_support,
    "AveragePooling1D": interfaces.legacy_pooling1d_support,
    "MaxPooling2D": interfaces.legacy_pooling2d_support,
    "AveragePooling2D": interfaces.legacy_pooling2d_support,
    "MaxPooling3D": interfaces.legacy_pooling3d_support,
    "AveragePooling3D": interfaces.legacy_pooling3d_support,
    "GlobalMaxPooling2D": interfaces.legacy_global_pooling_support,
    "GlobalAveragePooling2D": interfaces.legacy_global_pooling_support,
    "GlobalMaxPooling3D": interfaces.legacy_global_pooling_support,
    "GlobalAveragePooling3D": interfaces.legacy_global_pooling_support,
    "SimpleRNN": _simple_rnn_rule(),
    "GRU": interfaces.legacy_recurrent_support,
    "LSTM": interfaces.legacy_recurrent_support,
}

# Keras 2.2.4's other names of those classes (keras/layers/{convolutional,pooling}.py).
_ALIASES = {
    "Convolution1D": "Conv1D", "Convolution2D": "Conv2D", "Convolution3D": "Conv3D",
    "Convolution2DTranspose": "Conv2DTranspose", "Deconvolution2D": "Conv2DTranspose",
    "Deconv2D": "Conv2DTranspose", "SeparableConvolution2D": "SeparableConv2D",
    "MaxPool1D": "MaxPooling1D", "AvgPool1D": "AveragePooling1D",
    "MaxPool2D": "MaxPooling2D", "AvgPool2D": "AveragePooling2D",
    "MaxPool3D": "MaxPooling3D", "AvgPool3D": "AveragePooling3D",
    "GlobalMaxPool2D": "GlobalMaxPooling2D", "GlobalAvgPool2D": "GlobalAveragePooling2D",
    "GlobalMaxPool3D": "GlobalMaxPooling3D", "GlobalAvgPool3D": "GlobalAveragePooling3D",
}

CLASSES: Dict[str, type] = {name: _front_class(getattr(keras_layers, name), rule)
                            for name, rule in _LAYER_RULES.items()}
CLASSES.update({alias: CLASSES[name] for alias, name in _ALIASES.items()})
CLASSES["Deconvolution3D"] = CLASSES["Deconv3D"] = keras_layers.Conv3DTranspose
globals().update(CLASSES)
__all__ += sorted(CLASSES)


class _Keras1Training:
    """Keras 2.2.4's `fit(nb_epoch=)` and the Keras 1 arguments of the generator methods
    (`samples_per_epoch`, `nb_val_samples`, `pickle_safe`, ...)."""

    def fit(self, *args: Any, **kwargs: Any) -> Any:
        if "nb_epoch" in kwargs:
            warnings.warn("The `nb_epoch` argument in `fit` has been renamed `epochs`.",
                          stacklevel=2)
            kwargs["epochs"] = kwargs.pop("nb_epoch")
        return super().fit(*args, **kwargs)   # type: ignore[misc]

    def fit_generator(self, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = interfaces.legacy_generator_methods_support.convert(
            "fit_generator", (self,) + args, kwargs)
        return super().fit_generator(*args[1:], **kwargs)   # type: ignore[misc]

    def evaluate_generator(self, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = interfaces.legacy_generator_methods_support.convert(
            "evaluate_generator", (self,) + args, kwargs)
        return super().evaluate_generator(*args[1:], **kwargs)   # type: ignore[misc]

    def predict_generator(self, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = interfaces.legacy_generator_methods_support.convert(
            "predict_generator", (self,) + args, kwargs)
        return super().predict_generator(*args[1:], **kwargs)   # type: ignore[misc]


Model = _front_class(training.Model, interfaces.legacy_model_constructor_support,
                     mixins=(_Keras1Training,))
# Keras 2.2.4's Network (engine/network.py) is the layer graph Model adds training to;
# tf.keras merged the two.
Network = Model
Sequential = _front_class(sequential.Sequential, LegacyInterface(),
                          mixins=(_Keras1Training,))
InputLayer = _front_class(input_layer.InputLayer, interfaces.legacy_input_support)


def _add_weight(self: Any, *args: Any, **kwargs: Any) -> Any:
    """Keras 1's `add_weight(shape, name, ...)` order as well as Keras 2's."""
    args, kwargs = interfaces.legacy_add_weight_support.convert(
        type(self).__name__, (self,) + args, kwargs)
    return base_layer.Layer.add_weight(*args, **kwargs)


Layer = _front_class(base_layer.Layer, LegacyInterface(), {"add_weight": _add_weight})
