"""The one table of declared op types that have no op-keyed golden row, each with why.

tests/test_op_goldens.py fails for a declared op type with neither a row in
tests/golden/op_rows_*.py nor an entry here, and for an entry that is stale (the op has
rows now, or is no longer declared). Keep it short: a pure op belongs in a row. An op is
here because a row (one op called with tensors, its outputs fetched) cannot express it:
it takes TF function attrs or a resource built by other ops, or its value is an opaque
handle; the cases named cover it end to end against real TF.
"""

from typing import Dict

_DATASET = ("tf.data: a variant of a run-time dataset, built from function graphs and "
            "consumed by iterators; covered by tests/golden/cases_data*.py")
_DATASET_EXPERIMENTAL = ("tf.data.experimental: takes or makes a dataset variant (with "
                         "function graphs, files or an iterator or table resource); covered "
                         "by tests/golden/cases_data_experimental.py, "
                         "eager_cases_data_experimental.py")
_AUTO_SHARD = ("a multi-worker strategy's input sharding (a dataset variant read per "
               "worker); covered by tests/test_distribute_auto_shard.py against TF's "
               "input_ops.auto_shard_dataset")
_ITERATOR = ("tf.data iterator resource; covered by tests/golden/cases_data.py, "
             "cases_data_iterators.py")
_TENSOR_ARRAY = ("TensorArray handle and flow; covered by tests/golden/"
                 "cases_control_flow_arrays.py, cases_rnn.py")
_INTERNAL = "tf1compat-internal op, not a TF op"
_CHAINS = "a handle or dead/live value; covered by tests/golden/cases_raw_op_chains.py::"
_FRAME = ("TF1 while-loop frame op (meaningful only inside a whole loop); covered by "
          "tests/test_graph_import.py (TF's .meta files with tf.while_loop) and "
          "tests/test_graph_export.py")
_REF_FRAME = ("ref-typed form of a TF1 loop frame op (loops over ref variables in "
              "imported graphs); no fixture has one")
_QUEUE = ("queue resource (a handle and the per-session queue other ops fill and drain, "
          "blocking); covered by tests/golden/cases_queues.py, cases_queue_input.py")
_READER = ("reader resource (a handle whose state advances with each read from a queue of "
           "file names); covered by tests/golden/cases_readers.py")
_ACCUMULATOR = ("accumulator resource (a handle holding gradients applied by other ops); "
                "covered by tests/golden/cases_accumulators.py")
_SPARSE_MAP = ("SparseTensorsMap handles (int64 keys into a per-session map other ops fill); "
               "covered by tests/golden/cases_queue_input.py (sparse batches)")
_HOROVOD = ("Horovod's op, not a TF op (no tf.raw_ops entry; needs a torch.distributed "
            "process group); covered by tests/test_distribute_horovod.py")
_COLLECTIVE = ("TF's collective op between the workers of a MultiWorkerMirroredStrategy job "
               "(group/instance keys shared by several processes; a one-process row has "
               "no peer); covered by tests/test_distribute_multi_worker.py")
_GPU_ONLY = ("TF 2.21 registers this op's kernels for GPU only (a CPU row records only "
             "TF's missing-kernel error); ")
_IMPORTED_FUNCTION = ("takes TF function attrs (library functions of imported graphs); "
                      "covered by tests/test_graph_import.py")

_SUMMARY_WRITER = ("summary writer resource (a handle whose ops append events to a file); "
                   "covered by tests/golden/cases_contrib_summary.py")

