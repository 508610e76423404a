"""Records the field facts of TensorFlow's own protocol-buffer messages, for the test that
checks tf1compat's schemas (tf1compat/serialization/protos/*.proto) against them.

    /tmp/tf/bin/python scripts/record_tf_proto_fields.py

Writes tests/fixtures/protos/tf_proto_fields.json: for every message and enum of the TF
modules below (and of TF 1.15's contrib schemas in CONTRIB_TF115), its fields (number,
type, repeated, message/enum type, oneof) and enum values, by full name.
tests/test_serialization.py checks that each message tf1compat defines exists in TF with
the same name, and each of its fields has TF's number, type, label and oneof (tf1compat
defines a subset of the fields: only those it reads or writes).
"""

from __future__ import annotations

import importlib
import json
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                   "fixtures", "protos", "tf_proto_fields.json")
MODULES = [
    "tensorflow.core.framework.types_pb2", "tensorflow.core.framework.tensor_shape_pb2",
    "tensorflow.core.framework.step_stats_pb2",
    "tensorflow.core.framework.allocation_description_pb2",
    "tensorflow.core.framework.tensor_description_pb2",
    "tensorflow.core.framework.tensor_pb2", "tensorflow.core.framework.tensor_slice_pb2",
    "tensorflow.core.framework.resource_handle_pb2", "tensorflow.core.framework.attr_value_pb2",
    "tensorflow.core.framework.node_def_pb2", "tensorflow.core.framework.function_pb2",
    "tensorflow.core.framework.op_def_pb2", "tensorflow.core.framework.versions_pb2",
    "tensorflow.core.framework.graph_pb2", "tensorflow.core.framework.variable_pb2",
    "tensorflow.core.framework.summary_pb2", "tensorflow.core.protobuf.meta_graph_pb2",
    "tensorflow.core.protobuf.saver_pb2", "tensorflow.core.protobuf.saved_model_pb2",
    "tensorflow.core.protobuf.queue_runner_pb2", "tensorflow.core.protobuf.error_codes_pb2",
    "tensorflow.core.framework.reader_base_pb2",
    "tensorflow.core.protobuf.tensor_bundle_pb2", "tensorflow.core.util.saved_tensor_slice_pb2",
    "tensorflow.core.protobuf.trackable_object_graph_pb2", "tensorflow.core.util.event_pb2",
    "tensorflow.core.protobuf.saved_object_graph_pb2", "tensorflow.core.protobuf.struct_pb2",
    "tensorflow.core.example.example_pb2", "tensorflow.core.example.feature_pb2",
    "tensorflow.python.training.checkpoint_state_pb2", "tensorflow.core.protobuf.config_pb2",
    "tensorflow.core.protobuf.rewriter_config_pb2", "tensorflow.core.framework.step_stats_pb2",
    "tensorflow.core.protobuf.control_flow_pb2",
    "tensorflow.core.protobuf.cluster_pb2", "tensorflow.core.protobuf.tensorflow_server_pb2",
    "tensorflow.core.profiler.tfprof_output_pb2", "tensorflow.core.profiler.tfprof_log_pb2",
    "google.protobuf.any_pb2", "google.protobuf.wrappers_pb2",
    "tf_keras.protobuf.saved_metadata_pb2", "tf_keras.protobuf.versions_pb2",
]
# tf.contrib's schemas, from TF 1.15's generated modules (scripts/oracle_contrib.py
# rebuilds them: TF 2.x has no contrib): module path under $TF115_SRC, one message of it.
CONTRIB_TF115 = [("contrib/training/python/training/hparam_pb2.py", "HParamDef")]
# Schemas TF's modules import from files without a Python module of their own here.
DEPENDENCIES = ("xla/tsl/protobuf/histogram.proto", "xla/tsl/protobuf/error_codes.proto")


def _type_name(field) -> str:
    if field.message_type is not None:
        return field.message_type.full_name
    if field.enum_type is not None:
        return field.enum_type.full_name
    return ""


def _message(descriptor, out: dict) -> None:
    if descriptor.GetOptions().map_entry:
        key, value = descriptor.fields_by_name["key"], descriptor.fields_by_name["value"]
        out[descriptor.full_name] = {"map_entry": [key.type, value.type, _type_name(value)]}
        return
    out[descriptor.full_name] = {"fields": {
        f.name: {"number": f.number, "type": f.type, "repeated": f.is_repeated,
                 "type_name": _type_name(f),
                 "oneof": f.containing_oneof.name if f.containing_oneof else ""}
        for f in descriptor.fields}}
    for enum in descriptor.enum_types:
        out[enum.full_name] = {"values": {v.name: v.number for v in enum.values}}
    for nested in descriptor.nested_types:
        _message(nested, out)


def main() -> int:
    out: dict = {}
    files = []
    for name in MODULES:
        files.append(importlib.import_module(name).DESCRIPTOR)
        files += [d for d in files[-1].dependencies if d.name in DEPENDENCIES]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import oracle_contrib
    for path, message in CONTRIB_TF115:
        module = oracle_contrib.tf115_message_module(path, [message])
        files.append(getattr(module, message).DESCRIPTOR.file)
    for file in files:
        for enum in file.enum_types_by_name.values():
            out[enum.full_name] = {"values": {v.name: v.number for v in enum.values}}
        for message in file.message_types_by_name.values():
            _message(message, out)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(out)} messages and enums to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
