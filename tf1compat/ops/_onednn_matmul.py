"""MatMul's large float32 CPU products: on oneDNN, the library TF's own CPU MatMul runs on,
or on MKL's sgemm where that is faster (Intel processors), at the products' own thread count.

torch multiplies float32 matrices on the CPU with MKL's sgemm. On other vendors' processors
(the project's AMD EPYC machines among them) MKL takes a generic path: a 128x784 by
784x512 product costs about 2.2x what oneDNN, which torch also ships, needs for it on one
thread (measured side by side: 985 us against 444 us; TF 2.21's own MatMul 470 us). There
the MatMul op's float32 CPU kernel, and the gradient of it, run on oneDNN's inner-product
primitive (`torch.ops.mkldnn._linear_pointwise`, which takes strided views without
copying); the rounding is oneDNN's, as in TF. On Intel processors sgemm is the faster one
(one thread, CPU time per product on an AVX-512 Xeon: a 64x784 by 784x256 product 142 us
against oneDNN's 202, an MLP's gradient products 27 against 64, a CNN's 32x3136 by
3136x256 dense layer 381 against 602; only narrow outputs of odd inner sizes favour
oneDNN, a 2708x1433 by 1433x16 product 1167 against 2866 us), so there the products stay
on sgemm: `_LIBRARY` is chosen once, from the processor's vendor, so a program's values
do not depend on timings. Values agree with sgemm's to float32 rounding of the sums.

Small products stay on torch.matmul (a library call's fixed cost would outweigh the gain),
as do other dtypes and devices, and traced code (torch.compile, export), where the custom
autograd function would break the graph. `TF1COMPAT_ONEDNN_MATMUL=0` keeps every product
on torch.matmul at the caller's thread count, `=1` takes oneDNN on any processor.

Under the automatic thread policy these products run on the cores other processes leave
idle (`_thread_policy.load_threads()`: every core on an idle machine; on a busy one, one
more than cores, where libgomp's threads stop spinning)
even where the rest of a plan runs on one thread (`_threads_for_products`);
`TF1COMPAT_PRODUCT_THREADS=N` fixes their count.
"""

from __future__ import annotations

import os
from typing import Any, Optional

import torch

from tf1compat import _thread_policy
from tf1compat.ops._kernels import dynamo_tracing, is_fake_tensor

__all__ = ["enabled", "matmul"]

# Products with fewer multiply-adds than this keep torch.matmul. Measured on one thread
# (best of 15 x 200 calls): oneDNN's inner product costs 1.3x sgemm at 2^19 (128x64 by
# 64x64: 14.7 against 11.1 us), breaks even near 2^20 and wins from 2^21 (27 against 40
# us); below that the autograd function's own Python per call would also outweigh it.
MIN_MACS = 1 << 21


def _inner_product() -> Optional[Any]:
    if not torch.backends.mkldnn.is_available():
        return None
    try:
        op = torch.ops.mkldnn._linear_pointwise
        probe = op(torch.ones(2, 3), torch.ones(4, 3), None, "none", [], "")
    except (AttributeError, RuntimeError):   # a torch build without the primitive
        return None
    return op if probe.shape == (2, 4) and bool((probe == 3).all()) else None


def _cpu_vendor() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _sgemm(a: torch.Tensor, w: torch.Tensor, bias: Any, *_: Any) -> torch.Tensor:
    """sgemm with the inner product's signature (x @ w.T, w as [out, in])."""
    return torch.mm(a, w.t())


def _choose() -> tuple:
    """(library name, product function with the inner product's signature) or
    ("", None): every product on torch.matmul at the caller's thread count."""
    setting = os.environ.get("TF1COMPAT_ONEDNN_MATMUL", "").strip()
    if setting == "0":
        return "", None
    onednn = _inner_product()
    if onednn is not None and (setting == "1" or _cpu_vendor() != "GenuineIntel"):
        return "onednn", onednn
    return "sgemm", _sgemm


_LIBRARY, _LINEAR = _choose()


