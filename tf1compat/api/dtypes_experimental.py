"""`tf.dtypes.experimental`: TF 2.x's 8-, 4- and 2-bit element types."""

# ruff: noqa: F401
from tf1compat.framework.dtypes import (float4_e2m1fn, float8_e4m3b11fnuz, float8_e4m3fn,
                                        float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, int2,
                                        int4, uint2, uint4)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('dtypes.experimental', globals())
