"""`tf.contrib.cluster_resolver` (TF 1.15): the resolvers of
`tf.distribute.cluster_resolver` under their contrib names (tf1compat/training/
cluster_resolver.py); the cloud ones raise NotImplementedError naming themselves."""

# ruff: noqa: F401
from tf1compat.training.cluster_resolver import (
    ClusterResolver, GCEClusterResolver, KubernetesClusterResolver, SimpleClusterResolver,
    SlurmClusterResolver, TFConfigClusterResolver, TPUClusterResolver, UnionResolver)
from tf1compat.contrib._missing import missing as _missing

UnionClusterResolver = UnionResolver

__getattr__ = _missing("tf.contrib.cluster_resolver")
