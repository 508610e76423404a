"""Inductor's one-loop kernels run four vectors interleaved (runtime/interleaved_kernels.py):
which kernels are rewritten, that a rewritten one gives inductor's results bit for bit, and
that a direct call keeps inductor's kernel where the rewrite fails or disagrees."""

import numpy as np
import pytest
import torch

from tf1compat.runtime import direct_graphs
from tf1compat.runtime.interleaved_kernels import interleaved_call, interleaved_source

# The form inductor (torch 2.13, AVX-512) writes for chain500's kernel, shortened.
_KERNEL = """
extern "C"  void  kernel(float* in_out_ptr0,
                       const float* in_ptr0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(128L); x0+=static_cast<int64_t>(16L))
        {
            {
                if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(128L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp1 = static_cast<float>(1.000100016593933);
                    auto tmp2 = at::vec::Vectorized<float>(tmp1);
                    auto tmp3 = tmp0 * tmp2;
                    auto tmp4 = tmp3.tanh();
                    tmp4.store(in_out_ptr0 + static_cast<int64_t>(x0));
                }
            }
        }
    }
}
"""


def test_a_one_loop_kernel_takes_four_vectors_an_iteration():
    wide = interleaved_source(_KERNEL)
    assert "x0+=static_cast<int64_t>(64L)" in wide
    assert ("at::vec::VectorizedN<float,4>::loadu(in_ptr0 + static_cast<int64_t>(x0), "
            "static_cast<int64_t>(64))") in wide
    assert "auto tmp2 = at::vec::VectorizedN<float,4>(tmp1);" in wide
    assert "at::vec::Vectorized<float>" not in wide
    # The ops and the store are the same text: VectorizedN applies each to its four.
    assert "auto tmp4 = tmp3.tanh();" in wide and \
        "tmp4.store(in_out_ptr0 + static_cast<int64_t>(x0));" in wide


@pytest.mark.parametrize("change", [
    ("128L); x0+=", "120L); x0+="),                        # 120 is not 4 vectors a time
    ("    {\n        for(", "    {\n        #pragma omp for\n        for("),  # threads
    ("auto tmp3 = tmp0 * tmp2;",                           # a second loop (a tail)
     "auto tmp3 = tmp0 * tmp2; for(int64_t x1=0; x1<1; x1++) {}"),
    ("static_cast<int64_t>(x0), static_cast<int64_t>(16))",   # a masked load
     "static_cast<int64_t>(x0), static_cast<int64_t>(8))"),
    ("in_ptr0 + static_cast<int64_t>(x0), static_cast",      # an indexed load
     "in_ptr0 + static_cast<int64_t>(x0 % 16L), static_cast"),
    ("tmp4.store(in_out_ptr0 + static_cast<int64_t>(x0));",  # a partial store
     "tmp4.store(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8));"),
    ("auto tmp4 = tmp3.tanh();",                             # another dtype
     "auto tmp4 = at::vec::convert<int32_t>(tmp3).tanh();"),
    ("auto tmp4 = tmp3.tanh();",                             # a mask
     "auto tmp4 = decltype(tmp3)::blendv(tmp3, tmp2, tmp3 > tmp2);"),
])
def test_kernels_of_other_forms_keep_inductor_s_code(change):
    old, new = change
    assert old in _KERNEL
    assert interleaved_source(_KERNEL.replace(old, new)) is None


def _chain(feeds, state):
    h = feeds[0]
    for i in range(40):
        h = torch.tanh(h) if i % 2 else h * 1.0001 + 0.0001
    return (h,)


def _recorded_chain(n=64):
    compiled = direct_graphs.compile_recording(_chain, "inductor")
    feeds = [torch.linspace(-3, 3, n)]
    got = compiled(feeds, {})
    call = compiled.graphs[0][2]
    assert call is not None
    return compiled, feeds, got, call


def _needs_simd():
    from torch._inductor.cpu_vec_isa import pick_vec_isa
    if not pick_vec_isa():
        pytest.skip("inductor writes scalar C++ on this CPU: nothing to interleave")


def test_an_interleaved_chain_gives_inductor_s_results_bit_for_bit():
    _needs_simd()
    _, _, _, call = _recorded_chain()
    wide = interleaved_call(call)
    assert wide is not None
    rng = np.random.RandomState(0)
    values = np.concatenate([
        rng.standard_normal(40).astype(np.float32) * 10,
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3e38, -3e38, 1e-7,
                  20.0, -20.0, 9.0, -9.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 1e-3, 4.0,
                  -4.0, 0.25], np.float32)])
    x = torch.from_numpy(values)
    assert x.numel() == 64
    ours, theirs = wide([x.clone()])[0], call([x.clone()])[0]
    assert torch.equal(ours.view(torch.int32), theirs.view(torch.int32))


def test_a_size_that_is_not_four_vectors_keeps_inductor_s_call():
    _, _, _, call = _recorded_chain(n=24)
    assert interleaved_call(call) is None


def test_a_kernel_that_does_not_build_keeps_inductor_s_call():
    _needs_simd()
    _, _, _, call = _recorded_chain()

    def refusing(argtypes, source):
        raise RuntimeError("g++ failed")
    assert interleaved_call(call, load=refusing) is None


def test_a_direct_call_keeps_inductor_s_kernel_where_the_interleaved_one_disagrees(
        monkeypatch):
    compiled, feeds, got, call = _recorded_chain()
    calls = []

    def wrong(values):
        calls.append(1)
        return [v * 2 for v in call(values)]
    monkeypatch.setattr(direct_graphs, "interleaved_call", lambda kernel: wrong)
    direct = direct_graphs.direct_call(compiled, feeds, got)
    assert calls == [1]                    # tried, refused by the check
    x = torch.linspace(-2, 2, 64)
    assert torch.equal(direct([x])[0], call([x])[0])
    assert calls == [1]                    # and not used after


def test_the_rewrite_leaves_inductor_s_module_alone():
    _needs_simd()
    _, _, _, call = _recorded_chain()
    name = next(k for k in call.__func__.__globals__ if k.startswith("cpp_fused"))
    before = call.__func__.__globals__[name]
    wide = interleaved_call(call)
    assert wide.__func__.__globals__[name] is not before
    assert call.__func__.__globals__[name] is before
