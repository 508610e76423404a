"""`tf.dtypes`."""

from tf1compat.framework.dtypes import (  # noqa: F401
    DType, QUANTIZED_DTYPES, as_dtype, as_string, bfloat16, bool, complex64, complex128,
    double, float16, float32, float64, half, int8, int16, int32, int64, qint8, qint16,
    qint32, quint8, quint16, resource, string, uint8, uint16, uint32, uint64, variant)
from tf1compat.ops.math_ops import cast, saturate_cast  # noqa: F401
from tf1compat.api import dtypes_experimental as experimental  # noqa: F401

# (section: api-math)
from tf1compat.ops.math_tail_ops import complex  # noqa: F401


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('dtypes', globals())
