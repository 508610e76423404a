"""`tf.contrib.legacy_seq2seq`: the list-of-tensors seq2seq model builders
(tf1compat/contrib/_legacy_seq2seq_models.py) and sequence losses
(tf1compat/contrib/_sequence_losses.py)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib._legacy_seq2seq_models import (attention_decoder, basic_rnn_seq2seq,
                                                      embedding_attention_decoder,
                                                      embedding_attention_seq2seq,
                                                      embedding_rnn_decoder,
                                                      embedding_rnn_seq2seq,
                                                      embedding_tied_rnn_seq2seq,
                                                      model_with_buckets,
                                                      one2many_rnn_seq2seq, rnn_decoder,
                                                      tied_rnn_seq2seq)
from tf1compat.contrib._sequence_losses import legacy_sequence_loss as sequence_loss
from tf1compat.contrib._sequence_losses import sequence_loss_by_example

__getattr__ = _missing("tf.contrib.legacy_seq2seq")
