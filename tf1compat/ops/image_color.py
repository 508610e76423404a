"""`tf.image` colour ops: RGBToHSV / HSVToRGB, AdjustHue / AdjustSaturation (TF's CPU
kernels' per-pixel formulas, vectorised), and the wrappers adjust_hue, adjust_saturation,
random_hue, random_saturation, adjust_gamma, rgb_to_hsv, hsv_to_rgb and the YIQ / YUV
conversions (tensordot with TF's matrices)."""

from __future__ import annotations

from typing import Any, Callable, Optional

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.image_ops import _assert, convert_image_dtype
from tf1compat.ops.linalg_ops import tensordot
from tf1compat.ops.random_ops import random_uniform

__all__ = ["rgb_to_hsv", "hsv_to_rgb", "adjust_hue", "adjust_saturation", "random_hue",
           "random_saturation", "adjust_gamma", "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv",
           "yuv_to_rgb"]


def _channels_shape(ctx: Any) -> list:
    s = ctx.shape(0)
    if s.rank is not None:
        if s.rank < 1:
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
        last = s.as_list()[-1]
        if last is not None and last != 3:
            raise ValueError(f"Dimension must be 3 but is {last} {node_desc(ctx)}")
    return [s]


def _split_rgb(x: torch.Tensor) -> tuple:
    if x.shape[-1] != 3:
        from tf1compat.framework import errors
        raise errors.InvalidArgumentError(
            None, None, f"input must have 3 channels but input only has {x.shape[-1]} channels.")
    return x[..., 0], x[..., 1], x[..., 2]


# -- RGBToHSV, HSVToRGB (Eigen expressions of TF's functors) ---------------------------------

def _rgb_to_hsv(x: torch.Tensor) -> torch.Tensor:
    r, g, b = _split_rgb(x)
    value = torch.maximum(torch.maximum(r, g), b)
    chroma = value - torch.minimum(torch.minimum(r, g), b)
    saturation = torch.where(value > 0, chroma / value, torch.zeros_like(value))
    norm = 1.0 / (6.0 * chroma)
    hue = torch.where(r == value, norm * (g - b),
                      torch.where(g == value, norm * (b - r) + 2.0 / 6.0,
                                  norm * (r - g) + 4.0 / 6.0))
    hue = torch.where(chroma > 0, hue, torch.zeros_like(hue))
    hue = torch.where(hue < 0, hue + 1, hue)
    return torch.stack([hue, saturation, value], dim=-1)


def _hsv_to_rgb(x: torch.Tensor) -> torch.Tensor:
    h, s, v = _split_rgb(x)
    dh = h * 6
    dr = ((dh - 3).abs() - 1).clamp(0, 1)
    dg = (-(dh - 2).abs() + 2).clamp(0, 1)
    db = (-(dh - 4).abs() + 2).clamp(0, 1)
    one_s = -s + 1
    return torch.stack([(one_s + s * dr) * v, (one_s + s * dg) * v, (one_s + s * db) * v],
                       dim=-1)


for _type, _fn in (("RGBToHSV", _rgb_to_hsv), ("HSVToRGB", _hsv_to_rgb)):
    declare(_type, inputs=["images: T"], outputs=["output: T"],
            attrs={"T": Type((D.float16, D.bfloat16, D.float32, D.float64),
                             default=D.float32)},
            shape=_channels_shape, kernel=lambda node, kctx, _fn=_fn: _fn,
            grad="autograd" if _type == "RGBToHSV" else "none")  # TF: HSVToRGB not differentiable


