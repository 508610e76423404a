"""`tf.compat.v2` (`import tensorflow.compat.v2 as tf`): TF 2's API as TF 1.14/1.15 shipped
it beside the v1 one, for TF1-era code that imports it (TensorFlow Probability, the TPU
models' summaries, libraries written for both versions).

Under TF 1.x these are graph-building functions like the v1 ones, and most are the same
objects. `_tf_v2_names.py` (recorded from real TF by scripts/record_v2_names.py) says, name
by name, whether v1's object serves v2's calls unchanged, which arguments v2's form takes
where it differs, or that only v2 has the name; this module builds each namespace over
tf1compat's own v1 objects from it:

* a shared name is tf1compat's v1 object itself;
* a v2 form that is another v1 function (`where` is `where_v2`, `nn.max_pool` is
  `nn.max_pool_v2`, ...) or that fixes a v1 argument (`cond(strict=True)`,
  `nn.embedding_lookup(partition_strategy="div")`, ...) is built as TF builds it;
* any other function whose arguments differ takes v2's arguments (names, order) and passes
  them by name to the v1 function (renamed where v1 spells them otherwise: `filters` ->
  `filter`, `input` -> `value`, ...);
* a class whose v1 counterpart serves v2's use is v1's; `Variable` makes resource variables
  (TF 2's default) and recognises every variable; Keras' `LSTM`/`GRU` (and cells) carry
  TF 2's defaults;
* v2 forms tf1compat does not provide raise NotImplementedError naming them.

`summary` is TF 2's summary API (api/summary_v2.py); `compat` is tf1compat's `tf.compat`.
"""

from __future__ import annotations

import difflib as _difflib
import functools as _functools
import inspect as _inspect
import sys as _sys
import types as _types
from typing import Any, Callable, Dict, Tuple

from tf1compat.api import _tf_v2_names as _names
from tf1compat.api import summary_v2 as summary
from tf1compat.framework.missing import UnimplementedAPIError

__all__ = ["Variable", "summary"]
# Packages to the import system, so that `import tensorflow.compat.v2.nn` and `from
# tensorflow.compat.v2.keras import layers` reach the namespaces through tf1compat's shim.
__path__: list = []

# v2 forms that are another v1 function (TF 1.15's API files import them so).
_OTHER_FUNCTION = {
    "where": "where_v2",
    "batch_to_space": "batch_to_space_nd",
    "space_to_batch": "space_to_batch_nd",
    "nn.space_to_batch": "space_to_batch_nd",
    "nn.max_pool": "nn.max_pool_v2",
    "nn.avg_pool": "nn.avg_pool_v2",
    "nn.ctc_loss": "nn.ctc_loss_v2",
    "nn.softmax_cross_entropy_with_logits": "nn.softmax_cross_entropy_with_logits_v2",
    "random.set_seed": "set_random_seed",
}
# Arguments v2's form fixes where the recorded table cannot say (v2's function is not a
# call of v1's); the table records the others (`cond(strict=True)`, "div" shards, ...).
_FIXED_ARGUMENTS: Dict[str, Dict[str, Any]] = {
    "strings.split": {"result_type": "RaggedTensor"},
}
# v2 argument name -> the v1 names that carry it, tried in order where v1 lacks v2's name.
_RENAMED: Dict[str, Tuple[str, ...]] = {
    "filters": ("filter",),
    "input": ("value", "tensor", "string_tensor", "input_tensor", "t"),
    "input_tensor": ("input",),
    "threshold": ("thresh",),
    "box_indices": ("box_ind",),
    "dilations": ("dilation_rate", "rates"),
    "mean": ("m",),
    "variance": ("v",),
    "input_bytes": ("bytes",),
}
# Keras recurrent classes whose TF 2 form has other defaults (keras/layers/recurrent_v2.py).
_KERAS_V2_DEFAULTS = {
    "LSTM": {"recurrent_activation": "sigmoid"},
    "LSTMCell": {"recurrent_activation": "sigmoid"},
    "GRU": {"recurrent_activation": "sigmoid", "reset_after": True},
    "GRUCell": {"recurrent_activation": "sigmoid", "reset_after": True},
}
# v2 names whose TF 1.15 form dropped a deprecated v1 argument that TF 2 took back: TF
# 2's v2 function is v1's again (`l2_normalize(..., dim=None)`).
_V1_AGAIN_IN_TF2 = frozenset({"nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize"})
# v2 forms tf1compat does not build, with what to use instead.
_NOT_PROVIDED = {
    "saved_model.load": "TF 2's object-based SavedModel loading is not implemented; use "
                        "tf.saved_model.loader.load(sess, tags, export_dir)",
    "test.compute_gradient": "TF 2's form (a function and its Jacobians) is not implemented; "
                             "use tf.test.compute_gradient(x, x_shape, y, y_shape)",
}


