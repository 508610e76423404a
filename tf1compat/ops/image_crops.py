"""Box-driven image ops: CropAndResize (bilinear / nearest, TF's sampling grid),
DrawBoundingBoxes(V2), ExtractGlimpse(V2) and SampleDistortedBoundingBox(V2) with TF's
random crop search drawn from TF's Philox stream (bit-exact), and their `tf.image`
wrappers."""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.grad_names import names
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _philox as philox
from tf1compat.ops._random_stream import RandomStream, _unit_float
from tf1compat.ops._shape_rules import node_desc

__all__ = ["crop_and_resize", "draw_bounding_boxes", "extract_glimpse",
           "sample_distorted_bounding_box"]


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _dims_text(dims: Any) -> str:
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


# -- CropAndResize --------------------------------------------------------------------------

def _crop_and_resize_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    method = node.attrs["method"]
    extrapolation = float(node.attrs["extrapolation_value"])
    if method not in ("bilinear", "nearest"):
        raise _invalid("method must be 'bilinear' or 'nearest'")

    def crop_and_resize(image: torch.Tensor, boxes: torch.Tensor, box_ind: torch.Tensor,
                        crop_size: Any) -> torch.Tensor:
        if image.dim() != 4:
            raise _invalid(f"input image must be 4-D{_dims_text(image.shape)}")
        batch, height, width, depth = image.shape
        if height <= 0 or width <= 0:
            raise _invalid("image dimensions must be positive")
        ch, cw = (int(v) for v in crop_size.reshape(-1).tolist())
        if ch <= 0 or cw <= 0:
            raise _invalid("crop dimensions must be positive")
        n = boxes.shape[0]
        if box_ind.shape[0] != n:
            raise _invalid("box_index has incompatible shape")
        if n and bool(((box_ind < 0) | (box_ind >= batch)).any()):
            raise errors.OutOfRangeError(None, None,
                                         f"box_index has values outside [0, {batch})")
        img = image.float()
        y1, x1, y2, x2 = (boxes[:, i:i + 1].float() for i in range(4))
        in_y = _sample_grid(y1, y2, height, ch, boxes.device)      # [n, ch]
        in_x = _sample_grid(x1, x2, width, cw, boxes.device)       # [n, cw]
        valid = ((in_y >= 0) & (in_y <= height - 1))[:, :, None] & \
            ((in_x >= 0) & (in_x <= width - 1))[:, None, :]
        index = box_ind.long()[:, None, None]
        if method == "nearest":
            yi = _round_half_away(in_y).clamp(0, height - 1)
            xi = _round_half_away(in_x).clamp(0, width - 1)
            out = img[index, yi[:, :, None], xi[:, None, :]]
            if boxes.requires_grad:
                # TF's CropAndResizeGradBoxes computes the bilinear gradient whatever the
                # method: add a term worth 0 whose gradient for the boxes is bilinear's.
                smooth = _bilinear(img.detach(), in_y, in_x, index, height, width)
                out = out + (smooth - smooth.detach())
        else:
            out = _bilinear(img, in_y, in_x, index, height, width)
        fill = torch.full_like(out, extrapolation)
        return torch.where(valid[..., None], out, fill)
    return crop_and_resize


