#!/usr/bin/env bash
# The GPU evidence in one command (issue 13). On a machine with a CUDA GPU:
#
#   benchmarks/gpu_check.sh [OUT]          (offline GPU node: MEMLIB_WHEELHOUSE=DIR benchmarks/gpu_check.sh)
#
# writes everything to OUT (default results/gpu-check-<date>):
#   1. OUT/test-cuda.log    the suite's GPU mode (./run_all.sh test --device cuda): TF32 off, graphed training
#                           equals eager and replays, memlib's functions on GPU nets, the smoke notebooks on CUDA
#   2. OUT/bench.json/.log  ./run_all.sh bench --device cuda (memlib against the naive loop, graph against eager)
#   3. OUT/results/         the quick profile on CUDA from a cold cache, timed, its report compared claim by claim
#                           with the committed CPU baseline (--against baselines/quick-cpu.json): flips and drifts
#   4. OUT/results/full  the full profile on CUDA (issue 15: the papers' data and architectures, <= 60 min), its
#                           estimate printed first, its claims against the ledger's full column (skip: MEMLIB_NO_FULL=1);
#                           OUT/measured-full.txt: its outcomes as MEASURED_FULL entries for memlib/claims/paperN.py
#                           (issue 27: notebook 03's full column, measured only in part on the CPU)
#   5. OUT/plan-paper.log  the paper profile's plan (issue 17) with step rates measured on CUDA: every training
#                           of the four notebooks and its GPU-hours (skip: MEMLIB_NO_PLAN=1)
#   6. OUT/summary.md       date, GPU, wall times, bench ratios beside the targets, the comparison; also
#                           appended to benchmarks/RESULTS.md (commit it)
# MEMLIB_GPU_STEPS="test bench" runs only the steps named (test bench quick full plan; default all of them), for a
# GPU lent for minutes: OUT/steps.txt names them and the summary says which were not run.
# Exit status: 0 when every step run passed and met its target.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-results/gpu-check-$(date +%Y%m%d-%H%M)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
say() { printf '%s\n' "$*" | tee -a "$OUT/steps.log" >&2; }

./run_all.sh check --profile smoke --results-dir "$OUT/setup-probe" > "$OUT/setup.log" 2>&1 || true   # set-up, once
PY=${MEMLIB_VENV:-.venv}/bin/python
if ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  say "error: $PY has no torch that sees a CUDA GPU; benchmarks/gpu_check.sh measures a GPU (run it on a GPU" \
      "node; the set-up's output is in $OUT/setup.log)"
  exit 2
fi
rm -rf "$OUT/setup-probe"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: n/a"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_device_name())"
} > "$OUT/device.txt"
say "gpu-check: $(tail -1 "$OUT/device.txt"); output in $OUT"

STEPS=" ${MEMLIB_GPU_STEPS:-test bench quick full plan} "
[ -n "${MEMLIB_NO_FULL:-}" ] && STEPS=${STEPS/ full / }
[ -n "${MEMLIB_NO_PLAN:-}" ] && STEPS=${STEPS/ plan / }
echo $STEPS > "$OUT/steps.txt"
want() { [[ "$STEPS" == *" $1 "* ]]; }

status=0
if want test; then
say "[1/5] the suite's GPU mode"
./run_all.sh test --device cuda -q -p no:cacheprovider > "$OUT/test-cuda.log" 2>&1; rc=$?
say "      exit $rc: $(tail -1 "$OUT/test-cuda.log")"; [ $rc -eq 0 ] || status=1
fi

if want bench; then
say "[2/5] bench on CUDA"
./run_all.sh bench --device cuda --results-dir "$OUT" > "$OUT/bench.log" 2>&1; rc=$?
say "      exit $rc"; [ $rc -eq 0 ] || status=1
fi

if want quick; then
say "[3/5] quick profile on CUDA, cold cache, against the CPU baseline"
start=$(date +%s)
./run_all.sh --profile quick --device cuda --results-dir "$OUT/results" --against baselines/quick-cpu.json \
  > "$OUT/quick-cuda.log" 2>&1; rc=$?
echo $(( $(date +%s) - start )) > "$OUT/quick_wall_s"
say "      exit $rc after $(cat "$OUT/quick_wall_s") s: $(grep '^report:' "$OUT/quick-cuda.log" | tail -1)"
[ $rc -eq 0 ] || status=1
fi

if want full; then
  say "[4/5] full profile on CUDA (the papers' data: MNIST fetched into data/ by set-up)"
  start=$(date +%s)
  ./run_all.sh --profile full --device cuda --results-dir "$OUT/results" > "$OUT/full-cuda.log" 2>&1; rc=$?
  echo $(( $(date +%s) - start )) > "$OUT/full_wall_s"
  say "      exit $rc after $(cat "$OUT/full_wall_s") s: $(grep '^report:' "$OUT/full-cuda.log" | tail -1)"
fi

if want plan; then
  say "[5/5] the paper profile's plan, step rates measured on CUDA (issue 17: GPU-hours per notebook)"
  ./run_all.sh plan --profile paper --device cuda --results-dir "$OUT/plan" > "$OUT/plan-paper.log" 2>&1; rc=$?
  say "      exit $rc: $(grep -E '^ +total' "$OUT/plan-paper.log" | tail -1)"
fi

"$PY" benchmarks/gpu_summary.py "$OUT" > "$OUT/summary.md"; rc=$?
[ $rc -eq 0 ] || status=1
cat "$OUT/summary.md"
{ echo; cat "$OUT/summary.md"; } >> benchmarks/RESULTS.md
say "gpu-check: summary in $OUT/summary.md (appended to benchmarks/RESULTS.md); exit $status"
exit $status
