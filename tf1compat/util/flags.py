"""`tf.flags` / `tf.app.flags`: absl's flags, as TF1 re-exported them."""

# ruff: noqa: F401, F403
from absl.flags import *
from absl.flags import FLAGS, DEFINE_bool, DEFINE_boolean, DEFINE_enum, DEFINE_float, \
    DEFINE_integer, DEFINE_list, DEFINE_multi_integer, DEFINE_multi_string, DEFINE_string, \
    mark_flag_as_required, mark_flags_as_required

DEFINE_bool = DEFINE_bool
