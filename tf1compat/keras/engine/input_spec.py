"""`tf.keras.layers.InputSpec` and the input checks a layer runs before `build`/`call`."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["InputSpec", "assert_input_compatibility", "to_tensor_shape"]


class InputSpec:
    """What a layer accepts: dtype, shape or ndim (or bounds), and fixed axis sizes."""

    def __init__(self, dtype: Any = None, shape: Any = None, ndim: Optional[int] = None,
                 max_ndim: Optional[int] = None, min_ndim: Optional[int] = None,
                 axes: Any = None, allow_last_axis_squeeze: bool = False,
                 name: Optional[str] = None, optional: bool = False):
        self.dtype = D.as_dtype(dtype).name if dtype is not None else None
        shape = TensorShape(shape)
        shape = None if shape.rank is None else tuple(shape.as_list())
        if shape is not None:
            self.ndim = len(shape)
            self.shape = shape
        else:
            self.ndim = ndim
            self.shape = None
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.optional = optional
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError("Argument `axes` must be a dict with integer keys. "
                            f"Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: "
                                 f"{max_dim}")

    def __repr__(self) -> str:
        spec = [("dtype=" + str(self.dtype)) if self.dtype else "",
                ("shape=" + str(self.shape)) if self.shape else "",
                ("ndim=" + str(self.ndim)) if self.ndim else "",
                ("max_ndim=" + str(self.max_ndim)) if self.max_ndim else "",
                ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
                ("axes=" + str(self.axes)) if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"

    def get_config(self) -> dict:
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config: dict) -> "InputSpec":
        return cls(**config)


def to_tensor_shape(spec: InputSpec) -> TensorShape:
    if spec.ndim is None and spec.shape is None:
        return TensorShape(None)
    if spec.shape is not None:
        return TensorShape(spec.shape)
    shape: list = [None] * spec.ndim
    for a in spec.axes:
        shape[a] = spec.axes[a]
    return TensorShape(shape)


def _display(shape: TensorShape) -> str:
    return str(tuple(shape.as_list()))


def assert_input_compatibility(input_spec: Any, inputs: Any, layer_name: str) -> None:
    """Raises TF's ValueError when `inputs` do not satisfy `input_spec`."""
    if not input_spec:
        return
    input_spec = nest.flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in input_spec]
        if all(names):
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(f'Missing data for input "{missing[0]}". You passed a data '
                                 f"dictionary with keys {list(inputs.keys())}. Expected the "
                                 f"following keys: {names}")
            inputs = [inputs[n] for n in names]
    inputs = nest.flatten(inputs)
    for x, spec in zip(inputs, input_spec):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise TypeError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                            f"{type(x)}) as input for layer '{layer_name}'.")
    if len(inputs) != len(input_spec):
        raise ValueError(f'Layer "{layer_name}" expects {len(input_spec)} input(s), but it '
                         f"received {len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, input_spec)):
        if spec is None or (x is None and spec.optional):
            continue
        shape = TensorShape(x.shape)
        if shape.rank is None:
            return
        prefix = f'Input {index} of layer "{layer_name}" is incompatible with the layer: '
        ndim = shape.rank
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(prefix + f"expected ndim={spec.ndim}, found ndim={ndim}. Full "
                             f"shape received: {tuple(shape)}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(prefix + f"expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(prefix + f"expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                             f"Full shape received: {tuple(shape)}")
        if spec.dtype is not None and x.dtype.name != spec.dtype:
            raise ValueError(prefix + f"expected dtype={spec.dtype}, found dtype={x.dtype}")
        dims = shape.as_list()
        for axis, value in (spec.axes or {}).items():
            value = getattr(value, "value", value)
            if value is not None and dims[int(axis)] not in {value, None}:
                raise ValueError(f'Input {index} of layer "{layer_name}" is incompatible with '
                                 f"the layer: expected axis {axis} of input shape to have "
                                 f"value {value}, but received input with shape "
                                 f"{_display(shape)}")
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                if dims and dims[-1] == 1:
                    dims = dims[:-1]
                if spec_shape and spec_shape[-1] == 1:
                    spec_shape = spec_shape[:-1]
            for spec_dim, dim in zip(spec_shape, dims):
                if spec_dim is not None and dim is not None and spec_dim != dim:
                    raise ValueError(prefix + f"expected shape={spec.shape}, found shape="
                                     f"{_display(shape)}")
