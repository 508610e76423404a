"""`tf.contrib.slim` (TF 1.15): the layer aliases, arg_scope and the variable helpers.

    import tensorflow.contrib.slim as slim
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(5e-4)):
        net = slim.conv2d(images, 64, [3, 3], scope="conv1")
        net = slim.max_pool2d(net, [2, 2], scope="pool1")

    with slim.arg_scope(slim.nets.resnet_v1.resnet_arg_scope()):
        logits, end_points = slim.nets.resnet_v1.resnet_v1_50(images, 1000)
    train_op = slim.learning.create_train_op(total_loss, optimizer)
    slim.learning.train(train_op, logdir, number_of_steps=1000)
    slim.evaluation.evaluate_once("", checkpoint_path, logdir, num_evals=10,
                                  eval_op=updates, final_op=values)

Provided: `slim.nets` (alexnet, overfeat, vgg, inception v1-v3, resnet v1/v2 and
resnet_utils), `slim.learning` (`create_train_op`, `train`, `train_step`),
`slim.evaluation` (`evaluate_once`, `evaluation_loop`, `wait_for_new_checkpoint`),
`slim.summaries`, the data layer (`slim.dataset`, `slim.dataset_data_provider`,
`slim.data_provider`, `slim.data_decoder`, `slim.tfexample_decoder`,
`slim.parallel_reader`, `slim.prefetch_queue`), `slim.losses` (TF 1.15's contrib
loss_ops), `slim.metrics` (tf.contrib.metrics), `slim.model_analyzer`, `slim.queues`
(`QueueRunners`) and `slim.utils` (contrib.layers.utils). Under `tf1compat.install()`
`import tf_slim as slim` (the standalone TF-Slim package) is this module (tf1compat/shim.py).
Not provided: `learning.train`'s tracing (`trace_every_n_steps`, TF's timeline) and
`sync_optimizer` (NotImplementedError naming them); tf_slim's sequence-example handlers
(BoundingBoxSequence, NumBoxesSequence, KeypointsSequence, TFSequenceExampleDecoder).
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
from tf1compat.contrib.framework.checkpoint_assign import (assign_from_checkpoint,
                                                           assign_from_checkpoint_fn,
                                                           assign_from_values,
                                                           assign_from_values_fn,
                                                           get_variable_full_name)
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