EXEMPT: Dict[str, str] = {
    **{op: ("TF's kernel writes its input x's buffer in place, so a recorded row's input "
            "is not the replayed one; covered by tests/golden/cases_thirdparty_realcode_hh.py "
            "(row forms, errors, no gradient)")
       for op in ("InplaceUpdate", "InplaceAdd", "InplaceSub", "DeepCopy")},
    **{op: ("a ragged tensor's variant encoding (an opaque payload, decoded only by its "
            "pair); covered end to end by tests/golden/cases_data_ragged.py and "
            "tests/test_ragged_data.py")
       for op in ("RaggedTensorToVariant", "RaggedTensorFromVariant")},
    "DisableCopyOnRead": ("takes a resource variable's handle and returns nothing (a no-op "
                          "here); covered by tests/test_estimator_saved_model_import.py, a "
                          "SavedModel TF 2.15 wrote with one per variable"),
    **{op: ("only graphs of TF <= 0.x hold it: TF 2.21 refuses to build it, so there is "
            "nothing to record; checked against its formula in tests/test_tf1_era_ops.py")
       for op in ("BatchNormWithGlobalNormalization", "BatchNormWithGlobalNormalizationGrad")},
    "TopK": ("only graphs of TF 0.x hold it: TF 2.21 refuses to build it, so there is nothing "
             "to record; checked against TopKV2 in tests/test_tf1_era_ops.py"),
    **{op: ("only graphs of TF 0.x hold it: TF 2.21 refuses to build it, so there is nothing "
            "to record; checked against conv3d's gradients in tests/test_tf1_era_ops.py")
       for op in ("Conv3DBackpropInput", "Conv3DBackpropFilter")},
    "SparseFeatureCross": ("TF 1.15's contrib op (crossed_column's default hashing), gone "
                           "from TF 2.x (nothing to record it with); covered by "
                           "tests/test_contrib_feature_columns.py with the values of TF's "
                           "own sparse_feature_cross_op_test.py"),
    "ImageConnectedComponents": ("TF 1.15's contrib op, gone from TF 2.x (nothing to record "
                                 "from); checked against a flood fill in "
                                 "tests/test_contrib_image.py"),
    **{op: ("TF 1.15's contrib factorization kernel (_factorization_ops.so), which TF 2.x "
            "cannot load (no oracle row); checked against numpy in "
            "tests/test_contrib_factorization_wals.py and end to end in "
            "tests/golden/cases_contrib_factorization.py (TF 1.15's WALSModel)")
       for op in ("MaskedMatmul", "WALSComputePartialLhsAndRhs")},
    "BipartiteMatch": ("TF 1.15's contrib op, gone from TF 2.x (nothing to record from); "
                       "checked against a greedy numpy matcher in tests/test_contrib_image.py"),
    **{op: _SUMMARY_WRITER for op in (
        "SummaryWriter", "CreateSummaryFileWriter", "WriteScalarSummary",
        "WriteHistogramSummary", "WriteImageSummary", "WriteAudioSummary", "WriteSummary",
        "WriteGraphSummary", "FlushSummaryWriter", "CloseSummaryWriter")},
    **{op: _COLLECTIVE for op in (
        "CollectiveBcastRecv", "CollectiveBcastSend", "CollectiveGather", "CollectiveReduce")},
    "AutoShardDataset": _AUTO_SHARD,
    # tf.data datasets and iterators
    **{op: _DATASET for op in (
        "BatchDatasetV2", "CacheDataset", "ConcatenateDataset", "FilterDataset",
        "FixedLengthRecordDatasetV2", "FlatMapDataset", "GeneratorDataset",
        "IgnoreErrorsDataset", "InterleaveDataset", "LegacyParallelInterleaveDatasetV2",
        "MapAndBatchDataset", "MapDataset", "PaddedBatchDatasetV2",
        "ParallelInterleaveDatasetV4", "ParallelMapDatasetV2", "PrefetchDataset",
        "RangeDataset", "ReduceDataset", "RepeatDataset", "RewriteDataset", "ShardDataset",
        "ShuffleAndRepeatDataset", "ShuffleDataset", "SkipDataset", "TFRecordDataset",
        "TakeDataset", "TensorDataset", "TensorSliceDataset", "TextLineDataset",
        "UnbatchDataset", "WindowDataset", "ZipDataset", "OptionsDataset")},
    **{op: _DATASET_EXPERIMENTAL for op in (
        "AssertCardinalityDataset", "CSVDatasetV2", "DenseToSparseBatchDataset",
        "DirectedInterleaveDataset", "ExperimentalGroupByReducerDataset",
        "GroupByWindowDataset", "ListDataset", "RandomDataset", "ScanDataset", "SqlDataset",
        "TakeWhileDataset", "UniqueDataset", "DatasetCardinality", "DatasetToSingleElement",
        "DatasetToTFRecord", "IteratorGetNextAsOptional", "InitializeTableFromDataset")},
    "SlidingWindowDataset": ("tf.contrib.data.sliding_window_batch: takes and makes a "
                             "dataset variant; covered by "
                             "tests/golden/cases_contrib_data_more.py"),
    **{op: _ITERATOR for op in (
        "IteratorFromStringHandleV2", "IteratorGetNext", "IteratorToStringHandle",
        "IteratorV2", "MakeIterator", "OneShotIterator")},
    # control flow and functions
    "BatchFunction": "takes a function attr f (tf.nondifferentiable_batch_function traces "
                     "it); covered by tests/golden/cases_api_tools.py::"
                     "case_batch_function_outputs, case_batch_function_errors",
    "If": "takes branch functions (tf.raw_ops.If raises, use tf.cond); covered by "
          "tests/golden/cases_control_flow*.py",
    "Case": "takes branch functions; covered by tests/golden/cases_control_flow.py",
    "While": "takes loop functions; covered by tests/golden/cases_control_flow*.py",
    "SymbolicGradient": "tf1compat's tf.gradients op (autograd), not TF's function op; "
                        "covered by tests/golden/cases_gradients*.py and every row's "
                        "gradients",
    "PyFunc": "runs a Python function registered under its token; covered by "
              "tests/golden/cases_gradients_custom.py",
    "PyFuncStateless": "runs a Python function registered under its token; covered by "
                       "tests/golden/cases_gradients_custom.py",
    "EagerPyFunc": "runs a Python function registered under its token (tf.py_function); "
                   "covered by tests/test_eager.py and tests/test_gradients.py only",
    # resources
    **{op: _TENSOR_ARRAY for op in (
        "TensorArrayCloseV3", "TensorArrayConcatV3", "TensorArrayGatherV3",
        "TensorArrayReadV3", "TensorArrayScatterV3", "TensorArraySizeV3",
        "TensorArraySplitV3", "TensorArrayV3", "TensorArrayWriteV3")},
    "HashTableV2": "its value is a table handle (no comparable value); every Table row of "
                   "op_rows_state.py creates and uses one",
    **{op: ("a mutable table handle and the ops that fill and empty it (no row creates "
            "one); covered by tests/golden/cases_api_names.py (mutable_hash_table, "
            "dense_hash_table)") for op in (
        "MutableHashTableV2", "MutableHashTableOfTensorsV2", "MutableDenseHashTableV2",
        "LookupTableInsertV2", "LookupTableRemoveV2")},
    **{op: ("a mutex handle and its held lock (no comparable value; meaningful only "
            "around a critical section's ops); covered by tests/golden/cases_api_names.py "
            "(critical_section, critical_section_threads)") for op in (
        "MutexV2", "MutexLock", "ConsumeMutexLock")},
    "InitializeTableFromTextFileV2": "reads a vocabulary file; covered by "
                                     "tests/golden/cases_lookup.py",
    "VarHandleOp": "its value is a resource handle (no comparable value); every ResVar "
                   "row of op_rows_state.py creates and uses one",
    "SaveV2": "writes a checkpoint file; covered by tests/golden/cases_saver.py, "
              "cases_object_checkpoint.py",
    **{op: ("reads or writes a V1 checkpoint file (TF 0.x); covered by tests/fixtures/"
            "tf_graphs/v1_checkpoint_ops (TF's files: tests/test_v1_checkpoint.py, "
            "tests/test_graph_import.py)")
       for op in ("Save", "SaveSlices", "Restore", "RestoreSlice")},
    "WriteFile": "writes a file; covered by tests/golden/cases_tfrecord.py",
    "MatrixExponential": "TF removed the raw op (GraphDef 27: tf.raw_ops.MatrixExponential "
                         "raises as TF's, tests/test_raw_ops.py); tf1compat's tf.linalg.expm "
                         "op, covered by tests/golden/cases_linalg_extra.py",
    "TensorArrayGradV3": _TENSOR_ARRAY + ", tests/test_graph_import.py (tensor_array)",
    "TensorArrayGradWithShape": "TensorArray gradient handle of imported graphs; no "
                                "fixture has one",
    **{op: _QUEUE for op in (
        "FIFOQueueV2", "PaddingFIFOQueueV2", "RandomShuffleQueueV2", "PriorityQueueV2",
        "QueueCloseV2", "QueueDequeueManyV2", "QueueDequeueUpToV2", "QueueDequeueV2",
        "QueueEnqueueManyV2", "QueueEnqueueV2", "QueueIsClosedV2", "QueueSizeV2")},
    **{op: _QUEUE + "; the V1 (Ref(string) handle) ops: tests/test_graph_import.py (v1_queue_ops)"
       for op in ("FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue", "PriorityQueue",
                  "QueueClose", "QueueDequeueMany", "QueueDequeueUpTo", "QueueDequeue",
                  "QueueEnqueueMany", "QueueEnqueue", "QueueIsClosed", "QueueSize")},
    **{op: _READER for op in (
        "FixedLengthRecordReaderV2", "IdentityReaderV2", "TFRecordReaderV2",
        "TextLineReaderV2", "WholeFileReaderV2", "ReaderNumRecordsProducedV2",
        "ReaderNumWorkUnitsCompletedV2", "ReaderReadUpToV2", "ReaderReadV2", "ReaderResetV2",
        "ReaderRestoreStateV2", "ReaderSerializeStateV2")},
    **{op: _ACCUMULATOR for op in (
        "ConditionalAccumulator", "SparseConditionalAccumulator",
        "ResourceConditionalAccumulator", "AccumulatorApplyGradient",
        "AccumulatorNumAccumulated", "AccumulatorSetGlobalStep", "AccumulatorTakeGradient",
        "ResourceAccumulatorApplyGradient", "ResourceAccumulatorNumAccumulated",
        "ResourceAccumulatorSetGlobalStep", "ResourceAccumulatorTakeGradient",
        "SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient")},
    **{op: ("a staging area: a session buffer shared by name between its ops; covered by "
            "tests/golden/cases_contrib_legacy.py (StagingArea)")
       for op in ("Stage", "Unstage", "StagePeek", "StageSize", "StageClear")},
    **{op: _SPARSE_MAP for op in (
        "AddSparseToTensorsMap", "AddManySparseToTensorsMap", "TakeManySparseFromTensorsMap")},
    **{op: _HOROVOD for op in (
        "HorovodAllgather", "HorovodAllreduce", "HorovodAlltoall", "HorovodBroadcast",
        "HorovodGroupedAllgather", "HorovodGroupedAllreduce", "HorovodGroupedReducescatter",
        "HorovodJoin", "HorovodProcessSetIncluded", "HorovodReducescatter",
        "HorovodLocalRank", "HorovodLocalSize", "HorovodRank", "HorovodSize")},
    **{op: _GPU_ONLY + "covered by tests/golden/cases_signal.py (N-D FFTs)" for op in (
        "FFTND", "IFFTND", "RFFTND", "IRFFTND")},
    **{op: _GPU_ONLY + "covered by tests/golden/cases_nn_tail.py" for op in (
        "Conv2DBackpropInputV2", "Conv2DBackpropFilterV2")},
    **{op: "TF's shape function gives the pooling sequences the output's size, its kernel "
           "returns one more entry; tf1compat's static shape follows the values (a row "
           "cannot match both); covered by tests/golden/cases_nn_tail.py (seeded, bit-exact)"
       for op in ("FractionalMaxPool", "FractionalAvgPool")},
    "GenerateBoundingBoxProposals": _GPU_ONLY + "covered by tests/golden/cases_image_tail.py",
    # TF1 dataflow control flow and functional ops of imported graphs
    **{op: _FRAME for op in ("Enter", "Exit", "NextIteration", "LoopCond")},
    **{op: _REF_FRAME for op in ("RefEnter", "RefExit", "RefNextIteration")},
    "RefSwitch": "Switch of a ref tensor (tf.cond on a ref variable); covered by "
                 "tests/golden/cases_control_flow.py",
    "RefMerge": ("Merge of ref tensors (a cond returning assigns' outputs), only in TF's "
                 "own graphs; covered by tests/fixtures/tf_graphs/cond_of_assigns "
                 "(tests/test_graph_import.py)"),
    **{op: _CHAINS + "switch_merge" for op in ("Switch", "Merge", "ControlTrigger")},
    **{op: _CHAINS + "stack_ops" for op in (
        "StackV2", "StackPushV2", "StackPopV2", "StackCloseV2")},
    **{op: ("TensorArray of TF 1.0-era graphs (V1: a Ref(string) handle, V2: a string "
            "handle; GraphDef versions < 16 / < 26); covered by tests/fixtures/tf_graphs/"
            "v1_tensor_array_ops (tests/test_graph_import.py)")
       for op in [f"TensorArray{kind}{suffix}" for suffix in ("", "V2") for kind in (
           "", "Write", "Read", "Gather", "Scatter", "Concat", "Split", "Size", "Close",
           "Grad")] + ["TensorArrayPack", "TensorArrayUnpack"]},
    **{op: ("V1 (Ref(string) handle) form of a lookup table or reader op (TF 0.x graphs); "
            "covered by tests/fixtures/tf_graphs/v1_tables_and_readers "
            "(tests/test_graph_import.py)")
       for op in ("HashTable", "MutableHashTable", "MutableHashTableOfTensors",
                  "InitializeTable", "InitializeTableFromTextFile", "LookupTableFind",
                  "LookupTableInsert", "LookupTableImport", "LookupTableSize",
                  "LookupTableExport",
                  "TextLineReader", "TFRecordReader", "WholeFileReader", "IdentityReader",
                  "ReaderRead", "ReaderReadUpTo", "ReaderNumRecordsProduced",
                  "ReaderNumWorkUnitsCompleted", "ReaderReset", "ReaderSerializeState",
                  "ReaderRestoreState")},
    **{op: ("cuDNN's fused RNN: TF has no CPU kernel (no oracle row); checked against the "
            "equivalent tf.keras LSTM/GRU/SimpleRNN and tf.contrib.cudnn_rnn's compatible "
            "cells TF computed with the same weights, gradients included "
            "(tests/test_cudnn_rnn_ops.py, scripts/record_cudnn_rnn.py)")
       for op in ("CudnnRNN", "CudnnRNNV2", "CudnnRNNV3", "CudnnRNNBackprop",
                  "CudnnRNNBackpropV2", "CudnnRNNBackpropV3")},
    **{op: ("cuDNN's params buffer: TF registers the kernel on GPUs only (no oracle row); "
            "checked against TF 1.15's CudnnParamsFormatConverter layout ported in "
            "scripts/record_cudnn_cells.py (tests/test_cudnn_rnn_params.py)")
       for op in ("CudnnRNNParamsSize", "CudnnRNNParamsToCanonical",
                  "CudnnRNNParamsToCanonicalV2", "CudnnRNNCanonicalToParams",
                  "CudnnRNNCanonicalToParamsV2")},
    "MutableDenseHashTable": ("V1 (Ref(string) handle, no deleted_key) dense table of TF "
                              "<= 1.2: TF 2.21 cannot run it (its kernel asks for V2's "
                              "deleted_key input); covered by tests/fixtures/tf_graphs/"
                              "v1_dense_hash_table (tests/test_graph_import.py)"),
    "FixedLengthRecordReader": ("V1 reader of a Ref(string) handle: TF 2.21 cannot run it "
                                "(its kernel asks the node for V2's `encoding` attr); the "
                                "V2 reader's kernel, covered by tests/golden/cases_readers.py"),
    **{op: ("V1 stack of a Ref(string) handle (TF <= 1.2 graphs); covered by "
            "tests/fixtures/tf_graphs/v1_stack_ops (tests/test_graph_import.py)")
       for op in ("Stack", "StackPush", "StackPop", "StackClose")},
    **{op: _CHAINS + "tensor_list_ops" for op in (
        "EmptyTensorList", "TensorListElementShape", "TensorListFromTensor",
        "TensorListGather", "TensorListGetItem", "TensorListLength", "TensorListPopBack",
        "TensorListPushBack", "TensorListReserve", "TensorListSetItem", "TensorListStack")},
    **{op: _CHAINS + "optional_ops" for op in (
        "OptionalFromValue", "OptionalGetValue", "OptionalHasValue", "OptionalNone")},
    "PartitionedCall": _IMPORTED_FUNCTION + " (partitioned_call)",
    **{op: _IMPORTED_FUNCTION + " (functional_control_flow)" for op in (
        "StatelessIf", "StatelessWhile")},
    **{op: "takes TF function attrs (library functions of imported graphs); no fixture "
           "has one" for op in ("StatefulPartitionedCall", "StatelessCase")},
    # tf1compat's own
    "_Arg": _INTERNAL + " (a control-flow region's argument)",
    "GradientInput": _INTERNAL + " (a Python gradient function's input)",
    "_VariableInitializedValue": _INTERNAL + " (Variable.initialized_value)",
    "_ResourceInitializedValue": _INTERNAL + " (initialized_value of a resource variable)",
    "_SparseFeatureMerge": _INTERNAL + " (parse_example's SparseFeature)",
    **{op: ("session-handle op (a value kept in the session between runs, named by a "
            "handle string fetched from one run and fed to later ones); covered by "
            "tests/golden/cases_api_tail.py::session_handles")
       for op in ("GetSessionHandle", "GetSessionTensor", "DeleteSessionTensor")},
    "GatherTree": ("tf.contrib.seq2seq's beam-search op: TF 2.21 (the op-row oracle) has no "
                   "GatherTree kernel; covered by tests/golden/cases_contrib_seq2seq_beam.py "
                   "(gather_tree, BeamSearchDecoder), whose oracle restates contrib's kernel"),
    **{op: ("tf.contrib.resampler's op: TF 2.21 (the op-row oracle) has no Resampler kernel; "
            "covered by tests/golden/cases_contrib_resampler.py (values and gradients, "
            "recorded with TF's CropAndResize on the zero-padded image) and "
            "tests/test_contrib_modules.py (TF 1.15's kernel errors, ResamplerGrad)")
       for op in ("Resampler", "ResamplerGrad")},
    **{op: ("tf.contrib.memory_stats' op: TF 2.21 (the op-row oracle) has no such op; its "
            "value is the allocator's state, not a function of inputs; covered by "
            "tests/test_contrib_modules.py (0 on the CPU as TF 1.15's CPU allocator, torch's "
            "statistics on CUDA)")
       for op in ("BytesInUse", "BytesLimit", "MaxBytesInUse")},
    "SkipGramGenerateCandidates": (
        "tf.contrib.text's op: TF 2.21 (the op-row oracle) has no such kernel; covered by "
        "tests/golden/cases_contrib_text.py (fixed windows, with TF 1.15's Python around it) "
        "and tests/test_contrib_modules.py (random windows, errors)"),
}