def enabled() -> bool:
    """Whether large float32 CPU products take this module's path in this process
    (`_LIBRARY`: "onednn" or "sgemm")."""
    return _LINEAR is not None


# `TF1COMPAT_PRODUCT_THREADS=N`: the thread count of these products (unset: "auto").
_PRODUCT_THREADS = _thread_policy.count_setting("TF1COMPAT_PRODUCT_THREADS")


def _threads_for_products() -> int:
    """How many threads a product runs on: `TF1COMPAT_PRODUCT_THREADS` when set; under
    the automatic thread policy the cores other processes leave idle
    (`_thread_policy.load_threads()`, re-read at most once a second), whatever count the
    rest of the plan runs on (the thread tuner's one-thread choice included); else the
    caller's count (a count the user set applies to everything, as TF's intra-op one).

    Why: a training step has a few large products, where more threads pay, and many
    small kernels, where waking or spinning threads costs more than it gains; so the
    tuner often keeps the plan on one thread while its products use the idle cores
    (docs/performance.md, "Thread advice": what a busy machine gets)."""
    if _PRODUCT_THREADS is not None:
        return _PRODUCT_THREADS
    if _thread_policy.is_automatic():
        return _thread_policy.load_threads()
    return torch.get_num_threads()


def _product(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # oneDNN's inner product computes x @ w.T with w as [out, in]: b.T, a strided view.
    wanted = _threads_for_products()
    caller = torch.get_num_threads()       # (the calling thread's count: set per thread)
    if caller == wanted:
        return _LINEAR(a, b.t(), None, "none", [], "")
    torch.set_num_threads(wanted)
    try:
        return _LINEAR(a, b.t(), None, "none", [], "")
    finally:
        torch.set_num_threads(caller)


class _OneDnnMatMul(torch.autograd.Function):
    """a @ b with oneDNN; the gradient's two products on oneDNN as well, through this
    function again, so that gradients of gradients work."""

    @staticmethod
    def forward(ctx: Any, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(a, b)
        return _product(a, b)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        a, b = ctx.saved_tensors
        grad_a = matmul(grad, b.t()) if ctx.needs_input_grad[0] else None
        grad_b = None
        if ctx.needs_input_grad[1]:
            # oneDNN copies a strided left operand into a dense one: a.t() costs a copy
            # of the whole [m, k] input (a GCN's 2708x256 features, 0.25 ms a step).
            # (grad.t() @ a).t() copies the [m, n] gradient instead, and the [k, n]
            # result once more (optimizers' fused kernels want dense gradients): taken
            # when those two copies are the smaller (not for an MLP's 64x784 input).
            (m, k), n = a.shape, grad.shape[1]
            if _LIBRARY == "onednn" and m * n + k * n < m * k:
                grad_b = matmul(grad.t().contiguous(), a).t().contiguous()
            else:
                grad_b = matmul(a.t(), grad)
        return grad_a, grad_b


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The product of two matrices: on `_LIBRARY` at the products' thread count for
    float32 CPU operands large enough to gain, torch.matmul otherwise."""
    if _LINEAR is None or a.dtype != torch.float32 or b.dtype != torch.float32 or \
            a.device.type != "cpu" or b.device.type != "cpu" or a.dim() != 2 or \
            b.dim() != 2 or a.shape[0] * a.shape[1] * b.shape[1] < MIN_MACS or \
            a.shape[1] != b.shape[0] or dynamo_tracing() or is_fake_tensor(a) or \
            is_fake_tensor(b) or not (b.is_contiguous() or b.t().is_contiguous()):
        # A weight that is a column slice of a wider matrix (Keras' recurrent cells slice
        # their gate kernels so) costs oneDNN a new primitive per call, thousands of times
        # the product itself (1.8 s against 0.1 ms for 64x256 by 256x256): sgemm takes any
        # leading dimension.
        return torch.matmul(a, b)
    if (a.requires_grad or b.requires_grad) and torch.is_grad_enabled():
        return _OneDnnMatMul.apply(a, b)
    return _product(a, b)
