"""`tf.keras.backend`: the public face over the backend package — backend_core.py (settings,
per-graph state, variables, sessions, `K.function`), backend_math.py (the common tensor
helpers), backend_nn.py (convolutions, normalization, losses, random) and backend_rnn.py
(`K.rnn`). Each of those imports only backend_core, so the backend has no import cycle.
"""

# ruff: noqa: F401
from tf1compat.keras.backend_core import (
    floatx, set_floatx, epsilon, set_epsilon, image_data_format, set_image_data_format, backend,
    get_uid, reset_uids, unique_object_name, get_graph, get_session, set_session, clear_session,
    manual_variable_initialization, track_tf_optimizer, learning_phase, set_learning_phase,
    learning_phase_scope, name_scope, track_variable, placeholder, is_placeholder, variable,
    constant, zeros, ones, zeros_like, ones_like, eye, int_shape, shape, ndim, dtype, cast, eval,
    get_value, set_value, batch_get_value, batch_set_value, count_params, function, gradients,
    stop_gradient, is_keras_tensor, is_sparse)
from tf1compat.keras.backend_math import (
    abs, all, any, arange, argmax, argmin, batch_dot, batch_flatten, bias_add,
    binary_crossentropy, categorical_crossentropy, clip, concatenate, conv2d,
    conv2d_transpose, cos, cumprod, cumsum, dot, dropout, elu, equal, exp, expand_dims,
    flatten, foldl, gather, greater, greater_equal, hard_sigmoid, in_test_phase,
    in_train_phase, l2_normalize, less, less_equal, log, logsumexp, map_fn, max, maximum,
    mean, min, minimum, moving_average_update, not_equal, one_hot, permute_dimensions,
    pool2d, pow, prod, random_normal, random_uniform, relu, repeat, reshape, round, sigmoid,
    sign, sin, softmax, softplus, softsign, sparse_categorical_crossentropy,
    spatial_2d_padding, sqrt, square, squeeze, stack, std, sum, switch, tanh, tile,
    transpose, update, update_add, update_sub, var)
from tf1compat.keras.backend_rnn import rnn  # the recurrent layers' loop
from tf1compat.keras.backend_nn import (
    batch_normalization, binary_focal_crossentropy, cast_to_floatx,
    categorical_focal_crossentropy, conv1d, conv3d, ctc_batch_cost, ctc_decode,
    ctc_label_dense_to_sparse, depthwise_conv2d, foldr, in_top_k, local_conv1d, local_conv2d,
    normalize_batch_in_training, pool3d, print_tensor, random_bernoulli, random_binomial,
    random_normal_variable, random_uniform_variable, repeat_elements, resize_images,
    resize_volumes, reverse, separable_conv2d, spatial_3d_padding, temporal_padding, to_dense,
    truncated_normal)

__all__ = ["floatx", "set_floatx", "epsilon", "set_epsilon", "image_data_format",
           "set_image_data_format", "backend", "get_uid", "reset_uids", "unique_object_name",
           "get_graph", "get_session", "set_session", "clear_session",
           "manual_variable_initialization", "track_tf_optimizer", "learning_phase",
           "set_learning_phase", "learning_phase_scope", "name_scope", "track_variable",
           "placeholder", "is_placeholder", "variable", "constant", "zeros", "ones", "zeros_like",
           "ones_like", "eye", "int_shape", "shape", "ndim", "dtype", "cast", "eval", "get_value",
           "set_value", "batch_get_value", "batch_set_value", "count_params", "function",
           "gradients", "stop_gradient", "dot", "sum", "mean", "max", "min", "prod", "std", "var",
           "any", "all", "argmax", "argmin", "square", "abs", "sqrt", "exp", "log", "pow", "clip",
           "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "maximum",
           "minimum", "sin", "cos", "round", "sign", "concatenate", "reshape",
           "permute_dimensions", "flatten", "batch_flatten", "expand_dims", "squeeze", "stack",
           "transpose", "gather", "tile", "repeat", "relu", "elu", "softmax", "softplus",
           "softsign", "sigmoid", "hard_sigmoid", "tanh", "bias_add", "dropout", "l2_normalize",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy",
           "in_train_phase", "in_test_phase", "switch", "random_normal", "random_uniform",
           "conv2d", "conv2d_transpose", "pool2d", "one_hot", "map_fn", "foldl", "update",
           "update_add", "update_sub", "moving_average_update", "batch_dot", "is_keras_tensor",
           "is_sparse", "arange", "cumsum", "cumprod", "logsumexp", "spatial_2d_padding",
           "batch_normalization", "binary_focal_crossentropy", "cast_to_floatx",
           "categorical_focal_crossentropy", "conv1d", "conv3d", "ctc_batch_cost", "ctc_decode",
           "ctc_label_dense_to_sparse", "depthwise_conv2d", "foldr", "in_top_k", "local_conv1d",
           "local_conv2d", "normalize_batch_in_training", "pool3d", "print_tensor",
           "random_bernoulli", "random_binomial", "random_normal_variable",
           "random_uniform_variable", "repeat_elements", "resize_images", "resize_volumes",
           "reverse", "separable_conv2d", "spatial_3d_padding", "temporal_padding", "to_dense",
           "truncated_normal"]
