"""Keras core layers: Dense, Dropout, Flatten, Activation, Reshape, Permute, RepeatVector,
Lambda, Masking, Identity."""

from __future__ import annotations

import functools
import inspect
import numbers
import operator
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.keras import activations, backend
from tf1compat.keras.backend_core import numpy_op_seed
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.weight_args import (add_bias, add_kernel, kernel_bias_config,
                                                set_kernel_bias_args)
from tf1compat.ops import array_ops, math_ops

__all__ = ["Dense", "Dropout", "Flatten", "Activation", "Reshape", "Permute", "RepeatVector",
           "Lambda", "Masking", "Identity", "smart_cond", "constant_value", "LegacySeed"]


def constant_value(pred: Any) -> Optional[bool]:
    """The Python value of a training flag, or None for a tensor not known at graph build."""
    from tf1compat.framework.constant_value import constant_value as _cv
    if isinstance(pred, Tensor):
        value = _cv(pred)
        return None if value is None else bool(value)
    if pred in {0, 1}:
        return bool(pred)
    if isinstance(pred, bool):
        return pred
    raise TypeError(f"`pred` must be a Tensor, or a Python bool, or 1 or 0. Received: {pred}")


def smart_cond(pred: Any, true_fn: Callable, false_fn: Callable,
               name: Optional[str] = None) -> Any:
    """Keras' smart_cond: the branch when `pred` is known, else `tf.cond`."""
    from tf1compat.ops.cond import smart_cond as _smart_cond
    return _smart_cond(pred, true_fn, false_fn, name=name)


class LegacySeed:
    """Keras' legacy-stateful random generator seeds: None, or seed, seed + 1, ... per op."""

    def __init__(self, seed: Optional[int]):
        self._seed = seed

    def next(self) -> Optional[int]:
        if self._seed is None:
            return numpy_op_seed(None)     # None, unless standalone Keras's seeding
        seed = self._seed
        self._seed += 1
        return seed


class Dense(Layer):
    """`activation(inputs @ kernel + bias)`; inputs of rank > 2 contract their last axis."""

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units) if not isinstance(units, int) else units
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape: Any) -> None:
        dtype = D.as_dtype(self.dtype or backend.floatx())
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError("A Dense layer can only be built with a floating-point dtype. "
                            f"Received: dtype={dtype}")
        input_shape = TensorShape(input_shape)
        last_dim = dimension_value(input_shape[-1])
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = add_kernel(self, [last_dim, self.units])
        self.bias = add_bias(self, [self.units])
        self.built = True

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.linalg_ops import matmul, tensordot
        from tf1compat.ops.nn_ops import bias_add
        if inputs.dtype.base_dtype != D.as_dtype(self._compute_dtype).base_dtype:
            inputs = math_ops.cast(inputs, self._compute_dtype)
        rank = inputs.shape.rank
        if rank == 2 or rank is None:
            outputs = matmul(inputs, self.kernel)
        else:
            outputs = tensordot(inputs, self.kernel, [[rank - 1], [0]])
            shape = inputs.shape.as_list()
            outputs.set_shape(shape[:-1] + [self.kernel.shape.as_list()[-1]])
        if self.use_bias:
            outputs = bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        input_shape = TensorShape(input_shape).with_rank_at_least(2)
        if dimension_value(input_shape[-1]) is None:
            raise ValueError("The last dimension of the input shape of a Dense layer should be "
                             f"defined. Found None. Received: input_shape={input_shape}")
        return input_shape[:-1].concatenate(self.units)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({
            "units": self.units, "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **kernel_bias_config(self)})
        return config


class Dropout(Layer):
    """Drops inputs with probability `rate` in training (`training` or the learning phase),
    scaling the rest by 1 / (1 - rate)."""

    def __init__(self, rate: Any, noise_shape: Any = None, seed: Optional[int] = None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             "between 0 and 1.")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self._seeds = LegacySeed(seed)
        self.supports_masking = True

    def _get_noise_shape(self, inputs: Tensor) -> Any:
        if self.noise_shape is None:
            return None
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        concrete = array_ops.shape(inputs)
        return convert_to_tensor([concrete[i] if value is None else value
                                  for i, value in enumerate(self.noise_shape)])

    def call(self, inputs: Any, training: Any = None) -> Any:
        from tf1compat.ops.nn_ops import dropout_v2
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return array_ops.identity(inputs)
        if training is None:
            training = backend.learning_phase()

        def dropped() -> Any:
            return dropout_v2(inputs, self.rate, noise_shape=self._get_noise_shape(inputs),
                              seed=self._seeds.next())
        return smart_cond(training, dropped, lambda: array_ops.identity(inputs))

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


class Flatten(Layer):
    """Flattens all but the batch axis (channels_first inputs are moved to channels_last)."""

    def __init__(self, data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)
        self._channels_first = self.data_format == "channels_first"

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.transform_ops import transpose
        if self._channels_first:
            rank = inputs.shape.rank
            if rank and rank > 1:
                inputs = transpose(inputs, perm=[0] + list(range(2, rank)) + [1])
        input_shape = inputs.shape
        if input_shape.rank == 1:
            return array_ops.expand_dims(inputs, axis=1)
        batch_dim = dimension_value(input_shape[0])
        non_batch = input_shape[1:]
        if non_batch.is_fully_defined():
            last_dim = int(functools.reduce(operator.mul, non_batch.as_list(), 1))
            shape = constant([-1, last_dim])
        elif batch_dim is not None:
            shape = constant([int(batch_dim), -1])
        else:
            shape = [array_ops.shape(inputs)[0], -1]
        return array_ops.reshape(inputs, shape)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        if not dims:
            return TensorShape([1])
        out = [dims[0]]
        out.append(int(np.prod(dims[1:])) if all(dims[1:]) else None)
        return TensorShape(out)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"data_format": self.data_format})
        return config


