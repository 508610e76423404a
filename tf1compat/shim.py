"""Drop-in installation: make `import tensorflow ...` resolve to tf1compat.

`install()` registers tf1compat under `tensorflow` and `tensorflow.compat.v1` (and
`tensorflow.compat.v2`: TF 2's summaries, api/compat_v2.py), maps the
TensorFlow-internal module paths legacy code commonly imports (`INTERNAL_PATHS`) to their
stand-ins, and adds an import hook so that `tensorflow.<ns>` resolves to tf1compat's
namespace `<ns>` (`tensorflow.contrib.layers`, `tensorflow.keras.layers`, ...). Any other
`tensorflow.*` path fails with an ImportError that names it. `tensorflow.python.keras.X` (and
`tensorflow.python.keras._impl.keras.X`, TF 1.x's own paths of tf.keras) resolve as
`tensorflow.keras.X`. `horovod.tensorflow` resolves to tf1compat's Horovod on
torch.distributed (`HOROVOD_PATHS`), `horovod.keras` and `horovod.tensorflow.keras` to its
Keras face. `tf_slim` (the standalone TF-Slim package) resolves to `tf.contrib.slim`
(`TF_SLIM_PATHS` for its internal module paths). Standalone `keras` (Keras 2.2.4 on the
TensorFlow backend) resolves to tf1compat's Keras (tf1compat/shim_keras.py).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import re
import sys
import types
from typing import Any, Dict, Optional

__all__ = ["install", "uninstall", "INTERNAL_PATHS", "HOROVOD_PATHS", "TF_SLIM_PATHS"]

# TensorFlow-internal import path -> the tf1compat module standing in for it.
INTERNAL_PATHS: Dict[str, str] = {
    "tensorflow.python.framework.ops": "tf1compat.internal.framework_ops",
    "tensorflow.python.framework.dtypes": "tf1compat.framework.dtypes",
    "tensorflow.python.framework.tensor_shape": "tf1compat.framework.tensor_shape",
    "tensorflow.python.framework.constant_op": "tf1compat.framework.constant_op",
    "tensorflow.python.framework.errors": "tf1compat.api.errors",
    "tensorflow.python.framework.errors_impl": "tf1compat.framework.errors",
    "tensorflow.python.framework.random_seed": "tf1compat.framework.random_seed",
    "tensorflow.python.framework.sparse_tensor": "tf1compat.framework.sparse_tensor",
    "tensorflow.python.ops.check_ops": "tf1compat.ops.check_ops",
    "tensorflow.python.ops.math_ops": "tf1compat.internal.math_ops",
    "tensorflow.python.ops.array_ops": "tf1compat.internal.array_ops",
    "tensorflow.python.ops.nn_ops": "tf1compat.internal.nn_ops",
    "tensorflow.python.ops.nn": "tf1compat.internal.nn_ops",
    "tensorflow.python.ops.init_ops": "tf1compat.internal.init_ops",
    "tensorflow.python.ops.variable_scope": "tf1compat.internal.variable_scope",
    "tensorflow.python.ops.variables": "tf1compat.internal.variable_scope",
    "tensorflow.python.ops.control_flow_ops": "tf1compat.internal.control_flow_ops",
    "tensorflow.python.ops.control_flow_util": "tf1compat.internal.control_flow_util",
    # tensor2tensor's decoders: row updates of the step's output buffer.
    "tensorflow.python.ops.inplace_ops": "tf1compat.internal.inplace_ops",
    "tensorflow.python.ops.summary_op_util": "tf1compat.internal.summary_op_util",
    "tensorflow.python.distribute.summary_op_util": "tf1compat.internal.summary_op_util",
    "tensorflow.python.ops.random_ops": "tf1compat.internal.random_ops",
    "tensorflow.python.ops.nccl_ops": "tf1compat.internal.nccl_ops",
    "tensorflow.python.ops.gen_random_ops": "tf1compat.internal.gen_random_ops",
    "tensorflow.python.ops.gen_array_ops": "tf1compat.internal.gen_array_ops",
    "tensorflow.python.ops.resource_variable_ops":
        "tf1compat.internal.resource_variable_ops",
    # gradient-checkpointing keeps TF's own tf.gradients before patching tf.gradients.
    "tensorflow.python.ops.gradients": "tf1compat.autodiff.gradients",
    "tensorflow.python.ops.gradients_impl": "tf1compat.autodiff.gradients",
    "tensorflow.python.framework.tensor_util": "tf1compat.internal.tensor_util",
    "tensorflow.python.framework.function": "tf1compat.internal.framework_function",
    "tensorflow.python.layers.utils": "tf1compat.internal.layers_utils",
    "tensorflow.python.layers.base": "tf1compat.layers.base",
    "tensorflow.python.layers.core": "tf1compat.layers.layers",
    "tensorflow.python.layers.convolutional": "tf1compat.layers.layers",
    "tensorflow.python.layers.pooling": "tf1compat.layers.layers",
    "tensorflow.python.layers.normalization": "tf1compat.layers.layers",
    "tensorflow.python.ops.rnn": "tf1compat.internal.rnn",
    "tensorflow.python.ops.rnn_cell": "tf1compat.internal.rnn_cell_impl",
    "tensorflow.python.ops.rnn_cell_impl": "tf1compat.internal.rnn_cell_impl",
    "tensorflow.python.ops.state_ops": "tf1compat.ops.state_ops",
    # SeqGAN, nmt-era decoders: `tensor_array_ops.TensorArray` beside
    # `control_flow_ops.while_loop`.
    "tensorflow.python.ops.tensor_array_ops": "tf1compat.ops.tensor_array_ops",
    "tensorflow.python.ops.functional_ops": "tf1compat.ops.functional_ops",
    "tensorflow.python.ops.ctc_ops": "tf1compat.internal.ctc_ops",
    "tensorflow.python.ops.standard_ops": "tf1compat.internal.standard_ops",
    "tensorflow.python.ops.resources": "tf1compat.ops.resources",
    "tensorflow.python.pywrap_tensorflow": "tf1compat.internal.pywrap_tensorflow",
    "tensorflow.python.training.optimizer": "tf1compat.training.optimizers.optimizer",
    "tensorflow.python.training.moving_averages": "tf1compat.training.moving_averages",
    "tensorflow.python.training.training": "tf1compat.api.train",
    "tensorflow.python.tools.inspect_checkpoint": "tf1compat.training.saving.inspect_checkpoint",
    "tensorflow.python.tools.freeze_graph": "tf1compat.training.saving.freeze_graph",
    "tensorflow.python.tools.saved_model_utils":
        "tf1compat.training.saved_model.saved_model_utils",
    "tensorflow.python.tools.strip_unused_lib": "tf1compat.training.saving.strip_unused",
    "tensorflow.python.tools.strip_unused": "tf1compat.training.saving.strip_unused",
    "tensorflow.python.tools.optimize_for_inference_lib":
        "tf1compat.training.saving.optimize_for_inference",
    "tensorflow.python.tools.optimize_for_inference":
        "tf1compat.training.saving.optimize_for_inference",
    "tensorflow.python.framework.graph_util": "tf1compat.api.graph_util",
    "tensorflow.python.framework.graph_io": "tf1compat.training.saving.graph_util",
    "tensorflow.python.training.saver": "tf1compat.training.saving.saver",
    "tensorflow.python.training.experimental.loss_scale":
        "tf1compat.training.experimental.loss_scale",
    "tensorflow.python.training.experimental.loss_scale_optimizer":
        "tf1compat.training.experimental.loss_scale_optimizer",
    "tensorflow.python.training.experimental.mixed_precision":
        "tf1compat.training.experimental.mixed_precision",
    "tensorflow.python.client.device_lib": "tf1compat.internal.device_lib",
    "tensorflow.python.tf2": "tf1compat.internal.tf2",
    "tensorflow.python.profiler.profiler_v2": "tf1compat.internal.profiler_v2",
    "tensorflow.python.distribute.distribution_strategy_context":
        "tf1compat.internal.distribution_strategy_context",
    "tensorflow.python.distribute.reduce_util": "tf1compat.internal.reduce_util",
    "tensorflow.python.client.session": "tf1compat.runtime.session",
    "tensorflow.python.client.timeline": "tf1compat.training.profiler.timeline",
    "tensorflow.python.debug": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.lib.debug_data": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.lib.debug_utils": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.wrappers.hooks": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.wrappers.local_cli_wrapper": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.wrappers.dumping_wrapper": "tf1compat.internal.tfdbg",
    "tensorflow.python.debug.wrappers.framework": "tf1compat.internal.tfdbg",
    "tensorflow.python.platform.gfile": "tf1compat.util.gfile",
    "tensorflow.python.platform.tf_logging": "tf1compat.util.tf_logging",
    "tensorflow.python.platform.test": "tf1compat.api.test",
    "tensorflow.python.platform.flags": "tf1compat.util.flags",
    "tensorflow.python.platform.app": "tf1compat.util.app",
    "tensorflow.python.platform.resource_loader": "tf1compat.util.resource_loader",
    "tensorflow.python.util.nest": "tf1compat.util.nest_internal",
    "tensorflow.python.util.deprecation": "tf1compat.util.deprecation",
    "tensorflow.python.util.tf_decorator": "tf1compat.util.tf_decorator",
    "tensorflow.python.util.tf_inspect": "tf1compat.util.tf_inspect",
    "tensorflow.python.util.all_util": "tf1compat.util.all_util",
    "tensorflow.python.util.tf_contextlib": "tf1compat.util.tf_contextlib",
    "tensorflow.python.util.compat": "tf1compat.api.compat",
    "tensorflow.python.eager.context": "tf1compat.eager.context",
    "tensorflow.python.eager.backprop": "tf1compat.autodiff.tape",
    "tensorflow.python.eager.function": "tf1compat.eager.function",
    "tensorflow.python.eager.def_function": "tf1compat.eager.function",
    # input pipelines: tf.data, TFRecords, Example protos, parsing
    "tensorflow.python.lib.io.tf_record": "tf1compat.data.tf_record",
    "tensorflow.python.lib.io.python_io": "tf1compat.api.python_io",
    "tensorflow.core.example.example_pb2": "tf1compat.serialization.protos.example_pb2",
    "tensorflow.core.example.feature_pb2": "tf1compat.serialization.protos.example_pb2",
    "tensorflow.python.ops.parsing_ops": "tf1compat.internal.parsing_ops",
    "tensorflow.python.ops.string_ops": "tf1compat.internal.string_ops",
    "tensorflow.python.ops.image_ops": "tf1compat.api.image",
    "tensorflow.python.data.ops.dataset_ops": "tf1compat.data.dataset_ops",
    "tensorflow.python.data.ops.iterator_ops": "tf1compat.data.iterator_ops",
    "tensorflow.python.data.ops.readers": "tf1compat.data.readers",
    # (section: mathsparse) linear algebra, sparse tensors, lookup tables
    "tensorflow.python.ops.linalg_ops": "tf1compat.internal.linalg_ops",
    "tensorflow.python.ops.sparse_ops": "tf1compat.internal.sparse_ops",
    "tensorflow.python.ops.lookup_ops": "tf1compat.internal.lookup_ops",
    # training loop: coordinator, session hooks, monitored sessions, SavedModel
    "tensorflow.python.training.coordinator": "tf1compat.training.sessions.coordinator",
    "tensorflow.python.training.queue_runner": "tf1compat.training.queue_runner",
    "tensorflow.python.training.queue_runner_impl": "tf1compat.training.queue_runner",
    "tensorflow.python.training.input": "tf1compat.training.queue_input",
    "tensorflow.python.ops.data_flow_ops": "tf1compat.ops.queue_ops",
    "tensorflow.python.training.session_run_hook": "tf1compat.training.sessions.session_run_hook",
    "tensorflow.python.training.basic_session_run_hooks":
        "tf1compat.training.sessions.basic_session_run_hooks",
    "tensorflow.python.training.monitored_session": "tf1compat.training.sessions.monitored_session",
    "tensorflow.python.training.session_manager": "tf1compat.training.sessions.session_manager",
    "tensorflow.python.training.training_util": "tf1compat.training.training_util",
    "tensorflow.python.saved_model.builder": "tf1compat.training.saved_model.builder",
    "tensorflow.python.saved_model.builder_impl": "tf1compat.training.saved_model.builder",
    "tensorflow.python.saved_model.loader": "tf1compat.training.saved_model.loader",
    "tensorflow.python.saved_model.loader_impl": "tf1compat.training.saved_model.loader",
    "tensorflow.python.saved_model.constants": "tf1compat.training.saved_model.constants",
    "tensorflow.python.saved_model.tag_constants":
        "tf1compat.training.saved_model.tag_constants",
    "tensorflow.python.saved_model.signature_constants":
        "tf1compat.training.saved_model.signature_constants",
    "tensorflow.python.saved_model.signature_def_utils":
        "tf1compat.training.saved_model.signature_def_utils",
    "tensorflow.python.saved_model.signature_def_utils_impl":
        "tf1compat.training.saved_model.signature_def_utils",
    "tensorflow.python.saved_model.utils": "tf1compat.training.saved_model.utils",
    "tensorflow.python.saved_model.utils_impl": "tf1compat.training.saved_model.utils",
    "tensorflow.python.saved_model.simple_save": "tf1compat.training.saved_model.simple_save",
    "tensorflow.python.saved_model.main_op": "tf1compat.training.saved_model.main_op",
    "tensorflow.python.saved_model.main_op_impl": "tf1compat.training.saved_model.main_op",
    # protocol-buffer modules: tf1compat's generated classes (serialization/protos/)
    "tensorflow.core.protobuf.meta_graph_pb2": "tf1compat.serialization.protos.meta_graph_pb2",
    "tensorflow.core.protobuf.saved_model_pb2": "tf1compat.serialization.protos.meta_graph_pb2",
    "tensorflow.core.protobuf.saver_pb2": "tf1compat.serialization.protos.meta_graph_pb2",
    "tensorflow.core.framework.variable_pb2": "tf1compat.serialization.protos.meta_graph_pb2",
    "tensorflow.core.framework.graph_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.node_def_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.attr_value_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.function_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.op_def_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.versions_pb2": "tf1compat.serialization.protos.graph_pb2",
    "tensorflow.core.framework.tensor_pb2": "tf1compat.serialization.protos.tensor_pb2",
    "tensorflow.core.framework.tensor_shape_pb2": "tf1compat.serialization.protos.tensor_pb2",
    "tensorflow.core.framework.types_pb2": "tf1compat.serialization.protos.types_pb2",
    "tensorflow.core.framework.summary_pb2": "tf1compat.serialization.protos.summary_pb2",
    "tensorflow.core.util.event_pb2": "tf1compat.serialization.protos.summary_pb2",
    "tensorflow.core.protobuf.config_pb2": "tf1compat.serialization.protos.config_pb2",
    "tensorflow.core.protobuf.rewriter_config_pb2": "tf1compat.serialization.protos.config_pb2",
    "tensorflow.core.protobuf.tensor_bundle_pb2": "tf1compat.serialization.protos.checkpoint_pb2",
    "tensorflow.core.protobuf.trackable_object_graph_pb2":
        "tf1compat.serialization.protos.checkpoint_pb2",
    "tensorflow.python.training.checkpoint_state_pb2":
        "tf1compat.serialization.protos.checkpoint_pb2",
    # (section: estimator) Estimator, feature columns, contrib.learn/training/tpu
    "tensorflow.python.estimator.estimator": "tf1compat.estimator.estimator",
    "tensorflow.python.estimator.estimator_lib": "tf1compat.estimator",
    "tensorflow.python.estimator.model_fn": "tf1compat.estimator.model_fn",
    "tensorflow.python.estimator.mode_keys": "tf1compat.estimator.mode_keys",
    "tensorflow.python.estimator.run_config": "tf1compat.estimator.run_config",
    "tensorflow.python.estimator.training": "tf1compat.estimator.training",
    "tensorflow.python.estimator.exporter": "tf1compat.estimator.exporter",
    "tensorflow.python.estimator.util": "tf1compat.estimator.util",
    "tensorflow.python.estimator.export.export": "tf1compat.estimator.export.export",
    "tensorflow.python.estimator.export.export_lib": "tf1compat.estimator.export.export_lib",
    "tensorflow.python.estimator.export.export_output":
        "tf1compat.estimator.export.export_output",
    "tensorflow.python.estimator.inputs.numpy_io": "tf1compat.estimator.inputs.numpy_io",
    "tensorflow.python.estimator.inputs.pandas_io": "tf1compat.estimator.inputs.pandas_io",
    "tensorflow.python.estimator.canned.head": "tf1compat.estimator.canned.head",
    "tensorflow.python.estimator.canned.metric_keys": "tf1compat.estimator.canned.metric_keys",
    "tensorflow.python.estimator.canned.prediction_keys":
        "tf1compat.estimator.canned.prediction_keys",
    "tensorflow.python.estimator.canned.optimizers": "tf1compat.estimator.canned.optimizers",
    "tensorflow.python.estimator.canned.dnn": "tf1compat.estimator.canned.dnn",
    "tensorflow.python.estimator.canned.linear": "tf1compat.estimator.canned.linear",
    "tensorflow.python.estimator.canned.dnn_linear_combined":
        "tf1compat.estimator.canned.dnn_linear_combined",
    "tensorflow.python.estimator.canned.baseline": "tf1compat.estimator.canned.baseline",
    "tensorflow.python.estimator.canned.parsing_utils":
        "tf1compat.estimator.canned.parsing_utils",
    "tensorflow.python.estimator.tpu.tpu_estimator": "tf1compat.estimator.tpu.tpu_estimator",
    "tensorflow.python.estimator.tpu.tpu_config": "tf1compat.estimator.tpu.tpu_config",
    "tensorflow.python.feature_column.feature_column": "tf1compat.internal.feature_column",
    "tensorflow.python.feature_column.feature_column_lib": "tf1compat.feature_column",
    "tensorflow.python.feature_column.feature_column_v2": "tf1compat.feature_column",
    "tensorflow.python.training.evaluation": "tf1compat.training.sessions.evaluation",
    "tensorflow.python.training.warm_starting_util": "tf1compat.training.saving.warm_starting_util",
    "tensorflow.contrib.learn.python.learn.learn_runner": "tf1compat.contrib.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.experiment": "tf1compat.contrib.learn.experiment",
    "tensorflow.contrib.learn.python.learn.datasets": "tf1compat.contrib.learn.datasets",
    "tensorflow.contrib.crf.python.ops.crf": "tf1compat.contrib.crf",
    "tensorflow.contrib.seq2seq.python.ops.attention_wrapper":
        "tf1compat.contrib.seq2seq.attention_wrapper",
    "tensorflow.contrib.seq2seq.python.ops.basic_decoder":
        "tf1compat.contrib.seq2seq.basic_decoder",
    "tensorflow.contrib.seq2seq.python.ops.beam_search_decoder":
        "tf1compat.contrib.seq2seq.beam_search_decoder",
    "tensorflow.contrib.seq2seq.python.ops.beam_search_ops": "tf1compat.ops.beam_search_ops",
    "tensorflow.contrib.seq2seq.python.ops.decoder": "tf1compat.contrib.seq2seq.decoder",
    "tensorflow.contrib.seq2seq.python.ops.helper": "tf1compat.contrib.seq2seq.helper",
    "tensorflow.contrib.seq2seq.python.ops.loss": "tf1compat.contrib._sequence_losses",
    "tensorflow.contrib.learn.python.learn.datasets.base":
        "tf1compat.contrib.learn.datasets.base",
    "tensorflow.contrib.learn.python.learn.datasets.mnist":
        "tf1compat.contrib.learn.datasets.mnist",
    "tensorflow.contrib.learn.python.learn.datasets.text_datasets":
        "tf1compat.contrib.learn.datasets.text_datasets",
    "tensorflow.contrib.learn.python.learn.estimators.run_config":
        "tf1compat.contrib.learn.run_config",
    "tensorflow.contrib.learn.python.learn.estimators.estimator":
        "tf1compat.contrib.learn.estimator",
    "tensorflow.contrib.learn.python.learn.estimators.model_fn":
        "tf1compat.contrib.learn.estimator",
    "tensorflow.contrib.learn.python.learn.learn_io": "tf1compat.contrib.learn.io",
    # TF 1.15's deprecated aliases of tf.train's MonitoredSession family
    # (deepmind/learning-to-learn's train.py)
    "tensorflow.contrib.learn.python.learn.monitored_session":
        "tf1compat.training.sessions.monitored_session",
    "tensorflow.contrib.learn.python.learn.estimators.dnn": "tf1compat.contrib.learn.canned",
    "tensorflow.contrib.learn.python.learn.estimators.linear":
        "tf1compat.contrib.learn.canned",
    "tensorflow.contrib.learn.python.learn.estimators.dnn_linear_combined":
        "tf1compat.contrib.learn.canned",
    "tensorflow.contrib.learn.python.learn.estimators.head": "tf1compat.contrib.learn.head",
    "tensorflow.contrib.learn.python.learn.metric_spec": "tf1compat.contrib.learn.metric_spec",
    "tensorflow.contrib.layers.python.layers.feature_column":
        "tf1compat.contrib.layers.feature_column",
    "tensorflow.contrib.layers.python.layers.feature_column_ops":
        "tf1compat.contrib.layers.feature_column_ops",
    "tensorflow.contrib.learn.python.learn.utils.saved_model_export_utils":
        "tf1compat.contrib.learn.export_strategy",
    "tensorflow.contrib.training.python.training.hparam": "tf1compat.contrib.training.hparam",
    # (pickled VocabularyProcessors name these modules)
    "tensorflow.contrib.learn.python.learn.preprocessing": "tf1compat.contrib.learn.preprocessing",
    "tensorflow.contrib.learn.python.learn.preprocessing.text":
        "tf1compat.contrib.learn.preprocessing",
    "tensorflow.contrib.learn.python.learn.preprocessing.categorical_vocabulary":
        "tf1compat.contrib.learn.preprocessing",
    "tensorflow.contrib.learn.python.learn.preprocessing.categorical":
        "tf1compat.contrib.learn.preprocessing",
    # (section: kmeans) tf.contrib.factorization's k-means
    "tensorflow.contrib.factorization.python.ops.clustering_ops":
        "tf1compat.estimator.canned.kmeans_graph",
    "tensorflow.python.ops.clustering_ops": "tf1compat.estimator.canned.kmeans_graph",
    "tensorflow.python.estimator.canned.kmeans": "tf1compat.estimator.canned.kmeans",
    "tensorflow.python.ops.gen_clustering_ops": "tf1compat.ops.clustering_ops",
    # (section: sdca) the SDCA solver ops
    "tensorflow.python.ops.gen_sdca_ops": "tf1compat.ops.sdca_ops",
    # (section: audio) the speech_commands example's spectrogram / MFCC ops
    "tensorflow.python.ops.gen_audio_ops": "tf1compat.internal.gen_audio_ops",
    "tensorflow.python.ops.audio_ops": "tf1compat.internal.gen_audio_ops",
    "tensorflow.contrib.framework.python.ops.audio_ops": "tf1compat.internal.gen_audio_ops",
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator": "tf1compat.estimator.tpu.tpu_estimator",
    "tensorflow.contrib.tpu.python.tpu.tpu_function": "tf1compat.internal.tpu_function",
    "tensorflow.python.tpu.tpu_function": "tf1compat.internal.tpu_function",
    "tensorflow.compiler.tf2xla.python.xla": "tf1compat.internal.tf2xla_xla",
    "tensorflow.contrib.tpu.python.tpu.tpu_config": "tf1compat.estimator.tpu.tpu_config",
    "tensorflow.contrib.tpu.python.tpu.tpu_optimizer":
        "tf1compat.contrib.tpu.cross_shard_optimizer",
}
# (section: slim) the TF-internal modules slim-era code and tests import
INTERNAL_PATHS.update({
    "tensorflow.python.summary.summary": "tf1compat.summary",
    "tensorflow.python.summary.summary_iterator": "tf1compat.summary.summary_iterator",
    "tensorflow.python.ops.io_ops": "tf1compat.internal.io_ops",
    "tensorflow.python.ops.metrics": "tf1compat.metrics",
    "tensorflow.python.training.gradient_descent":
        "tf1compat.training.optimizers.gradient_descent",
    "tensorflow.python.training.supervisor": "tf1compat.training.sessions.supervisor",
})
# TF 1.15's slim modules, e.g. tensorflow.contrib.slim.python.slim.nets.vgg
INTERNAL_PATHS.update({
    f"tensorflow.contrib.slim.python.slim.{path}": f"tf1compat.contrib.slim.{path}"
    for path in ("learning", "evaluation", "summaries", "queues", "model_analyzer",
                 "nets.alexnet", "nets.inception", "nets.inception_v1", "nets.inception_v2",
                 "nets.inception_v3", "nets.overfeat", "nets.resnet_utils", "nets.resnet_v1",
                 "nets.resnet_v2", "nets.vgg", "data.data_decoder", "data.data_provider",
                 "data.dataset", "data.dataset_data_provider", "data.parallel_reader",
                 "data.prefetch_queue", "data.tfexample_decoder")})

# TF 1.15's tf.contrib.framework modules (openai/glow imports add_arg_scope from the
# package `...framework.python.ops`, which re-exports its modules as tf.contrib.framework does).
INTERNAL_PATHS.update({
    "tensorflow.contrib.framework.python.ops": "tf1compat.contrib.framework",
    # Sonnet v1: `from tensorflow.contrib.eager.python import tfe` (TF 1.15's module behind
    # tf.contrib.eager).
    "tensorflow.contrib.eager.python": "tf1compat.internal.contrib_eager_python",
    "tensorflow.contrib.eager.python.tfe": "tf1compat.contrib.eager",
    "tensorflow.contrib.framework.python.ops.arg_scope": "tf1compat.contrib.framework.arg_scope",
    "tensorflow.contrib.framework.python.ops.variables": "tf1compat.contrib.framework.variables",
    # balancap/SSD-Tensorflow's tf_extended takes set_intersection etc. from TF 1.15's
    # contrib.metrics set_ops (aliases of tf.sets).
    "tensorflow.contrib.metrics.python.ops.set_ops": "tf1compat.ops.set_ops",
})

# TF 1.15's tf.contrib.layers modules, e.g. ...contrib.layers.python.layers.initializers
# (tflearn takes its initializers from there); the package itself is tf.contrib.layers.
INTERNAL_PATHS.update({
    "tensorflow.contrib.layers.python.layers": "tf1compat.contrib.layers",
    **{f"tensorflow.contrib.layers.python.layers.{path}": f"tf1compat.contrib.layers.{path}"
       for path in ("embedding_ops", "encoders", "initializers", "layers", "normalization",
                    "optimizers", "regularizers", "summaries", "utils")}})

# TF 1.15's tf.contrib.rnn / legacy_seq2seq modules (tflearn's fallbacks for old TFs
# import them): tf.contrib.rnn holds their cells, wrappers and static RNNs; metric_loss_ops
# is tf.contrib.losses.metric_learning.
INTERNAL_PATHS.update({
    "tensorflow.contrib.rnn.python.ops.core_rnn": "tf1compat.contrib.rnn",
    "tensorflow.contrib.rnn.python.ops.core_rnn_cell": "tf1compat.contrib.rnn",
    "tensorflow.contrib.rnn.python.ops.rnn_cell": "tf1compat.contrib.rnn",
    "tensorflow.contrib.rnn.python.ops.fused_rnn_cell": "tf1compat.contrib.rnn",
    "tensorflow.contrib.rnn.python.ops.lstm_ops": "tf1compat.contrib.rnn",
    "tensorflow.contrib.rnn.python.ops.gru_ops": "tf1compat.contrib.rnn",
    "tensorflow.contrib.losses.python.metric_learning": "tf1compat.contrib.metric_learning",
    "tensorflow.contrib.losses.python.metric_learning.metric_loss_ops":
        "tf1compat.contrib.metric_learning",
    "tensorflow.contrib.legacy_seq2seq.python.ops.seq2seq": "tf1compat.contrib.legacy_seq2seq",
})

# TF 1.15's tf.contrib.cudnn_rnn modules (the ops module holds the functional cudnn_lstm
# and the params converters; the layers package re-exports what tf.contrib.cudnn_rnn does).
INTERNAL_PATHS.update({
    "tensorflow.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops":
        "tf1compat.contrib.cudnn_rnn.cudnn_rnn_ops",
    "tensorflow.contrib.cudnn_rnn.python.layers": "tf1compat.contrib.cudnn_rnn",
    "tensorflow.contrib.cudnn_rnn.python.layers.cudnn_rnn": "tf1compat.contrib.cudnn_rnn.layers",
})

# (section: tfp) the TF-internal modules TensorFlow Probability 0.8 imports
INTERNAL_PATHS.update({
    "tensorflow.python.ops.linalg.linear_operator_util":
        "tf1compat.internal.linear_operator_util",
    "tensorflow.python.ops.linalg.linear_operator_addition":
        "tf1compat.internal.linear_operator_addition",
    "tensorflow.python.framework.common_shapes": "tf1compat.internal.common_shapes",
    "tensorflow.python.framework.composite_tensor": "tf1compat.internal.composite_tensor",
    "tensorflow.python.framework.type_spec": "tf1compat.internal.composite_tensor",
    "tensorflow.python.ops.control_flow_util": "tf1compat.internal.control_flow_util",
    "tensorflow.python.ops.unconnected_gradients": "tf1compat.autodiff.gradients",
    "tensorflow.python.training.training_ops": "tf1compat.internal.training_ops",
    "tensorflow.python.util.lazy_loader": "tf1compat.util.lazy_loader",
    # (tensorflow_hub 0.7 imports these at `import tensorflow_hub`)
    "tensorflow.python.framework.op_def_registry": "tf1compat.internal.op_def_registry",
    "tensorflow.python.framework.smart_cond": "tf1compat.ops.cond",
    "tensorflow.python.training.tracking.base": "tf1compat.training.saving.tracking",
    "tensorflow.python.training.tracking.tracking": "tf1compat.training.saving.tracking",
    "tensorflow.python.training.tracking.data_structures": "tf1compat.training.saving.tracking",
    # (TFP's test files decorate their TestCases with the graph-and-eager mode runners)
    "tensorflow.python.framework.test_util": "tf1compat.eager.test_modes",
    **{f"tensorflow.python.autograph.{path}": "tf1compat.internal.autograph_pyct"
       for path in ("converters.break_statements", "converters.continue_statements",
                    "converters.return_statements", "core.converter", "core.naming",
                    "pyct.anno", "pyct.compiler", "pyct.inspect_utils", "pyct.parser",
                    "pyct.qual_names", "pyct.templates", "pyct.transformer",
                    "pyct.common_transformers.anf")},
})

# Horovod's TensorFlow modules -> tf1compat's Horovod on torch.distributed.
HOROVOD_PATHS: Dict[str, str] = {
    "horovod.tensorflow": "tf1compat.distribute.horovod_tensorflow",
    "horovod.tensorflow.mpi_ops": "tf1compat.distribute.horovod_tensorflow",
    "horovod.tensorflow.compression": "tf1compat.distribute.horovod_tensorflow",
    "horovod.tensorflow.elastic": "tf1compat.distribute.horovod_elastic",
    "horovod.tensorflow.keras": "tf1compat.distribute.horovod_keras",
    "horovod.tensorflow.keras.callbacks": "tf1compat.distribute.horovod_keras_callbacks",
    "horovod.tensorflow.keras.elastic": "tf1compat.distribute.horovod_keras_elastic",
    "horovod.keras": "tf1compat.distribute.horovod_keras",
    "horovod.keras.callbacks": "tf1compat.distribute.horovod_keras_callbacks",
    "horovod.keras.elastic": "tf1compat.distribute.horovod_keras_elastic",
}

# tf_slim's internal module paths whose tf1compat module is not tf1compat.contrib.slim's
# module of the same path (tf_slim.nets.vgg is tf1compat.contrib.slim.nets.vgg).
TF_SLIM_PATHS: Dict[str, str] = {
    "tf_slim.layers": "tf1compat.contrib.layers",
    "tf_slim.ops.arg_scope": "tf1compat.contrib.framework.arg_scope",
    "tf_slim.ops.variables": "tf1compat.contrib.framework.variables",
    "tf_slim.losses": "tf1compat.contrib.losses",
    "tf_slim.metrics": "tf1compat.contrib.metrics",
    "tf_slim.training.evaluation": "tf1compat.contrib.training.evaluation",
}

_ROOT_ALIASES = ("tensorflow", "tensorflow.compat.v1")
# Top-level packages whose imports the finder resolves.
_ROOT_PACKAGES = ("tensorflow", "tensorflow_estimator", "horovod", "tf_slim")

# tf1compat packages that are TF namespaces of the same name (imported on demand).
_PUBLIC_PACKAGES = {"examples", "keras", "layers", "contrib", "estimator", "data", "summary",
                    "saved_model", "feature_column", "lite", "initializers", "losses",
                    "metrics", "image", "io", "sparse", "strings"}


def _not_provided(name: str) -> ImportError:
    if name.split(".")[0] == "tf_slim":
        return ImportError(f"tf1compat does not provide {name!r}: tf_slim resolves to "
                           "tf.contrib.slim, which has no such module.", name=name)
    if name.split(".")[0] == "horovod":
        return ImportError(f"tf1compat does not provide {name!r}: of Horovod it provides "
                           f"{', '.join(sorted(HOROVOD_PATHS))} (on torch.distributed).",
                           name=name)
    if name.startswith("tensorflow.contrib."):
        # contrib is public TF1 API: say which piece is missing, not "use the public API".
        public = "tf." + name[len("tensorflow."):]
        from tf1compat.framework.missing import UnimplementedModuleError
        from tf1compat.framework.unsupported_api import explain
        why = explain(name[len("tensorflow."):])
        if why:
            return UnimplementedModuleError(f"{public} is part of TensorFlow 1.x's tf.contrib "
                                            f"but is not implemented by tf1compat.{why}",
                                            name=name)
        return ImportError(f"{public} ({name!r}) is not provided by tf1compat: only the most "
                           "used parts of tf.contrib are implemented (docs/api_support.md "
                           "lists them).", name=name)
    return ImportError(f"tf1compat does not provide TensorFlow's module {name!r}: it is not "
                       "part of the TF1 API that tf1compat implements. Import the public "
                       "API instead (e.g. `import tensorflow as tf`).", name=name)


def _resolve_horovod(fullname: str) -> Optional[types.ModuleType]:
    """The module that `horovod.<...>` stands for, or None if tf1compat has none."""
    target = HOROVOD_PATHS.get(fullname)
    if target is not None:
        return importlib.import_module(target)
    if any(path.startswith(fullname + ".") for path in HOROVOD_PATHS):
        return _package(fullname)
    return None


class _SlimPackage(types.ModuleType):
    """`tf_slim`: tf.contrib.slim's names, in a module of its own (so that importing
    tf_slim's submodules never sets attributes on tf1compat's modules)."""

    __path__: list = []

    def __getattr__(self, name: str) -> Any:
        from tf1compat.contrib import slim
        return getattr(slim, name)


def _resolve_tf_slim(fullname: str) -> Optional[types.ModuleType]:
    """The module that `tf_slim[.<...>]` stands for, or None if tf1compat has none."""
    if fullname == "tf_slim":
        if "tf_slim" not in _PACKAGES:
            _PACKAGES["tf_slim"] = _SlimPackage("tf_slim", "tf.contrib.slim as tf_slim")
        return _PACKAGES["tf_slim"]
    target = TF_SLIM_PATHS.get(fullname)
    if target is not None:
        return importlib.import_module(target)
    if any(path.startswith(fullname + ".") for path in TF_SLIM_PATHS):
        return _package(fullname)
    target = "tf1compat.contrib.slim" + fullname[len("tf_slim"):]
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        if error.name and target.startswith(error.name):
            return None
        raise


_KERAS_IMPL_PATH = re.compile(r"tensorflow\.python\.keras(\._impl\.keras)?(?=\.|$)")


def _resolve(fullname: str) -> Optional[types.ModuleType]:
    """The module that `tensorflow.<...>` stands for, or None if there is none."""
    import tf1compat
    if fullname == "tf_slim" or fullname.startswith("tf_slim."):
        return _resolve_tf_slim(fullname)
    if fullname == "tensorflow_estimator" or fullname.startswith("tensorflow_estimator."):
        return _resolve_estimator_package(fullname)
    if fullname == "horovod" or fullname.startswith("horovod."):
        return _resolve_horovod(fullname)
    if fullname in _ROOT_ALIASES:
        return tf1compat
    if fullname == "tensorflow.compat":
        return tf1compat.compat
    target = INTERNAL_PATHS.get(fullname)
    if target is not None:
        try:
            module = importlib.import_module(target)
        except ImportError:
            return None
        if any(path.startswith(fullname + ".") for path in INTERNAL_PATHS):
            return _alias_package(fullname, module)
        return module
    if fullname == "tensorflow.python.keras._impl":
        return _package(fullname)
    keras_path = _KERAS_IMPL_PATH.match(fullname)
    if keras_path:
        # TF 1.x's tf.keras *is* tensorflow.python.keras (tensorflow.python.keras._impl.keras
        # before 1.9): tutorials import its public modules (models, layers, backend...)
        # and internal ones (engine.base_layer, layers.core...) under that path.
        return _resolve_public("tensorflow.keras" + fullname[keras_path.end():])
    public = None
    if not (fullname.startswith("tensorflow.python") or fullname.startswith("tensorflow.core")):
        public = _resolve_public(fullname)
    if public is None and any(path.startswith(fullname + ".") for path in INTERNAL_PATHS):
        # an intermediate internal path (tensorflow.contrib.learn.python, ...); public
        # namespaces above internal paths (tensorflow.contrib.training) stay themselves
        return _package(fullname)
    return public


def _resolve_public(fullname: str) -> Optional[types.ModuleType]:
    """The tf1compat module of a public namespace `tensorflow.<ns>[.<ns>...]`, or None."""
    import tf1compat
    rest = fullname.split(".")[1:]
    if rest[:2] == ["compat", "v1"]:
        rest = rest[2:]
    if rest and rest[0] in _PUBLIC_PACKAGES:
        # Namespaces that are packages of their own (tensorflow.keras.layers, ...).
        try:
            return importlib.import_module("tf1compat." + ".".join(rest))
        except ImportError:
            pass
    obj: Any = tf1compat
    for part in rest:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if isinstance(obj, types.ModuleType) else None


def _resolve_estimator_package(fullname: str) -> Optional[types.ModuleType]:
    """`tensorflow_estimator[.python.estimator.X]`: the pip package TF 1.13+ split the
    Estimator into, as `tensorflow.python.estimator.X`."""
    rest = fullname[len("tensorflow_estimator"):]
    if rest in ("", ".estimator", ".compat.v1.estimator"):
        return importlib.import_module("tf1compat.estimator")
    if rest.startswith(".python.estimator"):
        return _resolve("tensorflow" + rest)
    if rest == ".python":
        return _package(fullname)
    return None


_PACKAGES: Dict[str, types.ModuleType] = {}


def _package(fullname: str) -> types.ModuleType:
    """An empty package standing for an intermediate internal path (tensorflow.python...)."""
    if fullname not in _PACKAGES:
        module = types.ModuleType(fullname, f"tf1compat stand-in for {fullname}")
        module.__path__ = []  # a package: its children resolve through the finder
        _PACKAGES[fullname] = module
    return _PACKAGES[fullname]


class _AliasPackage(types.ModuleType):
    """An internal package path that stands for a tf1compat module and has internal paths
    of its own below it (`tensorflow.contrib.framework.python.ops` -> tf.contrib.framework,
    with `...ops.arg_scope` and `...ops.audio_ops`). Its names are the module's; the
    package's own name lets `from <path> import <child>` find the child's stand-in, and
    Python sets imported children on this package, never on tf1compat's module (where
    `...ops.arg_scope` would replace the function tf.contrib.framework.arg_scope)."""

    __path__: list = []

    def __init__(self, name: str, module: types.ModuleType):
        super().__init__(name, module.__doc__)
        self._tf1compat_module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_tf1compat_module"], name)

    def __dir__(self) -> list:
        return sorted(set(dir(self._tf1compat_module)) | set(self.__dict__))


def _alias_package(fullname: str, module: types.ModuleType) -> types.ModuleType:
    if fullname not in _PACKAGES:
        _PACKAGES[fullname] = _AliasPackage(fullname, module)
    return _PACKAGES[fullname]


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module: types.ModuleType):
        self._module = module

    def create_module(self, spec: Any) -> types.ModuleType:
        return self._module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


class _TensorflowFinder(importlib.abc.MetaPathFinder):
    """Resolves `tensorflow` and `tensorflow.*` imports to tf1compat modules."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.split(".")[0] not in _ROOT_PACKAGES:
            return None
        module = _resolve(fullname)
        if module is None:
            raise _not_provided(fullname)
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module),
                                               is_package=True)


_FINDER = _TensorflowFinder()


def install(keras: bool = True) -> None:
    """Registers tf1compat as `tensorflow` (idempotent); with `keras`, standalone
    `import keras` resolves to tf1compat's Keras too (tf1compat/shim_keras.py)."""
    import tf1compat
    from tf1compat import shim_keras
    if keras:
        shim_keras.install()
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    sys.modules["tensorflow"] = tf1compat
    sys.modules["tensorflow.compat"] = tf1compat.compat
    sys.modules["tensorflow.compat.v1"] = tf1compat
    sys.modules["tensorflow.compat.v2"] = tf1compat.compat.v2


def uninstall() -> None:
    """Removes the `tensorflow` (and `keras`) aliases installed by `install()`."""
    from tf1compat import shim_keras
    shim_keras.uninstall()
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in list(sys.modules):
        if name.split(".")[0] in _ROOT_PACKAGES:
            del sys.modules[name]