# TF 2's initializers (variables/init_ops_v2.py) under their v2 names.
_INITIALIZERS_V2 = {
    "zeros_initializer": "Zeros", "ones_initializer": "Ones",
    "constant_initializer": "Constant", "random_normal_initializer": "RandomNormal",
    "random_uniform_initializer": "RandomUniform",
    **{f"keras.initializers.{name}": name for name in (
        "Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
        "TruncatedNormal", "VarianceScaling", "Orthogonal", "Identity", "GlorotUniform",
        "GlorotNormal", "lecun_normal", "lecun_uniform", "he_normal", "he_uniform")},
    **{f"keras.initializers.{name.lower()}": name for name in (
        "Zeros", "Ones", "Constant", "Orthogonal", "Identity")},
    "keras.initializers.glorot_uniform": "GlorotUniform",
    "keras.initializers.glorot_normal": "GlorotNormal",
}


def _v2_only_form(path: str) -> Any:
    """v2 forms that TF 1.x's v1 API does not export under any name."""
    from tf1compat.ops import image_ops
    from tf1compat.variables import init_ops_v2
    if path in _INITIALIZERS_V2:
        return getattr(init_ops_v2, _INITIALIZERS_V2[path])
    from tf1compat.framework.constant_op import constant_v2
    return {"constant": constant_v2, "image.resize": image_ops.resize_images_v2,
            "image.ResizeMethod": image_ops.ResizeMethodV2}.get(path)


_UNSET = object()


def _v1_object(path: str) -> Any:
    import tf1compat
    obj: Any = tf1compat
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as e:
            raise UnimplementedAPIError(
                f"tf.compat.v2.{path} is not implemented by tf1compat: its TensorFlow 1.x "
                f"counterpart is missing ({e})") from None
    return obj


def _v2_signature(parameters: Tuple[str, ...],
                  defaults: Dict[str, Any]) -> _inspect.Signature:
    """v2's signature with its recorded defaults (one the table could not record shows as
    a placeholder). Binding a call without applying defaults keeps exactly the arguments
    the caller gave, which are the ones passed on (v1's own defaults apply to the rest)."""
    from tf1compat.framework import dtypes
    kind = _inspect.Parameter.POSITIONAL_OR_KEYWORD
    out = []
    for name in parameters:
        if name == "*":
            kind = _inspect.Parameter.KEYWORD_ONLY
        elif name.startswith("**"):
            out.append(_inspect.Parameter(name[2:], _inspect.Parameter.VAR_KEYWORD))
        elif name.startswith("*"):
            out.append(_inspect.Parameter(name[1:], _inspect.Parameter.VAR_POSITIONAL))
            kind = _inspect.Parameter.KEYWORD_ONLY
        else:
            default = defaults.get(name, _inspect.Parameter.empty)
            if isinstance(default, tuple) and default[:1] == ("__dtype__",):
                default = dtypes.as_dtype(default[1])
            elif isinstance(default, tuple) and default[:1] == ("__unrecorded__",):
                default = _UNSET
            out.append(_inspect.Parameter(name, kind, default=default))
    return _inspect.Signature(out)


