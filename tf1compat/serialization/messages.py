"""TensorFlow's protocol-buffer messages by their TF names (`tf.GraphDef`, `tf.Summary`...).

The classes are protobuf's own (generated from the schemas in `protos/`), so they have
protobuf's full API and behaviour: keyword construction, repeated and map fields,
oneofs, `HasField`, `CopyFrom`, `SerializeToString`/`FromString`, `str()` in protobuf
text format (map entries in the runtime's order, as TF 2.x prints them) and
`google.protobuf.text_format` / `json_format`. Nested types are also available under
the short names tf1compat's code used before (`MetaInfoDef`, `Dim`, ...).

`to_text(message)` is the text TF writes to `.pbtxt` files
(`text_format.MessageToString`); `parse_text(text, cls)` reads it back.
"""

from __future__ import annotations

from typing import Type, TypeVar

from google.protobuf import message as _message
from google.protobuf import text_format

from tf1compat.serialization.protos import (checkpoint_pb2, cluster_pb2, control_flow_pb2,
                                            example_pb2, graph_pb2, keras_metadata_pb2,
                                            meta_graph_pb2, projector_pb2, queue_runner_pb2,
                                            reader_base_pb2, summary_pb2, tensor_pb2,
                                            tensorflow_server_pb2, tfprof_log_pb2,
                                            tfprof_output_pb2, types_pb2, well_known_pb2)

__all__ = [
    # tensors and graphs
    "TensorShapeProto", "Dim", "TensorProto", "TensorSliceProto", "ResourceHandleProto",
    "AttrValue", "ListValue",
    "NameAttrList", "NodeDef", "VersionDef", "GraphDef", "OpDef", "OpList",
    "FunctionDef", "FunctionDefLibrary", "GradientDef",
    # meta graphs and SavedModels
    "MetaGraphDef", "MetaInfoDef", "CollectionDef", "NodeList", "BytesList", "Int64List",
    "FloatList", "AnyList", "SaverDef", "VariableDef", "SaveSliceInfoDef", "TensorInfo",
    "SignatureDef", "AssetFileDef", "SavedModel", "AnyProto",
    # TF2 SavedModels' object graph (MetaGraphDef.object_graph_def)
    "SavedObjectGraph", "SavedObject", "SavedUserObject", "SavedVariable",
    "SavedConcreteFunction", "SavedBareConcreteFunction", "StructuredValue",
    "TensorSpecProto",
    # tf-keras's keras_metadata.pb in a Keras SavedModel directory
    "SavedMetadata",
    # TF 1.x control-flow contexts (the cond_context / while_context collections)
    "ValuesDef", "ControlFlowContextDef", "CondContextDef", "WhileContextDef",
    # queue-based input
    "QueueRunnerDef", "ReaderBaseState",
    # checkpoints
    "BundleHeaderProto", "BundleEntryProto", "TrackableObjectGraph", "CheckpointState",
    # summaries and events
    "HistogramProto", "SummaryMetadata", "SummaryDescription", "Summary", "Event",
    "LogMessage", "SessionLog", "TaggedRunMetadata",
    # tf.train.Example
    "Feature", "Features", "FeatureList", "FeatureLists", "Example", "SequenceExample",
    "ExampleBytesList", "ExampleFloatList", "ExampleInt64List",
    # TensorBoard projector
    "ProjectorConfig", "EmbeddingInfo", "SpriteMetadata",
    # clusters and servers
    "JobDef", "ClusterDef", "ServerDef",
    # the profiler (tf.profiler)
    "GraphNodeProto", "MultiGraphNodeProto", "AdviceProto", "TFProfTensorProto",
    "OpLogProto", "OpLogEntry", "CodeDef",
    # helpers
    "DecodeError", "Message", "ParseError", "DATA_TYPE_NAMES", "to_text", "parse_text",
]

Message = _message.Message
DecodeError = _message.DecodeError
ParseError = text_format.ParseError

TensorShapeProto = tensor_pb2.TensorShapeProto
Dim = TensorShapeProto.Dim
TensorProto = tensor_pb2.TensorProto
TensorSliceProto = tensor_pb2.TensorSliceProto
ResourceHandleProto = tensor_pb2.ResourceHandleProto
AttrValue = graph_pb2.AttrValue
ListValue = AttrValue.ListValue
NameAttrList = graph_pb2.NameAttrList
NodeDef = graph_pb2.NodeDef
VersionDef = graph_pb2.VersionDef
GraphDef = graph_pb2.GraphDef
OpDef = graph_pb2.OpDef
OpList = graph_pb2.OpList
FunctionDef = graph_pb2.FunctionDef
FunctionDefLibrary = graph_pb2.FunctionDefLibrary
GradientDef = graph_pb2.GradientDef

