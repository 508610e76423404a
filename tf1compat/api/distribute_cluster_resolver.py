"""`tf.distribute.cluster_resolver` (also `tf.contrib.cluster_resolver`): TF_CONFIG,
simple, union and Slurm resolvers; the cloud ones raise NotImplementedError naming
themselves (tf1compat.training.cluster_resolver.py)."""

# ruff: noqa: F401
from tf1compat.training.cluster_resolver import (
    ClusterResolver, GCEClusterResolver, KubernetesClusterResolver,
    KubernetesExecutableLocation, SimpleClusterResolver, SlurmClusterResolver,
    TFConfigClusterResolver, TPUClusterResolver, UnionResolver)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('distribute.cluster_resolver', globals())
