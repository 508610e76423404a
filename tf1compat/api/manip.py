"""`tf.manip` (TF 1.x aliases of array ops)."""

# ruff: noqa: F401
from tf1compat.ops.array_ops import reshape
from tf1compat.ops.indexing_ops import gather_nd, scatter_nd
from tf1compat.ops.manip_ops import roll
from tf1compat.ops.space_batch_ops import batch_to_space_nd, space_to_batch_nd
from tf1compat.ops.transform_ops import reverse, tile


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('manip', globals())
