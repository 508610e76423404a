"""`tf.sets` (tf1compat/ops/set_ops.py)."""

# ruff: noqa: F401
from tf1compat.ops.set_ops import set_difference, set_intersection, set_size, set_union
from tf1compat.ops.set_ops import set_difference as difference
from tf1compat.ops.set_ops import set_intersection as intersection
from tf1compat.ops.set_ops import set_size as size
from tf1compat.ops.set_ops import set_union as union


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('sets', globals())
