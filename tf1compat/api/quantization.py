"""`tf.quantization` (tf1compat/ops/quantization_ops.py)."""

# ruff: noqa: F401
from tf1compat.ops.quantization_ops import (fake_quant_with_min_max_args,
                                            fake_quant_with_min_max_args_gradient,
                                            fake_quant_with_min_max_vars,
                                            fake_quant_with_min_max_vars_gradient,
                                            fake_quant_with_min_max_vars_per_channel,
                                            fake_quant_with_min_max_vars_per_channel_gradient,
                                            quantize_and_dequantize,
                                            quantize_and_dequantize_v2)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('quantization', globals())
