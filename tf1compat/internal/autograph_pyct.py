"""`tensorflow.python.autograph.{pyct,core,converters}`: TF's internal AutoGraph
source-transformation library. tf1compat does not implement it (its `tf.autograph` runs
functions as written); the paths import so that libraries that use it in one optional
feature load (TensorFlow Probability's `tfp.experimental.auto_batching` frontend
subclasses `pyct.transformer.Base` at import time), and using any of it raises
NotImplementedError naming it."""

from typing import Any, NoReturn

from tf1compat.framework.missing import UnimplementedAPIError


def _unimplemented(name: str) -> NoReturn:
    raise UnimplementedAPIError(
        f"tensorflow.python.autograph's {name} is not implemented by tf1compat: TF's "
        "AutoGraph AST library (pyct, converters) is not part of tf1compat; "
        "tfp.experimental.auto_batching's Python frontend needs it.")


class Base:
    """`pyct.transformer.Base` (the AST transformer base class): subclasses can be defined,
    constructing one raises NotImplementedError."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unimplemented("transformer.Base")


def __getattr__(name: str) -> Any:  # noqa: N807 - module protocol
    if name.startswith("__"):
        raise AttributeError(name)
    _unimplemented(name)
