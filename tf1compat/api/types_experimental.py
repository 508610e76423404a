"""`tf.types.experimental`: `TensorLike`, the union of what `tf.convert_to_tensor`
accepts, for annotations."""

from typing import Union

import numpy as np

from tf1compat.framework.tensor import Tensor
from tf1compat.variables.variables import Variable

TensorLike = Union[Tensor, Variable, int, float, bool, str, bytes, complex, tuple, list,
                   np.ndarray, np.generic]


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('types.experimental', globals())
