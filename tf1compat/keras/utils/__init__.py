"""`tf.keras.utils`: progress bar, Sequence and enqueuers, numpy encodings, the custom
object registry and serialization helpers, `get_file` and the image conversions."""

# ruff: noqa: F401
from tf1compat.keras.utils.data_utils import (GeneratorEnqueuer, OrderedEnqueuer, Sequence,
                                              SequenceEnqueuer, pad_sequences)
from tf1compat.keras.utils.file_utils import get_file
from tf1compat.keras.utils.hdf5_matrix import HDF5Matrix
from tf1compat.keras.utils.generic_utils import Progbar
from tf1compat.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img
from tf1compat.keras.utils.io_utils import (disable_interactive_logging,
                                            enable_interactive_logging,
                                            is_interactive_logging_enabled)
from tf1compat.keras.utils.layer_utils import get_source_inputs
from tf1compat.keras.utils.multi_gpu_utils import multi_gpu_model
from tf1compat.keras.utils.vis_utils import model_to_dot, plot_model
from tf1compat.keras.utils import legacy
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
           "is_interactive_logging_enabled", "get_file", "array_to_img", "img_to_array",
           "load_img", "save_img", "plot_model", "model_to_dot", "HDF5Matrix",
           "multi_gpu_model", "legacy"]


# Names of tf-keras's tf.keras.utils that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.utils", globals())
