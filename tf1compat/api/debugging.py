"""`tf.debugging`: assertions, numerics checks, device-placement logging."""

# ruff: noqa: F401
from tf1compat.ops.check_ops import (assert_equal, assert_greater, assert_greater_equal,
                                     assert_integer, assert_less, assert_less_equal,
                                     assert_negative, assert_non_negative,
                                     assert_non_positive, assert_none_equal, assert_positive,
                                     assert_rank, assert_rank_at_least, assert_scalar,
                                     assert_type)
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_ops import is_finite, is_inf, is_nan
from tf1compat.ops.numerics_ops import (assert_all_finite, assert_near,
                                        assert_proper_iterable, assert_rank_in,
                                        assert_same_float_dtype, check_numerics,
                                        is_non_decreasing, is_numeric_tensor,
                                        is_strictly_increasing)
from tf1compat.ops.assert_shapes import assert_shapes
from tf1compat.ops.check_numerics_mode import disable_check_numerics, enable_check_numerics
from tf1compat.runtime.session_options import (get_log_device_placement,
                                               set_log_device_placement)

# tf1compat's errors carry TF's message layout and the user's creation site; it never
# hides frames from Python tracebacks, so the setting is recorded and reported only.
_traceback_filtering = [True]


def enable_traceback_filtering() -> None:
    """`tf.debugging.enable_traceback_filtering` (the setting is recorded; tf1compat's
    tracebacks are never filtered)."""
    _traceback_filtering[0] = True


def disable_traceback_filtering() -> None:
    """`tf.debugging.disable_traceback_filtering`: full tracebacks, as tf1compat's are."""
    _traceback_filtering[0] = False


def is_traceback_filtering_enabled() -> bool:
    return _traceback_filtering[0]


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('debugging', globals())
