"""`tf.contrib.layers` (the most used parts of TF 1.15's): layers, regularizers,
initializers, arg_scope, optimize_loss, embed_sequence / bow_encoder, the embedding and
sparse helpers, summarize_*, legacy_fully_connected, unit_norm / maxout /
images_to_sequence / sequence_to_images, spatial_softmax, conv2d_in_plane, GDN / gdn,
recompute_grad, RevBlock / rev_block, and the contrib feature columns with their layers
(`input_from_feature_columns`, `weighted_sum_from_feature_columns`)."""

# ruff: noqa: F401
import functools

from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.framework.arg_scope import add_arg_scope, arg_scope
from tf1compat.contrib.layers import utils
from tf1compat.contrib.layers.layers import (avg_pool2d, batch_norm, bias_add, conv1d, conv2d,
                                             conv2d_transpose, conv3d, conv3d_transpose,
                                             convolution, convolution3d_transpose,
                                             convolution1d, convolution2d,
                                             convolution2d_transpose, convolution3d, dropout,
                                             flatten, fully_connected, layer_norm,
                                             max_pool2d, max_pool3d, avg_pool3d,
                                             one_hot_encoding, repeat, softmax,
                                             stack)
from tf1compat.contrib.layers import initializers
from tf1compat.contrib.layers.embedding_ops import (dense_to_sparse, dense_to_sparse_tensor,
                                                    embedding_lookup_unique,
                                                    safe_embedding_lookup_sparse)
from tf1compat.contrib.layers.encoders import bow_encoder, embed_sequence
from tf1compat.contrib.layers.feature_column import (
    SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY, bucketized_column, create_feature_spec_for_parsing,
    crossed_column, real_valued_column, sparse_column_with_hash_bucket,
    sparse_column_with_integerized_feature, sparse_column_with_keys,
    sparse_column_with_vocabulary_file, sparse_feature_cross, weighted_sparse_column)
from tf1compat.contrib.layers.feature_column_embedding import (embedding_column,
                                                               one_hot_column,
                                                               shared_embedding_columns)
from tf1compat.contrib.layers.feature_column_ops import (
    check_feature_columns, infer_real_valued_columns, input_from_feature_columns,
    parse_feature_columns_from_examples, transform_features,
    weighted_sum_from_feature_columns)
from tf1compat.contrib.layers.summaries import (summarize_activation, summarize_activations,
                                                summarize_biases, summarize_collection,
                                                summarize_tensor, summarize_tensors,
                                                summarize_variables, summarize_weights)
from tf1compat.contrib.layers.optimizers import (OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES,
                                                 adaptive_clipping_fn, optimize_loss)
from tf1compat.contrib.layers.normalization import group_norm, instance_norm
from tf1compat.contrib.layers.separable import separable_conv2d, separable_convolution2d
from tf1compat.contrib.layers.spatial import (conv2d_in_plane, convolution2d_in_plane,
                                              spatial_softmax)
from tf1compat.contrib.layers.gdn import GDN, gdn
from tf1compat.contrib.layers.recompute import recompute_grad
from tf1compat.contrib.layers.rev_block import RevBlock, rev_block
from tf1compat.contrib.layers.legacy import (legacy_fully_connected, legacy_linear,
                                             legacy_relu)
from tf1compat.contrib.layers.sequence_layers import (images_to_sequence, maxout,
                                                      scale_gradient,
                                                      sequence_to_images, unit_norm)
from tf1compat.contrib.layers.regularizers import (apply_regularization, l1_l2_regularizer,
                                                   l1_regularizer, l2_regularizer,
                                                   sum_regularizer)
from tf1compat.contrib.layers.initializers import (variance_scaling_initializer,
                                                   xavier_initializer,
                                                   xavier_initializer_conv2d)

from tf1compat.ops import nn_ops  # noqa: E402

# TF 1.x's shorthands: fully_connected with the activation bound (a keyword, so a caller's
# own activation_fn still wins, as with TF's functools.partial).
linear = functools.partial(fully_connected, activation_fn=None)
relu = functools.partial(fully_connected, activation_fn=nn_ops.relu)
relu6 = functools.partial(fully_connected, activation_fn=nn_ops.relu6)
elu = functools.partial(fully_connected, activation_fn=nn_ops.elu)
__getattr__ = _missing("tf.contrib.layers")
