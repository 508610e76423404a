"""Standalone `import keras` (Keras 2.2.4 / 2.3.1 with the TensorFlow backend) resolving to
tf1compat's Keras, for `tf1compat run` and `tf1compat.install()` (tf1compat/shim.py).

Keras 2.2.4+ mirrors `tf.keras` (TF 1.15's tf.keras reports "2.2.4-tf"), so each module
path of the standalone package (`KERAS_PATHS`) stands for the tf1compat.keras modules that
hold its names: `keras.layers.merge` looks names up in tf1compat.keras.layers.merge, then
in tf1compat.keras.layers; `keras.backend.tensorflow_backend` in tf1compat.keras.backend,
then tf1compat/keras/standalone.py (the standalone package's own names:
`K.image_dim_ordering`, `_get_available_gpus`...); `K.tf` is tf1compat. Every path is a
module object of its own, so importing `keras.X` never sets attributes on tf1compat's
modules. The classes that took Keras 1 arguments in Keras 2.2.4 (`Dense(output_dim=)`,
`Conv2D(32, 3, 3, border_mode=)`, `Model(input=, output=)`, `fit(nb_epoch=)`...) come
from tf1compat/keras/legacy/keras1_classes.py, which converts them with 2.2.4's warning
(tf.keras stays strict). A path the standalone package has and tf1compat lacks (the
Theano/CNTK backends) fails with an ImportError naming it. A leaf module such as
`keras.layers.core` also answers names of the whole `keras.layers` namespace (lenient:
Keras 2.2.4 would raise ImportError for `from keras.layers.core import Conv2D`).

The mapping applies even when a real `keras` is installed: a script run under tf1compat
expects Keras on TF1 graphs (Keras 3 cannot run them, and Keras 2.4+ is tf.keras importing
TensorFlow internals). A `keras` already imported when the shim is installed is left
alone (mixing two Kerases would break both); `install(keras=False)` opts out.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings
from typing import Any, Dict, List, Tuple

__all__ = ["KERAS_PATHS", "KERAS_VERSION", "install", "uninstall"]

# The standalone Keras whose API tf.keras mirrors (and whose metric names, `acc`, it logs).
KERAS_VERSION = "2.2.4"

_K = "tf1compat.keras"
_LAYERS = f"{_K}.layers"
_KERAS1 = f"{_K}.legacy.keras1_classes"     # the classes taking Keras 1 arguments
_BACKEND = (f"{_K}.backend", f"{_K}.standalone")

# Standalone Keras module path -> the tf1compat modules its names come from (first wins).
KERAS_PATHS: Dict[str, Tuple[str, ...]] = {
    "keras": (_KERAS1, _K),
    "keras.activations": (f"{_K}.activations",),
    "keras.applications": (f"{_K}.applications",),
    "keras.backend": _BACKEND,
    "keras.backend.tensorflow_backend": _BACKEND,
    "keras.backend.common": _BACKEND,
    "keras.backend.load_backend": _BACKEND,
    "keras.callbacks": (f"{_K}.callbacks",),
    "keras.callbacks.callbacks": (f"{_K}.callbacks",),          # Keras 2.3's package
    "keras.callbacks.tensorboard_v1": (f"{_K}.callbacks",),
    "keras.constraints": (f"{_K}.constraints",),
    "keras.datasets": (f"{_K}.datasets",),
    "keras.datasets.cifar": (f"{_K}.datasets._cifar",),
    "keras.engine": (_KERAS1, f"{_K}.engine.base_layer", f"{_K}.engine.input_layer",
                     f"{_K}.engine.input_spec", f"{_K}.engine.training",
                     f"{_K}.utils.layer_utils"),
    "keras.engine.base_layer": (_KERAS1, f"{_K}.engine.base_layer", f"{_K}.engine.input_spec",
                                f"{_K}.engine.node"),
    "keras.engine.input_layer": (_KERAS1, f"{_K}.engine.input_layer"),
    "keras.engine.network": (_KERAS1, f"{_K}.standalone", f"{_K}.utils.layer_utils"),
    "keras.engine.saving": (f"{_K}.legacy.engine_saving", f"{_K}.saving.save",
                            f"{_K}.saving.model_config", f"{_K}.saving.hdf5_format"),
    "keras.engine.sequential": (_KERAS1, f"{_K}.engine.sequential"),
    # Keras 2.0's module of the layer graph, still re-exported by 2.2.4 and 2.3.1
    "keras.engine.topology": (_KERAS1, f"{_K}.engine.base_layer", f"{_K}.engine.input_layer",
                              f"{_K}.engine.input_spec", f"{_K}.engine.node",
                              f"{_K}.standalone", f"{_K}.utils.layer_utils"),
    "keras.engine.training": (_KERAS1, f"{_K}.engine.training", f"{_K}.engine.training_utils"),
    "keras.engine.training_utils": (f"{_K}.engine.training_utils",),
    "keras.engine.training_arrays": (f"{_K}.legacy.training_arrays",),
    "keras.engine.training_generator": (f"{_K}.legacy.training_generator",),
    "keras.initializers": (f"{_K}.initializers",),
    "keras.layers": (_KERAS1, f"{_K}.legacy.layers", _LAYERS),
    "keras.legacy": (f"{_K}.legacy",),
    "keras.legacy.interfaces": (f"{_K}.legacy.interfaces",),
    "keras.legacy.layers": (f"{_K}.legacy.layers",),
    "keras.losses": (f"{_K}.losses",),
    "keras.objectives": (f"{_K}.losses",),              # Keras 1's name of keras.losses
    "keras.metrics": (f"{_K}.metrics",),
    "keras.models": (_KERAS1, f"{_K}.models"),
    "keras.optimizers": (f"{_K}.optimizers",),
    "keras.preprocessing": (f"{_K}.preprocessing",),
    "keras.regularizers": (f"{_K}.regularizers",),
    "keras.utils": (f"{_K}.utils", f"{_K}.engine.summary"),   # print_summary
    "keras.utils.conv_utils": (f"{_LAYERS}.conv_utils",),
    "keras.wrappers": (f"{_K}.wrappers",),
    "keras.wrappers.scikit_learn": (f"{_K}.wrappers.scikit_learn",),
}
# keras.layers.<module>: the layer classes of that module; tf1compat groups them otherwise
# (keras.layers.noise's in regularization.py...), so the whole namespace comes second.
KERAS_PATHS.update({
    f"keras.layers.{module}": (_KERAS1, f"{_LAYERS}.{tf1compat_module}", _LAYERS)
    for module, tf1compat_module in (
        ("advanced_activations", "advanced"), ("convolutional", "convolutional"),
        ("convolutional_recurrent", "conv_recurrent"), ("core", "core"),
        ("cudnn_recurrent", "cudnn_recurrent"), ("embeddings", "embeddings"),
        ("local", "locally_connected"), ("merge", "merge"), ("noise", "regularization"),
        ("normalization", "normalization"), ("pooling", "pooling"),
        ("recurrent", "recurrent"), ("wrappers", "wrappers"))})
KERAS_PATHS.update({
    f"keras.{package}.{module}": (f"{_K}.{package}.{module}",)
    for package, modules in (
        ("applications", ("densenet", "imagenet_utils", "inception_resnet_v2", "inception_v3",
                          "mobilenet", "mobilenet_v2", "nasnet", "resnet", "resnet50",
                          "resnet_v2", "vgg16", "vgg19", "xception")),
        ("datasets", ("boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb",
                      "mnist", "reuters")),
        ("preprocessing", ("image", "sequence", "text")))
    for module in modules})
# keras.utils.<module>: tf1compat.keras.utils.<module>, then the utils namespace
# (Keras 2.2.4's data_utils.get_file is in file_utils.py here).
KERAS_PATHS.update({
    f"keras.utils.{module}": (f"{_K}.utils.{module}", f"{_K}.utils")
    for module in ("data_utils", "generic_utils", "io_utils", "layer_utils",
                   "multi_gpu_utils", "np_utils", "vis_utils")})
KERAS_PATHS["keras.utils.layer_utils"] = (f"{_K}.utils.layer_utils", f"{_K}.engine.summary",
                                          f"{_K}.utils")      # count_params, print_summary
KERAS_PATHS["keras.applications.mobilenetv2"] = (f"{_K}.applications.mobilenet_v2",)
# Keras 2.2.4 names tf.keras dropped (keras.optimizers.rmsprop, K.identity, ...), looked up last.
for _path in ("keras.optimizers", "keras.initializers", "keras.backend",
              "keras.backend.tensorflow_backend", "keras.utils.conv_utils",
              "keras.utils.generic_utils"):
    KERAS_PATHS[_path] = KERAS_PATHS[_path] + (f"{_K}.standalone_names",)

# Modules Keras 2.2.4's tensorflow_backend.py imports at its top and `keras.backend`
# re-exports through `from .tensorflow_backend import *`: code reaches TF through them
# (keras-yolo3's `K.control_flow_ops.while_loop`). TF paths resolve through the shim's
# INTERNAL_PATHS, as a program's own `from tensorflow.python.ops import ...` does.
BACKEND_MODULE_IMPORTS: Dict[str, str] = {
    "tf_ops": "tensorflow.python.framework.ops",
    "moving_averages": "tensorflow.python.training.moving_averages",
    "tensor_array_ops": "tensorflow.python.ops.tensor_array_ops",
    "control_flow_ops": "tensorflow.python.ops.control_flow_ops",
    "functional_ops": "tensorflow.python.ops.functional_ops",
    "ctc": "tensorflow.python.ops.ctc_ops",
    "device_lib": "tensorflow.python.client.device_lib",
    "config_pb2": "tensorflow.core.protobuf.config_pb2",
    "np": "numpy",
    "os": "os",
}

class _KerasModule(types.ModuleType):
    """A module of the standalone Keras package: its names are those of its tf1compat
    modules (first that has the name) and its submodules in KERAS_PATHS."""

    def __init__(self, name: str, sources: Tuple[str, ...]):
        super().__init__(name, f"tf1compat's standalone Keras module {name} "
                               f"(names from {', '.join(sources)})")
        self._tf1compat_sources = sources
        self.__path__: List[str] = []   # a package: submodules resolve through the finder
        if name == "keras":
            self.__version__ = KERAS_VERSION
        if name.startswith("keras.backend"):
            # Keras's TensorFlow backend module does `import tensorflow as tf`: `K.tf`
            import tf1compat
            self.tf = tf1compat

    def _sources(self) -> List[types.ModuleType]:
        return [_tf1compat_module(source) for source in self._tf1compat_sources]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name != "__all__":
            raise AttributeError(name)
        child = f"{self.__name__}.{name}"
        if child in KERAS_PATHS:   # `K.tensorflow_backend`, `keras.utils.np_utils`
            return importlib.import_module(child)
        if self.__name__.startswith("keras.backend") and name in BACKEND_MODULE_IMPORTS:
            from tf1compat.shim import INTERNAL_PATHS
            path = BACKEND_MODULE_IMPORTS[name]
            return importlib.import_module(INTERNAL_PATHS.get(path, path))
        if name == "__all__":
            return sorted({public for module in self._sources()
                           for public in getattr(module, "__all__", _public_names(module))})
        for module in self._sources():
            try:
                return getattr(module, name)
            except AttributeError:
                continue
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r} "
                             f"(tf1compat's standalone Keras takes its names from "
                             f"{', '.join(self._tf1compat_sources)})")

    def __dir__(self) -> List[str]:
        children = [path.rsplit(".", 1)[1] for path in KERAS_PATHS
                    if path.rsplit(".", 1)[0] == self.__name__]
        return sorted(set(super().__dir__()) | set(self.__all__) | set(children))


def _tf1compat_module(path: str) -> types.ModuleType:
    """The tf1compat module `path`, imported, or an attribute of its package (the
    per-architecture modules of tf1compat.keras.applications are built there)."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name != path:
            raise
        package, _, name = path.rpartition(".")
        module = getattr(importlib.import_module(package), name, None)
        if not isinstance(module, types.ModuleType):
            raise
        return module


