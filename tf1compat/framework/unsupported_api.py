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
_CONTRIB_DISTRIBUTION_LATER = Unsupported(
    "of tf.contrib.distributions tf1compat implements the multivariate normals, the one-hot and "
    "relaxed categoricals, the scalar families (Poisson, Binomial, Cauchy, ...), "
    "TransformedDistribution, Independent, the mixtures, QuantizedDistribution, the bijectors "
    "and everything of tf.distributions; this name is not implemented yet",
    "a tf.distributions class, or a TransformedDistribution of one through "
    "tf.contrib.distributions.bijectors")
_CONTRIB_BIJECTOR_LATER = Unsupported(
    "this tf.contrib.distributions bijector is not implemented by tf1compat yet",
    "a Chain of the implemented bijectors (Affine, Exp, Softplus, Sigmoid, ScaleTriL, ...) or "
    "tf.contrib.distributions.bijectors.Inline with your own functions")
_DISTRIBUTED = Unsupported("TF's distribution strategies, cluster protos and collective "
                           "libraries are not provided (tf1compat distributes through "
                           "torch.distributed: docs/distributed.md)",
                           "tf.train.Server + ClusterSpec + replica_device_setter (parameter "
                           "servers), or horovod.tensorflow (data parallel)")
_MULTI_WORKER_STRATEGY = Unsupported(
    "of tf.distribute's strategies only the in-graph ones of one process are provided "
    "(MirroredStrategy, OneDeviceStrategy, CentralStorageStrategy), "
    "MultiWorkerMirroredStrategy (contrib: CollectiveAllReduceStrategy) and "
    "tf.distribute.experimental.ParameterServerStrategy; the TPU strategies and contrib's "
    "other multi-worker spellings are not",
    "tf.distribute.MirroredStrategy within one process; "
    "tf.distribute.experimental.MultiWorkerMirroredStrategy or ParameterServerStrategy, "
    "horovod.tensorflow or "
    "tf.train.Server + replica_device_setter across processes (docs/distributed.md)")
_CHECKPOINT_REMAP = Unsupported(
    "the vocabulary-remapping checkpoint initializers (TF's GenerateVocabRemapping and "
    "LoadAndRemapMatrix kernels) are not implemented",
    "tf.train.init_from_checkpoint, then reorder rows with tf.gather in the model")
_CONTRIB_IMAGE = Unsupported("of tf.contrib.image only the projective transforms (transform, "
                             "rotate, translate, compose_transforms, ...) and the warps "
                             "(dense_image_warp, sparse_image_warp, interpolate_spline), "
                             "connected_components and bipartite_match are implemented",
                             "tf.image, or tf.contrib.image.transform for warps a projective "
                             "transform describes")
_CLUSTER_OPTIMIZER = Unsupported("it averages models across the workers of a TF cluster "
                                 "(elastic / model averaging, asynchronous delay "
                                 "compensation), which tf1compat's distribution does not "
                                 "provide (docs/distributed.md)",
                                 "tf.train.SyncReplicasOptimizer, or horovod.tensorflow's "
                                 "DistributedOptimizer")


def _moved(what: str, successor: str) -> Unsupported:
    return Unsupported(f"{what} is not provided (its successor is in core TensorFlow)",
                       successor)


_CONTRIB_TF_IO = _tf_only("it reads an external system through TensorFlow's C++ I/O "
                          "kernels (their successor is the tensorflow-io package)",
                          "read the data in Python (the system's own client library) and "
                          "feed it, or wrap the reader in tf.data.Dataset.from_generator")


def _contrib_later(replacement: Optional[str] = None) -> Unsupported:
    """A TF 1.15 contrib module tf1compat does not implement (yet)."""
    return Unsupported("of TF 1.15's contrib, tf1compat provides the modules legacy "
                       "projects use most (docs/api_support.md lists them); this one is "
                       "not among them yet", replacement)


_AUTOGRAPH = _tf_only("AutoGraph rewrites Python control flow into TF graph ops; tf1compat "
                      "has no AutoGraph",
                      "tf.cond / tf.while_loop in graphs, or Python control flow under "
                      "eager execution")
