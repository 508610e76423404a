"""Which float32 CPU products go to oneDNN (tf1compat/ops/_onednn_matmul.py): only operands
whose layout oneDNN takes without building a primitive per call."""

import pytest
import torch

from tf1compat.ops import _onednn_matmul


@pytest.fixture
def recorded(monkeypatch):
    """Replaces oneDNN's inner product with torch's, recording the weights it is given."""
    calls = []

    def inner_product(a, w, bias, *args):
        calls.append(w)
        return a @ w.t()
    monkeypatch.setattr(_onednn_matmul, "_LINEAR", inner_product)
    return calls


def test_contiguous_and_transposed_weights_use_onednn(recorded):
    a = torch.randn(64, 256)
    for b in (torch.randn(256, 256), torch.randn(256, 256).t(), torch.randn(512, 256)[:256]):
        torch.testing.assert_close(_onednn_matmul.matmul(a, b), a @ b)
    assert len(recorded) == 3


def test_column_slices_of_a_wider_weight_stay_on_sgemm(recorded):
    """Keras' GRU/LSTM cells multiply by column slices of their gate kernels; oneDNN
    rebuilt its primitive for each such call (seconds per step)."""
    a = torch.randn(64, 256)
    kernel = torch.randn(256, 768)
    for gate in range(3):
        b = kernel[:, gate * 256:(gate + 1) * 256]
        torch.testing.assert_close(_onednn_matmul.matmul(a, b), a @ b)
    assert recorded == []
