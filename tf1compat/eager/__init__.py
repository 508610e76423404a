"""TF 1.x eager execution on torch: the same op declarations, run immediately.

The pieces live in the layer each belongs to; this package holds the user-facing switches:

* `context.py`: `tf.enable_eager_execution`, `tf.executing_eagerly`, device policies.
* `function.py`: `tf.function` / `tfe.defun`: trace to a graph, run the cached plan.
* `runtime/eager_executor.py`: runs ops handed over by `apply_op` (`eager_binding.py`:
  inputs and eager errors; `eager_runtime.py`: the eager variable store and what kernel
  factories see; `eager_tensor.py`: `EagerTensor`).
* `variables/eager_variables.py`: resource variables holding their value in the eager store.
* `autodiff/tape.py`: `tf.GradientTape` on torch autograd, `implicit_gradients` and friends.
* `contrib/eager.py`: the `tf.contrib.eager` (tfe) aliases.
"""

from tf1compat.runtime import eager_executor as _executor  # noqa: F401 - installs the executor
from tf1compat.autodiff import tape as _tape  # noqa: F401 - installs the tape recorder
from tf1compat.eager.context import (disable_eager_execution, enable_eager_execution,
                                     executing_eagerly, num_gpus)
from tf1compat.autodiff.tape import GradientTape
from tf1compat.runtime.eager_tensor import EagerTensor

__all__ = ["enable_eager_execution", "disable_eager_execution", "executing_eagerly",
           "num_gpus", "EagerTensor", "GradientTape"]
