"""`tf.keras.saving`: whole-model HDF5 files, weights files and model configs."""

# ruff: noqa: F401
from tf1compat.keras.saving.model_config import (model_from_config, model_from_json,
                                                 model_from_yaml)
from tf1compat.keras.saving.save import load_model, save_model
from tf1compat.keras.utils.serialization import (custom_object_scope, deserialize_keras_object,
                                                 get_custom_objects, get_registered_name,
                                                 get_registered_object,
                                                 register_keras_serializable,
                                                 serialize_keras_object)

__all__ = ["save_model", "load_model", "model_from_config", "model_from_json",
           "model_from_yaml", "serialize_keras_object", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object",
           "register_keras_serializable", "custom_object_scope"]

# Names of tf-keras's tf.keras.saving that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.saving", globals())
