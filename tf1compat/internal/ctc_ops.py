"""`tensorflow.python.ops.ctc_ops` (standalone Keras imports it as `ctc`)."""

# ruff: noqa: F401
from tf1compat.ops.ctc_decode import (collapse_repeated, ctc_beam_search_decoder,
                                      ctc_beam_search_decoder_v2, ctc_greedy_decoder,
                                      ctc_unique_labels)
from tf1compat.ops.ctc_loss_dense import ctc_loss_v2
from tf1compat.ops.nn_losses import ctc_loss
