#!/usr/bin/env bash
# One command for a machine with a GPU: the CUDA tests (pytest -m cuda), the GPU benchmarks
# (scripts/bench_gpu.py: MLP, CNN, LSTM, compiled plans; tf1compat against hand-written
# PyTorch on the same device) and, on request, the whole test suite with every graph op
# placed on cuda:0 (the default device whenever torch sees a GPU), printed as one table.
#
#   bash scripts/gpu_check.sh [--quick] [--full-suite SECONDS] [--log-dir DIR]
#
# --quick: shorter benchmark rounds. --full-suite: after the benchmarks, the whole suite
# under pytest-xdist for at most SECONDS (SIGINT then, so pytest still reports what
# failed); its per-test log goes to DIR/gpu_full_suite.log, the benchmark table to
# DIR/gpu_bench.txt. PYTHON=... picks the
# interpreter. Without a CUDA device it says so and exits 0. Exit status: 1 when a CUDA
# test or a benchmark failed, 0 otherwise (full-suite failures are reported, not fatal:
# some goldens record CPU device names). Paste the table into docs/performance.md.
set -u
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
quick=""
full_suite=0
log_dir="."
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick="--quick" ;;
        --full-suite) full_suite="$2"; shift ;;
        --log-dir) log_dir="$2"; shift ;;
        *) echo "gpu_check: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
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
    printf '%s\n' "$tests_out" | tail -80
    status=1
fi

echo "== GPU benchmarks (scripts/bench_gpu.py $quick), limit 270 s"
# The table also goes to DIR/gpu_bench.txt as it is printed: it survives a caller's time
# limit that cuts the full suite short.
bench_out=$(set -o pipefail; PYTHONWARNINGS=ignore timeout 270 "$PY" scripts/bench_gpu.py $quick \
    2>&1 | tee "$log_dir/gpu_bench.txt")
bench_rc=$?
[ $bench_rc -ne 0 ] && status=1

suite_line=""
if [ "$full_suite" -gt 0 ]; then
    workers=$(( $(nproc) > 2 ? $(nproc) - 2 : 1 ))
    per_test=""
    "$PY" -c "import pytest_timeout" 2>/dev/null && per_test="--timeout 120"
    echo "== whole suite on cuda:0 (pytest -n $workers), limit $full_suite s"
    # Two OpenMP threads per worker: the workers share the machine's cores.
    # Failures' tracebacks go to DIR/gpu_failures.log as they happen (tests/conftest.py):
    # a suite stopped at the limit prints no summary.
    OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}" TF1COMPAT_TEST_FAILURE_LOG="$log_dir/gpu_failures.log" \
        timeout -s INT -k 20 "$full_suite" "$PY" -m pytest -n "$workers" -v $per_test \
        -p no:cacheprovider --disable-warnings --tb=short -rfE tests \
        > "$log_dir/gpu_full_suite.log" 2>&1
    suite_rc=$?
    # Known GPU differences (tests/gpu_known_differences.py) are xfail on CUDA: what is
    # counted as failed here is new.
    suite_line="$(grep -cE '\] (FAILED|ERROR) ' "$log_dir/gpu_full_suite.log") failed/errors,"
    suite_line="$suite_line $(grep -cE '\] XFAIL ' "$log_dir/gpu_full_suite.log") known differences;"
    suite_line="$suite_line $(grep -E '(passed|failed)' "$log_dir/gpu_full_suite.log" | tail -1)"
    suite_line="$suite_line (exit $suite_rc; log $log_dir/gpu_full_suite.log)"
fi

echo
echo "== gpu_check summary ($(( $(date +%s) - started )) s)"
echo "CUDA tests: ${tests_line:-no summary} (exit $tests_rc)"
[ -n "$suite_line" ] && echo "whole suite on cuda:0: $suite_line"
printf '%s\n' "$bench_out" | grep -v -E 'Warning|warn\(' | tail -40
[ $bench_rc -eq 124 ] && echo "benchmarks: stopped at their time limit"
exit $status
