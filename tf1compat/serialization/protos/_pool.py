"""The descriptor pool of tf1compat's message classes.

The generated `*_pb2` modules of this package register their schemas here rather than
in protobuf's default pool: the messages have TensorFlow's full names
(`tensorflow.GraphDef`), and a process that also loads TensorFlow's own generated
modules (which register those names in the default pool) must not see two definitions
of one name. The pool is self-contained: well_known.proto defines the two well-known
types the schemas use.
"""

from google.protobuf import descriptor_pool

__all__ = ["POOL"]

POOL = descriptor_pool.DescriptorPool()
