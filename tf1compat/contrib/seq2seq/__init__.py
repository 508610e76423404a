"""`tf.contrib.seq2seq` (TF 1.15): `sequence_loss`, the helpers, BasicDecoder and
`dynamic_decode`, the attention mechanisms and AttentionWrapper, and beam search."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib._sequence_losses import sequence_loss
from tf1compat.contrib.seq2seq.attention_mechanisms import (
    AttentionMechanism, BahdanauAttention, BahdanauMonotonicAttention, LuongAttention,
    LuongMonotonicAttention, hardmax, monotonic_attention, safe_cumprod)
from tf1compat.contrib.seq2seq.attention_wrapper import AttentionWrapper, AttentionWrapperState
from tf1compat.contrib.seq2seq.basic_decoder import BasicDecoder, BasicDecoderOutput
from tf1compat.contrib.seq2seq.beam_search_decoder import (
    BeamSearchDecoder, BeamSearchDecoderOutput, BeamSearchDecoderState,
    FinalBeamSearchDecoderOutput, gather_tree, tile_batch)
from tf1compat.contrib.seq2seq.decoder import Decoder, dynamic_decode
from tf1compat.contrib.seq2seq.helper import (CustomHelper, GreedyEmbeddingHelper, Helper,
                                              InferenceHelper, SampleEmbeddingHelper,
                                              ScheduledEmbeddingTrainingHelper,
                                              ScheduledOutputTrainingHelper, TrainingHelper)

__getattr__ = _missing("tf.contrib.seq2seq")
