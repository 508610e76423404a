"""`tf.math.special` (tf1compat/ops/special_math_ops.py)."""

# ruff: noqa: F401
from tf1compat.ops.special_math_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,
                                            bessel_j0, bessel_j1, bessel_k0, bessel_k0e,
                                            bessel_k1, bessel_k1e, bessel_y0, bessel_y1, dawsn,
                                            expint, fresnel_cos, fresnel_sin, spence)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('math.special', globals())
