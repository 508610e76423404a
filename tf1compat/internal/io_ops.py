"""`tensorflow.python.ops.io_ops`: the reader classes and the file ops (read_file,
write_file, matching_files) that legacy code reaches through TF's io_ops module, as the
speech_commands example does."""

# ruff: noqa: F401
from tf1compat.data.reader_ops import (FixedLengthRecordReader, IdentityReader, ReaderBase,
                                       TextLineReader, TFRecordReader, WholeFileReader)
from tf1compat.ops.file_ops import matching_files, read_file, write_file

__all__ = ["ReaderBase", "TFRecordReader", "TextLineReader", "WholeFileReader",
           "FixedLengthRecordReader", "IdentityReader", "read_file", "write_file",
           "matching_files"]
