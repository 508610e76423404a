"""`tf.contrib.summary` (TF 1.15): summary writers and the summaries they write
(summary_ops_v2.py). `create_db_writer` (SQLite) and `import_event` are not provided."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.summary.summary_ops_v2 import (
    SummaryWriter, all_summary_ops, always_record_summaries, audio,
    create_file_writer, create_summary_file_writer, eval_dir, flush, generic, graph,
    histogram, image, initialize, never_record_summaries,
    record_summaries_every_n_global_steps, scalar, should_record_summaries,
    summary_writer_function, summary_writer_initializer_op)

__getattr__ = _missing("tf.contrib.summary")
