"""tf1compat's serialization layer: TensorFlow's file formats, on the ecosystem's libraries.

Everything here is format: protocol-buffer messages (`protos/`, generated from the
.proto schemas beside them; `messages` gives them by TF's names), TensorProto and
AttrValue conversions, CRC-32C, TFRecord framing, the tensor-bundle checkpoint layout
(`<prefix>.index` table + data shards that are also safetensors files), object graphs,
and atomic file writes. It sits low in the import order: its modules import only
`tf1compat.framework` (dtypes, shapes, errors) besides protobuf, numpy, torch and
safetensors, never ops, runtime or training. This `__init__` imports nothing, so the
lower layers may use the generated message classes (e.g. `TensorShape.as_proto`).
"""