class Activation(Layer):
    """Applies an activation function (a name such as 'relu', or a callable)."""

    def __init__(self, activation: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"activation": activations.serialize(self.activation)})
        return config


class Reshape(Layer):
    """Reshapes to (batch,) + target_shape (one -1 allowed)."""

    def __init__(self, target_shape: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def _fix_unknown_dimension(self, input_shape: list, output_shape: Any) -> list:
        output_shape = list(output_shape)
        msg = ("total size of new array must be unchanged, input_shape = "
               f"{input_shape}, output_shape = {output_shape}")
        known, unknown = 1, None
        for index, dim in enumerate(output_shape):
            if dim < 0:
                if unknown is None:
                    unknown = index
                else:
                    raise ValueError("There must be at most one unknown dimension in "
                                     f"output_shape. Received: output_shape={output_shape}.")
            else:
                known *= dim
        original = int(np.prod(input_shape, dtype=int))
        if unknown is not None:
            if known == 0 or original % known != 0:
                raise ValueError(msg)
            output_shape[unknown] = original // known
        elif original != known:
            raise ValueError(msg)
        return output_shape

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        if None in dims[1:]:
            out = [dims[0]] + [s if s != -1 else None for s in self.target_shape]
        else:
            out = [dims[0]] + self._fix_unknown_dimension(dims[1:], self.target_shape)
        return TensorShape(out)

    def call(self, inputs: Any) -> Any:
        result = array_ops.reshape(inputs, (array_ops.shape(inputs)[0],) + self.target_shape)
        result.set_shape(self.compute_output_shape(inputs.shape))
        return result

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"target_shape": self.target_shape})
        return config


class Permute(Layer):
    """Permutes the non-batch axes (`dims` are 1-based)."""

    def __init__(self, dims: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set "
                             "of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        out = list(dims)
        for i, dim in enumerate(self.dims):
            out[i + 1] = dims[dim]
        return TensorShape(out)

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.transform_ops import transpose
        return transpose(inputs, perm=(0,) + self.dims)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"dims": self.dims})
        return config


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""

    def __init__(self, n: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        return TensorShape([dims[0], self.n, dims[1]])

    def call(self, inputs: Any) -> Any:
        return backend.repeat(inputs, self.n)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"n": self.n})
        return config


