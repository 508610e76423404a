"""`tf.keras.layers.InputLayer` and `tf.keras.Input`: the placeholders functional models
start from (`input_1`, `input_2`, ... or a given name), or an existing tensor wrapped."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.base_layer import Layer

__all__ = ["InputLayer", "Input"]


class KerasTensor(Tensor):
    """The placeholder of an Input made under eager execution. tf-keras returns a
    KerasTensor there, named after its layer without an output index (`input_1`, where
    graph mode's placeholder is `input_1:0`); the graph keeps the placeholder's full name."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self._op._name


class InputLayer(Layer):
    """The layer behind `tf.keras.Input`: a placeholder (or the given tensor)."""

    def __init__(self, input_shape: Any = None, batch_size: Optional[int] = None,
                 dtype: Any = None, input_tensor: Any = None, sparse: Optional[bool] = None,
                 name: Optional[str] = None, ragged: Optional[bool] = None,
                 type_spec: Any = None, optional: bool = False, **kwargs: Any):
        if type_spec is not None or ragged:
            raise NotImplementedError("InputLayer with `type_spec` or `ragged` is not "
                                      "supported by tf1compat")
        if "batch_input_shape" in kwargs:
            batch_input_shape = kwargs.pop("batch_input_shape")
            if input_shape and batch_input_shape:
                raise ValueError("Only provide the input_shape OR batch_input_shape argument to "
                                 "InputLayer, not both at the same time.")
            if batch_input_shape is not None:
                input_shape = batch_input_shape[1:]
                batch_size = batch_input_shape[0]
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs.keys())}")
        if sparse and ragged:
            raise ValueError("Cannot set both sparse and ragged to True in a TF-Keras input.")
        if not name:
            name = "input_" + str(backend.get_uid("input"))
        if not dtype:
            dtype = backend.floatx() if input_tensor is None else input_tensor.dtype
        elif input_tensor is not None and input_tensor.dtype != dtype:
            raise ValueError("`input_tensor.dtype` differs from `dtype`. Received: "
                             f"input_tensor.dtype={input_tensor.dtype} but expected "
                             f"dtype={dtype}")
        super().__init__(dtype=dtype, name=name)
        self.built = True
        self.sparse = bool(sparse)
        self.ragged = False
        self.optional = optional
        self.batch_size = batch_size
        self.supports_masking = True
        if isinstance(input_shape, Tensor):
            raise TypeError("`input_shape` must be a tuple of ints, not a Tensor")
        if input_tensor is None:
            batch_input_shape = (batch_size,) + tuple(input_shape) if input_shape is not None \
                else None
            with backend.get_graph().as_default():
                input_tensor = backend.placeholder(shape=batch_input_shape, dtype=dtype,
                                                   sparse=self.sparse, name=self.name)
            if executing_eagerly() and type(input_tensor) is Tensor:
                input_tensor.__class__ = KerasTensor
            self.is_placeholder = True
            self._batch_input_shape = batch_input_shape
        else:
            if not isinstance(input_tensor, Tensor):
                raise ValueError("You should not pass an EagerTensor to `Input`. For example, "
                                 "instead of creating an `InputLayer`, you should instantiate "
                                 "your model and directly call it on your input.")
            self.is_placeholder = False
            shape = input_tensor.shape
            self._batch_input_shape = tuple(shape.as_list()) if shape.rank is not None \
                else None
        node_module.Node(self, (), {}, input_tensor)

    def get_config(self) -> dict:
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
                "sparse": self.sparse, "ragged": self.ragged, "name": self.name,
                "optional": self.optional}


def Input(shape: Any = None, batch_size: Optional[int] = None,  # noqa: N802 - TF's name
          name: Optional[str] = None, dtype: Any = None, sparse: Optional[bool] = None,
          tensor: Any = None, ragged: Optional[bool] = None, type_spec: Any = None,
          **kwargs: Any) -> Tensor:
    """`tf.keras.Input`: a Keras tensor (placeholder) to build functional models from."""
    if sparse and ragged:
        raise ValueError("Cannot set both `sparse` and `ragged` to `True` in a Keras `Input`.")
    layer_kwargs = {"name": name, "dtype": dtype, "sparse": sparse, "ragged": ragged,
                    "input_tensor": tensor, "type_spec": type_spec}
    batch_input_shape = kwargs.pop("batch_input_shape", kwargs.pop("batch_shape", None))
    if shape is not None and batch_input_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_input_shape` argument to Input, "
                         "not both at the same time.")
    if batch_input_shape is None and shape is None and tensor is None and type_spec is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs.keys())}")
    if batch_input_shape:
        layer_kwargs["batch_input_shape"] = batch_input_shape
    else:
        layer_kwargs["input_shape"] = shape
        layer_kwargs["batch_size"] = batch_size
    input_layer = InputLayer(**layer_kwargs)
    return input_layer._inbound_nodes[0].outputs
