"""`tf.summary` ops: scalar, histogram, image, audio, text/tensor, merge, merge_all.

Each op outputs a serialized `Summary` proto (a string scalar), as in TF; `FileWriter`
writes them into TensorBoard event files. Names and tags follow TF's summary_scope
(`tf.summary.scalar("loss", x)` is an op named "loss" with tag "loss"; a second one is
"loss_1"), and the ops go to the SUMMARIES collection.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (GraphKeys, add_to_collection, apply_op, apply_op1,
                                       get_collection, name_scope)
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.serialization.messages import HistogramProto, Summary, SummaryMetadata, TensorProto
from tf1compat.summary import encoding

__all__ = ["scalar", "histogram", "image", "audio", "text", "tensor_summary", "merge",
           "merge_all", "get_summary_description", "collect", "all_v2_summary_ops", "initialize"]

_INVALID_TAG = re.compile(r"[^-/\w\.]")


def _to_numpy(value: Any) -> np.ndarray:
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def _as_text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _summary_bytes(summary: Summary) -> np.ndarray:
    """A summary op's output: the serialized Summary as a string scalar."""
    return np.array(summary.SerializeToString(), dtype=object)


# -- op declarations (string outputs: they run on the CPU) ----------------------------------

def _scalar_kernel(node: Any, kctx: Any) -> Any:
    def run(tags: Any, values: Any) -> np.ndarray:
        tags_a = np.asarray(tags, dtype=object)
        vals = _to_numpy(values)
        if tags_a.shape != vals.shape:
            raise errors.InvalidArgumentError(
                None, None, f"tags and values are not the same shape: {list(tags_a.shape)} != "
                            f"{list(vals.shape)}")
        summary = Summary()
        for t, v in zip(tags_a.reshape(-1), vals.reshape(-1)):
            summary.value.add(tag=_as_text(t), simple_value=float(v))
        return _summary_bytes(summary)
    return run


declare("ScalarSummary", inputs=["tags: string", "values: T"], outputs=["summary: string"],
        attrs={"T": Type()}, shape=lambda ctx: [TensorShape([])], kernel=_scalar_kernel,
        grad="none", cpu_only=True, stateful=False)


def _histogram_kernel(node: Any, kctx: Any) -> Any:
    def run(tag: Any, values: Any) -> np.ndarray:
        vals = _to_numpy(values)
        if vals.dtype.kind == "c" or vals.dtype == object:
            vals = vals.astype(np.float64)     # (TF casts to double)
        if not np.isfinite(vals).all():
            bad = "Nan" if np.isnan(vals).any() else "Infinity"
            raise errors.InvalidArgumentError(None, None,
                                              f"{bad} in summary histogram for: {_as_text(tag)}")
        summary = Summary()
        summary.value.add(tag=_as_text(tag), histo=HistogramProto(**encoding.histogram(vals)))
        return _summary_bytes(summary)
    return run


declare("HistogramSummary", inputs=["tag: string", "values: T"], outputs=["summary: string"],
        attrs={"T": Type(default=D.float32)}, shape=lambda ctx: [TensorShape([])],
        kernel=_histogram_kernel, grad="none", cpu_only=True)


def _numbered(tag: str, kind: str, i: int, many: bool) -> str:
    return f"{tag}/{kind}/{i}" if many else f"{tag}/{kind}"


def _image_kernel(node: Any, kctx: Any) -> Any:
    max_images = node.attrs["max_images"]
    bad_color = node.attrs.get("bad_color")
    bad_color = None if bad_color is None else np.asarray(bad_color, np.uint8)

    def run(tag: Any, tensor: Any) -> np.ndarray:
        images = _to_numpy(tensor)
        if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
            raise errors.InvalidArgumentError(
                None, None, "Tensor must be 4-D with last dim 1, 3, or 4, not "
                            f"{list(images.shape)}")
        count = min(max_images, images.shape[0])
        summary = Summary()
        for i in range(count):
            img = encoding.image_to_uint8(images[i], bad_color)
            summary.value.add(tag=_numbered(_as_text(tag), "image", i, max_images > 1),
                              image=Summary.Image(
                                  height=img.shape[0], width=img.shape[1],
                                  colorspace=img.shape[2],
                                  encoded_image_string=encoding.encode_png(img)))
        return _summary_bytes(summary)
    return run


declare("ImageSummary", inputs=["tag: string", "tensor: T"], outputs=["summary: string"],
        attrs={"max_images": 3, "T": Type(default=D.float32), "bad_color": None},
        shape=lambda ctx: [TensorShape([])], kernel=_image_kernel, grad="none", cpu_only=True)


