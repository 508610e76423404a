"""`tensorflow.python.ops.gen_random_ops`: the random ops under their generated names and
signatures (`random_uniform(shape, dtype, seed=0, seed2=0, name=None)`: the op itself,
without tf.random's scaling ops), as benchmarks use them for cheap random inputs; TF <= 1.4
named them with a leading underscore (`_random_uniform`), which legacy scripts still call."""

from typing import Any, Optional

from tf1compat.framework.graph import apply_op1
from tf1compat.framework.tensor import Tensor

__all__ = ["random_uniform", "random_standard_normal", "truncated_normal"]


def _sampler(op_type: str) -> Any:
    def sample(shape: Any, dtype: Any, seed: int = 0, seed2: int = 0,
               name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [shape], {"dtype": dtype, "seed": seed, "seed2": seed2},
                         name)
    sample.__name__ = sample.__qualname__ = op_type
    sample.__doc__ = f"One `{op_type}` op: samples of `dtype` in the shape `shape`."
    return sample


random_uniform = _sampler("RandomUniform")
random_standard_normal = _sampler("RandomStandardNormal")
truncated_normal = _sampler("TruncatedNormal")
_random_uniform = random_uniform
_random_standard_normal = random_standard_normal
_truncated_normal = truncated_normal
