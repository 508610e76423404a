"""`tensorflow.python.ops.parsing_ops`: Example and SequenceExample parsing."""

# ruff: noqa: F401
from tf1compat.ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, SparseFeature,
                                       VarLenFeature, parse_example, parse_single_example)
from tf1compat.ops.parsing_sequence_ops import (parse_sequence_example,
                                                parse_single_sequence_example)
