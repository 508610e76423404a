"""`tf.io`."""

# ruff: noqa: F401
from tf1compat.util import gfile

# (section: input pipelines — TFRecords, parsing, files)
from tf1compat.data.tf_record import (TFRecordCompressionType, TFRecordOptions, TFRecordWriter,
                                      tf_record_iterator)
from tf1compat.ops.decode_ops import decode_compressed, decode_csv, decode_raw
from tf1compat.ops.json_example_ops import decode_json_example
from tf1compat.ops.serialize_ops import parse_tensor, serialize_tensor
from tf1compat.ops.string_ops import decode_base64, encode_base64
from tf1compat.training.saving.graph_util import write_graph
from tf1compat.ops.file_ops import matching_files, read_file, write_file
from tf1compat.ops.proto_ops import decode_proto, encode_proto
from tf1compat.ops.image_codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif,
                                        decode_image, decode_jpeg, decode_png, decode_webp,
                                        encode_jpeg, encode_png, extract_jpeg_shape,
                                        is_jpeg)
from tf1compat.ops.queue_ops import (PaddingFIFOQueue, PriorityQueue, QueueBase,
                                     RandomShuffleQueue)
from tf1compat.training.input_utils import match_filenames_once
from tf1compat.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, SparseFeature,
                                       VarLenFeature, parse_example, parse_single_example)
from tf1compat.ops.parsing_sequence_ops import (parse_sequence_example,
                                                parse_single_sequence_example)

# (section: api-math)
from tf1compat.ops.sparse_serialization_ops import (deserialize_many_sparse,
                                                     serialize_many_sparse, serialize_sparse)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('io', globals())
