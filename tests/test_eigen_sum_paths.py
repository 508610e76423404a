"""ops/_eigen_reduce.py's shortcuts add exactly as its general path does: the whole-tensor
sum (`_full_leaf_sum`) against the row sums, and the autograd path (torch's reduction node
with TF's value written in) against the plain value and TF's Sum/Mean gradient."""

import numpy as np
import pytest
import torch

from tf1compat.ops import _eigen_reduce as er


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_full_sum_adds_as_the_row_sums(dtype):
    rs = np.random.RandomState(0)
    sizes = list(range(1, 80)) + list(rs.randint(80, 9000, 40))
    for n in sizes:
        v = (rs.randn(n) * 10.0 ** rs.randint(-6, 7)).astype(dtype)
        v[rs.randint(n)] = -0.0
        want = er._rows_leaf_sums(v.reshape(1, -1)).reshape(())
        got = np.asarray(er._full_leaf_sum(v), dtype=dtype)
        assert got.tobytes() == want.tobytes(), n


@pytest.mark.parametrize("shape,dims", [((32, 1), (0, 1)), ((6, 9), (1,)), ((7, 12), (0,)),
                                        ((3, 10, 8), (1,)), ((40,), (0,))])
@pytest.mark.parametrize("mean", [False, True])
def test_tracked_sum_has_the_value_and_tf_s_gradient(shape, dims, mean):
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(shape, generator=gen).requires_grad_()
    out = er.eigen_sum(x, dims, mean)
    with torch.no_grad():
        plain = er.eigen_sum(x, dims, mean)
    assert out.grad_fn is not None and torch.equal(out, plain)
    grad = torch.randn(out.shape, generator=gen)
    (got,) = torch.autograd.grad(out, x, grad)
    kept = [1 if i in dims else n for i, n in enumerate(shape)]
    count = int(np.prod([shape[d] for d in dims]))
    want = (grad / count if mean else grad).reshape(kept).expand(shape)
    assert torch.equal(got, want)
