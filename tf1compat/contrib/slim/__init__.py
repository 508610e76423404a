"""`tf.contrib.slim` (TF 1.15): the layer aliases, arg_scope and the variable helpers.

    import tensorflow.contrib.slim as slim
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(5e-4)):
        net = slim.conv2d(images, 64, [3, 3], scope="conv1")
        net = slim.max_pool2d(net, [2, 2], scope="pool1")

`slim.learning.create_train_op` builds train ops; `slim.losses` (TF 1.15's contrib
loss_ops), `slim.metrics` (tf.contrib.metrics), `slim.model_analyzer`, `slim.queues`
(`QueueRunners`) and `slim.utils` (contrib.layers.utils) are provided.
The training loop (`slim.learning.train`) and the `nets` are not: accessing them raises
an error naming them.
"""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.framework import variables
from tf1compat.contrib.slim import (evaluation, learning, model_analyzer, nets, queues,
                                    summaries)
from tf1compat.contrib.slim.data import (data_decoder, data_provider, dataset,
                                         dataset_data_provider, parallel_reader,
                                         prefetch_queue, tfexample_decoder)
from tf1compat.contrib import losses, metrics
from tf1compat.contrib.layers import utils
from tf1compat.contrib.layers import initializers
from tf1compat.contrib.layers.normalization import group_norm, instance_norm
from tf1compat.contrib.layers.separable import separable_conv2d, separable_convolution2d
from tf1compat.contrib.framework.arg_scope import (add_arg_scope, arg_scope,
                                                   arg_scope_func_key, arg_scoped_arguments,
                                                   current_arg_scope, has_arg_scope)
from tf1compat.contrib.framework.variables import (add_model_variable, get_local_variables,
                                                   get_model_variables,
                                                   get_trainable_variables,
                                                   get_unique_variable, get_variables,
                                                   get_variables_by_name,
                                                   get_variables_by_suffix,
                                                   get_variables_to_restore, global_variable,
                                                   local_variable, model_variable, variable)
from tf1compat.contrib.layers import layers
from tf1compat.contrib.layers.layers import (avg_pool2d, batch_norm, bias_add, conv1d, conv2d,
                                             conv2d_transpose, conv3d, convolution,
                                             convolution1d, convolution2d,
                                             convolution2d_transpose, convolution3d, dropout,
                                             flatten, fully_connected, layer_norm,
                                             max_pool2d, max_pool3d, avg_pool3d,
                                             one_hot_encoding, repeat, softmax,
                                             stack)
from tf1compat.contrib.layers.regularizers import (apply_regularization, l1_l2_regularizer,
                                                   l1_regularizer, l2_regularizer,
                                                   sum_regularizer)
from tf1compat.training.training_util import (create_global_step, get_global_step,
                                              get_or_create_global_step)
from tf1compat.contrib.layers.initializers import (variance_scaling_initializer,
                                                   xavier_initializer,
                                                   xavier_initializer_conv2d)

__getattr__ = _missing("tf.contrib.slim")