def rgb_to_hsv(images: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.rgb_to_hsv`: RGB in [0, 1] to hue, saturation, value in [0, 1]."""
    return apply_op1("RGBToHSV", [images], name=name)


def hsv_to_rgb(images: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.hsv_to_rgb`: the inverse of rgb_to_hsv."""
    return apply_op1("HSVToRGB", [images], name=name)


# -- AdjustHue, AdjustSaturation (TF's CPU kernels, float arithmetic) ----------------------------

def _hue_and_range(r: torch.Tensor, g: torch.Tensor, b: torch.Tensor) -> tuple:
    """Hue in [0, 6) with the min and max channel (TF's rgb_to_hv_range)."""
    r_lt_g = r < g
    cat = torch.where(r_lt_g, torch.where(b < r, 1, torch.where(b > g, 3, 2)),
                      torch.where(b < g, 0, torch.where(b > r, 4, 5)))
    v_max = torch.where(r_lt_g, torch.where(b > g, b, g), torch.where(b > r, b, r))
    v_min = torch.where(r_lt_g, torch.where(b < r, b, r), torch.where(b < g, b, g))
    v_mid = torch.where(r_lt_g, torch.where(b < r, r, torch.where(b > g, g, b)),
                        torch.where(b < g, g, torch.where(b > r, r, b)))
    ratio = (v_mid - v_min) / (v_max - v_min)
    increase = (cat % 2) == 0
    hue = cat.to(r.dtype) + torch.where(increase, ratio, 1 - ratio)
    hue = torch.where(v_max == v_min, torch.zeros_like(hue), hue)
    return hue, v_min, v_max


def _rgb_from_hue_and_range(h: torch.Tensor, v_min: torch.Tensor, v_max: torch.Tensor
                            ) -> torch.Tensor:
    cat = h.to(torch.int64)
    ratio = h - cat.to(h.dtype)
    ratio = torch.where((cat % 2) == 0, ratio, 1 - ratio)
    v_mid = v_min + ratio * (v_max - v_min)
    table = {0: (v_max, v_mid, v_min), 1: (v_mid, v_max, v_min), 2: (v_min, v_max, v_mid),
             3: (v_min, v_mid, v_max), 4: (v_mid, v_min, v_max)}
    r, g, b = v_max, v_min, v_mid                       # category 5 and anything else
    for k, (rk, gk, bk) in table.items():
        here = cat == k
        r, g, b = torch.where(here, rk, r), torch.where(here, gk, g), torch.where(here, bk, b)
    return torch.stack([r, g, b], dim=-1)


def _adjust_hue(images: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
    x = images.float()
    r, g, b = _split_rgb(x)
    hue, v_min, v_max = _hue_and_range(r, g, b)
    hue = torch.remainder(hue + delta.float() * 6, 6.0)
    return _rgb_from_hue_and_range(hue, v_min, v_max).to(images.dtype)


def _pixel_hsv(r: torch.Tensor, g: torch.Tensor, b: torch.Tensor) -> tuple:
    """TF's per-pixel rgb_to_hsv of the AdjustSaturation kernel: float math except that
    the sextant offsets (2/6, 4/6) are added in double precision, as its C++ does."""
    value = torch.maximum(r, torch.maximum(g, b))
    chroma = value - torch.minimum(r, torch.minimum(g, b))
    saturation = torch.where(value > 0, chroma / value, torch.zeros_like(value))
    norm = 1.0 / (6.0 * chroma)
    hue = torch.where(r == value, norm * (g - b),
                      torch.where(g == value, ((norm * (b - r)).double() + 2.0 / 6.0).float(),
                                  ((norm * (r - g)).double() + 4.0 / 6.0).float()))
    hue = torch.where(chroma <= 0, torch.zeros_like(hue), hue)
    return torch.where(hue < 0, hue + 1, hue), saturation, value


def _adjust_saturation(images: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    h, s, v = _pixel_hsv(*_split_rgb(images.float()))
    s = torch.clamp(s * scale.float(), 0.0, 1.0)
    # TF's kernel converts back with the per-pixel hsv_to_rgb of the sextant formula.
    c = s * v
    m = v - c
    dh = h * 6
    cat = dh.to(torch.int64)
    fmod = torch.remainder(dh, 2.0)
    xx = c * (1 - (fmod - 1).abs())
    zero = torch.zeros_like(c)
    table = {0: (c, xx, zero), 1: (xx, c, zero), 2: (zero, c, xx), 3: (zero, xx, c),
             4: (xx, zero, c), 5: (c, zero, xx)}
    r, g, b = zero, zero, zero
    for k, (rk, gk, bk) in table.items():
        here = cat == k
        r, g, b = torch.where(here, rk, r), torch.where(here, gk, g), torch.where(here, bk, b)
    return torch.stack([r + m, g + m, b + m], dim=-1).to(images.dtype)


def _scalar_kernel(fn: Callable[..., torch.Tensor]) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(images: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
            if value.dim() != 0:
                from tf1compat.framework import errors
                raise errors.InvalidArgumentError(None, None, "delta must be scalar: "
                                                  f"[{','.join(map(str, value.shape))}]")
            return fn(images, value)
        return run
    return factory


def _adjust_shape(ctx: Any) -> list:
    s = ctx.shape(0)
    if s.rank is not None and s.rank < 3:
        raise ValueError(f"Shape must be at least rank 3 but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    return [s]


declare("AdjustHue", inputs=["images: T", "delta: float32"], outputs=["output: T"],
        attrs={"T": Type((D.float16, D.float32), default=D.float32)},
        shape=_adjust_shape, kernel=_scalar_kernel(_adjust_hue), grad="unregistered")
declare("AdjustSaturation", inputs=["images: T", "scale: float32"], outputs=["output: T"],
        attrs={"T": Type((D.float16, D.float32), default=D.float32)},
        shape=_adjust_shape, kernel=_scalar_kernel(_adjust_saturation), grad="unregistered")


def _in_float(image: Tensor) -> Tensor:
    return image if image.dtype in (D.float16, D.float32) else \
        convert_image_dtype(image, D.float32)


def adjust_hue(image: Any, delta: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.adjust_hue`: rotates the hue by `delta` (a fraction of the colour wheel)."""
    with name_scope(name, "adjust_hue", [image]):
        image = convert_to_tensor(image, name="image")
        orig = image.dtype
        altered = apply_op1("AdjustHue", [_in_float(image), delta])
        return convert_image_dtype(altered, orig)


def adjust_saturation(image: Any, saturation_factor: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.adjust_saturation`: multiplies the saturation, clipped to [0, 1]."""
    with name_scope(name, "adjust_saturation", [image]):
        image = convert_to_tensor(image, name="image")
        orig = image.dtype
        adjusted = apply_op1("AdjustSaturation", [_in_float(image), saturation_factor])
        return convert_image_dtype(adjusted, orig)


def random_hue(image: Any, max_delta: float, seed: Optional[int] = None) -> Tensor:
    """`tf.image.random_hue`: a hue rotation drawn from [-max_delta, max_delta)."""
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)


def random_saturation(image: Any, lower: float, upper: float, seed: Optional[int] = None
                      ) -> Tensor:
    """`tf.image.random_saturation`: a saturation factor drawn from [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_uniform([], lower, upper, seed=seed)
    return adjust_saturation(image, factor)


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> Tensor:
    """`tf.image.adjust_gamma`: gain * image ** gamma in the float domain."""
    from tf1compat.ops.control_flow_ops import with_dependencies
    with name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = convert_to_tensor(image, name="image")
        orig = image.dtype
        flt = _in_float(image)
        check = _assert(gamma >= 0, ValueError, "Gamma should be a non-negative real number.")
        if check:
            gamma = with_dependencies(check, gamma)
        adjusted = gain * flt ** gamma
        return convert_image_dtype(adjusted, orig, saturate=True)


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour_matrix(matrix: list, public: str) -> Callable[[Any], Tensor]:
    def fn(images: Any) -> Tensor:
        images = convert_to_tensor(images, name="images")
        kernel = convert_to_tensor(matrix, dtype=images.dtype, name="kernel")
        ndims = images.shape.rank
        return tensordot(images, kernel, axes=[[ndims - 1], [0]])
    fn.__name__ = public
    fn.__doc__ = f"`tf.image.{public}`: a 3x3 colour-space matrix over the last axis."
    return fn


rgb_to_yiq = _colour_matrix(_RGB_TO_YIQ, "rgb_to_yiq")
yiq_to_rgb = _colour_matrix(_YIQ_TO_RGB, "yiq_to_rgb")
rgb_to_yuv = _colour_matrix(_RGB_TO_YUV, "rgb_to_yuv")
yuv_to_rgb = _colour_matrix(_YUV_TO_RGB, "yuv_to_rgb")