_RAGGED = Unsupported("ragged fill_empty_rows and RaggedFeature are not supported "
                      "(tf.RaggedTensor, tf.RaggedTensorSpec and tf.ragged are)",
                      "tf.SparseTensor, or padded dense tensors with tf.sequence_mask")
_CHECKPOINT_SHARDING = Unsupported(
    "TF2's checkpoint sharding callbacks (CheckpointOptions(experimental_sharding_callback=)) "
    "split an object-based checkpoint's data files by device task or size; tf1compat's "
    "tf.train.Checkpoint keeps every variable in one process and writes one data shard",
    "tf.train.Checkpoint.save without a sharding callback (a ShardByTaskPolicy on one task "
    "writes the same single shard)")
_OBJECT_SAVED_MODEL = Unsupported(
    "TF2's object-based SavedModel (tf.saved_model.save / load) needs eager execution and "
    "resource variables, which TF 1.x graphs do not use",
    "tf.saved_model.simple_save or tf.saved_model.Builder, and tf.saved_model.loader.load")
_QUANTIZED = Unsupported(
    "it produces or consumes TF's quantized dtypes (qint8, quint8, qint32, ...), which have "
    "no torch tensors in tf1compat",
    "tf.quantization.fake_quant_* or quantize_and_dequantize (quantization simulated in "
    "float), or torch.ao.quantization on the equivalent torch model")
_JPEG_XL = Unsupported("JPEG XL decoding needs libjxl, which Pillow (tf1compat's image "
                       "codec library) does not include",
                       "convert the files to PNG, JPEG or WebP (e.g. with libjxl's djxl) "
                       "and decode them with tf.io.decode_image")
_MLIR_BRIDGE = _tf_only("the MLIR bridge is part of TF's XLA compiler; tf1compat has no XLA",
                        "tf.config.optimizer.set_jit (plans run through torch.compile)")

_DEPRECATED_TARGET = Unsupported(
    "TF 1.x deprecated it (removed after 2016-12-01): the target columns of contrib.learn's "
    "first Estimator heads",
    "tf.contrib.learn.regression_head / multi_class_head, or tf.estimator's heads")

