"""`keras.legacy.interfaces`: Keras 1 keyword arguments accepted by standalone Keras 2.2.4.

Keras 2.2.4 still took Keras 1's spellings (`Dense(output_dim=10, init='normal')`,
`Conv2D(32, 3, 3, border_mode='same')`, `LSTM(output_dim=..., dropout_W=...)`,
`fit_generator(samples_per_epoch=..., nb_epoch=...)`, `Model(input=, output=)`), renamed
them to Keras 2's and warned with a UserWarning "Update your `X` call to the Keras 2 API:
`X(...)`" that spells the converted call. `LegacyInterface` is one such conversion rule;
the `legacy_*_support` decorators are the rules of each Keras 2.2.4 class and method, with
the names scripts import (`from keras.legacy import interfaces`;
`@interfaces.legacy_get_updates_support` on custom optimizers). Only standalone
`import keras` applies them (tf1compat/keras/legacy/keras1_classes.py): tf.keras raises
TypeError for Keras 1 arguments, as TF's does.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["LegacyInterface", "generate_legacy_interface",
           "generate_legacy_method_interface", "raise_duplicate_arg_error"]

Args = Tuple[Any, ...]
Kwargs = Dict[str, Any]
# A preprocessor rewrites (args, kwargs) before the renames; True when it converted
# something (the call then warns).
Preprocessor = Callable[[Args, Kwargs], Tuple[Args, Kwargs, bool]]

_DIM_ORDERING = {"dim_ordering": {"tf": "channels_last", "th": "channels_first",
                                  "default": None}}


def _shown(value: Any) -> str:
    """A value as the warning spells it: strings quoted, others cut to 10 characters."""
    if isinstance(value, str):
        return '"' + value + '"'
    text = "array" if isinstance(value, np.ndarray) else str(value)
    return text[:10] + "..." if len(text) > 10 else text


def _keras2_call(name: str, args: Sequence[Any], kwargs: Kwargs) -> str:
    parts = [_shown(value) for value in args]
    parts += [key + "=" + _shown(value) for key, value in kwargs.items()]
    return "`" + name + "(" + ", ".join(parts) + ")`"


def raise_duplicate_arg_error(old_arg: str, new_arg: str) -> None:
    """The TypeError for a call that passes both a Keras 1 name and its Keras 2 name."""
    raise TypeError(f"For the `{new_arg}` argument, the layer received both the legacy "
                    f"keyword argument `{old_arg}` and the Keras 2 keyword argument "
                    f"`{new_arg}`. Stick to the latter!")


class LegacyInterface:
    """One Keras 2.2.4 conversion rule: Keras 1 keyword `renames` (old, new), value
    conversions per keyword, an optional `preprocessor`, and the positional arguments
    the callable takes (None: not checked). `object_type` 'class' names the warning after
    the instance's class (the first argument is `self`), 'method' after the function."""

    def __init__(self, allowed_positional_args: Optional[List[str]] = None,
                 conversions: Sequence[Tuple[str, str]] = (),
                 preprocessor: Optional[Preprocessor] = None,
                 value_conversions: Optional[Dict[str, Dict[Any, Any]]] = None,
                 object_type: str = "class"):
        self.allowed_positional_args = allowed_positional_args
        self.conversions = list(conversions)
        self.preprocessor = preprocessor
        self.value_conversions = value_conversions or {}
        self.object_type = object_type

    def convert(self, object_name: str, args: Args, kwargs: Kwargs,
                stacklevel: int = 3) -> Tuple[Args, Kwargs]:
        """(args, kwargs) in Keras 2's spelling; `args[0]` is the instance. Warns when it
        converted anything; TypeError for too many positional or duplicated arguments."""
        kwargs = dict(kwargs)
        converted = False
        if self.preprocessor is not None:
            args, kwargs, converted = self.preprocessor(tuple(args), kwargs)
        allowed = self.allowed_positional_args
        if allowed is not None and len(args) > len(allowed) + 1:
            raise TypeError(f"`{object_name}` can accept only {len(allowed)} positional "
                            f"arguments {tuple(allowed)}, but you passed the following "
                            f"positional arguments: {list(args[1:])}")
        for key, table in self.value_conversions.items():
            if key in kwargs:
                try:
                    kwargs[key] = table.get(kwargs[key], kwargs[key])
                except TypeError:     # an unhashable value: nothing to convert
                    pass
        for old_name, new_name in self.conversions:
            if old_name in kwargs:
                value = kwargs.pop(old_name)
                if new_name in kwargs:
                    raise_duplicate_arg_error(old_name, new_name)
                kwargs[new_name] = value
                converted = True
        if converted:
            warnings.warn(f"Update your `{object_name}` call to the Keras 2 API: "
                          + _keras2_call(object_name, args[1:], kwargs),
                          UserWarning, stacklevel=stacklevel)
        return tuple(args), kwargs

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """`func` taking the Keras 1 arguments (a decorator, as Keras 2.2.4's)."""

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            name = (type(args[0]).__name__ if self.object_type == "class"
                    else func.__name__)
            args, kwargs = self.convert(name, args, kwargs)
            return func(*args, **kwargs)

        wrapper._original_function = func   # type: ignore[attr-defined]
        return wrapper