def _public_names(module: types.ModuleType) -> List[str]:
    return [name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)]


_MODULES: Dict[str, _KerasModule] = {}


def _resolve(fullname: str) -> _KerasModule:
    """The module standing for `keras[.<...>]`; an ImportError naming a path it lacks."""
    sources = KERAS_PATHS.get(fullname)
    if sources is None:
        raise ModuleNotFoundError(   # (`from keras.layers import Foo` says "cannot import")
            f"tf1compat does not provide {fullname!r}: standalone `import keras` resolves "
            "to tf1compat's Keras (tf.keras, whose API Keras 2.2.4 mirrors, on the "
            "TensorFlow backend), which has no such module (docs/keras.md lists the "
            "standalone paths it maps).", name=fullname)
    if fullname not in _MODULES:
        _MODULES[fullname] = _KerasModule(fullname, sources)
    return _MODULES[fullname]


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: Any) -> types.ModuleType:
        return _resolve(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == "keras":
            # A script using standalone Keras gets Keras 2.2.4's numpy-drawn op seeds
            # (keras/backend_core.py); `uninstall()` turns them off again.
            from tf1compat.keras.backend_core import use_numpy_op_seeds
            use_numpy_op_seeds(True)


class _KerasFinder(importlib.abc.MetaPathFinder):
    """Resolves `keras` and `keras.*` imports to tf1compat's Keras."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.split(".")[0] != "keras":
            return None
        _resolve(fullname)   # raises the ImportError for a path tf1compat lacks
        return importlib.util.spec_from_loader(fullname, _Loader(), is_package=True)


_FINDER = _KerasFinder()


def install() -> None:
    """Makes `import keras[.X]` resolve to tf1compat's Keras (idempotent); leaves a `keras`
    that is already imported alone, with a warning."""
    if _FINDER in sys.meta_path:
        return
    imported = sys.modules.get("keras")
    if imported is not None and not isinstance(imported, _KerasModule):
        warnings.warn(f"tf1compat: `keras` is already imported (from "
                      f"{getattr(imported, '__file__', '?')}), so standalone `import keras` "
                      "does not resolve to tf1compat's Keras; import tf1compat (or run "
                      "the script with `tf1compat run`) before keras.", stacklevel=3)
        return
    sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Removes the `keras` mapping installed by `install()`."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name, module in list(sys.modules.items()):
        if isinstance(module, _KerasModule):
            del sys.modules[name]
    from tf1compat.keras.backend_core import use_numpy_op_seeds
    use_numpy_op_seeds(False)
