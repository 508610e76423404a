"""`tf.contrib.training.resample_at_rate` / `weighted_resample` (TF 1.15
contrib/training/python/training/resample.py): stochastic resampling of the rows of a
batch, each row repeated a Poisson-distributed number of times.

The graph is TF's: a `RandomPoissonV2` draw of the per-row counts, a while loop that writes
`fill([count_i], i)` into a TensorArray (`repeat_range`), a cond that concatenates it (or
gives an empty index vector), then one `gather` per input. With the same graph and op
seeds the draws are TF's, so the same rows come back.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import math_ops
from tf1compat.ops.array_ops import shape, stop_gradient
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import fill, zeros
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.random_extra_ops import random_poisson
from tf1compat.ops.reduction_ops import reduce_mean
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop
from tf1compat.training.moving_averages import assign_moving_average
from tf1compat.variables.variable_scope import get_local_variable, variable_scope

__all__ = ["resample_at_rate", "weighted_resample"]


def _repeat_range(counts: Any, name: Optional[str] = None) -> Tensor:
    """The int32 vector holding each index `i` of `counts` `counts[i]` times, in order
    (`[0, 1, 2, 3]` -> `[1, 2, 2, 3, 3, 3]`)."""
    with name_scope(name, "repeat_range", [counts]) as scope:
        counts = convert_to_tensor(counts, name="counts")

        def body(pieces: TensorArray, i: Tensor) -> Tuple[TensorArray, Tensor]:
            return pieces.write(i, fill(counts[i:i + 1], i)), i + 1

        size = shape(counts)[0]
        pieces = TensorArray(dtype=D.int32, size=size, infer_shape=False)
        pieces, written = while_loop(lambda _, i: i < size, body, loop_vars=[pieces, 0])
        # TensorArray.concat of zero elements fails, hence the explicit empty vector.
        return cond(written > 0, pieces.concat, lambda: zeros(shape=[0], dtype=D.int32),
                    name=scope)


def resample_at_rate(inputs: Sequence[Any], rates: Any, scope: Optional[str] = None,
                     seed: Optional[int] = None, back_prop: bool = False) -> List[Tensor]:
    """Rows of each of `inputs` (all `[batch_size, ...]`), row `i` repeated
    Poisson(`rates[i]`) times; the indices are cut from the gradient unless `back_prop`."""
    with name_scope(scope, default_name="resample_at_rate", values=list(inputs) + [rates]):
        rates = convert_to_tensor(rates, name="rates")
        counts = math_ops.cast(random_poisson(rates, (), rates.dtype, seed=seed), D.int32)
        indices = _repeat_range(counts)
        if not back_prop:
            indices = stop_gradient(indices)
        return [gather(x, indices) for x in inputs]


def weighted_resample(inputs: List[Any], weights: Tensor, overall_rate: Any,
                      scope: Optional[str] = None, mean_decay: float = 0.999,
                      seed: Optional[int] = None) -> Tuple[List[Tensor], Tensor]:
    """Resamples `inputs` with row `i` at rate `weights[i] * overall_rate / mean`, `mean`
    a running (zero-debiased) average of the batch mean weight kept in the local variable
    `estimate_mean/estimated_mean`; returns the resampled inputs and each output row's
    rate."""
    with name_scope(scope, "weighted_resample", inputs) as opscope:
        with variable_scope(scope, "estimate_mean", inputs):
            estimated_mean = get_local_variable(
                "estimated_mean", initializer=math_ops.cast(0, weights.dtype),
                dtype=weights.dtype)
            mean = assign_moving_average(estimated_mean, reduce_mean(weights), mean_decay)
        rates = weights * overall_rate / mean
        results = resample_at_rate([rates] + inputs, rates, scope=opscope, seed=seed,
                                   back_prop=False)
        return results[1:], results[0]
