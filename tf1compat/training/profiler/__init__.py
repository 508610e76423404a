"""TF1's tfprof Python API (tf.profiler): options, per-op statistics, views, reports."""
