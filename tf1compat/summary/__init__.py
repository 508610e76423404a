"""`tf.summary`: summary ops and TensorBoard event files."""

# ruff: noqa: F401
from tf1compat.serialization.messages import Event, SessionLog, Summary, SummaryMetadata
from tf1compat.summary.summary_ops import (audio, get_summary_description, histogram, image,
                                           merge, merge_all, scalar, tensor_summary, text)
from tf1compat.summary.writer import FileWriter, FileWriterCache
