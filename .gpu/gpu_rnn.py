"""GPU checks for branch rnnfast (not part of the repo): layout, tolerance, sync counts, bench."""
import os, sys, time, warnings, json
ROOT = os.path.abspath(sys.argv[1]); PART = sys.argv[2]
sys.path[:0] = [ROOT, os.path.join(ROOT, "scripts")]
import numpy as np
import torch
import tf1compat as tf
assert tf.__file__.startswith(ROOT), tf.__file__
dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("==", PART, ROOT, torch.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu", flush=True)

if PART == "layout":
    from tf1compat.rnn.fused_weights import _layout, cell_weights
    for kind in ("lstm", "rnn_tanh", "rnn_relu"):
        for depth, units in ((128, 128), (3, 5), (32, 128), (7, 33)):
            for dtype in (torch.float32, torch.float64):
                lay = _layout(kind, depth, units, dtype, dev)
                g = 4 if kind == "lstm" else 1
                k = torch.randn(depth + units, g * units, device=dev, dtype=dtype, requires_grad=True)
                b = torch.randn(g * units, device=dev, dtype=dtype, requires_grad=True)
                x = torch.randn(9, 4, depth, device=dev, dtype=dtype)
                h = torch.zeros(1, 4, units, device=dev, dtype=dtype)
                hx = (h, h) if kind == "lstm" else h
                fn = getattr(torch._VF, kind)
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    out = fn(x, hx, list(cell_weights(kind, units, 1.0, k, b, depth)), True, 1, 0.0, True, False, False)[0]
                    gk, gb = torch.autograd.grad(out.square().sum(), [k, b])
                    ref = [t.contiguous() for t in cell_weights(kind, units, 1.0, k, b, depth)]
                    ref = [r.clone() for r in ref]
                    out2 = fn(x, hx, ref, True, 1, 0.0, True, False, False)[0]
                msgs = sorted({str(m.message)[:60] for m in w})
                print(kind, depth, units, dtype, "offsets", lay.offsets, "total", lay.total, "gaps", lay.gaps,
                      "warnings", msgs, "maxdiff", float((out - out2).abs().max()), flush=True)

if PART == "tolerance":
    from _pytest.monkeypatch import MonkeyPatch
    sys.path.insert(0, ROOT)
    from tests import test_fused_rnn as F
    cases = [(k, l) for k in ("basic_lstm", "basic_lstm_concat", "lstm", "rnn_tanh", "rnn_relu", "multi") for l in (None, [6, 2, 0, 9])]
    for tf32 in (False, True):
        torch.backends.cudnn.allow_tf32 = tf32
        torch.backends.cuda.matmul.allow_tf32 = tf32
        worst_abs = worst_rel = 0.0
        fails = []
        for kind, lengths in cases + [("train", None)]:
            mp = MonkeyPatch()
            try:
                if kind == "train":
                    continue
                (loop, fast), calls = F._run_both(*F._graph(kind, lengths), mp)
            finally:
                mp.undo()
            for a, b in zip(tf.nest.flatten(loop), tf.nest.flatten(fast)):
                a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
                d = np.abs(a - b)
                worst_abs = max(worst_abs, float(d.max()))
                # smallest rtol that passes with atol=5e-5 / with atol=2e-6
                r = float(((d - 2e-6) / np.maximum(np.abs(b), 1e-30)).max())
                worst_rel = max(worst_rel, r)
                if not np.allclose(b, a, rtol=2e-4, atol=5e-5):
                    fails.append(kind)
        print("tf32", tf32, "max abs diff", worst_abs, "rtol needed at atol 2e-6", worst_rel, "fail at 2e-4/5e-5:", fails, flush=True)

if PART == "bench":
    from bench_gpu import _rnn_rows
    t = time.time()
    rows = _rnn_rows("cuda", quick=os.environ.get("QUICK") == "1")
    for label, ours, theirs, note in rows:
        print(f"{label:42s} {ours:10.1f} {theirs:10.1f} {ours / theirs:6.2f}  {note}", flush=True)
    print("seconds", time.time() - t)

if PART == "profile":
    from bench_rnn import _tf1compat_model
    m = _tf1compat_model(32, 100, 128, 128, None)
    sess = m["sess"]; xv = np.random.RandomState(1).randn(32, 100, 128).astype(np.float32)
    feed = {m["x"]: xv}
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for _ in range(5): sess.run(m["train_op"], feed)
    print("warnings", sorted({str(x.message)[:70] for x in w}))
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(50): sess.run(m["train_op"], feed)
    torch.cuda.synchronize(); print("lstm step ms", (time.perf_counter() - t) / 50 * 1e3)
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        for _ in range(10): sess.run(m["train_op"], feed)
    counts = {}
    for e in p.events():
        counts[e.name] = counts.get(e.name, 0) + 1
    for k in sorted(counts):
        if any(s in k for s in ("Synchronize", "Memcpy", "aten::item", "_local_scalar", "aten::select", "unbind", "aten::stack", "cudaMemcpy")):
            print("  per step", k, counts[k] / 10)
    print("  aten ops per step", sum(v for k, v in counts.items() if k.startswith("aten::")) / 10)
    print(p.key_averages().table(sort_by="self_cpu_time_total", row_limit=18))