MetaGraphDef = meta_graph_pb2.MetaGraphDef
MetaInfoDef = MetaGraphDef.MetaInfoDef
CollectionDef = meta_graph_pb2.CollectionDef
NodeList = CollectionDef.NodeList
BytesList = CollectionDef.BytesList
Int64List = CollectionDef.Int64List
FloatList = CollectionDef.FloatList
AnyList = CollectionDef.AnyList
SaverDef = meta_graph_pb2.SaverDef
VariableDef = meta_graph_pb2.VariableDef
SaveSliceInfoDef = meta_graph_pb2.SaveSliceInfoDef
TensorInfo = meta_graph_pb2.TensorInfo
QueueRunnerDef = queue_runner_pb2.QueueRunnerDef
ReaderBaseState = reader_base_pb2.ReaderBaseState
SignatureDef = meta_graph_pb2.SignatureDef
AssetFileDef = meta_graph_pb2.AssetFileDef
SavedModel = meta_graph_pb2.SavedModel
SavedObjectGraph = meta_graph_pb2.SavedObjectGraph
SavedObject = meta_graph_pb2.SavedObject
SavedUserObject = meta_graph_pb2.SavedUserObject
SavedVariable = meta_graph_pb2.SavedVariable
SavedConcreteFunction = meta_graph_pb2.SavedConcreteFunction
SavedBareConcreteFunction = meta_graph_pb2.SavedBareConcreteFunction
StructuredValue = meta_graph_pb2.StructuredValue
TensorSpecProto = meta_graph_pb2.TensorSpecProto
SavedMetadata = keras_metadata_pb2.SavedMetadata
AnyProto = well_known_pb2.Any

ValuesDef = control_flow_pb2.ValuesDef
ControlFlowContextDef = control_flow_pb2.ControlFlowContextDef
CondContextDef = control_flow_pb2.CondContextDef
WhileContextDef = control_flow_pb2.WhileContextDef

BundleHeaderProto = checkpoint_pb2.BundleHeaderProto
BundleEntryProto = checkpoint_pb2.BundleEntryProto
TrackableObjectGraph = checkpoint_pb2.TrackableObjectGraph
CheckpointState = checkpoint_pb2.CheckpointState

HistogramProto = summary_pb2.HistogramProto
SummaryMetadata = summary_pb2.SummaryMetadata
SummaryDescription = summary_pb2.SummaryDescription
Summary = summary_pb2.Summary
Event = summary_pb2.Event
LogMessage = summary_pb2.LogMessage
SessionLog = summary_pb2.SessionLog
TaggedRunMetadata = summary_pb2.TaggedRunMetadata

Feature = example_pb2.Feature
Features = example_pb2.Features
FeatureList = example_pb2.FeatureList
FeatureLists = example_pb2.FeatureLists
Example = example_pb2.Example
SequenceExample = example_pb2.SequenceExample
# tf.train.BytesList etc. (distinct from CollectionDef's lists of the same short name)
ExampleBytesList = example_pb2.BytesList
ExampleFloatList = example_pb2.FloatList
ExampleInt64List = example_pb2.Int64List

ProjectorConfig = projector_pb2.ProjectorConfig
EmbeddingInfo = projector_pb2.EmbeddingInfo
SpriteMetadata = projector_pb2.SpriteMetadata

JobDef = cluster_pb2.JobDef
ClusterDef = cluster_pb2.ClusterDef
ServerDef = tensorflow_server_pb2.ServerDef

GraphNodeProto = tfprof_output_pb2.GraphNodeProto
MultiGraphNodeProto = tfprof_output_pb2.MultiGraphNodeProto
AdviceProto = tfprof_output_pb2.AdviceProto
TFProfTensorProto = tfprof_output_pb2.TFProfTensorProto
OpLogProto = tfprof_log_pb2.OpLogProto
OpLogEntry = tfprof_log_pb2.OpLogEntry
CodeDef = tfprof_log_pb2.CodeDef

# TF's DataType enum by number ("DT_FLOAT", "DT_FLOAT_REF", ...).
DATA_TYPE_NAMES = {v.number: v.name for v in types_pb2.DataType.DESCRIPTOR.values}

_M = TypeVar("_M", bound=Message)


def to_text(message: Message) -> str:
    """The text TF writes for a message in `.pbtxt` files (and `as_text=True` exports)."""
    return text_format.MessageToString(message)


def parse_text(text: str, cls: Type[_M]) -> _M:
    """A new `cls` message from protobuf text format (`text_format.ParseError` if bad)."""
    return text_format.Parse(text, cls())