def _audio_kernel(node: Any, kctx: Any) -> Any:
    max_outputs = node.attrs["max_outputs"]

    def run(tag: Any, tensor: Any, sample_rate: Any) -> np.ndarray:
        audio = _to_numpy(tensor)
        if audio.ndim == 2:
            audio = audio[:, :, None]
        rate = float(_to_numpy(sample_rate))
        summary = Summary()
        for i in range(min(max_outputs, audio.shape[0])):
            frames, channels = audio[i].shape
            summary.value.add(tag=_numbered(_as_text(tag), "audio", i, max_outputs > 1),
                              audio=Summary.Audio(
                                  sample_rate=rate, num_channels=channels,
                                  length_frames=frames, content_type="audio/wav",
                                  encoded_audio_string=encoding.encode_wav(audio[i],
                                                                           int(rate))))
        return _summary_bytes(summary)
    return run


declare("AudioSummaryV2", inputs=["tag: string", "tensor: float", "sample_rate: float"],
        outputs=["summary: string"], attrs={"max_outputs": 3},
        shape=lambda ctx: [TensorShape([])], kernel=_audio_kernel, grad="none", cpu_only=True)


def _tensor_proto(value: np.ndarray, dtype: D.DType) -> TensorProto:
    """As TF's TensorSummaryV2 kernel: numbers always as tensor_content."""
    proto = TensorProto(dtype=dtype.as_datatype_enum)
    for d in value.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if dtype == D.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode()
                                for v in np.asarray(value, dtype=object).reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(value).tobytes()
    return proto


def _tensor_summary_kernel(node: Any, kctx: Any) -> Any:
    dtype = node.attrs["T"]

    def run(tag: Any, tensor: Any, metadata: Any) -> np.ndarray:
        meta = SummaryMetadata.FromString(metadata if isinstance(metadata, bytes)
                                          else bytes(metadata))
        summary = Summary()
        summary.value.add(tag=_as_text(tag), metadata=meta,
                          tensor=_tensor_proto(_to_numpy(tensor), dtype))
        return _summary_bytes(summary)
    return run


declare("TensorSummaryV2", inputs=["tag: string", "tensor: T",
                                   "serialized_summary_metadata: string"],
        outputs=["summary: string"], attrs={"T": Type()},
        shape=lambda ctx: [TensorShape([])], kernel=_tensor_summary_kernel, grad="none",
        cpu_only=True)


def _merge_kernel(node: Any, kctx: Any) -> Any:
    def run(*summaries: Any) -> np.ndarray:
        seen = set()
        parts = []
        for s in summaries:
            # Each input holds any number of serialized Summary protos (TF merges all).
            values = [s] if isinstance(s, bytes) else np.asarray(s, dtype=object).reshape(-1)
            for data in values:
                for tag in [v.tag for v in Summary.FromString(data).value]:
                    if tag in seen:
                        raise errors.InvalidArgumentError(
                            None, None, f"Duplicate tag {tag} found in summary inputs ")
                    seen.add(tag)
                parts.append(data)
        # Serialized Summary messages concatenate into one: `value` is a repeated field.
        return np.array(b"".join(parts), dtype=object)
    return run


declare("MergeSummary", inputs=["inputs: N * string"], outputs=["summary: string"],
        attrs={"N": Int(minimum=1)}, shape=lambda ctx: [TensorShape([])],
        kernel=_merge_kernel, grad="none", cpu_only=True)


# -- wrappers ----------------------------------------------------------------------------

def _clean_tag(name: Optional[str]) -> Optional[str]:
    if name is None:
        return None
    new = _INVALID_TAG.sub("_", name)
    return new.lstrip("/")


@contextmanager
def _summary_scope(name: str, family: Optional[str] = None, default_name: Optional[str] = None,
                   values: Optional[Sequence[Any]] = None) -> Iterator[Tuple[str, str]]:
    name = _clean_tag(name)
    family = _clean_tag(family)
    base = name if family is None else f"{family}/{name}"
    with name_scope(base, default_name, values=values) as scope:
        tag = scope.rstrip("/") if family is None else f"{family}/{scope.rstrip('/')}"
        yield tag, scope


def collect(value: Tensor, collections: Optional[Sequence[str]], default: List[str]) -> None:
    """Adds a summary op's output to `collections` (`default` when None), as TF's
    summary functions do."""
    for key in (default if collections is None else collections):
        add_to_collection(key, value)


