"""WAV audio: `tf.audio.decode_wav` / `tf.audio.encode_wav` with TF's ops DecodeWav and
EncodeWav (16-bit PCM only, as TF).

Samples map between float32 in [-1, 1) and int16 as TF's: x * 32768 rounded half away from
zero and clamped (NaN writes 0), and int16 / 32768 back. The reader follows TF's parser
byte for byte: a "fmt " chunk of 16 or 18 bytes right after "WAVE", then chunks up to the
end of the data (others skipped by their size, no pad byte), one "data" chunk of whole
frames; the RIFF size field is not checked. Errors carry TF's messages.
"""

from __future__ import annotations

import collections
import struct
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["decode_wav", "encode_wav", "DecodeWav"]

_INT16_SCALE = 32768.0


def _invalid(message: str) -> errors.OpError:
    return errors.InvalidArgumentError(None, None, message)


# -- decoding -------------------------------------------------------------------------------------

class _Reader:
    """A cursor over the WAV bytes; reading past the end fails as TF's does."""

    def __init__(self, data: bytes):
        self.data, self.offset = data, 0

    def take(self, count: int) -> bytes:
        if self.offset + count > len(self.data):
            raise _invalid("Data too short when trying to read string")
        chunk = self.data[self.offset:self.offset + count]
        self.offset += count
        return chunk

    def u16(self) -> int:
        return struct.unpack("<H", self.take(2))[0]

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    def expect(self, text: bytes) -> None:
        found = self.take(len(text))
        if found != text:
            raise _invalid(f"Header mismatch: Expected {text.decode('latin-1')} but found "
                           f"{found.decode('latin-1')}")


def _read_format(reader: _Reader) -> Tuple[int, int]:
    """(channels, sample_rate) from the "fmt " chunk, checked as TF does."""
    chunk_id = reader.take(4)
    if chunk_id != b"fmt ":
        raise _invalid(f"Unexpected field {chunk_id.decode('latin-1')}")
    size = reader.u32()
    if size not in (16, 18):
        raise _invalid(f"Bad format chunk size for WAV: Expected 16 or 18, but got{size}")
    audio_format = reader.u16()
    if audio_format != 1:
        raise _invalid(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
    channels = reader.u16()
    if channels < 1:
        raise _invalid(f"Bad number of channels for WAV: Expected at least 1, but got "
                       f"{channels}")
    sample_rate, bytes_per_second = reader.u32(), reader.u32()
    block_align, bits = reader.u16(), reader.u16()
    if size == 18:
        reader.take(2)     # the (empty) extension size
    if bits != 16:
        raise _invalid(f"Can only read 16-bit WAV files, but received {bits}")
    frame_bytes = channels * 2
    if bytes_per_second != sample_rate * frame_bytes:
        raise _invalid(f"Bad bytes per second in WAV header: Expected "
                       f"{sample_rate * frame_bytes} but got {bytes_per_second} "
                       f"(sample_rate={sample_rate}, bytes_per_sample={frame_bytes})")
    if block_align != frame_bytes:
        raise _invalid(f"Bad bytes per sample in WAV header: Expected {frame_bytes} but got "
                       f"{block_align}")
    return channels, sample_rate


def parse_wav(data: bytes) -> Tuple[np.ndarray, int]:
    """(float32 samples [frames, channels], sample rate) of 16-bit PCM WAV bytes."""
    reader = _Reader(data)
    reader.expect(b"RIFF")
    reader.u32()                       # the RIFF size: TF does not check it
    reader.expect(b"WAVE")
    channels, sample_rate = _read_format(reader)
    samples: Optional[np.ndarray] = None
    while reader.offset < len(data):
        chunk_id, size = reader.take(4), reader.u32()
        if chunk_id != b"data":
            reader.offset += size
            continue
        if samples is not None:
            raise _invalid("More than one data chunk found in WAV")
        frames = size // (2 * channels)
        raw = np.frombuffer(reader.take(frames * channels * 2), dtype="<i2")
        samples = raw.reshape(frames, channels).astype(np.float32) / np.float32(_INT16_SCALE)
    if samples is None:
        raise _invalid("No data chunk found in WAV")
    return samples, sample_rate


def _fit(samples: np.ndarray, frames: int, channels: int) -> np.ndarray:
    """`samples` cut or zero-padded to `frames`; extra channels repeat the file's last."""
    have_frames, have_channels = samples.shape
    source = np.minimum(np.arange(channels), have_channels - 1)
    out = np.zeros((frames, channels), np.float32)
    kept = min(frames, have_frames)
    out[:kept] = samples[:kept][:, source]
    return out


def _decode_kernel(node: Any, kctx: Any) -> Callable[[Any], Tuple[torch.Tensor, torch.Tensor]]:
    want_channels = int(node.attrs["desired_channels"])
    want_frames = int(node.attrs["desired_samples"])

    def run(contents: Any) -> Tuple[torch.Tensor, torch.Tensor]:
        value = contents[()] if isinstance(contents, np.ndarray) else contents
        samples, rate = parse_wav(bytes(value))
        frames = samples.shape[0] if want_frames == -1 else want_frames
        channels = samples.shape[1] if want_channels == -1 else want_channels
        audio = _fit(samples, frames, channels)
        return torch.from_numpy(audio), torch.tensor(rate, dtype=torch.int32)
    return run


def _decode_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(0).rank
    if rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {rank} {node_desc(ctx)}")
    channels, frames = int(ctx.attrs["desired_channels"]), int(ctx.attrs["desired_samples"])
    if channels < -1:
        raise ValueError(f"channels must be non-negative, got {channels} {node_desc(ctx)}")
    if frames < -1:
        raise ValueError(f"samples must be non-negative, got {frames} {node_desc(ctx)}")
    return [TensorShape([None if frames == -1 else frames,
                         None if channels == -1 else channels]), TensorShape([])]


declare("DecodeWav", inputs=["contents: string"],
        outputs=["audio: float32", "sample_rate: int32"],
        attrs={"desired_channels": -1, "desired_samples": -1},
        shape=_decode_shape, kernel=_decode_kernel, grad="unregistered", cpu_only=True)


# -- encoding -------------------------------------------------------------------------------------

def build_wav(audio: np.ndarray, sample_rate: int) -> bytes:
    """16-bit PCM WAV bytes of float32 samples [frames, channels]."""
    frames, channels = audio.shape
    if audio.size == 0 and frames > 0:
        raise _invalid("audio is null")
    if not 0 < channels < 1 << 16:
        raise _invalid(f"num_channels must be in (0, 2^16), got: {channels}")
    if not 0 < sample_rate < 1 << 32:
        raise _invalid(f"sample_rate must be in (0, 2^32), got: {sample_rate % (1 << 64)}")
    scaled = np.nan_to_num(audio.astype(np.float32) * np.float32(_INT16_SCALE), nan=0.0,
                           posinf=32767.0, neginf=-32768.0)
    # round half away from zero (C's roundf), not numpy's half to even
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + np.float32(0.5))
    pcm = np.clip(rounded, -32768, 32767).astype("<i2").tobytes()
    frame_bytes = channels * 2
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(pcm), b"WAVE", b"fmt ", 16,
                         1, channels, sample_rate, (sample_rate * frame_bytes) % (1 << 32),
                         frame_bytes, 16, b"data", len(pcm))
    return header + pcm


