"""`tf.keras.utils.multi_gpu_model` (TF 1.x): single-machine data parallelism by model
replicas, one per GPU.

Each replica is the model applied, under `/gpu:<id>` and name scope `replica_<id>`, to
its share of the batch (a Lambda slicing the batch dimension: equal parts, the last one
taking the remainder); the replicas' outputs are concatenated along the batch under
`/cpu:0` (or the first GPU with `cpu_merge=False`) into a new Model over the same inputs
and weights. The GPUs must be there: the device check and its ValueError are TF's.
"""

from __future__ import annotations

from typing import Any, List, Sequence, Union

__all__ = ["multi_gpu_model"]


# (keras.utils is imported by the layers and the engine: what it needs of them, and of
# the ops, is imported when a model is replicated)

def _available_devices() -> List[str]:
    """The session's devices as '/cpu:0', '/gpu:1', ... (TF's normalisation)."""
    from tf1compat.keras import backend
    return ["/" + device.name.lower().split("device:")[1]
            for device in backend.get_session().list_devices()]


def _batch_slice(data: Any, i: int, parts: int) -> Any:
    """Part `i` of `parts` of `data` along the batch (the last part takes the rest)."""
    from tf1compat.ops import array_ops, strided_slice
    shape = array_ops.shape(data)
    batch_size, item_shape = shape[:1], shape[1:]
    step = batch_size // parts
    size = batch_size - step * i if i == parts - 1 else step
    size = array_ops.concat([size, item_shape], axis=0)
    start = array_ops.concat([step, item_shape * 0], axis=0) * i
    return strided_slice.slice(data, start, size)


def multi_gpu_model(model: Any, gpus: Union[int, Sequence[int]], cpu_merge: bool = True,
                    cpu_relocation: bool = False) -> Any:
    """A Model running `model` on `gpus` GPUs (a count >= 2, or a list of GPU ids),
    each replica on a slice of the batch, outputs merged on the CPU (`cpu_merge`).
    `cpu_relocation` first clones the model under `/cpu:0` (its weights there)."""
    from tf1compat.framework.graph import device, name_scope
    from tf1compat.keras.engine.training import Model
    from tf1compat.keras.layers.core import Lambda
    from tf1compat.keras.layers.merge import concatenate

    if isinstance(gpus, (list, tuple)):
        if len(gpus) <= 1:
            raise ValueError("For multi-gpu usage to be effective, call `multi_gpu_model` "
                             f"with `len(gpus) >= 2`. Received: `gpus={gpus}`")
        gpu_ids = list(gpus)
    else:
        if gpus <= 1:
            raise ValueError("For multi-gpu usage to be effective, call `multi_gpu_model` "
                             f"with `gpus >= 2`. Received: `gpus={gpus}`")
        gpu_ids = list(range(gpus))
    parts = len(gpu_ids)
    target_devices = ["/cpu:0"] + [f"/gpu:{i}" for i in gpu_ids]
    available = _available_devices()
    if any(device not in available for device in target_devices):
        raise ValueError(f"To call `multi_gpu_model` with `gpus={gpus}`, we expect the "
                         f"following devices to be available: {target_devices}. However "
                         f"this machine only has: {available}. Try reducing `gpus`.")
    if cpu_relocation:
        from tf1compat.keras.models import clone_model
        with device("/cpu:0"):
            model = clone_model(model)

    replica_outputs: List[List[Any]] = [[] for _ in model.outputs]
    for i, gpu_id in enumerate(gpu_ids):
        with device(f"/gpu:{gpu_id}"), name_scope(f"replica_{gpu_id}"):
            inputs = [Lambda(_batch_slice, output_shape=tuple(x.shape.as_list())[1:],
                             arguments={"i": i, "parts": parts})(x)
                      for x in model.inputs]
            outputs = model(inputs)
            if not isinstance(outputs, list):
                outputs = [outputs]
            for o, output in enumerate(outputs):
                replica_outputs[o].append(output)
    with device("/cpu:0" if cpu_merge else f"/gpu:{gpu_ids[0]}"):
        merged = [concatenate(outputs, axis=0, name=name)
                  for name, outputs in zip(model.output_names, replica_outputs)]
        return Model(model.inputs, merged)