def generate_legacy_interface(allowed_positional_args: Optional[List[str]] = None,
                              conversions: Sequence[Tuple[str, str]] = (),
                              preprocessor: Optional[Preprocessor] = None,
                              value_conversions: Optional[Dict[str, Dict[Any, Any]]] = None,
                              object_type: str = "class") -> LegacyInterface:
    """A decorator converting Keras 1 arguments of a class's `__init__` (or a method)."""
    return LegacyInterface(allowed_positional_args, conversions, preprocessor,
                           value_conversions, object_type)


def generate_legacy_method_interface(**kwargs: Any) -> LegacyInterface:
    """`generate_legacy_interface` for a method (the warning names the method)."""
    return LegacyInterface(object_type="method", **kwargs)


# -- preprocessors ------------------------------------------------------------------------

def _input_dim_to_shape(kwargs: Kwargs) -> bool:
    """Keras 1's `input_dim` (+ `input_length`) of sequence layers as `input_shape`."""
    if "input_dim" not in kwargs:
        return False
    length = kwargs.pop("input_length", None)
    kwargs["input_shape"] = (length, kwargs.pop("input_dim"))
    return True


def _forget_bias(kwargs: Kwargs) -> bool:
    if "forget_bias_init" not in kwargs:
        return False
    if kwargs.pop("forget_bias_init") == "one":
        kwargs["unit_forget_bias"] = True
        return True
    warnings.warn("The `forget_bias_init` argument has been ignored. Use "
                  "`unit_forget_bias=True` instead to initialize with ones.", stacklevel=4)
    return False


def _recurrent_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    converted = _forget_bias(kwargs)
    if _input_dim_to_shape(kwargs):
        converted = True
        warnings.warn("The `input_dim` and `input_length` arguments in recurrent layers "
                      "are deprecated. Use `input_shape` instead.", stacklevel=4)
    return args, kwargs, converted


def _embedding_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    if "dropout" in kwargs:
        kwargs.pop("dropout")
        warnings.warn("The `dropout` argument is no longer support in `Embedding`. You can "
                      "apply a `keras.layers.SpatialDropout1D` layer right after the "
                      "`Embedding` layer to get the same behavior.", stacklevel=4)
    return args, kwargs, False


def _conv1d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    return args, kwargs, _input_dim_to_shape(kwargs)


_STRIDES_AMBIGUOUS = ("It seems that you are using the Keras 2 and you are passing both "
                      "`kernel_size` and `strides` as integer positional arguments. For "
                      "safety reasons, this is disallowed. Pass `strides` as a keyword "
                      "argument instead.")


def _check_no_keras2_keywords(kwargs: Kwargs) -> None:
    if any(keyword in kwargs for keyword in ("padding", "strides", "data_format")):
        raise ValueError(_STRIDES_AMBIGUOUS)


def _conv2d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's kernel `nb_row, nb_col` (positional or keyword) as `kernel_size`."""
    if len(args) > 4:
        raise TypeError("Layer can receive at most 3 positional arguments.")
    if len(args) == 4:
        if isinstance(args[2], int) and isinstance(args[3], int):
            _check_no_keras2_keywords(kwargs)
            return (args[0], args[1], (args[2], args[3])), kwargs, True
    elif len(args) == 3 and isinstance(args[2], int):
        if "nb_col" in kwargs:
            return (args[0], args[1], (args[2], kwargs.pop("nb_col"))), kwargs, True
    elif len(args) in (1, 2) and "nb_row" in kwargs and "nb_col" in kwargs:
        kernel = (kwargs.pop("nb_row"), kwargs.pop("nb_col"))
        if len(args) == 2:
            return (args[0], args[1], kernel), kwargs, True
        kwargs["kernel_size"] = kernel
        return args, kwargs, True
    return args, kwargs, False


