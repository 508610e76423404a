"""`tf.random`."""

# ruff: noqa: F401
from tf1compat.framework.random_seed import get_seed, set_random_seed
from tf1compat.ops.random_ops import multinomial, random_categorical as categorical
from tf1compat.ops.random_ops import random_normal as normal
from tf1compat.ops.random_ops import random_shuffle as shuffle
from tf1compat.ops.random_ops import random_uniform as uniform
from tf1compat.ops.random_ops import truncated_normal

# (section: api-math)
from tf1compat.ops.nn_sampled import (all_candidate_sampler, fixed_unigram_candidate_sampler,
                                      learned_unigram_candidate_sampler,
                                      log_uniform_candidate_sampler, uniform_candidate_sampler)
from tf1compat.ops.random_extra_ops import (Algorithm, fold_in, split, stateless_categorical,
                                            stateless_multinomial, stateless_truncated_normal)
from tf1compat.ops.random_extra_ops import random_gamma as gamma
from tf1compat.ops.random_extra_ops import random_poisson as poisson
from tf1compat.ops.random_extra_ops import stateless_random_gamma as stateless_gamma
from tf1compat.ops.random_extra_ops import stateless_random_normal as stateless_normal
from tf1compat.ops.random_extra_ops import stateless_random_poisson as stateless_poisson
from tf1compat.ops.random_extra_ops import stateless_random_uniform as stateless_uniform
from tf1compat.ops.stateful_random_ops import create_rng_state
from tf1compat.ops.stateful_random_ops import stateless_random_binomial as stateless_binomial
from tf1compat.ops.stateful_random_ops import stateless_parameterized_truncated_normal
from tf1compat.variables.random_generator import (Generator, get_global_generator,
                                                  set_global_generator)
from tf1compat.api import random_experimental as experimental


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('random', globals())
