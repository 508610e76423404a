"""`tf.random.experimental`."""

# ruff: noqa: F401
from tf1compat.ops.random_extra_ops import Algorithm
from tf1compat.ops.random_extra_ops import fold_in as stateless_fold_in
from tf1compat.ops.random_extra_ops import split as stateless_split
from tf1compat.ops.stateful_random_ops import (create_rng_state, index_shuffle,
                                               stateless_shuffle)
from tf1compat.variables.random_generator import (Generator, get_global_generator,
                                                  set_global_generator)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('random.experimental', globals())
