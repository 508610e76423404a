"""The one table of TensorFlow 1.x names tf1compat does not provide on purpose: why, and
what to use instead.

Keys are qualified names without the `tf.` prefix ("lite", "contrib.slim.nets",
"config.experimental.enable_mlir_bridge"); an entry for a namespace covers every name in
it. `framework/missing.py` puts the reason and the replacement into the
UnimplementedAPIError a missing name raises, and `scripts/gen_api_support.py` into
docs/api_support.md. Names of TF's API that are simply not implemented yet have no entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional

__all__ = ["Unsupported", "UNSUPPORTED", "lookup", "explain"]


@dataclass(frozen=True)
class Unsupported:
    """Why a TF name is not provided and, where one exists, what to use instead.

    `meaningless`: TF-only machinery (TPUs, XLA, TF Lite, TF's C++ plugins) that has no
    meaning on torch, as opposed to a feature left for later.
    """
    reason: str
    replacement: Optional[str] = None
    meaningless: bool = False


def _tf_only(reason: str, replacement: Optional[str] = None) -> Unsupported:
    return Unsupported(reason, replacement, meaningless=True)


_CUSTOM_OPS = _tf_only("it loads TensorFlow C++ kernels (.so files), which torch cannot run",
                       "tf.py_func / tf.numpy_function for a Python op, or a torch C++ "
                       "extension called from tf.py_func")
_FACTORIZATION_MODELS = Unsupported("of tf.contrib.factorization only k-means (KMeans, "
                                    "KMeansClustering) is implemented: WALS matrix "
                                    "factorization and Gaussian mixture models are not")
_DISTRIBUTED = Unsupported("TF's distribution strategies, cluster protos and collective "
                           "libraries are not provided (tf1compat distributes through "
                           "torch.distributed: docs/distributed.md)",
                           "tf.train.Server + ClusterSpec + replica_device_setter (parameter "
                           "servers), or horovod.tensorflow (data parallel)")
def _moved(what: str, successor: str) -> Unsupported:
    return Unsupported(f"{what} is not provided (its successor is in core TensorFlow)",
                       successor)


_AUTOGRAPH = _tf_only("AutoGraph rewrites Python control flow into TF graph ops; tf1compat "
                      "has no AutoGraph",
                      "tf.cond / tf.while_loop in graphs, or Python control flow under "
                      "eager execution")
_RAGGED = Unsupported("RaggedTensor is not supported",
                      "tf.SparseTensor, or padded dense tensors with tf.sequence_mask")
_MIXED_PRECISION = Unsupported("TF's automatic mixed-precision graph rewrite is not "
                               "supported", "cast explicitly with tf.cast to tf.float16")
_OBJECT_SAVED_MODEL = Unsupported(
    "TF2's object-based SavedModel (tf.saved_model.save / load) needs eager execution and "
    "resource variables, which TF 1.x graphs do not use",
    "tf.saved_model.simple_save or tf.saved_model.Builder, and tf.saved_model.loader.load")
_SDCA = Unsupported("the SDCA solver ops of TF's linear estimators are not provided",
                    "a tf.train optimizer")
_QUANTIZED = Unsupported(
    "it produces or consumes TF's quantized dtypes (qint8, quint8, qint32, ...), which have "
    "no torch tensors in tf1compat",
    "tf.quantization.fake_quant_* or quantize_and_dequantize (quantization simulated in "
    "float), or torch.ao.quantization on the equivalent torch model")
_MLIR_BRIDGE = _tf_only("the MLIR bridge is part of TF's XLA compiler; tf1compat has no XLA",
                        "tf.config.optimizer.set_jit (plans run through torch.compile)")

UNSUPPORTED: Dict[str, Unsupported] = {
    # -- TF-only machinery ------------------------------------------------------------------
    "tpu": _tf_only("TPU programs (tf.tpu.rewrite, shard, initialize_system, ...) compile "
                    "for Google TPUs, which torch does not target",
                    "call the model function directly: it runs on the CPU or CUDA"),
    "contrib.tpu": _tf_only("TPU programs compile for Google TPUs, which torch does not "
                            "target", "call the model function directly"),
    "xla": _tf_only("XLA is TensorFlow's compiler",
                    "tf.config.optimizer.set_jit(True) or ConfigProto graph_options "
                    "global_jit_level: session plans run through torch.compile"),
    "lite": _tf_only("TensorFlow Lite converts models to .tflite files for TF's mobile "
                     "interpreter",
                     "save a checkpoint or SavedModel; export for mobile with PyTorch's "
                     "tools (torch.export, ExecuTorch)"),
    "contrib.lite": _tf_only("TensorFlow Lite converts models for TF's mobile interpreter",
                             "PyTorch's export tools (torch.export, ExecuTorch)"),
    "mlir": _tf_only("TensorFlow's MLIR compiler passes operate on TF's internal IR"),
    "load_op_library": _CUSTOM_OPS,
    "load_library": _CUSTOM_OPS,
    "load_file_system_library": _tf_only("it loads a TensorFlow C++ file-system plugin",
                                         "tf.gfile and tf.io.gfile read local paths"),
    "user_ops": _tf_only("TensorFlow's example C++ user op"),
    "resource_loader": _tf_only("it locates data files in TensorFlow's Bazel build tree",
                                "os.path or importlib.resources"),
    "check_pinned": _tf_only("a TensorFlow-internal helper (not for public use)"),
    "experimental": Unsupported("tf.experimental holds TF 2 features (extension types, "
                                "API dispatch, float8/int4 dtypes) outside the TF 1.x API"),
    "types": Unsupported("tf.types holds TF 2 type annotations outside the TF 1.x API",
                         "tf.Tensor / typing annotations"),
    "autograph.to_graph": _AUTOGRAPH,
    "autograph.to_code": _AUTOGRAPH,
    "autograph.convert": _AUTOGRAPH,
    "profiler": _tf_only("tf.profiler analyses TF's own run metadata and C++ kernels",
                         "torch.profiler (the kernels are torch's)"),
    "contrib.tfprof": _tf_only("tfprof analyses TF's own run metadata", "torch.profiler"),
    "debugging.experimental": _tf_only("tfdbg v2 dumps TF's internal execution traces for "
                                       "TensorBoard's Debugger V2",
                                       "tf.print, tf.debugging.enable_check_numerics"),
    "config.experimental.enable_mlir_bridge": _MLIR_BRIDGE,
    "config.experimental.disable_mlir_bridge": _MLIR_BRIDGE,
    "test.create_local_cluster": _DISTRIBUTED,
    "contrib.tensorrt": _tf_only("TF-TRT rewrites TF graphs for NVIDIA TensorRT",
                                 "torch-tensorrt on the equivalent torch model"),
    "contrib.cloud": _tf_only("it reads Google Cloud services through TF's C++ file systems"),
    "contrib.bigtable": _tf_only("it reads Cloud Bigtable through TF's C++ kernels"),
    "contrib.mpi_collectives": _DISTRIBUTED,
    "contrib.nccl": _DISTRIBUTED,
    # -- distributed execution beyond tf.train.Server and Horovod ---------------------------------------------
    "distribute": _DISTRIBUTED,
    "contrib.distribute": _DISTRIBUTED,
    "train.ServerDef": _DISTRIBUTED,
    "train.ClusterDef": _DISTRIBUTED,
    "train.JobDef": _DISTRIBUTED,
    "config.experimental.ClusterDeviceFilters": _DISTRIBUTED,
    # -- features tf1compat leaves out ---------------------------------------------------------
    "RaggedTensor": _RAGGED,
    "RaggedTensorSpec": _RAGGED,
    "ragged": _RAGGED,
    "ragged_fill_empty_rows": _RAGGED,
    "ragged_fill_empty_rows_grad": _RAGGED,
    "io.RaggedFeature": _RAGGED,
    "mixed_precision": _MIXED_PRECISION,
    "keras.mixed_precision": _MIXED_PRECISION,
    # -- Keras names that exist but raise NotImplementedError -----------------------------
    "keras.layers.CuDNNLSTM": Unsupported("the CuDNN layers run NVIDIA's fused kernels",
                                          "tf.keras.layers.LSTM"),
    "keras.layers.CuDNNGRU": Unsupported("the CuDNN layers run NVIDIA's fused kernels",
                                         "tf.keras.layers.GRU (reset_after=True)"),
    "keras.backend.ctc_decode": Unsupported("the CTC decoders (tf.nn.ctc_greedy_decoder / "
                                            "ctc_beam_search_decoder) are not implemented"),
    "train.experimental": _MIXED_PRECISION,
    "contrib.mixed_precision": _MIXED_PRECISION,
    "nondifferentiable_batch_function": Unsupported(
        "it batches concurrent calls for TF Serving", "call the function directly"),
    "train.do_quantize_training_on_graphdef": _tf_only(
        "it rewrites a GraphDef for TF's quantized inference kernels"),
    "contrib.quantize": _tf_only("it rewrites graphs for TF Lite's quantized kernels",
                                 "torch.ao.quantization on the equivalent torch model"),
    "contrib.slim.nets": Unsupported("slim's model zoo (alexnet, vgg, inception, resnet) is "
                                     "not bundled",
                                     "the nets' source from the TensorFlow models "
                                     "repository, which builds on slim layers tf1compat "
                                     "provides"),
    "saved_model.save": _OBJECT_SAVED_MODEL,
    "saved_model.load_v2": _OBJECT_SAVED_MODEL,
    "saved_model.Asset": _OBJECT_SAVED_MODEL,
    "saved_model.SaveOptions": _OBJECT_SAVED_MODEL,
    "saved_model.experimental": _OBJECT_SAVED_MODEL,
    "train.sdca_optimizer": _SDCA,
    "train.sdca_fprint": _SDCA,
    "train.sdca_shrink_l1": _SDCA,
    "flags.tf_decorator": _tf_only("a TensorFlow-internal module exported by accident"),
    "contrib.learn": Unsupported("tf.contrib.learn was deprecated in TF 1.x: its own "
                                 "Estimators, ModelFnOps, MetricSpec, datasets and monitors "
                                 "are not provided (Experiment, learn_runner, RunConfig, "
                                 "ExportStrategy, ValidationMonitor, preprocessing's "
                                 "VocabularyProcessor and datasets are)",
                                 "tf.estimator (its Estimators run in an Experiment) / "
                                 "tf.keras"),
    # (section: kmeans) of tf.contrib.factorization only k-means is implemented
    "contrib.factorization.WALSModel": _FACTORIZATION_MODELS,
    "contrib.factorization.WALSMatrixFactorization": _FACTORIZATION_MODELS,
    "contrib.factorization.GMM": _FACTORIZATION_MODELS,
    "contrib.factorization.gmm": _FACTORIZATION_MODELS,
    "contrib.factorization.GmmAlgorithm": _FACTORIZATION_MODELS,
    # (section: api-math)
    "quantize": _QUANTIZED,
    "quantize_v2": _QUANTIZED,
    "dequantize": _QUANTIZED,
    "quantized_concat": _QUANTIZED,
    "quantization.quantize": _QUANTIZED,
    "quantization.dequantize": _QUANTIZED,
    "quantization.quantized_concat": _QUANTIZED,
    "quantization.experimental": _tf_only("it quantizes TF2 SavedModels for TF's quantized "
                                          "kernels", "torch.ao.quantization"),
    "nn.quantized_conv2d": _QUANTIZED,
    "nn.quantized_avg_pool": _QUANTIZED,
    "nn.quantized_max_pool": _QUANTIZED,
    "nn.quantized_relu_x": _QUANTIZED,
    "strings.unicode_script": Unsupported("it needs ICU's Unicode script data, which "
                                          "tf1compat does not ship",
                                          "Python's unicodedata, or the regex module's "
                                          "script properties, in a tf.py_func"),
    # -- contrib modules whose successors live in core TF --------------------------------------
    "contrib.metrics": _moved("tf.contrib.metrics", "tf.metrics (streaming_accuracy -> "
                              "tf.metrics.accuracy, streaming_mean -> tf.metrics.mean, ...)"),
    "contrib.slim.metrics": _moved("slim.metrics", "tf.metrics"),
    "contrib.keras": _moved("tf.contrib.keras", "tf.keras"),
    "contrib.distributions": _moved("tf.contrib.distributions", "tf.distributions"),
    "contrib.image": _moved("tf.contrib.image", "tf.image"),
    "contrib.signal": _moved("tf.contrib.signal", "tf.signal"),
    "contrib.summary": _moved("tf.contrib.summary", "tf.summary"),
    "contrib.opt": _moved("tf.contrib.opt", "the tf.train optimizers"),
    "contrib.util.ops_used_by_graph_def": Unsupported(
        "tf.contrib.util's GraphDef helpers are not provided",
        "the op types of a GraphDef: {node.op for node in graph_def.node}"),
    "contrib.util.stripped_op_list_for_graph": Unsupported(
        "tf.contrib.util's GraphDef helpers are not provided",
        "tf.train.export_meta_graph(strip_default_attrs=True)"),
    "contrib.predictor": _moved("tf.contrib.predictor", "tf.saved_model.loader.load and "
                                "Session.run"),
    "contrib.losses.metric_learning": Unsupported("the metric-learning losses (triplet, "
                                                  "npairs, lifted structure) are not "
                                                  "provided"),
    "contrib.slim.learning.train": Unsupported(
        "slim's training loop is not provided",
        "tf.train.MonitoredTrainingSession running slim.learning.create_train_op's op"),
    "contrib.slim.evaluation": Unsupported("slim's evaluation loop is not provided",
                                           "tf.metrics update ops run in a Session loop"),
    "contrib.slim.data": _moved("slim's queue-based data providers and decoders",
                                "tf.data with tf.parse_single_example"),
    # -- queue-based input ---------------------------------------------------------------------
    "LMDBReader": Unsupported("LMDB databases are not read (tf1compat has no LMDB "
                              "dependency)",
                              "convert the records to TFRecord files and read them with "
                              "tf.TFRecordReader or tf.data.TFRecordDataset"),
}


def lookup(qualified: str) -> Optional[Unsupported]:
    """The entry for a name ("contrib.slim.nets.vgg") or the namespace containing it."""
    parts = qualified.split(".")
    for end in range(len(parts), 0, -1):
        found = UNSUPPORTED.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def explain(qualified: str) -> str:
    """" <Reason>. Instead: <replacement>." for a table entry ("" without one)."""
    entry = lookup(qualified)
    if entry is None:
        return ""
    reason = entry.reason if entry.reason.startswith("tf.") else \
        entry.reason[0].upper() + entry.reason[1:]
    text = f" {reason}."
    if entry.replacement:
        text += f" Instead: {entry.replacement}."
    return text