def scalar(name: str, tensor: Any, collections: Optional[Sequence[str]] = None,
           family: Optional[str] = None) -> Tensor:
    """`tf.summary.scalar`."""
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        val = apply_op1("ScalarSummary", [tag, tensor], name=scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def histogram(name: str, values: Any, collections: Optional[Sequence[str]] = None,
              family: Optional[str] = None) -> Tensor:
    """`tf.summary.histogram`."""
    with _summary_scope(name, family, values=[values], default_name="HistogramSummary") \
            as (tag, scope):
        val = apply_op1("HistogramSummary", [tag, values], name=scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def image(name: str, tensor: Any, max_outputs: int = 3,
          collections: Optional[Sequence[str]] = None, family: Optional[str] = None) -> Tensor:
    """`tf.summary.image`: up to `max_outputs` images of a [batch, h, w, c] tensor."""
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        val = apply_op1("ImageSummary", [tag, tensor], {"max_images": max_outputs}, name=scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def audio(name: str, tensor: Any, sample_rate: Any, max_outputs: int = 3,
          collections: Optional[Sequence[str]] = None, family: Optional[str] = None) -> Tensor:
    """`tf.summary.audio`."""
    with _summary_scope(name, family=family, values=[tensor]) as (tag, scope):
        sample_rate = convert_to_tensor(sample_rate, dtype=D.float32, name="sample_rate")
        val = apply_op1("AudioSummaryV2", [tag, tensor, sample_rate],
                        {"max_outputs": max_outputs}, name=scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def tensor_summary(name: str, tensor: Any, summary_description: Optional[str] = None,
                   collections: Optional[Sequence[str]] = None, summary_metadata: Any = None,
                   family: Optional[str] = None, display_name: Optional[str] = None) -> Tensor:
    """`tf.summary.tensor_summary`."""
    if summary_metadata is None:
        summary_metadata = SummaryMetadata()
    if summary_description is not None:
        summary_metadata.summary_description = summary_description
    if display_name is not None:
        summary_metadata.display_name = display_name
    serialized = summary_metadata.SerializeToString()
    with _summary_scope(name, family, values=[tensor]) as (tag, scope):
        val = apply_op1("TensorSummaryV2", [tag, tensor, constant(serialized)], name=scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def text(name: str, tensor: Any, collections: Optional[Sequence[str]] = None) -> Tensor:
    """`tf.summary.text`: a string tensor for TensorBoard's text plugin."""
    tensor = convert_to_tensor(tensor) if not isinstance(tensor, Tensor) else tensor
    if tensor.dtype != D.string:
        raise ValueError(f"Expected tensor {tensor.name} to have dtype string, got "
                         f"{tensor.dtype}")
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name=name, tensor=tensor, summary_metadata=metadata,
                          collections=collections)


def merge(inputs: Sequence[Any], collections: Optional[Sequence[str]] = None,
          name: Optional[str] = None) -> Tensor:
    """`tf.summary.merge`: one Summary holding the values of all `inputs`."""
    with name_scope(name, "Merge", inputs):
        val = apply_op1("MergeSummary", [list(inputs)], name=name)
        collect(val, collections, [])
    return val


def merge_all(key: str = GraphKeys.SUMMARIES, scope: Optional[str] = None,
              name: Optional[str] = None) -> Optional[Tensor]:
    """`tf.summary.merge_all`: merges the `key` collection (None when it is empty)."""
    summary_ops = get_collection(key, scope=scope)
    if not summary_ops:
        return None
    return merge(summary_ops, name=name)


def get_summary_description(node_def: Any) -> Any:
    """The SummaryDescription (JSON in the `description` attr) of a legacy TensorSummary
    op's NodeDef; ValueError for any other op, as TF."""
    import json
    from tf1compat.serialization.messages import SummaryDescription
    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    text = node_def.attr["description"]
    text = getattr(text, "s", text)
    parsed = json.loads(text.decode() if isinstance(text, bytes) else text)
    return SummaryDescription(type_hint=parsed.get("typeHint", parsed.get("type_hint", "")))


def all_v2_summary_ops() -> Any:
    """The TF2-style summary ops of the default graph (None under eager execution)."""
    from tf1compat.framework import context as _context
    from tf1compat.framework.graph import GraphKeys, get_collection
    if _context.executing_eagerly():
        return None
    return get_collection(GraphKeys._SUMMARY_COLLECTION)


def initialize(graph: Any = None, session: Any = None) -> None:
    """`tf.summary.initialize`: runs the tf.contrib.summary writers' initializers in
    `session` (default: the default session) and, given a graph, writes it through the
    default writer at step 0. Nothing under eager execution; RuntimeError without a
    default writer."""
    from tf1compat.framework import context as _context
    from tf1compat.framework.tensor import get_default_session
    from tf1compat.ops.array_ops import placeholder
    from tf1compat.summary import summary_v2_ops as v2
    if _context.executing_eagerly():
        return
    if v2.STATE.writer is None:
        raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("session must be passed if no default session exists")
    session.run(get_collection(v2.SUMMARY_WRITER_INIT_COLLECTION))
    if graph is not None:
        data = placeholder(D.string)
        write = apply_op("WriteGraphSummary",
                         [v2.STATE.writer._resource, constant(0, D.int64), data])
        session.run(write, feed_dict={data: graph.as_graph_def().SerializeToString()})
