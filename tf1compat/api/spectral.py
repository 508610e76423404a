"""`tf.spectral` (TF 1.x's name for the FFT ops of `tf.signal`)."""

# ruff: noqa: F401
from tf1compat.ops.math_extra import (fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d,
                                      irfft3d, rfft, rfft2d, rfft3d)

# (section: api-math)
from tf1compat.signal import dct, idct


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('spectral', globals())
