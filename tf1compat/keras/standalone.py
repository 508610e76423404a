"""Names of the standalone Keras 2.2.4 package (TensorFlow backend) that `tf.keras` lacks.

`import keras` under `tf1compat run` resolves to tf1compat's Keras (tf1compat/shim_keras.py);
the standalone package's backend and engine modules have a few names of their own that
2018-era scripts use: `K.image_dim_ordering()`, `K.normalize_data_format`,
`K.tensorflow_backend._get_available_gpus()`. They live here, and the shim's modules look
them up after tf.keras's own (the classes taking Keras 1 arguments: keras/legacy/).
"""

from __future__ import annotations

from typing import List, Optional

from tf1compat.keras import backend

__all__ = ["image_dim_ordering", "set_image_dim_ordering", "normalize_data_format"]

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
