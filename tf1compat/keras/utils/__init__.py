"""`tf.keras.utils`: progress bar, Sequence and enqueuers, numpy encodings, the custom
object registry and serialization helpers."""

# ruff: noqa: F401
from typing import Any

from tf1compat.keras.utils.data_utils import (GeneratorEnqueuer, OrderedEnqueuer, Sequence,
                                              SequenceEnqueuer, pad_sequences)
from tf1compat.keras.utils.generic_utils import Progbar
from tf1compat.keras.utils.io_utils import (disable_interactive_logging,
                                            enable_interactive_logging,
                                            is_interactive_logging_enabled)
from tf1compat.keras.utils.layer_utils import get_source_inputs
from tf1compat.keras.utils.vis_utils import model_to_dot, plot_model
from tf1compat.keras.utils.np_utils import normalize, to_categorical, to_ordinal
from tf1compat.keras.utils.serialization import (CustomObjectScope, custom_object_scope,
                                                 deserialize_keras_object,
                                                 get_custom_objects, get_registered_name,
                                                 get_registered_object,
                                                 register_keras_serializable,
                                                 serialize_keras_object)

__all__ = ["Progbar", "Sequence", "SequenceEnqueuer", "OrderedEnqueuer",
           "GeneratorEnqueuer", "pad_sequences", "to_categorical", "to_ordinal",
           "normalize", "get_source_inputs", "CustomObjectScope", "custom_object_scope",
           "get_custom_objects", "register_keras_serializable", "get_registered_name",
           "get_registered_object", "serialize_keras_object", "deserialize_keras_object",
           "enable_interactive_logging", "disable_interactive_logging",
           "is_interactive_logging_enabled", "get_file", "plot_model", "model_to_dot"]


def get_file(fname: str, origin: str, *args: Any, **kwargs: Any) -> str:
    raise NotImplementedError(f"tf.keras.utils.get_file cannot download {origin!r}: "
                              "tf1compat runs offline; put the file in place and open it "
                              "directly")