def _encode_kernel(node: Any, kctx: Any) -> Callable[[Any, Any], bytes]:
    def run(audio: torch.Tensor, sample_rate: torch.Tensor) -> bytes:
        return build_wav(audio.detach().cpu().numpy(), int(sample_rate))
    return run


def _encode_shape(ctx: Any) -> List[TensorShape]:
    for index, want in ((0, 2), (1, 0)):
        rank = ctx.shape(index).rank
        if rank not in (None, want):
            raise ValueError(f"Shape must be rank {want} but is rank {rank} {node_desc(ctx)}")
    return [TensorShape([])]


declare("EncodeWav", inputs=["audio: float32", "sample_rate: int32"],
        outputs=["contents: string"], shape=_encode_shape, kernel=_encode_kernel,
        grad="unregistered", cpu_only=True)


# -- tf.audio -------------------------------------------------------------------------------------

DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents: Any, desired_channels: int = -1, desired_samples: int = -1,
               name: Optional[str] = None) -> DecodeWav:
    """`tf.audio.decode_wav`: (float32 audio [samples, channels], int32 sample_rate) of
    16-bit PCM WAV bytes; `desired_*` (-1: the file's) cut, pad with zeros or repeat the
    last channel."""
    op = apply_op("DecodeWav", [contents], {"desired_channels": int(desired_channels),
                                            "desired_samples": int(desired_samples)},
                  name=name)
    return DecodeWav(*op.outputs)


def encode_wav(audio: Any, sample_rate: Any, name: Optional[str] = None) -> Tensor:
    """`tf.audio.encode_wav`: float32 audio [samples, channels] as 16-bit PCM WAV bytes."""
    return apply_op1("EncodeWav", [convert_to_tensor(audio, D.float32),
                                   convert_to_tensor(sample_rate, D.int32)], {}, name=name)
