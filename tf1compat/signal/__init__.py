"""`tf.signal`: the FFT ops and signal processing built from ops — framing and
overlap-add, windows, STFT, MDCT, DCT, mel filter banks and MFCCs, FFT shifts and
n-dimensional FFTs."""

# ruff: noqa: F401
from tf1compat.ops.math_extra import (fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d,
                                      irfft3d, rfft, rfft2d, rfft3d)
from tf1compat.signal.shape_ops import frame, overlap_and_add
from tf1compat.signal.spectral_ops import (dct, fftnd, fftshift, idct, ifftnd, ifftshift,
                                           inverse_mdct, inverse_stft, inverse_stft_window_fn,
                                           irfftnd, linear_to_mel_weight_matrix, mdct,
                                           mfccs_from_log_mel_spectrograms, rfftnd, stft)
from tf1compat.signal.window_ops import (hamming_window, hann_window,
                                         kaiser_bessel_derived_window, kaiser_window,
                                         vorbis_window)
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("signal", globals())