def _conv3d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's kernel `kernel_dim1..3` (positional or keyword) as `kernel_size`."""
    names = ("kernel_dim1", "kernel_dim2", "kernel_dim3")
    if len(args) > 5:
        raise TypeError("Layer can receive at most 4 positional arguments.")
    if len(args) == 5:
        if all(isinstance(x, int) for x in args[2:5]):
            return (args[0], args[1], tuple(args[2:5])), kwargs, True
    elif len(args) == 4 and isinstance(args[3], int):
        if isinstance(args[2], int):
            _check_no_keras2_keywords(kwargs)
        if "kernel_dim3" in kwargs:
            kernel = (args[2], args[3], kwargs.pop("kernel_dim3"))
            return (args[0], args[1], kernel), kwargs, True
    elif len(args) == 3:
        if all(name in kwargs for name in names[1:]):
            kernel = (args[2],) + tuple(kwargs.pop(name) for name in names[1:])
            return (args[0], args[1], kernel), kwargs, True
    elif len(args) in (1, 2) and all(name in kwargs for name in names):
        kernel = tuple(kwargs.pop(name) for name in names)
        if len(args) == 2:
            return (args[0], args[1], kernel), kwargs, True
        kwargs["kernel_size"] = kernel
        return args, kwargs, True
    return args, kwargs, False


def _separable_conv2d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    converted = False
    if "init" in kwargs:
        kwargs["depthwise_initializer"] = kwargs["pointwise_initializer"] = kwargs.pop("init")
        converted = True
    args, kwargs, kernel_converted = _conv2d_preprocessor(args, kwargs)
    return args, kwargs, converted or kernel_converted


def _deconv2d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's `output_shape` of Deconvolution2D is dropped (Keras 2 infers it)."""
    converted = False
    if len(args) == 5 and isinstance(args[4], tuple):
        args, converted = args[:-1], True
    if "output_shape" in kwargs:
        kwargs.pop("output_shape")
        converted = True
    args, kwargs, kernel_converted = _conv2d_preprocessor(args, kwargs)
    return args, kwargs, converted or kernel_converted


def _convlstm2d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    converted = _forget_bias(kwargs)
    args, kwargs, kernel_converted = _conv2d_preprocessor(args, kwargs)
    return args, kwargs, converted or kernel_converted


def _batchnorm_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    if len(args) > 1:
        raise TypeError("The `BatchNormalization` layer does not accept positional "
                        "arguments. Use keyword arguments instead.")
    if "mode" not in kwargs:
        return args, kwargs, False
    if kwargs.pop("mode") != 0:
        raise TypeError("The `mode` argument of `BatchNormalization` no longer exists. "
                        "`mode=1` and `mode=2` are no longer supported.")
    return args, kwargs, True


def _pad_pairs(padding: Dict[str, int]) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    return ((padding.get("top_pad", 0), padding.get("bottom_pad", 0)),
            (padding.get("left_pad", 0), padding.get("right_pad", 0)))


_PAD_KEYS = {"top_pad", "bottom_pad", "left_pad", "right_pad"}


def _zeropadding2d_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's padding dict {top_pad, bottom_pad, left_pad, right_pad} as pairs."""
    padding = kwargs.get("padding")
    if isinstance(padding, dict):
        if set(padding) <= _PAD_KEYS:
            kwargs["padding"] = _pad_pairs(padding)
            warnings.warn("The `padding` argument in the Keras 2 API no longeraccepts dict "
                          "types. You can now input argument as: `padding=(top_pad, "
                          "bottom_pad, left_pad, right_pad)`.", stacklevel=4)
    elif len(args) == 2 and isinstance(args[1], dict) and set(args[1]) <= _PAD_KEYS:
        args = (args[0], _pad_pairs(args[1]))
        warnings.warn("The `padding` argument in the Keras 2 API no longeraccepts dict "
                      "types. You can now input argument as: `padding=((top_pad, "
                      "bottom_pad), (left_pad, right_pad))`", stacklevel=4)
    return args, kwargs, False


