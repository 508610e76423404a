"""`tf.contrib.staging` (TF 1.15): `StagingArea`, a buffer of tuples that input pipelines
fill one step ahead (see ops/staging_ops.py)."""

from tf1compat.ops.staging_ops import StagingArea

__all__ = ["StagingArea"]
