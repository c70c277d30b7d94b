#!/usr/bin/env bash
# memorization-repro: set-up on first use, batch reproduction, tests.
#
#   ./run_all.sh [--profile smoke|quick|paper] [--device auto|cpu|cuda] [--only NAME] [--data-root DIR]
#   ./run_all.sh test [pytest args]      the test suite (includes every notebook under the smoke profile)
#   ./run_all.sh check [--profile P]     rebuild results/<profile>/report.md from the metrics files
#
# Set-up creates .venv/ here and installs the package. torch: an existing torch is never replaced;
# where python3 already has one, the venv sees it (--system-site-packages). Otherwise a GPU machine
# gets pip's default torch, and a machine without one gets torch==$MEMLIB_TORCH_VERSION, which is a
# CPU wheel where pip is configured with one (set MEMLIB_TORCH_INDEX to a CPU index URL elsewhere).
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
PY=$VENV/bin/python
TORCH_VERSION=${MEMLIB_TORCH_VERSION:-2.13.0}

say() { printf '%s\n' "$*" >&2; }

setup() {
  if [ -x "$PY" ] && "$PY" -c "import memlib, papermill, torch, ipykernel" >/dev/null 2>&1 \
     && [ "$VENV/.installed" -nt pyproject.toml ]; then
    return 0
  fi
  command -v python3 >/dev/null || { say "error: python3 not found; install Python 3.10+ with pip and venv"; exit 2; }
  if [ ! -x "$PY" ]; then
    if python3 -c "import torch" >/dev/null 2>&1; then
      say "set-up: python3 already has torch $(python3 -c 'import torch; print(torch.__version__)'); the venv will use it"
      python3 -m venv --system-site-packages "$VENV"
    else
      python3 -m venv "$VENV"
    fi
  fi
  if ! "$PY" -c "import torch" >/dev/null 2>&1; then
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
      say "set-up: GPU found; installing torch"
      "$PY" -m pip install -q torch
    else
      say "set-up: no GPU; installing the CPU build torch==$TORCH_VERSION"
      "$PY" -m pip install -q "torch==$TORCH_VERSION" ${MEMLIB_TORCH_INDEX:+--extra-index-url "$MEMLIB_TORCH_INDEX"}
    fi
  fi
  say "set-up: installing memlib and its dependencies into $VENV"
  "$PY" -m pip install -q -e . 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
  "$PY" -m ipykernel install --sys-prefix --name memlib --display-name "Python (memlib)" >/dev/null
  touch "$VENV/.installed"
}

cmd=run
case "${1:-}" in
  test|check|bench) cmd=$1; shift ;;
  -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
esac

setup
export PYTHONUNBUFFERED=1
case "$cmd" in
  test)
    set +e
    "$PY" -m pytest "$@"
    rc=$?
    set -e
    [ $rc -eq 5 ] && { say "error: pytest collected no tests"; exit 1; }
    exit $rc ;;
  check) exec "$PY" -m memlib check "$@" ;;
  bench) exec "$PY" -m memlib bench "$@" ;;
  run)   exec "$PY" -m memlib run "$@" ;;
esac
