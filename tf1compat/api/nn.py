"""`tf.nn`."""

# ruff: noqa: F401
from tf1compat.ops.math_ops import sigmoid, tanh

# (section: nn)
# activations, softmax, bias_add, dropout, ranking (tf1compat/ops/nn_ops.py)
from tf1compat.ops.nn_ops import (bias_add, crelu, dropout, elu, in_top_k, l2_loss,
                                  leaky_relu, log_sigmoid, log_softmax, relu, relu6,
                                  relu_layer, selu, softmax, softplus, softsign, swish, top_k,
                                  xw_plus_b, zero_fraction)
from tf1compat.ops.nn_ops import swish as silu
# convolutions (tf1compat/ops/nn_conv.py, space_batch_ops.py)
from tf1compat.ops.nn_conv import (atrous_conv2d, conv1d, conv1d_transpose, conv2d,
                                   conv2d_backprop_filter, conv2d_backprop_input,
                                   conv2d_transpose, conv3d, conv3d_backprop_filter_v2,
                                   conv3d_transpose, convolution, depthwise_conv2d,
                                   depthwise_conv2d_native,
                                   depthwise_conv2d_native_backprop_filter,
                                   depthwise_conv2d_native_backprop_input, separable_conv2d)
from tf1compat.ops.nn_conv import conv3d_backprop_filter_v2 as conv3d_backprop_filter
from tf1compat.ops.nn_conv import (
    depthwise_conv2d_native_backprop_filter as depthwise_conv2d_backprop_filter)
from tf1compat.ops.nn_conv import (
    depthwise_conv2d_native_backprop_input as depthwise_conv2d_backprop_input)
from tf1compat.ops.space_batch_ops import (depth_to_space, space_to_batch, space_to_depth,
                                          with_space_to_batch)
# pooling (tf1compat/ops/nn_pool.py); TF1's tf.nn.avg_pool2d is avg_pool itself
from tf1compat.ops.nn_pool import (avg_pool, avg_pool1d, avg_pool3d, avg_pool_v2, max_pool,
                                   max_pool1d, max_pool2d, max_pool3d, max_pool_v2,
                                   max_pool_with_argmax, pool)
from tf1compat.ops.nn_pool import avg_pool as avg_pool2d
# normalization and statistics (tf1compat/ops/nn_norm.py)
from tf1compat.ops.nn_norm import (batch_norm_with_global_normalization, batch_normalization,
                                   fused_batch_norm, l2_normalize, local_response_normalization,
                                   lrn, moments, normalize_moments, sufficient_statistics,
                                   weighted_moments)
# losses (tf1compat/ops/nn_losses.py, nn_sampled.py)
from tf1compat.ops.nn_losses import (ctc_loss, log_poisson_loss,
                                     sigmoid_cross_entropy_with_logits,
                                     softmax_cross_entropy_with_logits,
                                     softmax_cross_entropy_with_logits_v2,
                                     sparse_softmax_cross_entropy_with_logits,
                                     weighted_cross_entropy_with_logits)
from tf1compat.ops.nn_sampled import (all_candidate_sampler, compute_accidental_hits,
                                      fixed_unigram_candidate_sampler,
                                      learned_unigram_candidate_sampler,
                                      log_uniform_candidate_sampler, nce_loss,
                                      sampled_softmax_loss, uniform_candidate_sampler)
# embeddings (tf1compat/ops/nn_embedding.py)
from tf1compat.ops.nn_embedding import embedding_lookup, embedding_lookup_sparse
# recurrent networks (tf1compat/rnn/)
from tf1compat.rnn import rnn_cell
from tf1compat.rnn.dynamic import bidirectional_dynamic_rnn, dynamic_rnn, raw_rnn
from tf1compat.rnn.static import (static_bidirectional_rnn, static_rnn,
                                  static_state_saving_rnn)

# (section: api-math)
from tf1compat.ops.math_tail_ops import approx_max_k, approx_min_k
from tf1compat.ops.ctc_decode import (collapse_repeated, ctc_beam_search_decoder,
                                     ctc_beam_search_decoder_v2, ctc_greedy_decoder,
                                     ctc_unique_labels)
from tf1compat.ops.ctc_loss_dense import ctc_loss_v2
from tf1compat.ops.nn_conv_tail import (atrous_conv2d_transpose, conv_transpose, dilation2d,
                                        erosion2d)
from tf1compat.ops.nn_fractional_pool import fractional_avg_pool, fractional_max_pool
from tf1compat.ops.nn_misc_tail import safe_embedding_lookup_sparse
from tf1compat.losses.average_loss import compute_average_loss, scale_regularization_loss
from tf1compat.api import nn_experimental as experimental


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('nn', globals())