def _by_name(path: str, v1_fn: Callable, parameters: Tuple[Tuple[str, ...], Dict[str, Any]],
             fixed: Dict[str, Any]) -> Callable:
    """v2's function `path`: binds a call to v2's parameters (names, recorded defaults)
    and calls the v1 function with the given arguments by name (v1's spelling), plus the
    `fixed` ones."""
    signature = _v2_signature(*parameters)
    try:
        v1_parameters = _inspect.signature(v1_fn).parameters.values()
    except (TypeError, ValueError):
        v1_parameters = ()
    v1_names = {p.name for p in v1_parameters}
    required = {p.name for p in v1_parameters if p.default is p.empty}
    # v1 taking any keyword (a class whose constructor Python cannot read, a **kwargs
    # function) gets v2's names unchanged.
    open_keywords = not v1_names or any(p.kind is p.VAR_KEYWORD for p in v1_parameters)
    spelled = {}
    for name in signature.parameters:
        options = [o for o in (name,) + _RENAMED.get(name, ()) if o in v1_names]
        # v1 functions that take v2's spelling as an optional alias (`filters=None`)
        # still require their own (`filter`): the required spelling wins.
        options.sort(key=lambda o: o not in required)
        spelled[name] = options[0] if options else (name if open_keywords else None)

    @_functools.wraps(v1_fn)
    def v2_function(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        call: Dict[str, Any] = dict(fixed)
        for name, value in bound.arguments.items():
            param = signature.parameters[name]
            if param.kind is param.VAR_KEYWORD:
                call.update(value)
                continue
            if param.kind is param.VAR_POSITIONAL:
                raise NotImplementedError(f"tf.compat.v2.{path}: positional *{name} "
                                          "arguments are not supported by tf1compat")
            if spelled[name] is None:
                raise NotImplementedError(
                    f"tf.compat.v2.{path}: the argument {name!r} has no counterpart in "
                    "tf1compat's TensorFlow 1.x function")
            call[spelled[name]] = value
        return v1_fn(**call)

    v2_function.__signature__ = signature  # type: ignore[attr-defined]
    # `wraps` copied v1's TFDecorator record (a dispatchable v1 function is one); kept, it
    # would make tf_inspect report v1's arguments, where TF's v2 function is its own
    # (TFP 0.8's prefer_static compares `tf.compat.v2.reduce_all`'s spec with v2's).
    for key in ("_tf_decorator", "__original_wrapped__"):
        v2_function.__dict__.pop(key, None)
    v2_function.__doc__ = (f"tf.compat.v2.{path}: TF 2's arguments {parameters[0]}, passed by "
                           f"name to tf1compat's `{getattr(v1_fn, '__name__', path)}`.\n\n"
                           + (v1_fn.__doc__ or ""))
    return v2_function


class _V2VariableMeta(type):
    """`tf.compat.v2.Variable(...)` creates a resource variable (TF 2's default);
    `isinstance(v, tf.compat.v2.Variable)` holds for every tf1compat variable."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        parameters = ("initial_value", "trainable", "validate_shape", "caching_device",
                      "name", "variable_def", "dtype", "import_scope", "constraint",
                      "synchronization", "aggregation", "shape")
        unset = {name: ("__unrecorded__",) for name in parameters}    # v1's defaults apply
        return _by_name("Variable", _v1_object("Variable"), (parameters, unset),
                        {"use_resource": True})(*args, **kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _v1_object("Variable"))

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _v1_object("Variable"))


class Variable(metaclass=_V2VariableMeta):
    """`tf.compat.v2.Variable`: TF 2's variable constructor over tf1compat's variables."""


def _keras_v2_class(name: str, v1_class: type) -> type:
    """Keras' TF 2 recurrent class: v1's class with TF 2's defaults."""
    defaults = _KERAS_V2_DEFAULTS[name]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        for key, value in defaults.items():
            kwargs.setdefault(key, value)
        v1_class.__init__(self, *args, **kwargs)

    return type(name, (v1_class,), {"__init__": __init__, "__module__": __name__,
                                    "__doc__": f"TF 2's `{name}`: {defaults} by default."})


def _keras_batch_normalization_v2(v1_class: type) -> type:
    """Keras' TF 2 BatchNormalization (keras/layers/normalization_v2.py): a layer that is
    not trainable normalizes with its moving statistics whatever `training` says."""

    def _get_training_value(self: Any, training: Any = None) -> Any:
        training = v1_class._get_training_value(self, training)
        if isinstance(training, int):
            training = bool(training)
        return training if self.trainable else False

    return type("BatchNormalization", (v1_class,), {
        "_get_training_value": _get_training_value, "__module__": __name__,
        "__doc__": "TF 2's `BatchNormalization`: inference mode when not trainable."})


def _resolve(path: str) -> Any:
    """The object v2's `path` names, built from the recorded tables."""
    ns, _, name = path.rpartition(".")
    if path in _NOT_PROVIDED:
        raise UnimplementedAPIError(f"tf.compat.v2.{path} is not implemented by tf1compat: "
                                    f"{_NOT_PROVIDED[path]}.")
    if path == "Variable":
        return Variable
    form = _v2_only_form(path)
    if form is not None:
        return form
    if path == "raw_ops":           # the same ops in both APIs
        return _v1_object(path)
    if path in _names.ALIASES:
        return _namespace(_names.ALIASES[path])
    if path in _names.SHARED or path in _names.DIFFERING:
        return _namespace(path)
    if path in _OTHER_FUNCTION:
        target = _v1_object(_OTHER_FUNCTION[path])
        parameters = _names.DIFFERING.get(ns, {}).get(name)
        return _by_name(path, target, parameters[:2], {}) if parameters else target
    if name in _names.SHARED.get(ns, ()) or path in _V1_AGAIN_IN_TF2:
        return _v1_object(path)
    differing = _names.DIFFERING.get(ns, {})
    if name in differing:
        v1 = _v1_object(path)
        if ns.endswith("layers") and name in _KERAS_V2_DEFAULTS:
            return _keras_v2_class(name, v1)
        if ns.endswith("layers") and name == "BatchNormalization":
            return _keras_batch_normalization_v2(v1)
        parameters = differing[name]
        if parameters is None:      # a class or a value: v1's serves v2's use
            return v1
        fixed = {**(parameters[2] if len(parameters) > 2 else {}),
                 **_FIXED_ARGUMENTS.get(path, {})}
        return _by_name(path, v1, parameters[:2], fixed)
    if name in _names.V2_ONLY.get(ns, ()):
        raise UnimplementedAPIError(f"tf.compat.v2.{path} exists only in TensorFlow 2's API "
                                    "and is not implemented by tf1compat.")
    where = f"tf.compat.v2.{ns}" if ns else "tf.compat.v2"
    close = _difflib.get_close_matches(name, _namespace(ns).__dir__() if ns else __dir__(), n=3)
    hint = f" Did you mean {', '.join(f'{where}.{c}' for c in close)}?" if close else ""
    raise AttributeError(f"module '{where}' has no attribute {name!r}.{hint}")


class _Namespace(_types.ModuleType):
    """One namespace of `tf.compat.v2` (`tf.compat.v2.nn`, `...keras.layers`, ...), its
    names resolved on first use."""

    __path__: list = []

    def __init__(self, path: str):
        super().__init__(f"{__name__}.{path}")
        self._path = path

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = _resolve(f"{self._path}.{name}")
        setattr(self, name, value)
        return value

    def __dir__(self) -> list:
        ns = self._path
        return sorted(set(_names.SHARED.get(ns, ())) | set(_names.DIFFERING.get(ns, {}))
                      | set(_names.V2_ONLY.get(ns, ())) | _children(ns))


def _children(ns: str) -> set:
    prefix = f"{ns}." if ns else ""
    return {p[len(prefix):] for p in list(_names.SHARED) + list(_names.ALIASES)
            if p.startswith(prefix) and p != ns and "." not in p[len(prefix):]}


@_functools.cache
def _namespace(path: str) -> _Namespace:
    module = _Namespace(path)
    _sys.modules[module.__name__] = module
    return module


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "compat":
        import tf1compat
        return tf1compat.compat
    # Cached apart from the module's globals: v2 names such as `tuple` must not shadow
    # the builtins this module's code uses.
    if name not in _TOP_LEVEL:
        _TOP_LEVEL[name] = _resolve(name)
    return _TOP_LEVEL[name]


_TOP_LEVEL: Dict[str, Any] = {}


def __dir__() -> list:
    return sorted(set(_names.SHARED[""]) | set(_names.DIFFERING.get("", {})) | _children("")
                  | {"summary", "compat"})
