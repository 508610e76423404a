"""`tf.contrib.opt` (TF 1.15): the extra optimizers.

- weight_decay.py: AdamWOptimizer, MomentumWOptimizer, DecoupledWeightDecayExtension,
  extend_with_decoupled_weight_decay
- adam_variants.py: LazyAdamOptimizer, NadamOptimizer, AdaMaxOptimizer, AdamGSOptimizer,
  LazyAdamGSOptimizer
- sign_optimizers.py: AddSignOptimizer, PowerSignOptimizer and the sign-decay schedules
- external_optimizer.py: ExternalOptimizerInterface, ScipyOptimizerInterface (SciPy is
  imported when minimize runs: without it, ImportError as in TF)
- ggt.py: GGTOptimizer
- shampoo.py: ShampooOptimizer (SVD or iterative matrix roots)
- wrappers.py: LARSOptimizer, RegAdagradOptimizer, VariableClippingOptimizer,
  DropStaleGradientOptimizer, MovingAverageOptimizer, MultitaskOptimizerWrapper,
  clip_gradients_by_global_norm

Any other name raises an error naming it (framework/unsupported_api.py gives the reason).
"""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.opt.adam_variants import (AdaMaxOptimizer, AdamGSOptimizer,
                                                 LazyAdamGSOptimizer, LazyAdamOptimizer,
                                                 NadamOptimizer)
from tf1compat.contrib.opt.external_optimizer import (ExternalOptimizerInterface,
                                                      ScipyOptimizerInterface)
from tf1compat.contrib.opt.ggt import GGTOptimizer
from tf1compat.contrib.opt.shampoo import ShampooOptimizer
from tf1compat.contrib.opt.sign_optimizers import (AddSignOptimizer, PowerSignOptimizer,
                                                   get_cosine_decay_fn, get_linear_decay_fn,
                                                   get_restart_decay_fn)
from tf1compat.contrib.opt.weight_decay import (AdamWOptimizer, DecoupledWeightDecayExtension,
                                                MomentumWOptimizer,
                                                extend_with_decoupled_weight_decay)
from tf1compat.contrib.opt.wrappers import (DropStaleGradientOptimizer, LARSOptimizer,
                                            MovingAverageOptimizer, MultitaskOptimizerWrapper,
                                            RegAdagradOptimizer, VariableClippingOptimizer,
                                            clip_gradients_by_global_norm)

__getattr__ = _missing("tf.contrib.opt")