class Lambda(Layer):
    """Wraps `function(inputs, **arguments)` as a layer."""

    def __init__(self, function: Callable, output_shape: Any = None, mask: Any = None,
                 arguments: Optional[dict] = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.arguments = arguments or {}
        self.function = function
        self.supports_masking = mask is not None
        self.mask = mask
        self._output_shape = output_shape
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_expects_training_arg = "training" in params
        self._fn_expects_mask_arg = "mask" in params

    def call(self, inputs: Any, mask: Any = None, training: Any = None) -> Any:
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def compute_output_shape(self, input_shape: Any) -> Any:
        if self._output_shape is None:
            raise NotImplementedError("Lambda.compute_output_shape needs `output_shape` in "
                                      "tf1compat")
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = TensorShape(input_shape).as_list()[0] if not isinstance(input_shape, list) \
            else None
        return TensorShape([batch] + list(self._output_shape))

    def get_config(self) -> dict:
        function, function_type, module = _function_to_config(self.function)
        shape, shape_type, shape_module = _function_to_config(self._output_shape,
                                                              allow_raw=True)
        config = {"function": function, "function_type": function_type, "module": module,
                  "output_shape": shape, "output_shape_type": shape_type,
                  "output_shape_module": shape_module}
        if self.mask is not None:
            mask, mask_type, mask_module = _function_to_config(self.mask)
            config.update({"mask": mask, "mask_type": mask_type, "mask_module": mask_module})
        config["arguments"] = self.arguments
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Optional[dict] = None) -> "Lambda":
        config = dict(config)
        config["function"] = _function_from_config(config, custom_objects, "function",
                                                   "module", "function_type")
        config["output_shape"] = _function_from_config(
            config, custom_objects, "output_shape", "output_shape_module",
            "output_shape_type")
        config["mask"] = _function_from_config(config, custom_objects, "mask", "mask_module",
                                               "mask_type") if "mask" in config else None
        # Numpy arguments saved as {"type": "ndarray", "value": [...]} come back as arrays.
        for key, value in config.get("arguments", {}).items():
            if isinstance(value, dict) and value.get("type") == "ndarray":
                config["arguments"][key] = np.array(value["value"])
        return cls(**config)


def _function_to_config(function: Any, allow_raw: bool = False) -> tuple:
    """`(value, type, module)` as tf-keras's Lambda stores a function: any Python function
    (a `lambda` or a `def`) as `func_dump`'s marshalled bytecode ("lambda"), another
    callable by its `__name__` ("function"), a plain value as is ("raw")."""
    import types
    from tf1compat.keras.utils.generic_utils import func_dump
    if isinstance(function, types.LambdaType):
        return func_dump(function), "lambda", function.__module__
    if callable(function):
        return function.__name__, "function", function.__module__
    if allow_raw:
        return function, "raw", None
    raise ValueError(f"Invalid input for serialization, type: {type(function)} ")


def _function_from_config(config: dict, custom_objects: Optional[dict], attr: str,
                          module_attr: str, type_attr: str) -> Any:
    """The function `_function_to_config` stored under `attr` (popping its module and
    type): marshalled bytecode is bound to the globals of its module when that module is
    imported (with the custom objects on top), as tf-keras does."""
    import sys
    import warnings
    from tf1compat.keras.utils.generic_utils import func_load
    from tf1compat.keras.utils.serialization import deserialize_keras_object
    globs = dict(globals())
    module = config.pop(module_attr, None)
    if module in sys.modules:
        globs.update(sys.modules[module].__dict__)
    elif module is not None:
        warnings.warn(f"{module} is not loaded, but a Lambda layer uses it. It may cause "
                      "errors.", UserWarning, stacklevel=3)
    if custom_objects:
        globs.update(custom_objects)
    function_type = config.pop(type_attr)
    if function_type == "function":
        try:
            return deserialize_keras_object(config[attr], custom_objects=custom_objects,
                                            printable_module_name="function in Lambda layer")
        except ValueError as e:
            # tf-keras's TF1 path looks an unknown name up in `module_objects=None`.
            raise AttributeError(str(e)) from None
    if function_type == "lambda":
        return func_load(config[attr], globs=globs)
    if function_type == "raw":
        return config[attr]
    raise TypeError("Unsupported value for `function_type` argument. Received: "
                    f"function_type={function_type}. Expected one of "
                    "['function', 'lambda', 'raw']")


class Masking(Layer):
    """Masks timesteps whose features all equal `mask_value` (zeroes them and sets the
    output mask that downstream layers, RNNs and losses use)."""

    def __init__(self, mask_value: float = 0.0, **kwargs: Any):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.mask_value = mask_value

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        from tf1compat.ops.reduction_ops import reduce_any
        return reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs: Any) -> Any:
        from tf1compat.keras.engine.masking import set_mask
        from tf1compat.ops.reduction_ops import reduce_any
        boolean_mask = reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1,
                                  keepdims=True)
        outputs = inputs * math_ops.cast(boolean_mask, inputs.dtype)
        set_mask(outputs, array_ops.squeeze(boolean_mask, axis=-1))
        return outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "mask_value": self.mask_value}


class Identity(Layer):
    """Returns its inputs (an Identity op per tensor)."""

    def call(self, inputs: Any) -> Any:
        from tf1compat.util import nest
        return nest.map_structure(array_ops.identity, inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape
