"""Max pooling over windows that tile the input as elementwise ops (ops/_tiled_pool.py):
bit for bit the values and gradients of ATen's kernels under TF's NaN rule (the custom ops
of ops/_traced_pool.py), eager and compiled by inductor, and which pools take it."""

import pytest
import torch

from tf1compat.ops import _traced_pool
from tf1compat.ops._tiled_pool import tiled_max_pool2d, tiles


def _bits(t):
    return t.view(torch.int32 if t.dtype == torch.float32 else torch.int64)


def _input(shape, k, dtype):
    """NHWC data viewed as [N, C, H, W] (the layout the kernels take), with ties, NaN,
    -inf, +inf and a window of only NaN and the lowest finite value."""
    n, c, h, w = shape
    x = torch.randn(n, h, w, c, dtype=dtype, generator=torch.Generator().manual_seed(0))
    x = (torch.round(x * 2) / 2).permute(0, 3, 1, 2)
    x[0, 0, 0, 0] = float("nan")
    x[0, 1, :k[0], :k[1]] = float("nan")
    x[0, 2, :k[0], k[1]:2 * k[1]] = float("-inf")
    x[1, 0, 0, 0] = float("inf")
    x[1, 1, :k[0], :k[1]] = torch.finfo(dtype).min
    x[1, 1, 0, 1] = float("nan")
    g = torch.randn(n, h // k[0], w // k[1], c, dtype=dtype,
                    generator=torch.Generator().manual_seed(1)).permute(0, 3, 1, 2)
    g[0, 0, 0, 0] = g[1, 2, 0, 0] = -0.0      # ATen's kernel adds it into zeros: +0.0
    return x, g


def _aten(x, g, k):
    x = x.detach().requires_grad_()
    y = _traced_pool._max_pool2d(x, list(k), list(k), [0, 0])[0]
    return (y,) + torch.autograd.grad(y, x, g)


def _tiled(x, g, k):
    x = x.detach().requires_grad_()
    y = tiled_max_pool2d(x, k)
    return (y,) + torch.autograd.grad(y, x, g)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape,k", [((2, 3, 8, 8), (2, 2)), ((2, 5, 7, 9), (2, 2)),
                                     ((2, 4, 9, 7), (3, 2)), ((2, 3, 6, 6), (3, 3))])
def test_equal_to_atens_kernels_bit_for_bit(shape, k, dtype):
    x, g = _input(shape, k, dtype)
    for want, got in zip(_aten(x, g, k), _tiled(x, g, k)):
        assert torch.equal(_bits(want), _bits(got))
        assert want.stride() == got.stride()          # channels_last kept


def test_inductors_code_equal_bit_for_bit():
    """Inductor's loops (what compiled plans run), with a ReLU before the pool as a
    compiled CNN has it: its gradient is fused with the pool's; odd sizes leave the last
    row and column without a window."""
    x, g = _input((2, 5, 7, 9), (2, 2), torch.float32)
    x = x.detach().requires_grad_()
    want = []
    for pool in (lambda v: _traced_pool._max_pool2d(v, [2, 2], [2, 2], [0, 0])[0],
                 torch.compile(lambda v: tiled_max_pool2d(torch.relu(v), [2, 2]),
                               dynamic=False)):
        y = pool(torch.relu(x)) if not want else pool(x)
        want.append((y,) + torch.autograd.grad(y, x, g))
    for a, b in zip(*want):
        assert torch.equal(_bits(a), _bits(b))
        assert a.stride() == b.stride()


def test_second_order():
    x, g = _input((2, 3, 8, 8), (2, 2), torch.float64)
    x = torch.nan_to_num(x, nan=0.5, posinf=2.0, neginf=-2.0).requires_grad_()
    results = []
    for pool in (lambda v: torch.nn.functional.max_pool2d(v, 2, 2),
                 lambda v: tiled_max_pool2d(v, [2, 2])):
        gx, = torch.autograd.grad((pool(x) ** 3).sum(), x, create_graph=True)
        results.append((gx,) + torch.autograd.grad((gx * gx).sum(), x))
    for a, b in zip(*results):
        assert torch.equal(a, b)


def test_which_pools_tile():
    x = torch.zeros(1, 2, 8, 8)
    assert tiles(x, [2, 2], [2, 2], [0, 0]) and tiles(x, [3, 3], [3, 3], [0, 0])
    assert not tiles(x, [3, 3], [2, 2], [0, 0])          # overlapping windows
    assert not tiles(x, [2, 2], [2, 2], [1, 1])          # padded
    assert not tiles(x, [5, 5], [5, 5], [0, 0])          # 25 positions
    assert not tiles(x.half(), [2, 2], [2, 2], [0, 0])
