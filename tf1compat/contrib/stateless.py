"""`tf.contrib.stateless` (TF 1.15): the stateless random ops, which core TF has as
`tf.random.stateless_*` (the same ops)."""

from tf1compat.ops.random_extra_ops import (stateless_multinomial, stateless_random_normal,
                                            stateless_random_uniform,
                                            stateless_truncated_normal)

__all__ = ["stateless_multinomial", "stateless_random_uniform", "stateless_random_normal",
           "stateless_truncated_normal"]
