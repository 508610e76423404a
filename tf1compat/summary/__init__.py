"""`tf.summary`: summary ops and TensorBoard event files."""

# ruff: noqa: F401
from tf1compat.serialization.messages import (Event, SessionLog, Summary, SummaryDescription,
                                              SummaryMetadata, TaggedRunMetadata)
from tf1compat.summary.summary_ops import (all_v2_summary_ops, audio, get_summary_description,
                                           histogram, image, initialize, merge, merge_all,
                                           scalar, tensor_summary, text)
from tf1compat.summary.writer import FileWriter, FileWriterCache
from tf1compat.summary import summary_v2_ops as _summary_v2_ops  # declares the writer ops
