"""Names of the standalone Keras 2.2.4 package (TensorFlow backend) that `tf.keras` lacks.

`import keras` under `tf1compat run` resolves to tf1compat's Keras (tf1compat/shim_keras.py);
the standalone package's backend and engine modules have a few names of their own that
2018-era scripts use: `K.image_dim_ordering()`, `K.normalize_data_format`,
`K.tensorflow_backend._get_available_gpus()`, `keras.engine.network.Network`. They live
here, and the shim's modules look them up after tf.keras's own.
"""

from __future__ import annotations

import warnings
from typing import Any, List, Optional

from tf1compat.keras import backend
from tf1compat.keras.engine.training import Model
from tf1compat.keras.layers import convolutional

__all__ = ["image_dim_ordering", "set_image_dim_ordering", "normalize_data_format",
           "Network", "Conv2D", "Convolution2D", "Conv3D", "Convolution3D"]

# Keras 2.2.4's Network (engine/network.py) is the layer graph Model adds training to;
# tf.keras merged the two, and every Network method is a Model method.
Network = Model

_ORDERING_OF_FORMAT = {"channels_last": "tf", "channels_first": "th"}
_FORMAT_OF_ORDERING = {ordering: data_format
                       for data_format, ordering in _ORDERING_OF_FORMAT.items()}


def image_dim_ordering() -> str:
    """Keras 1's name of the image data format: 'tf' (channels_last) or 'th'."""
    return _ORDERING_OF_FORMAT[backend.image_data_format()]


def set_image_dim_ordering(dim_ordering: str) -> None:
    """Sets the image data format from Keras 1's name ('tf' or 'th')."""
    if dim_ordering not in _FORMAT_OF_ORDERING:
        raise ValueError("Unknown dim_ordering:", dim_ordering)
    backend.set_image_data_format(_FORMAT_OF_ORDERING[dim_ordering])


def normalize_data_format(value: Optional[str]) -> str:
    """`value` lower-cased, or the backend's image data format when None; a ValueError
    unless it is 'channels_first' or 'channels_last'."""
    if value is None:
        value = backend.image_data_format()
    data_format = value.lower()
    if data_format not in _ORDERING_OF_FORMAT:
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         '"channels_last". Received: ' + str(value))
    return data_format


def _get_available_gpus() -> List[str]:
    """The names of the local GPU devices ('/device:GPU:0', ...), as Keras's TensorFlow
    backend lists them (scripts call it to pick multi_gpu_model's `gpus`)."""
    from tf1compat.runtime.placement import list_local_devices
    return [device.name for device in list_local_devices()
            if device.device_type == "GPU"]


def _keras1_kernel_class(base: type, rank: int) -> type:
    """`base` taking Keras 1's spelling of the kernel as Keras 2.2.4's legacy interface did.

    `Conv2D(32, 3, 3)` (Keras 1: nb_filter, nb_row, nb_col) was, in the standalone package,
    a 3x3 kernel with a warning; tf.keras reads the third argument as `strides`. Scripts
    that `import keras` get the standalone meaning (a silent stride-3 convolution would
    be a wrong model).
    """
    name = base.__name__

    class KerasOneKernel(base):
        def __init__(self, filters: Any, *args: Any, **kwargs: Any):
            if len(args) > rank:
                raise TypeError("Layer can receive at most "
                                f"{rank + 1} positional arguments.")
            if len(args) == rank and all(isinstance(a, int) for a in args):
                kernel = tuple(args)
                warnings.warn(f"Update your `{name}` call to the Keras 2 API: "
                              f"`{name}({filters}, {kernel})`", stacklevel=2)
                args = (kernel,)
            super().__init__(filters, *args, **kwargs)

    KerasOneKernel.__name__ = KerasOneKernel.__qualname__ = name
    return KerasOneKernel


Conv2D = Convolution2D = _keras1_kernel_class(convolutional.Conv2D, 2)
Conv3D = Convolution3D = _keras1_kernel_class(convolutional.Conv3D, 3)