_GENERATOR_SEMANTICS = (
    "The semantics of the Keras 2 argument `steps_per_epoch` is not the same as the Keras "
    "1 argument `samples_per_epoch`. `steps_per_epoch` is the number of batches to draw "
    "from the generator at each epoch. Basically steps_per_epoch = "
    "samples_per_epoch/batch_size. Similarly `nb_val_samples`->`validation_steps` and "
    "`val_samples`->`steps` arguments have changed. Update your method calls accordingly.")


def _generator_methods_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """`samples_per_epoch` in batches when the generator knows its batch size (as Keras
    2.2.4 divided), with 2.2.4's warning about the changed semantics."""
    converted = False
    if len(args) < 3 and "samples_per_epoch" in kwargs:
        samples = kwargs.pop("samples_per_epoch")
        generator = args[1] if len(args) > 1 else kwargs["generator"]
        batch_size = getattr(generator, "batch_size", None)
        kwargs["steps_per_epoch"] = samples // batch_size if batch_size else samples
        converted = True
    if {"samples_per_epoch", "val_samples", "nb_epoch", "nb_val_samples",
            "nb_worker"} & set(kwargs):
        warnings.warn(_GENERATOR_SEMANTICS, stacklevel=4)
    return args, kwargs, converted


def _add_weight_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's `add_weight(shape, name, ...)` positional order."""
    if len(args) > 1 and isinstance(args[1], (tuple, list)):
        kwargs["shape"] = args[1]
        args = (args[0],) + tuple(args[2:])
        if len(args) > 1 and isinstance(args[1], str):
            kwargs["name"] = args[1]
            args = (args[0],) + tuple(args[2:])
    return args, kwargs, False


def _get_updates_preprocessor(args: Args, kwargs: Kwargs) -> Tuple[Args, Kwargs, bool]:
    """Keras 1's `get_updates(params, constraints, loss)` as `get_updates(loss, params)`."""
    if len(args) > 4:
        raise TypeError("`get_update` call received more arguments than expected.")
    if len(args) == 4:
        optimizer, params, _, loss = args
        kwargs["loss"], kwargs["params"] = loss, params
        return (optimizer,), kwargs, False
    if len(args) == 3 and isinstance(args[1], (list, tuple)) and "loss" in kwargs:
        kwargs["params"] = args[1]
        return (args[0],), kwargs, False
    return args, kwargs, False


# -- the rules of Keras 2.2.4's classes and methods ---------------------------------------

_WEIGHTS = [("init", "kernel_initializer"), ("W_regularizer", "kernel_regularizer"),
            ("b_regularizer", "bias_regularizer"), ("W_constraint", "kernel_constraint"),
            ("b_constraint", "bias_constraint"), ("bias", "use_bias")]
_CONV = [("nb_filter", "filters"), ("subsample", "strides"), ("border_mode", "padding"),
         ("dim_ordering", "data_format")]
_POOLING_ARGS = ["pool_size", "strides", "padding"]
_FORMAT_ONLY = [("dim_ordering", "data_format")]

legacy_dense_support = LegacyInterface(["units"], [("output_dim", "units")] + _WEIGHTS)
legacy_dropout_support = LegacyInterface(["rate", "noise_shape", "seed"], [("p", "rate")])
legacy_embedding_support = LegacyInterface(
    ["input_dim", "output_dim"],
    [("init", "embeddings_initializer"), ("W_regularizer", "embeddings_regularizer"),
     ("W_constraint", "embeddings_constraint")], _embedding_preprocessor)
legacy_pooling1d_support = LegacyInterface(
    _POOLING_ARGS, [("pool_length", "pool_size"), ("stride", "strides"),
                    ("border_mode", "padding")])
legacy_prelu_support = LegacyInterface(["alpha_initializer"], [("init", "alpha_initializer")])
legacy_gaussiannoise_support = LegacyInterface(["stddev"], [("sigma", "stddev")])
legacy_recurrent_support = LegacyInterface(
    ["units"],
    [("output_dim", "units"), ("init", "kernel_initializer"),
     ("inner_init", "recurrent_initializer"), ("inner_activation", "recurrent_activation"),
     ("W_regularizer", "kernel_regularizer"), ("b_regularizer", "bias_regularizer"),
     ("U_regularizer", "recurrent_regularizer"), ("dropout_W", "dropout"),
     ("dropout_U", "recurrent_dropout"), ("consume_less", "implementation")],
    _recurrent_preprocessor, {"consume_less": {"cpu": 0, "mem": 1, "gpu": 2}})
legacy_gaussiandropout_support = LegacyInterface(["rate"], [("p", "rate")])
legacy_pooling2d_support = LegacyInterface(
    _POOLING_ARGS, [("border_mode", "padding")] + _FORMAT_ONLY, None, _DIM_ORDERING)
legacy_pooling3d_support = legacy_pooling2d_support
legacy_global_pooling_support = LegacyInterface(None, _FORMAT_ONLY, None, _DIM_ORDERING)
legacy_upsampling1d_support = LegacyInterface(["size"], [("length", "size")])
legacy_upsampling2d_support = LegacyInterface(["size"], _FORMAT_ONLY, None, _DIM_ORDERING)
legacy_upsampling3d_support = legacy_upsampling2d_support
legacy_conv1d_support = LegacyInterface(
    ["filters", "kernel_size"],
    [("nb_filter", "filters"), ("filter_length", "kernel_size"),
     ("subsample_length", "strides"), ("border_mode", "padding")] + _WEIGHTS,
    _conv1d_preprocessor)
legacy_conv2d_support = LegacyInterface(["filters", "kernel_size"], _CONV + _WEIGHTS,
                                        _conv2d_preprocessor, _DIM_ORDERING)
legacy_separable_conv2d_support = LegacyInterface(
    ["filters", "kernel_size"], _CONV + _WEIGHTS[2:3] + _WEIGHTS[4:],
    _separable_conv2d_preprocessor, _DIM_ORDERING)
legacy_deconv2d_support = LegacyInterface(["filters", "kernel_size"], _CONV + _WEIGHTS,
                                          _deconv2d_preprocessor, _DIM_ORDERING)
legacy_conv3d_support = LegacyInterface(["filters", "kernel_size"], _CONV + _WEIGHTS,
                                        _conv3d_preprocessor, _DIM_ORDERING)
legacy_convlstm2d_support = LegacyInterface(
    ["filters", "kernel_size"],
    _CONV + [("init", "kernel_initializer"), ("inner_init", "recurrent_initializer"),
             ("W_regularizer", "kernel_regularizer"),
             ("U_regularizer", "recurrent_regularizer"),
             ("b_regularizer", "bias_regularizer"),
             ("inner_activation", "recurrent_activation"), ("dropout_W", "dropout"),
             ("dropout_U", "recurrent_dropout"), ("bias", "use_bias")],
    _convlstm2d_preprocessor, _DIM_ORDERING)
legacy_batchnorm_support = LegacyInterface(
    [], [("beta_init", "beta_initializer"), ("gamma_init", "gamma_initializer")],
    _batchnorm_preprocessor)
legacy_zeropadding2d_support = LegacyInterface(["padding"], _FORMAT_ONLY,
                                               _zeropadding2d_preprocessor, _DIM_ORDERING)
legacy_zeropadding3d_support = LegacyInterface(["padding"], _FORMAT_ONLY, None,
                                               _DIM_ORDERING)
legacy_cropping2d_support = LegacyInterface(["cropping"], _FORMAT_ONLY, None, _DIM_ORDERING)
legacy_cropping3d_support = legacy_cropping2d_support
legacy_spatialdropout1d_support = LegacyInterface(["rate"], [("p", "rate")])
legacy_spatialdropoutNd_support = LegacyInterface(["rate"], [("p", "rate")] + _FORMAT_ONLY,
                                                  None, _DIM_ORDERING)
legacy_lambda_support = LegacyInterface(["function", "output_shape"])
legacy_generator_methods_support = LegacyInterface(
    ["generator", "steps_per_epoch", "epochs"],
    [("samples_per_epoch", "steps_per_epoch"), ("val_samples", "steps"),
     ("nb_epoch", "epochs"), ("nb_val_samples", "validation_steps"),
     ("nb_worker", "workers"), ("pickle_safe", "use_multiprocessing"),
     ("max_q_size", "max_queue_size")],
    _generator_methods_preprocessor, object_type="method")
legacy_model_constructor_support = LegacyInterface(None, [("input", "inputs"),
                                                          ("output", "outputs")])
legacy_input_support = LegacyInterface(None, [("input_dtype", "dtype")])
legacy_add_weight_support = LegacyInterface(["name", "shape"], (),
                                            _add_weight_preprocessor)
legacy_get_updates_support = LegacyInterface(None, (), _get_updates_preprocessor)

__all__ += sorted(name for name in dict(globals()) if name.startswith("legacy_"))
