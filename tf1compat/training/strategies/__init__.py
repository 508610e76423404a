"""`tf.distribute`'s TF1 API on one process: strategies (Mirrored, OneDevice,
CentralStorage), replica contexts, per-replica values and the input that feeds the
replicas. The public face is `tf1compat/api/distribute.py`; docs/distributed.md."""
