"""Which float32 CPU products go to oneDNN (tf1compat/ops/_onednn_matmul.py): only operands
whose layout oneDNN takes without building a primitive per call."""

import pytest
import torch

from tf1compat import _thread_policy
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


@pytest.mark.skipif(not _onednn_matmul.enabled(), reason="torch without oneDNN's inner product")
def test_products_run_on_their_own_thread_count(monkeypatch):
    """TF1COMPAT_PRODUCT_THREADS: the product runs on that many threads, the caller's count
    is restored after it, and the values are the product's."""
    real = _onednn_matmul._LINEAR
    seen = []

    def inner_product(*args):
        seen.append(torch.get_num_threads())
        return real(*args)
    monkeypatch.setattr(_onednn_matmul, "_LINEAR", inner_product)
    monkeypatch.setattr(_onednn_matmul, "_PRODUCT_THREADS", 2)
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        a, b = torch.randn(128, 784), torch.randn(784, 512)
        # (oneDNN's sums round differently from sgemm's: float32 rounding of 784 terms)
        torch.testing.assert_close(_onednn_matmul.matmul(a, b), a @ b, rtol=1e-4, atol=1e-3)
        assert seen == [2] and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("automatic", [True, False], ids=["auto", "set_by_user"])
def test_automatic_policy_runs_products_on_every_idle_core(automatic, monkeypatch):
    """Under the automatic policy a plan tuned to one thread still runs its products on
    the cores other processes leave idle (here: both); a count the user set applies to
    the products too (tests/test_thread_load.py: the products on a busy machine)."""
    from tf1compat import _thread_policy
    monkeypatch.setattr(_onednn_matmul, "_PRODUCT_THREADS", None)
    monkeypatch.setattr(_thread_policy, "load_threads", lambda: 2)
    monkeypatch.setattr(_thread_policy, "is_automatic", lambda: automatic)
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        assert _onednn_matmul._threads_for_products() == (2 if automatic else 1)
    finally:
        torch.set_num_threads(before)


def test_product_threads_setting_is_checked(monkeypatch):
    for bad in ("two", "0"):
        monkeypatch.setenv("TF1COMPAT_PRODUCT_THREADS", bad)
        with pytest.raises(ValueError, match="TF1COMPAT_PRODUCT_THREADS"):
            _thread_policy.count_setting("TF1COMPAT_PRODUCT_THREADS")
    monkeypatch.setenv("TF1COMPAT_PRODUCT_THREADS", "3")
    assert _thread_policy.count_setting("TF1COMPAT_PRODUCT_THREADS") == 3
    monkeypatch.setenv("TF1COMPAT_PRODUCT_THREADS", "auto")
    assert _thread_policy.count_setting("TF1COMPAT_PRODUCT_THREADS") is None