def _bilinear(img: torch.Tensor, in_y: torch.Tensor, in_x: torch.Tensor, index: torch.Tensor,
              height: int, width: int) -> torch.Tensor:
    """Bilinear samples of `img` at rows `in_y` [n, ch] and columns `in_x` [n, cw]."""
    top, left = torch.floor(in_y), torch.floor(in_x)
    y_lerp, x_lerp = in_y - top, in_x - left
    ti = top.long().clamp(0, height - 1)
    bi = torch.ceil(in_y).long().clamp(0, height - 1)
    li = left.long().clamp(0, width - 1)
    ri = torch.ceil(in_x).long().clamp(0, width - 1)

    def pick(rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
        return img[index, rows[:, :, None], cols[:, None, :]]
    x_w = x_lerp[:, None, :, None]
    top_v = pick(ti, li) + (pick(ti, ri) - pick(ti, li)) * x_w
    bottom_v = pick(bi, li) + (pick(bi, ri) - pick(bi, li)) * x_w
    return top_v + (bottom_v - top_v) * y_lerp[:, :, None, None]


def _round_half_away(x: torch.Tensor) -> torch.Tensor:
    """C's roundf: halves round away from zero (torch.round rounds them to even)."""
    return (torch.sign(x) * torch.floor(x.abs() + 0.5)).long()


def _sample_grid(lo: torch.Tensor, hi: torch.Tensor, size: int, count: int,
                 device: torch.device) -> torch.Tensor:
    """The source coordinates TF samples: `count` points spanning [lo, hi] in pixels."""
    if count > 1:
        scale = (hi - lo) * (size - 1) / (count - 1)
        steps = torch.arange(count, dtype=torch.float32, device=device)[None, :]
        return lo * (size - 1) + steps * scale
    return (0.5 * (lo.double() + hi.double()) * (size - 1)).float()


def _crop_and_resize_shape(ctx: Any) -> List[TensorShape]:
    if ctx.attrs["method"] not in ("bilinear", "nearest"):
        raise ValueError("method must be 'bilinear' or 'nearest' " + node_desc(ctx))
    image, boxes = ctx.shape(0), ctx.shape(1)
    if image.rank is not None and image.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {image.rank} {node_desc(ctx)}")
    if boxes.rank is not None and boxes.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {boxes.rank} {node_desc(ctx)}")
    size = ctx.const(3)
    n = boxes.as_list()[0] if boxes.rank == 2 else None
    h, w = (None, None) if size is None else (int(size[0]), int(size[1]))
    depth = image.as_list()[3] if image.rank == 4 else None
    return [TensorShape([n, h, w, depth])]


declare("CropAndResize", inputs=["image: T", "boxes: float32", "box_ind: int32",
                                 "crop_size: int32"],
        outputs=["crops: float32"],
        attrs={"T": Type((D.uint8, D.uint16, D.int8, D.int16, D.int32, D.int64, D.float16,
                          D.float32, D.float64)),
               "method": "bilinear", "extrapolation_value": 0.0},
        shape=_crop_and_resize_shape, kernel=_crop_and_resize_kernel,
        grad_names=names("CropAndResizeGradImage", "CropAndResizeGradBoxes", None, None))


def crop_and_resize(image: Any, boxes: Any, box_ind: Any = None, crop_size: Any = None,
                    method: str = "bilinear", extrapolation_value: float = 0.0,
                    name: Optional[str] = None, box_indices: Any = None) -> Tensor:
    """`tf.image.crop_and_resize` (TF1 signature, `box_ind` or `box_indices`): crops of
    each normalised box, resampled to `crop_size` (float32)."""
    if box_indices is not None:
        if box_ind is not None:
            raise ValueError("Cannot specify both 'box_indices' and 'box_ind'")
        box_ind = box_indices
    # None takes the attr's default, as in TF's generated wrapper.
    return apply_op1("CropAndResize", [image, boxes, box_ind, crop_size],
                     {"method": "bilinear" if method is None else method,
                      "extrapolation_value": 0.0 if extrapolation_value is None
                      else float(extrapolation_value)}, name=name)


# -- DrawBoundingBoxes ---------------------------------------------------------------------------

_COLOR_TABLE = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                         [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1],
                         [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _draw_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def draw(images: torch.Tensor, boxes: torch.Tensor, colors: Any = None) -> torch.Tensor:
        if images.dim() != 4:
            raise _invalid("The rank of the images should be 4")
        batch, height, width, depth = images.shape
        if boxes.shape[0] != batch:
            raise _invalid(f"The batch sizes should be the same: {batch} vs {boxes.shape[0]}")
        table = _COLOR_TABLE.copy()
        if colors is not None and colors.numel():
            table = colors.detach().cpu().float().numpy().reshape(colors.shape[0], -1)
            if table.shape[1] < depth:
                raise _invalid("Channel depth should be less than or equal to the number "
                               "of colors")
        elif depth == 1:
            table[:, 0] = 1.0            # greyscale images get white boxes
        canvas = images.detach().cpu().clone()
        box_values = boxes.detach().cpu().float().numpy()
        for b in range(batch):
            for k, (y0, x0, y1, x1) in enumerate(box_values[b]):
                color = torch.tensor(table[k % len(table)][:depth], dtype=canvas.dtype)
                top, bottom = int(np.float32(y0) * (height - 1)), int(np.float32(y1) *
                                                                      (height - 1))
                left, right = int(np.float32(x0) * (width - 1)), int(np.float32(x1) *
                                                                     (width - 1))
                if top > bottom or left > right:
                    continue
                if top >= height or left >= width or bottom < 0 or right < 0:
                    continue
                r0, r1 = max(top, 0), min(bottom, height - 1)
                c0, c1 = max(left, 0), min(right, width - 1)
                if top >= 0:
                    canvas[b, top, c0:c1 + 1] = color
                if bottom < height:
                    canvas[b, bottom, c0:c1 + 1] = color
                if left >= 0:
                    canvas[b, r0:r1 + 1, left] = color
                if right < width:
                    canvas[b, r0:r1 + 1, right] = color
        return canvas.to(images.device)
    return draw


def _draw_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None and s.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {s.rank} {node_desc(ctx)}")
    return [s]


declare("DrawBoundingBoxes", inputs=["images: T", "boxes: float32"], outputs=["output: T"],
        attrs={"T": Type((D.float32, D.float16), default=D.float32)},
        shape=_draw_shape, kernel=_draw_kernel, grad="none", cpu_only=True)
declare("DrawBoundingBoxesV2", inputs=["images: T", "boxes: float32", "colors: float32"],
        outputs=["output: T"], attrs={"T": Type((D.float32, D.float16), default=D.float32)},
        shape=_draw_shape, kernel=_draw_kernel, grad="unregistered", cpu_only=True)


def draw_bounding_boxes(images: Any, boxes: Any, name: Optional[str] = None,
                        colors: Any = None) -> Tensor:
    """`tf.image.draw_bounding_boxes`: box outlines drawn on float images, cycling
    through `colors` (TF's default table when None)."""
    if colors is None:
        return apply_op1("DrawBoundingBoxes", [images, boxes], name=name)
    return apply_op1("DrawBoundingBoxesV2", [images, boxes, colors], name=name)


# -- ExtractGlimpse ------------------------------------------------------------------------------

def _glimpse_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    centered, normalized = node.attrs["centered"], node.attrs["normalized"]
    noise = node.attrs["noise"]
    if not node.attrs["uniform_noise"] and noise == "uniform":
        noise = "gaussian"
    version2 = node.type == "ExtractGlimpseV2"

    def glimpse(images: torch.Tensor, size: Any, offsets: torch.Tensor) -> torch.Tensor:
        if images.dim() != 4:
            raise _invalid(f"input must be 4-dimensional{_dims_text(images.shape)}")
        batch, height, width, depth = images.shape
        gh, gw = (int(v) for v in size.reshape(-1).tolist())
        if offsets.dim() != 2 or offsets.shape[0] != batch or offsets.shape[1] != 2:
            raise _invalid("offsets must be a matrix of shape [batch_size, 2]")
        out = torch.zeros((batch, gh, gw, depth), dtype=images.dtype, device=images.device)
        for b in range(batch):
            y, x = (float(v) for v in offsets[b].tolist())
            y0, x0 = _glimpse_origin(y, x, height, width, gh, gw, centered, normalized,
                                     version2)
            if noise != "zero":
                out[b] = _fill(images[b], noise, (gh, gw))
            rows = slice(max(y0, 0), min(y0 + gh, height))
            cols = slice(max(x0, 0), min(x0 + gw, width))
            if rows.start < rows.stop and cols.start < cols.stop:
                out[b, rows.start - y0:rows.stop - y0, cols.start - x0:cols.stop - x0] = \
                    images[b, rows, cols]
        return out
    return glimpse


def _fill(image: torch.Tensor, noise: str, size: tuple) -> torch.Tensor:
    """Out-of-image pixels: noise with the image's per-channel mean and variance (TF
    draws it from an unseeded generator, so only the distribution can match)."""
    flat = image.reshape(-1, image.shape[-1]).float()
    mean, std = flat.mean(0), flat.std(0, unbiased=False)
    shape = tuple(size) + (image.shape[-1],)
    if noise == "gaussian":
        draw = torch.randn(shape, device=image.device)
    else:
        draw = (torch.rand(shape, device=image.device) - 0.5) * math.sqrt(12.0)
    return (mean + std * draw).to(image.dtype)


def _glimpse_origin(y: float, x: float, height: int, width: int, gh: int, gw: int,
                    centered: bool, normalized: bool, version2: bool) -> tuple:
    """The glimpse's top-left pixel, truncated toward zero as TF's `(Index)` casts.

    ExtractGlimpse: offsets scale by the image size when normalized, are halved and moved
    to the image centre when centered, and always give the glimpse centre. V2: only
    normalized centred offsets give the centre; others give the top-left corner.
    """
    y, x = np.float32(y), np.float32(x)
    if normalized:
        y, x = np.float32(y * height), np.float32(x * width)
    if version2:
        if normalized and centered:
            y = np.float32(y / 2 + height / 2.0 - gh / 2.0)
            x = np.float32(x / 2 + width / 2.0 - gw / 2.0)
        elif centered:
            y, x = np.float32(y + height / 2.0), np.float32(x + width / 2.0)
    else:
        if centered:
            y = np.float32(np.float32(y / 2) + height / 2.0)
            x = np.float32(np.float32(x / 2) + width / 2.0)
        y, x = np.float32(y - gh / 2.0), np.float32(x - gw / 2.0)
    return int(y), int(x)


def _glimpse_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None and s.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {s.rank} {node_desc(ctx)}")
    noise, uniform = ctx.attrs["noise"], ctx.attrs["uniform_noise"]
    if uniform and noise not in ("uniform", ""):
        raise ValueError("The uniform_noise should not be True when noise is not uniform "
                         f"{node_desc(ctx)}")
    size = ctx.const(1)
    dims = s.as_list() if s.rank == 4 else [None] * 4
    h, w = (None, None) if size is None else (int(size[0]), int(size[1]))
    return [TensorShape([dims[0], h, w, dims[3]])]


_GLIMPSE_ATTRS = {"centered": True, "normalized": True, "uniform_noise": True,
                  "noise": "uniform"}
for _type in ("ExtractGlimpse", "ExtractGlimpseV2"):
    declare(_type, inputs=["input: float32", "size: int32", "offsets: float32"],
            outputs=["glimpse: float32"], attrs=dict(_GLIMPSE_ATTRS),
            shape=_glimpse_shape, kernel=_glimpse_kernel, stateful=True,
            grad="none" if _type == "ExtractGlimpse" else "unregistered")


def extract_glimpse(input: Any, size: Any, offsets: Any, centered: bool = True,  # noqa: A002
                    normalized: bool = True, uniform_noise: bool = True,
                    name: Optional[str] = None) -> Tensor:
    """`tf.image.extract_glimpse` (TF1): windows of `size` at `offsets`; pixels outside
    the image are noise (uniform or Gaussian, TF's unseeded draws)."""
    return apply_op1("ExtractGlimpse", [input, size, offsets],
                     {"centered": centered, "normalized": normalized,
                      "uniform_noise": uniform_noise}, name=name)


# -- SampleDistortedBoundingBox -------------------------------------------------------------------

class _SimplePhilox:
    """TF's SimplePhilox over a generator: one uint32 at a time from consecutive blocks."""

    def __init__(self, key: int, counter: int):
        self.key, self.counter = key, counter
        self.buffer: List[int] = []

    def rand32(self) -> int:
        if not self.buffer:
            self.buffer = philox.blocks(self.key, self.counter, 1)[0].tolist()
            self.counter = (self.counter + 1) & philox.MASK128
        return self.buffer.pop(0)

    def rand_float(self) -> np.float32:
        return np.float32(_unit_float(np.array([self.rand32()], dtype=np.uint32))[0])

    def uniform(self, n: int) -> int:
        value = self.rand32()
        return value * n if n == 0 else value % n


def _rint(value: float) -> int:
    """lrintf: round to nearest, ties to even."""
    return int(np.rint(np.float32(value)))


def _random_crop(width: int, height: int, min_area_frac: float, max_area_frac: float,
                 aspect: np.float32, rng: _SimplePhilox) -> Optional[tuple]:
    f32 = np.float32
    if max_area_frac <= 0 or aspect <= 0 or width <= 0 or height <= 0 or \
            min_area_frac > max_area_frac:
        return None
    min_area = f32(f32(f32(min_area_frac) * f32(width)) * f32(height))
    max_area = f32(f32(f32(max_area_frac) * f32(width)) * f32(height))
    crop_h = _rint(np.sqrt(f32(min_area / aspect)))
    max_h = _rint(np.sqrt(f32(max_area / aspect)))
    if _rint(f32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - float(f32(1e-7))) / float(aspect))
        if _rint(f32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    crop_h = min(crop_h, max_h)
    if crop_h < max_h:
        crop_h += rng.uniform(max_h - crop_h + 1)
    crop_w = _rint(f32(crop_h) * aspect)
    area = f32(crop_w * crop_h)
    if area < min_area:
        crop_h += 1
        crop_w = _rint(f32(crop_h) * aspect)
        area = f32(crop_w * crop_h)
    if area > max_area:
        crop_h -= 1
        crop_w = _rint(f32(crop_h) * aspect)
        area = f32(crop_w * crop_h)
    if area < min_area or area > max_area or crop_w > width or crop_h > height or \
            crop_w <= 0 or crop_h <= 0:
        return None
    y = rng.uniform(height - crop_h) if crop_h < height else 0
    x = rng.uniform(width - crop_w) if crop_w < width else 0
    return x, y, x + crop_w, y + crop_h


def _area(rect: tuple) -> np.float32:
    return np.float32((rect[2] - rect[0]) * (rect[3] - rect[1]))


def _covers(crop: tuple, min_covered: float, boxes: List[tuple]) -> bool:
    if _area(crop) < 1.0:
        return False
    for box in boxes:
        box_area = _area(box)
        if box_area < 1.0:
            continue
        inter = (max(crop[0], box[0]), max(crop[1], box[1]), min(crop[2], box[2]),
                 min(crop[3], box[3]))
        if inter[0] > inter[2] or inter[1] > inter[3]:
            inter = (0, 0, 0, 0)
        if np.float32(_area(inter) / box_area) >= np.float32(min_covered):
            return True
    return False


def _sample_box_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    max_attempts = int(attrs["max_attempts"])
    aspect_lo, aspect_hi = (np.float32(v) for v in attrs["aspect_ratio_range"])
    area_lo, area_hi = (float(np.float32(v)) for v in attrs["area_range"])
    use_image = attrs["use_image_if_no_bounding_boxes"]
    if aspect_lo <= 0 or aspect_hi <= 0:
        raise _invalid(f"Aspect ratio range must be non-negative: [{aspect_lo}, {aspect_hi}]")
    if not (area_lo > 0 and area_hi > 0):
        raise _invalid(f"Area range must be non-negative: [{area_lo}, {area_hi}]")
    if area_lo > 1 or area_hi > 1:
        raise _invalid(f"Area range must be less then or equal to 1.0: [{area_lo}, {area_hi}]")
    if max_attempts <= 0:
        raise _invalid(f"Max attempts must be non-negative: {max_attempts}")
    stream = kctx.op_resource(lambda: RandomStream(attrs["seed"], attrs["seed2"]))
    out_dtype = attrs["T"].torch_dtype

    def sample(image_size: Any, boxes: Any, *covered: Any) -> tuple:
        size = [int(v) for v in image_size.reshape(-1).tolist()]
        if len(image_size.shape) != 1 or len(size) != 3:
            raise _invalid("image_size must contain 3 elements")
        height, width = size[0], size[1]
        min_covered = float(covered[0]) if covered else float(attrs["min_object_covered"])
        if min_covered < 0:
            raise _invalid(f"Min object covered must be non-negative: {min_covered}")
        box_values = boxes.detach().cpu().float().numpy()
        if box_values.ndim != 3 or box_values.shape[-1] != 4:
            raise _invalid("input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                           f"{_dims_text(box_values.shape)}")
        rects = []
        for y0, x0, y1, x1 in box_values.reshape(-1, 4):
            for v in (y0, x0, y1, x1):
                if not 0.0 <= v <= 1.0:
                    raise _invalid(f"All bounding box coordinates must be in [0.0, 1.0]: {v}")
            rects.append((int(np.float32(x0) * width), int(np.float32(y0) * height),
                          int(np.float32(x1) * width), int(np.float32(y1) * height)))
        image_rect = (0, 0, width, height)
        if not rects:
            if not use_image:
                raise _invalid("No bounding boxes provided as input. One must enable "
                               "use_image_if_no_bounding_boxes if you wish to not provide "
                               "any bounding boxes.")
            rects.append(image_rect)
        rng = _SimplePhilox(stream.key, stream.reserve(max_attempts))
        crop = None
        for _ in range(max_attempts):
            aspect = np.float32(np.float32(rng.rand_float() * np.float32(aspect_hi - aspect_lo))
                                + aspect_lo)
            found = _random_crop(width, height, area_lo, area_hi, aspect, rng)
            if found is not None and _covers(found, min_covered, rects):
                crop = found
                break
        crop = crop or image_rect
        begin = torch.tensor([crop[1], crop[0], 0], dtype=out_dtype)
        size_t = torch.tensor([crop[3] - crop[1], crop[2] - crop[0], -1], dtype=out_dtype)
        box = np.array([crop[1] / np.float32(height), crop[0] / np.float32(width),
                        crop[3] / np.float32(height), crop[2] / np.float32(width)], np.float32)
        return begin, size_t, torch.from_numpy(box.reshape(1, 1, 4))
    return sample


def _sample_box_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([3]), TensorShape([3]), TensorShape([1, 1, 4])]


_SAMPLE_ATTRS = {"T": Type((D.uint8, D.int8, D.int16, D.int32, D.int64)), "seed": 0,
                 "seed2": 0, "aspect_ratio_range": [0.75, 1.33], "area_range": [0.05, 1.0],
                 "max_attempts": 100, "use_image_if_no_bounding_boxes": False}
declare("SampleDistortedBoundingBox", inputs=["image_size: T", "bounding_boxes: float32"],
        outputs=["begin: T", "size: T", "bboxes: float32"],
        attrs=dict(_SAMPLE_ATTRS, min_object_covered=0.1),
        shape=_sample_box_shape, kernel=_sample_box_kernel, grad="none", stateful=True,
        cpu_only=True)
declare("SampleDistortedBoundingBoxV2", inputs=["image_size: T", "bounding_boxes: float32",
                                                "min_object_covered: float32"],
        outputs=["begin: T", "size: T", "bboxes: float32"], attrs=dict(_SAMPLE_ATTRS),
        shape=_sample_box_shape, kernel=_sample_box_kernel, grad="none", stateful=True,
        cpu_only=True)


def sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any,
                                  seed: Optional[int] = None, seed2: Optional[int] = None,
                                  min_object_covered: Any = 0.1, aspect_ratio_range: Any = None,
                                  area_range: Any = None, max_attempts: Optional[int] = None,
                                  use_image_if_no_bounding_boxes: Optional[bool] = None,
                                  name: Optional[str] = None) -> tuple:
    """`tf.image.sample_distorted_bounding_box` (TF1): a random crop (begin, size, box)
    covering enough of a bounding box, TF's search and random stream (bit-exact). As in
    TF 1.x, `seed`/`seed2` are the op's seeds (the graph seed is not consulted)."""
    attrs = {"seed": int(seed or 0), "seed2": int(seed2 or 0)}
    if aspect_ratio_range is not None:
        attrs["aspect_ratio_range"] = [float(v) for v in aspect_ratio_range]
    if area_range is not None:
        attrs["area_range"] = [float(v) for v in area_range]
    if max_attempts is not None:
        attrs["max_attempts"] = int(max_attempts)
    if use_image_if_no_bounding_boxes is not None:
        attrs["use_image_if_no_bounding_boxes"] = bool(use_image_if_no_bounding_boxes)
    with name_scope(name, "sample_distorted_bounding_box"):
        op = apply_op("SampleDistortedBoundingBoxV2",
                      [image_size, bounding_boxes, min_object_covered], attrs, name=name)
        return tuple(op.outputs)
