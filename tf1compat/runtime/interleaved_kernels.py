"""Inductor's one-loop C++ kernels rebuilt to run four vectors interleaved (direct_graphs.py).

Inductor's C++ code for a pointwise graph is one loop over the flat buffer, one SIMD vector
(16 floats with AVX-512, 8 with AVX2) per iteration, the whole chain of ops computed for
that vector before the next. A long chain of dependent ops is then latency-bound: chain500
(500 ops on a [64] feed, 166 `tanh` that are each a call of Sleef's vector `tanh`) ran
its four vectors' chains one after the other, ~40 us of CPU per run, the core idle while
each call waited on the one before. `interleaved_source` rewrites such a kernel so each
iteration takes four vectors as one `at::vec::VectorizedN<float, 4>`, whose every op is
the same `Vectorized<float>` op applied to the four in turn: the four chains' ops come
one after another and the core overlaps them (chain500's kernel 40 -> 21 us of CPU). Each
element goes through the same instructions as before, so the results are bit-identical;
`direct_graphs.direct_call` still checks them against the op-by-op results.

Only kernels whose every vector access is a whole vector at the loop index are rewritten:
one loop from 0 with no OpenMP pragma (one thread) and a trip count a multiple of four,
float loads and stores of whole vectors at `x0`, float scalars broadcast; anything else
(masked tails, other dtypes, reductions, indexed loads) keeps inductor's code.
"""

from __future__ import annotations

import ast
import re
import types
from collections.abc import Callable
from typing import Any

__all__ = ["interleaved_call", "interleaved_source"]

LANES = 4            # vectors per iteration: chain500 gained 1.9x; more only adds spills
_VEC = "at::vec::Vectorized<float>"
_WIDE = f"at::vec::VectorizedN<float,{LANES}>"
_LOOP = re.compile(r"for\(int64_t x0=static_cast<int64_t>\(0L\); "
                   r"x0<static_cast<int64_t>\((\d+)L\); x0\+=static_cast<int64_t>\((\d+)L\)\)")
_LOAD = re.compile(re.escape(_VEC) + r"::loadu\((\w+) \+ static_cast<int64_t>\(x0\), "
                   r"static_cast<int64_t>\((\d+)\)\)")
_SPLAT = re.compile(re.escape(_VEC) + r"\((tmp\d+)\)")
_STORE = re.compile(r"\.store\(")
_WHOLE_STORE = re.compile(r"\btmp\d+\.store\(\w+ \+ static_cast<int64_t>\(x0\)\);")
_KERNEL = re.compile(r"^(\w+) = async_compile\.cpp_pybinding\((\[[^\]]*\]), r'''(.*?)'''\)$",
                     re.DOTALL | re.MULTILINE)


def interleaved_source(source: str) -> str | None:
    """Inductor's C++ kernel `source` with each loop iteration taking `LANES` vectors at
    once, or None where the kernel is not the one-loop whole-vector form this rewrite
    keeps bit-identical (the module docstring)."""
    loops = _LOOP.findall(source)
    if len(loops) != 1 or source.count("for(") != 1 or "#pragma" in source:
        return None
    size, step = (int(v) for v in loops[0])
    loads = _LOAD.findall(source)
    if not loads or size % (step * LANES) or any(int(n) != step for _, n in loads):
        return None
    if len(_STORE.findall(source)) != len(_WHOLE_STORE.findall(source)):
        return None
    wide = _LOOP.sub(lambda m: m.group(0).replace(f"({step}L))", f"({step * LANES}L))"),
                     source)
    wide = _LOAD.sub(lambda m: f"{_WIDE}::loadu({m.group(1)} + static_cast<int64_t>(x0), "
                               f"static_cast<int64_t>({step * LANES}))", wide)
    wide = _SPLAT.sub(lambda m: f"{_WIDE}({m.group(1)})", wide)
    # Every vector the loop touches must now be a wide one: any other use of at::vec (a
    # masked or indexed load, a mask, a conversion, another dtype) keeps inductor's code.
    if "decltype" in wide or wide.count("Vectorized") != wide.count(_WIDE) or \
            any(name != "at::vec::VectorizedN" for name in re.findall(r"at::vec::\w+", wide)):
        return None
    return wide


def interleaved_call(call: Any, load: Callable[[list, str], Any] | None = None
                     ) -> Callable[[list], Any] | None:
    """Inductor's `call` (a bound `Runner.call` of its generated module) with every kernel
    `interleaved_source` rewrites replaced by the rewritten one, compiled by `load`
    (default: inductor's own C++ compile, the same flags); None where no kernel was
    rewritten or anything failed. Inductor's module is left as it is: the new `call`
    reads a copy of its globals."""
    try:
        function = call.__func__
        with open(function.__code__.co_filename, encoding="utf-8") as f:
            module_source = f.read()
        if load is None:
            from torch._inductor.codecache import CppPythonBindingsCodeCache
            load = CppPythonBindingsCodeCache.load_pybinding
        replaced: dict[str, Any] = {}
        for name, argtypes, source in _KERNEL.findall(module_source):
            wide = interleaved_source(source)
            if wide is not None and name in function.__globals__:
                replaced[name] = load(ast.literal_eval(argtypes), wide)
        if not replaced:
            return None
        scope = dict(function.__globals__, **replaced)
        copy = types.FunctionType(function.__code__, scope, function.__name__,
                                  function.__defaults__, function.__closure__)
        return types.MethodType(copy, call.__self__)
    except Exception:  # noqa: BLE001 - a kernel g++ refuses, a module not on disk: inductor's
        return None
