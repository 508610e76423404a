"""Training beyond one process, on PyTorch's distributed engine (docs/distributed.md).

Horovod-style data parallelism: `horovod_tensorflow.py` (what `import horovod.tensorflow as
hvd` resolves to), its Keras face in `horovod_keras.py` and `horovod_keras_callbacks.py`
(`horovod.keras`, `horovod.tensorflow.keras`), `hvd.elastic` in `horovod_elastic.py`,
Horovod's ops in `collective_ops.py` (allreduce, allgather, broadcast, join) and
`scatter_ops.py` (alltoall, reducescatter), the Adasum reduction in `adasum.py`, process
sets in `process_sets.py`, the per-collective agreement (and `hvd.join`) in
`negotiation.py`, the torch.distributed process group in `process_group.py`. Processes
come from `torchrun` or `tf1compat run --nproc-per-node N`. Parameter servers: `server.py`
(`tf.train.Server` on torch.distributed.rpc, worker sessions on its target),
`sync_replicas.py` (`tf.train.SyncReplicasOptimizer` across workers) and `local_cluster.py`
(`tf.test.create_local_cluster`: every task in the calling process).
"""