UNSUPPORTED: Dict[str, Unsupported] = {
    # -- TF-only machinery ------------------------------------------------------------------
    "tpu": _tf_only("TPU programs (tf.tpu.rewrite, shard, initialize_system, ...) compile "
                    "for Google TPUs, which torch does not target",
                    "call the model function directly: it runs on the CPU or CUDA"),
    "contrib.tpu": _tf_only("TPU programs compile for Google TPUs, which torch does not "
                            "target", "call the model function directly"),
    "keras.export": _tf_only("tf.keras.export.ExportArchive writes TF 2's object-based "
                             "SavedModel for serving, which needs eager resource variables",
                             "model.save(path) or tf.saved_model.simple_save"),
    # tf-keras names of TF 2.x's compat.v1 Keras that serve TF 2's eager training only
    "keras.callbacks.SidecarEvaluatorModelExport": Unsupported(
        "it exports the best model of tf.keras.utils.SidecarEvaluator, TF 2's eager "
        "evaluator of checkpoints written by another job",
        "tf.keras.callbacks.ModelCheckpoint(save_best_only=True)"),
    "keras.utils.StepsPerExecutionTuner": Unsupported(
        "it tunes compile(steps_per_execution=...) of TF 2's tf.function train loop, which "
        "tf1compat's graph-mode fit does not have"),
    "keras.utils.DeterministicRandomTestTool": Unsupported(
        "it checks TF 2 code against TF1 code run under tf.compat.v1 seeds (a migration "
        "testing aid for eager execution)", "tf.set_random_seed / op-level seeds"),
    "keras.utils.track_tf1_style_variables": Unsupported(
        "it lets TF 2's eager Keras layers create tf.compat.v1.get_variable variables in "
        "call(); tf1compat runs that TF1 code as it is, in graph mode",
        "the TF1 layer code itself (tf.compat.v1.get_variable under variable_scope)"),
    "keras.utils.get_or_create_layer": Unsupported(
        "it is track_tf1_style_variables' helper for Keras layers inside a TF1-style "
        "call() of TF 2's eager Keras", "create the layer once and reuse the object"),
    "keras.utils.warmstart_embedding_matrix": Unsupported(
        "it builds an embedding for a new vocabulary from an eager tensor of the old "
        "one (TF 2.13+)", "tf.train.warm_start(vars_to_warm_start=..., "
        "var_name_to_vocab_info=...)"),
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
    "check_pinned": _tf_only("a TensorFlow-internal helper (not for public use)"),
    "experimental": Unsupported("tf.experimental holds TF 2 features (extension types, "
                                "API dispatch, float8/int4 dtypes) outside the TF 1.x API",
                                "the float8/int4 dtypes are tf.dtypes.experimental's"),
    "types.experimental.FunctionType": Unsupported(
        "tf.function's TF 2 FunctionType (its traced signature) is not provided",
        "inspect.signature of the Python function"),
    "autograph.to_graph": _AUTOGRAPH,
    "autograph.to_code": _AUTOGRAPH,
    "contrib.tfprof": _tf_only("tfprof analyses TF's own run metadata", "torch.profiler"),
    "debugging.experimental": _tf_only("tfdbg v2 dumps TF's internal execution traces for "
                                       "TensorBoard's Debugger V2",
                                       "tf.print, tf.debugging.enable_check_numerics"),
    "config.experimental.enable_mlir_bridge": _MLIR_BRIDGE,
    "config.experimental.disable_mlir_bridge": _MLIR_BRIDGE,
    "data.experimental.service": _tf_only(
        "the tf.data service distributes pipelines to TF's dispatcher and worker servers, "
        "which tf1compat does not run", "shard the dataset per worker (Dataset.shard)"),
    "data.experimental.distributed_save": _tf_only(
        "it writes a dataset through the tf.data service's workers (no tf.data service here)",
        "iterate the dataset and write it (e.g. tf.data.experimental.TFRecordWriter)"),
    "data.experimental.snapshot": Unsupported(
        "tf.data snapshots (TF's on-disk snapshot format and its reader/writer threads) are "
        "not implemented", "Dataset.cache(filename)"),
    "data.experimental.get_model_proto": _tf_only(
        "it returns the tf.data autotuning model, which tf1compat's on-demand pipelines do "
        "not have"),
    "data.experimental.enable_debug_mode": Unsupported(
        "tf.data debug mode (running dataset functions eagerly) is not implemented; "
        "tf1compat already computes elements one at a time in order"),
    "data.experimental.make_saveable_from_iterator": Unsupported(
        "iterator state is not checkpointed by tf1compat (Saver saves variables only)",
        "re-create the iterator and skip the elements already consumed (Dataset.skip)"),
    "contrib.data.CheckpointInputPipelineHook": Unsupported(
        "iterator state is not checkpointed by tf1compat (Saver saves variables only)",
        "re-create the iterator and skip the elements already consumed (Dataset.skip)"),
    "contrib.training.batch_sequences_with_states": Unsupported(
        "contrib's state-saving sequence queue (SequenceQueueingStateSaver: a barrier of "
        "per-key segments and saved RNN states) is not implemented",
        "tf.data with padded_batch and an RNN over whole sequences (tf.nn.dynamic_rnn)"),
    "contrib.training.SequenceQueueingStateSaver": Unsupported(
        "contrib's state-saving sequence queue (a barrier of per-key segments and saved RNN "
        "states) is not implemented",
        "tf.data with padded_batch and an RNN over whole sequences (tf.nn.dynamic_rnn)"),
    "contrib.tensorrt": _tf_only("TF-TRT rewrites TF graphs for NVIDIA TensorRT",
                                 "torch-tensorrt on the equivalent torch model"),
    "contrib.cloud": _tf_only("it reads Google Cloud services through TF's C++ file systems"),
    "contrib.bigtable": _tf_only("it reads Cloud Bigtable through TF's C++ kernels"),
    "contrib.mpi_collectives": _DISTRIBUTED,
    # -- distributed execution beyond tf.train.Server and Horovod ---------------------------------------------
    "distribute.RunOptions": _DISTRIBUTED,
    "distribute.experimental.TPUStrategy": _MULTI_WORKER_STRATEGY,
    "distribute.experimental.CollectiveHints": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.ParameterServerStrategy": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.TPUStrategy": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.initialize_tpu_system": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.MultiWorkerAllReduce": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.DistributeConfig": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.run_standard_tensorflow_server": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.Monitor": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.Step": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.StandardInputStep": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.StandardSingleLossStep": _MULTI_WORKER_STRATEGY,
    "contrib.distribute.UpdateContext": _MULTI_WORKER_STRATEGY,
    "config.experimental.ClusterDeviceFilters": _DISTRIBUTED,
    # -- features tf1compat leaves out ---------------------------------------------------------
    "ragged_fill_empty_rows": _RAGGED,
    "ragged_fill_empty_rows_grad": _RAGGED,
    "io.RaggedFeature": _RAGGED,
    **{f"ragged.{name}": Unsupported(
        "RaggedTensor support covers the factories, conversions, indexing, elementwise and "
        "string ops, reductions, segment ops, concat/stack, gather, boolean_mask, where, tile "
        "and stack_dynamic_partitions; the feature crosses are not among them yet",
        "tf.ragged.map_flat_values, or the components (rt.flat_values, rt.row_splits) with "
        "dense ops")
       for name in ("cross", "cross_hashed")},
    "train.experimental.ShardByTaskPolicy": _CHECKPOINT_SHARDING,
    "train.experimental.MaxShardSizePolicy": _CHECKPOINT_SHARDING,
    "train.experimental.ShardableTensor": _CHECKPOINT_SHARDING,
    "train.experimental.ShardingCallback": _CHECKPOINT_SHARDING,
    "train.experimental.PythonState": Unsupported(
        "tf.train.experimental.PythonState (Python state such as a numpy RNG saved inside a "
        "TF2 object checkpoint through its serialize/deserialize strings) is not provided",
        "save the Python state beside the checkpoint (numpy.save, json)"),
    "train.do_quantize_training_on_graphdef": _tf_only(
        "it rewrites a GraphDef for TF's quantized inference kernels"),
    "saved_model.save": _OBJECT_SAVED_MODEL,
    "saved_model.load_v2": _OBJECT_SAVED_MODEL,
    "saved_model.Asset": _OBJECT_SAVED_MODEL,
    "saved_model.SaveOptions": _OBJECT_SAVED_MODEL,
    "saved_model.experimental": _OBJECT_SAVED_MODEL,
    "contrib.learn": Unsupported("tf.contrib.learn was deprecated in TF 1.x: only its "
                                 "Estimators (the contrib Estimator, DNN*/Linear*/"
                                 "DNNLinearCombined* with their heads, MetricSpec, SVM), io, "
                                 "Experiment, learn_runner, RunConfig, ExportStrategy, "
                                 "ValidationMonitor, preprocessing's VocabularyProcessor and "
                                 "datasets, KMeansClustering are provided; other "
                                 "monitors and the RNN contrib Estimators are not",
                                 "tf.estimator (its Estimators run in an Experiment) / "
                                 "tf.keras"),
    # (section: realcode-e) contrib's tree ensembles: TF's C++ tree-growing ops
    "contrib.tensor_forest": Unsupported(
        "its random forests (ForestHParams, RandomForestGraphs, TensorForestEstimator) are "
        "grown by TF 1.x's C++ tree-building ops, which tf1compat has not rebuilt",
        "a forest from scikit-learn (sklearn.ensemble.RandomForestClassifier/Regressor); "
        "tf1compat has no tree ensembles"),
    "contrib.boosted_trees": Unsupported(
        "its GradientBoostedDecisionTreeClassifier/Regressor and learner protos are not "
        "rebuilt (TF 1.15 has core boosted trees)",
        "gradient-boosted trees from scikit-learn or XGBoost/LightGBM (tf1compat's "
        "tf.estimator.BoostedTrees* are refused too)"),
    # (section: kmeans) of tf.contrib.factorization only k-means is implemented
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
    "contrib.distributions": _moved("tf.contrib.distributions", "tf.distributions"),
    "contrib.image.single_image_random_dot_stereograms": _CONTRIB_IMAGE,
    "contrib.summary.create_db_writer": Unsupported(
        "tf.contrib.summary's SQLite summary database is not provided",
        "tf.contrib.summary.create_file_writer (TensorBoard events files)"),
    "contrib.summary.import_event": Unsupported(
        "tf.contrib.summary.import_event writes into TF's SQLite summary database, which is "
        "not provided", "tf.summary.FileWriter.add_event"),
    # (section: contribmisc) the parts of tf.contrib.framework / tf.contrib.opt left out
    "contrib.framework.RecordInput": Unsupported(
        "RecordInput's batches come from TF's C++ reader threads (files shuffled by a "
        "seeded C++ generator, records through a shuffle buffer): their order cannot be "
        "reproduced",
        "tf.data.TFRecordDataset(files).shuffle(buffer).batch(batch_size)"),
    "contrib.framework.zero_initializer": Unsupported(
        "the ops of contrib's own kernel library _variable_ops.so (ZeroInitializer, "
        "ZeroVarInitializer) are not implemented",
        "tf.assign(var, tf.zeros_like(var)), or a variable created with "
        "tf.zeros_initializer()"),
    "contrib.framework.fuse_op": Unsupported(
        "the GraphDef rewrite into one op of a custom type (whose kernel tf1compat would "
        "not have) is not implemented",
        "keep the subgraph as it is (tf.graph_util.extract_sub_graph to cut it out)"),
    "contrib.framework.load_and_remap_matrix_initializer": _CHECKPOINT_REMAP,
    "contrib.framework.load_embedding_initializer": _CHECKPOINT_REMAP,
    "contrib.framework.load_linear_multiclass_bias_initializer": _CHECKPOINT_REMAP,
    "contrib.framework.load_variable_slot_initializer": _CHECKPOINT_REMAP,
    "contrib.opt.ElasticAverageOptimizer": _CLUSTER_OPTIMIZER,
    "contrib.opt.ElasticAverageCustomGetter": _CLUSTER_OPTIMIZER,
    "contrib.opt.ModelAverageOptimizer": _CLUSTER_OPTIMIZER,
    "contrib.opt.ModelAverageCustomGetter": _CLUSTER_OPTIMIZER,
    "contrib.opt.AGNOptimizer": _CLUSTER_OPTIMIZER,
    "contrib.opt.AGNCustomGetter": _CLUSTER_OPTIMIZER,
    "contrib.opt.DelayCompensatedGradientDescentOptimizer": _CLUSTER_OPTIMIZER,
    # -- tf.contrib.distributions names not implemented yet (section: contribdist) -------
    "contrib.distributions.ConditionalDistribution": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.ConditionalTransformedDistribution": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.PoissonLogNormalQuadratureCompound": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.VectorDiffeomixture": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.estimator_head_distribution_regression": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.quadrature_scheme_softmaxnormal_gauss_hermite": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.quadrature_scheme_softmaxnormal_quantiles": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.quadrature_scheme_lognormal_gauss_hermite": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.quadrature_scheme_lognormal_quantiles": _CONTRIB_DISTRIBUTION_LATER,
    "contrib.distributions.bijectors.AbsoluteValue": _CONTRIB_BIJECTOR_LATER,
    "contrib.distributions.bijectors.ConditionalBijector": _CONTRIB_BIJECTOR_LATER,
    "contrib.util.ops_used_by_graph_def": Unsupported(
        "tf.contrib.util's GraphDef helpers are not provided",
        "the op types of a GraphDef: {node.op for node in graph_def.node}"),
    "contrib.util.stripped_op_list_for_graph": Unsupported(
        "tf.contrib.util's GraphDef helpers are not provided",
        "tf.train.export_meta_graph(strip_default_attrs=True)"),
    "image.decode_jxl": _JPEG_XL,
    "io.decode_jxl": _JPEG_XL,
    # -- the rest of TF 1.15's contrib (section: contrib-modules) ------------------------
    "contrib.hadoop": _CONTRIB_TF_IO,
    "contrib.ignite": _CONTRIB_TF_IO,
    "contrib.kafka": _CONTRIB_TF_IO,
    "contrib.kinesis": _CONTRIB_TF_IO,
    "contrib.rpc": _tf_only("it calls gRPC services through TF's C++ RPC kernels",
                            "call the service from Python (grpcio) in a tf.py_func"),
    "contrib.remote_fused_graph": _tf_only("it hands graph parts to remote TF executors "
                                           "(Hexagon DSPs)"),
    "contrib.session_bundle": _tf_only("session bundles are TF Serving's format from before "
                                       "SavedModel", "tf.saved_model.loader.load"),
    "contrib.meta_graph_transform": _tf_only("it runs TF's C++ graph transform tool",
                                             "tf.graph_util.extract_sub_graph / "
                                             "convert_variables_to_constants"),
    "contrib.stat_summarizer": _tf_only("it summarizes TF's own C++ step statistics",
                                        "torch.profiler"),
    "contrib.testing": _tf_only("TF's test utilities for its own contrib code"),
    "contrib.fused_conv": _contrib_later("tf.nn.conv2d + tf.nn.bias_add + tf.nn.relu (the "
                                         "same math, unfused)"),
    "contrib.all_reduce": _DISTRIBUTED,
    "contrib.batching": _contrib_later("batch requests in Python before Session.run"),
    "contrib.bayesflow": _contrib_later("tf.distributions, or TensorFlow Probability's "
                                        "ideas on top of tf.contrib.distributions"),
    "contrib.checkpoint.capture_dependencies": Unsupported(
        "Templates made by tf.make_template are not trackable objects in tf1compat, so "
        "variables created in them cannot become their checkpoint dependencies",
        "tf.train.Saver (name-based), or tf.train.Checkpoint over the variables themselves"),
    "contrib.checkpoint.split_dependency": Unsupported(
        "object checkpoints in tf1compat save variables only, not values an object "
        "assembles or splits in its own save and restore functions",
        "keep each component in a variable of its own and track the variables"),
    **{f"contrib.checkpoint.{name}": Unsupported(
        "Python state (numpy arrays, PythonState's serialize/deserialize strings) is not "
        "saved in tf1compat's object checkpoints, which hold variables only",
        "save the Python state beside the checkpoint (numpy.save, json)")
       for name in ("NumpyState", "PythonStateWrapper")},
    "contrib.constrained_optimization": _contrib_later(),
    "contrib.decision_trees": _contrib_later("scikit-learn's trees"),
    "contrib.ffmpeg": _contrib_later("tf.audio.decode_wav, or a Python audio decoder in "
                                     "tf.py_func"),
    "contrib.grid_rnn": _contrib_later("tf.nn.rnn_cell cells composed by hand"),
    "contrib.hooks": _contrib_later("tf.train.ProfilerHook"),
    "contrib.layers.regression_target": _DEPRECATED_TARGET,
    "contrib.layers.multi_class_target": _DEPRECATED_TARGET,
    "contrib.input_pipeline": _contrib_later("tf.data"),
    "contrib.kernel_methods": _contrib_later("random Fourier features built with tf.random_"
                                             "normal and tf.cos, fed to a linear model"),
    "contrib.labeled_tensor": _contrib_later(),
    "contrib.libsvm": _contrib_later("parse the LIBSVM lines in Python (tf.py_func) or with "
                                     "tf.strings.split"),
    "contrib.nearest_neighbor": _contrib_later(),
    "contrib.periodic_resample": _contrib_later(),
    "contrib.proto": _contrib_later("the protobuf package in a tf.py_func"),
    "contrib.quantization": _QUANTIZED,
    "contrib.rate": _contrib_later(),
    "contrib.recurrent": _contrib_later("tf.nn.dynamic_rnn"),
    "contrib.reduce_slice_ops": _contrib_later("tf.math.segment_sum and friends"),
    "contrib.saved_model": _contrib_later("tf.saved_model.simple_save, or "
                                          "tf.keras.experimental.export_saved_model"),
    "contrib.solvers": _contrib_later("tf.linalg.lstsq / tf.linalg.solve"),
    "contrib.specs": _contrib_later("tf.layers"),
    "contrib.timeseries": _contrib_later("tf.keras recurrent models"),
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

