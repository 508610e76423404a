"""Stand-in for `tensorflow.python.ops.rnn`: the RNN functions and their helpers."""

# ruff: noqa: F401
from tf1compat.internal import rnn_cell_impl  # TF's rnn module imports it: code reaches it here
from tf1compat.rnn.dynamic import best_effort_batch_size as _best_effort_input_batch_size
from tf1compat.rnn.dynamic import bidirectional_dynamic_rnn, dynamic_rnn, raw_rnn
from tf1compat.rnn.dynamic import infer_state_dtype as _infer_state_dtype
from tf1compat.rnn.dynamic import rnn_step as _rnn_step
from tf1compat.rnn.dynamic import transpose_batch_time as _transpose_batch_time
from tf1compat.rnn.static import (static_bidirectional_rnn, static_rnn,
                                  static_state_saving_rnn)
