"""`Model.predict` / `predict_on_batch` on numpy inputs, graph and eager mode.

As tf-keras's v1 loop (training_arrays_v1.predict_loop): the inputs are cut into batches of
`batch_size` (32 by default), each batch runs in inference mode, and the outputs are
concatenated per model output (one array for a single-output model, else a list). In graph
mode the batches run through `K.function(model inputs, model outputs)` in the Keras
session (`K.get_session()`, which initializes the Keras variables as TF's does); a model
without symbolic inputs (subclassed, or Sequential without an input shape) is first called
on placeholders shaped like the data. Under eager execution each batch is a model call.

Not supported (NotImplementedError): datasets/iterators/generators as `x`, `steps`,
callbacks and the verbose progress bar.
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.util import nest
from tf1compat.framework import context as _context
from tf1compat.keras import backend

__all__ = ["predict", "predict_on_batch"]


def _as_arrays(model: Any, x: Any) -> List[np.ndarray]:
    if isinstance(x, dict):
        names = list(getattr(model, "input_names", None) or sorted(x))
        missing = [n for n in names if n not in x]
        if missing:
            raise ValueError(f"No data provided for {missing[0]!r}. Need data for each key "
                             f"in: {names}")
        x = [x[n] for n in names]
    flat = list(x) if isinstance(x, (list, tuple)) else [x]
    arrays = []
    for value in flat:
        if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
            value = value.numpy()
        if not isinstance(value, (np.ndarray, list, tuple, int, float)):
            raise NotImplementedError(f"Model.predict on {type(value).__name__} inputs "
                                      "(datasets, iterators, generators) is not implemented "
                                      "by tf1compat; pass numpy arrays")
        arrays.append(np.asarray(value))
    sizes = {a.shape[0] if a.ndim else None for a in arrays}
    if None in sizes or len(sizes) != 1:
        raise ValueError("All input arrays (x) should have the same number of samples. Got "
                         f"array shapes: {[a.shape for a in arrays]}")
    return arrays


def _graph_function(model: Any, arrays: List[np.ndarray]) -> Any:
    fn = getattr(model, "_tf1compat_predict_function", None)
    if fn is not None:
        return fn
    inputs, outputs = list(getattr(model, "inputs", None) or []), \
        list(getattr(model, "outputs", None) or [])
    if not inputs or not outputs:
        placeholders = [backend.placeholder(
            shape=(None,) + a.shape[1:],
            dtype=backend.floatx() if a.dtype.kind == "f" else a.dtype.name) for a in arrays]
        result = model(placeholders[0] if len(placeholders) == 1 else placeholders,
                       training=False) if model._expects_training_arg else \
            model(placeholders[0] if len(placeholders) == 1 else placeholders)
        inputs, outputs = placeholders, nest.flatten(result)
    fn = backend.function(inputs, outputs, name="predict_function")
    model._tf1compat_predict_function = fn
    return fn


def _run_batch(model: Any, batch: List[np.ndarray]) -> List[np.ndarray]:
    if _context.executing_eagerly():
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        tensors = [convert_to_tensor(b.astype(backend.floatx()) if b.dtype.kind == "f" else b)
                   for b in batch]
        arg = tensors[0] if len(tensors) == 1 else tensors
        out = model(arg, training=False) if model._expects_training_arg else model(arg)
        return [o.numpy() for o in nest.flatten(out)]
    values = _graph_function(model, batch)(batch)
    return list(values)


def _check_unsupported(verbose: Any, steps: Any, callbacks: Any, method: str) -> None:
    if steps is not None:
        raise NotImplementedError(f"Model.{method}(steps=...) is not implemented by tf1compat")
    if callbacks:
        raise NotImplementedError(f"Model.{method}(callbacks=...) is not implemented by "
                                  "tf1compat")
    if verbose:
        raise NotImplementedError(f"Model.{method}(verbose={verbose!r}): the progress bar is "
                                  "not implemented by tf1compat; pass verbose=0")


def predict(model: Any, x: Any, batch_size: Optional[int] = None, verbose: int = 0,
            steps: Optional[int] = None, callbacks: Any = None, **unused: Any) -> Any:
    """Outputs of `model` on `x`, batch by batch, concatenated."""
    _check_unsupported(verbose, steps, callbacks, "predict")
    arrays = _as_arrays(model, x)
    batch_size = 32 if batch_size is None else int(batch_size)
    n = arrays[0].shape[0]
    chunks: List[List[np.ndarray]] = []
    for start in range(0, n, batch_size):
        chunks.append(_run_batch(model, [a[start:start + batch_size] for a in arrays]))
    if not chunks:
        raise ValueError("Model.predict got 0 samples")
    outs = [np.concatenate([c[i] for c in chunks]) for i in range(len(chunks[0]))]
    return outs[0] if len(outs) == 1 else outs


def predict_on_batch(model: Any, x: Any) -> Any:
    """Outputs of `model` on one batch `x`."""
    outs = _run_batch(model, _as_arrays(model, x))
    return outs[0] if len(outs) == 1 else outs
