#!/usr/bin/env bash
# One command for a machine with a GPU: the CUDA tests (pytest -m cuda) and the GPU
# benchmarks (scripts/bench_gpu.py: MLP, CNN, LSTM, compiled plans; tf1compat against
# hand-written PyTorch on the same device), printed as one table, in under 8 minutes.
#
#   bash scripts/gpu_check.sh            # PYTHON=... picks the interpreter
#
# Without a CUDA device it says so and exits 0. Exit status: 1 when a CUDA test or a
# benchmark failed, 0 otherwise. Paste the table into docs/performance.md.
set -u
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
if ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null
then
    echo "gpu_check: skipped: no CUDA device visible to torch" \
         "($("$PY" -c 'import torch; print(torch.__version__)' 2>/dev/null || echo 'no torch'))"
    exit 0
fi

status=0
started=$(date +%s)
echo "== CUDA tests (pytest -m cuda), limit 180 s"
tests_out=$(timeout 180 "$PY" -m pytest -m cuda -q -p no:cacheprovider --disable-warnings \
    --tb=short -rfE tests 2>&1)
tests_rc=$?
tests_line=$(printf '%s\n' "$tests_out" | grep -E '(passed|failed|error|skipped|no tests ran)' | tail -1)
if [ $tests_rc -ne 0 ] && [ $tests_rc -ne 5 ]; then
    printf '%s\n' "$tests_out" | tail -60
    status=1
fi

echo "== GPU benchmarks (scripts/bench_gpu.py), limit 270 s"
bench_out=$(PYTHONWARNINGS=ignore timeout 270 "$PY" scripts/bench_gpu.py 2>&1)
bench_rc=$?
[ $bench_rc -ne 0 ] && status=1

echo
echo "== gpu_check summary ($(( $(date +%s) - started )) s)"
echo "CUDA tests: ${tests_line:-no summary} (exit $tests_rc)"
printf '%s\n' "$bench_out" | grep -v -E 'Warning|warn\(' | tail -40
[ $bench_rc -eq 124 ] && echo "benchmarks: stopped at their time limit"
exit $status
