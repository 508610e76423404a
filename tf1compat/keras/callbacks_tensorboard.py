"""`tf.keras.callbacks.TensorBoard` as TF1 Keras has it (tf-keras's callbacks_v1).

Event files TensorBoard reads, through `tf.summary.FileWriter`: the Keras graph (with
`write_graph`), one scalar per epoch log (`epoch_loss`, `epoch_val_acc`, ... at step
`epoch`, or at the samples seen with a numeric `update_freq`), per-batch scalars
(`batch_loss`, ...) every `update_freq` samples, and with `histogram_freq` the
histograms of every layer's weights and outputs (`write_grads`: gradients; `write_images`:
weights as images), merged into one summary op that runs with the validation batches of
every `histogram_freq`-th epoch (so, as in TF, histograms need validation data).

Not supported: the embeddings projector (`embeddings_freq`, NotImplementedError) and the
profiler (`profile_batch` is accepted and ignored: tf1compat has no TensorFlow profiler,
so no trace is written). Under eager execution scalars are written as `simple_value`
summaries (TF writes them as tensor summaries; TensorBoard shows both alike).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from tf1compat.util import tf_logging as logging
from tf1compat.keras import backend
from tf1compat.keras.callbacks import Callback

__all__ = ["TensorBoard"]


def _executing_eagerly() -> bool:
    from tf1compat.framework.context import executing_eagerly
    return executing_eagerly()


class TensorBoard(Callback):
    """Writes training logs (and optionally the graph and histograms) for TensorBoard."""

    def __init__(self, log_dir: str = "./logs", histogram_freq: int = 0, batch_size: int = 32,
                 write_graph: bool = True, write_grads: bool = False,
                 write_images: bool = False, embeddings_freq: int = 0,
                 embeddings_layer_names: Any = None, embeddings_metadata: Any = None,
                 embeddings_data: Any = None, update_freq: Any = "epoch",
                 profile_batch: int = 2):
        super().__init__()
        self.log_dir = log_dir
        self.histogram_freq = histogram_freq
        if self.histogram_freq and _executing_eagerly():
            logging.warning(UserWarning("Weight and gradient histograms not supported for "
                                        "eagerexecution, setting `histogram_freq` to `0`."))
            self.histogram_freq = 0
        if embeddings_freq:
            raise NotImplementedError("TensorBoard(embeddings_freq=...) (the embeddings "
                                      "projector) is not supported by tf1compat")
        self.merged: Any = None
        self.write_graph = write_graph
        self.write_grads = write_grads
        self.write_images = write_images
        self.batch_size = batch_size
        self._total_batches_seen = 0
        self._total_val_batches_seen = 0
        self.embeddings_freq = embeddings_freq
        self.embeddings_data = embeddings_data
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._samples_seen = 0
        self._samples_seen_at_last_write = 0
        self._profile_batch = profile_batch
        self._chief_worker_only = True
        self.writer: Any = None

    def _init_writer(self, model: Any) -> None:
        from tf1compat.summary.writer import FileWriter
        if _executing_eagerly() or not self.write_graph:
            self.writer = FileWriter(self.log_dir)
        else:
            self.writer = FileWriter(self.log_dir, backend.get_graph())

    def _make_histogram_ops(self, model: Any) -> None:
        from tf1compat.ops import array_ops
        from tf1compat.summary import summary_ops
        if not self.histogram_freq or self.merged is not None:
            return
        for layer in self.model.layers:
            for weight in layer.weights:
                name = weight.name.replace(":", "_")
                summary_ops.histogram(name, weight)
                if self.write_images:
                    image = self._weight_image(weight, array_ops)
                    if image is not None:
                        summary_ops.image(name, image)
            if self.write_grads:
                for weight in layer.trainable_weights:
                    name = weight.name.replace(":", "_")
                    grads = model.optimizer.get_gradients(model.total_loss, weight)
                    grads = [getattr(g, "values", g) if type(g).__name__ == "IndexedSlices"
                             else g for g in grads]
                    summary_ops.histogram(f"{name}_grad", grads)
            try:
                output = layer.output
            except AttributeError:
                continue
            if isinstance(output, list):
                for i, out in enumerate(output):
                    summary_ops.histogram(f"{layer.name}_out_{i}", out)
            else:
                summary_ops.histogram(f"{layer.name}_out", output)

    @staticmethod
    def _weight_image(weight: Any, array_ops: Any) -> Any:
        """A weight as a [N, H, W, 1] image, as tf-keras lays kernels and biases out."""
        image = array_ops.squeeze(weight)
        shape = tuple(image.shape.as_list())
        if len(shape) == 2:
            if shape[0] > shape[1]:
                image = array_ops.transpose(image)
                shape = tuple(image.shape.as_list())
            return array_ops.reshape(image, [1, shape[0], shape[1], 1])
        if len(shape) == 3:
            if backend.image_data_format() == "channels_last":
                image = array_ops.transpose(image, perm=[2, 0, 1])
                shape = tuple(image.shape.as_list())
            return array_ops.reshape(image, [shape[0], shape[1], shape[2], 1])
        if len(shape) == 1:
            return array_ops.reshape(image, [1, shape[0], 1, 1])
        return None

    def set_model(self, model: Any) -> None:
        self.model = model
        self._init_writer(model)
        if not _executing_eagerly():
            from tf1compat.summary import summary_ops
            self._make_histogram_ops(model)
            self.merged = summary_ops.merge_all()

    def _fetch_callback(self, summary: Any) -> None:
        self.writer.add_summary(summary, self._total_val_batches_seen)
        self._total_val_batches_seen += 1

    def _write_custom_summaries(self, step: int, logs: Optional[Dict[str, Any]] = None
                                ) -> None:
        from tf1compat.serialization.messages import Summary
        for name, value in (logs or {}).items():
            if isinstance(value, np.ndarray):
                value = value.item()
            summary = Summary(value=[Summary.Value(tag=name, simple_value=value)])
            self.writer.add_summary(summary, step)
        self.writer.flush()

    def on_train_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.on_batch_end(batch, logs)

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        logs = logs or {}
        self._samples_seen += logs.get("size", 1)
        since = self._samples_seen - self._samples_seen_at_last_write
        if self.update_freq != "epoch" and since >= self.update_freq:
            batch_logs = {"batch_" + k: v for k, v in logs.items()
                          if k not in ("batch", "size", "num_steps")}
            self._write_custom_summaries(self._total_batches_seen, batch_logs)
            self._samples_seen_at_last_write = self._samples_seen
        self._total_batches_seen += 1

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self.histogram_freq and epoch % self.histogram_freq == 0 and self.merged is not None:
            self.model._make_test_function()
            function = self.model.test_function
            if self.merged not in function.fetches:
                function.fetches.append(self.merged)
                function.fetch_callbacks[self.merged] = self._fetch_callback

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        logs = {"epoch_" + k: v for k, v in (logs or {}).items()
                if k not in ("batch", "size", "num_steps")}
        step = epoch if self.update_freq == "epoch" else self._samples_seen
        self._write_custom_summaries(step, logs)
        if self.histogram_freq and self.merged is not None:
            function = getattr(self.model, "test_function", None)
            if function is not None:
                if self.merged in function.fetches:
                    function.fetches.remove(self.merged)
                function.fetch_callbacks.pop(self.merged, None)

    def on_train_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self.writer.close()
