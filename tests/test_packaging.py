import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONDA_NAMES = {"pytorch": "torch"}         # conda package name -> pip name
CONDA_ONLY = {"python", "pip"}
CONDA_EXTRAS = ("test", "serve")           # the extras environment.yml installs with conda too


def _name(req: str) -> str:
    return re.split(r"[<>=!~\s\[;]", req.strip(), maxsplit=1)[0].lower()


def test_environment_yml_and_pyproject_name_the_same_dependencies():
    """environment.yml (conda-forge only) names pyproject's dependencies and the extras [test] and [serve] by
    their conda names, and installs memlib itself from the checkout (pip: -e .)."""
    import yaml   # PyYAML: papermill's dependency
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pyproject = {_name(r) for r in project["dependencies"]}
    extras = {_name(r) for e in CONDA_EXTRAS for r in project["optional-dependencies"][e]}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge", "nodefaults"]
    conda = {CONDA_NAMES.get(_name(d), _name(d)) for d in env["dependencies"] if isinstance(d, str)}
    pip = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert conda - CONDA_ONLY == pyproject | extras
    assert pip == [["-e ."]]
    assert "torchvision" not in pyproject  # memlib must work without it
    assert set(project["optional-dependencies"]) == {"test", "serve", "browser", "ray"}
    assert not {"pytest", "voila", "jupyterlab", "playwright", "ray"} & pyproject   # extras, not dependencies


def test_constraints_record_the_baselines_torch_and_numpy():
    """constraints.txt (pip freeze of the quick baseline's environment) pins torch and numpy to the versions the
    baseline's provenance recorded, and never memlib itself."""
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)$", (ROOT / "constraints.txt").read_text(), re.M))
    assert "memlib" not in {k.lower() for k in pins}
    assert not any("+" in v for v in pins.values())                        # no local tags (+cpu)
    base = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    recorded = [nb.get("provenance", {}).get("versions", {}) for nb in base.get("notebooks", {}).values()]
    assert recorded, "baselines/quick-cpu.json records no notebook's versions"
    assert {v.get("torch", "").split("+")[0] for v in recorded} == {pins["torch"]}, "rebuilt: refresh constraints.txt"
    assert {v.get("numpy") for v in recorded} == {pins["numpy"]}, "rebuilt: refresh constraints.txt"


def test_memlib_imports_without_torchvision():
    code = ("import sys; sys.modules['torchvision'] = None; import memlib, memlib.data, memlib.harness.store, "
            "memlib.plot, memlib.claims; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def _run_all(tmp_path, env_extra, *args):
    env = {**os.environ, "MEMLIB_VENV": str(tmp_path / "venv"), "MEMLIB_NO_FETCH": "1", **env_extra}   # no data/ fetch
    return subprocess.run([str(ROOT / "run_all.sh"), *args], capture_output=True, text=True, env=env, timeout=600)


def test_offline_install_refuses_a_missing_wheelhouse_in_one_line(tmp_path):
    out = _run_all(tmp_path, {"MEMLIB_WHEELHOUSE": str(tmp_path / "nowhere")}, "check")
    assert out.returncode == 2 and "MEMLIB_WHEELHOUSE" in out.stderr and "not a directory" in out.stderr
    assert not (tmp_path / "venv").exists()                          # refused before any work


def test_offline_install_never_asks_an_index(tmp_path):
    """An empty wheelhouse: set-up stops with a clear line instead of downloading (pip --no-index)."""
    empty = tmp_path / "wheels"
    empty.mkdir()
    out = _run_all(tmp_path, {"MEMLIB_WHEELHOUSE": str(empty), "PIP_INDEX_URL": "http://127.0.0.1:9/none"}, "check")
    assert out.returncode == 2, out.stderr
    assert "offline, from the wheels in" in out.stderr
    assert "error:" in out.stderr and str(empty) in out.stderr
    assert "127.0.0.1:9" not in out.stderr                             # the index was never asked


def test_offline_install_from_a_real_wheelhouse(tmp_path):
    """MEMLIB_TEST_WHEELHOUSE=DIR (filled by `./run_all.sh wheelhouse DIR`): a fresh venv that has a torch (this
    suite's version, installed first as the GPU node's would be) gets memlib and every other dependency from DIR
    alone. Skipped unless DIR is given (it is ~160 MB)."""
    wheels = os.environ.get("MEMLIB_TEST_WHEELHOUSE")
    if not wheels:
        pytest.skip("set MEMLIB_TEST_WHEELHOUSE to a folder filled by ./run_all.sh wheelhouse")
    import torch
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"torch=={torch.__version__.split('+')[0]}"],
                   check=True)
    out = _run_all(tmp_path, {"MEMLIB_WHEELHOUSE": wheels, "PIP_INDEX_URL": "http://127.0.0.1:9/none"},
                   "test", "-q", "-k", "environment_yml")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "offline, from the wheels in" in out.stderr


BUILD_INPUTS = ("pyproject.toml", "README.md", "memlib", "notebooks", "baselines")   # what the wheel is built from


def _setuptools_here() -> bool:
    """The running environment can build the wheel itself (setuptools>=61: pip --no-build-isolation, offline)."""
    import importlib.metadata
    try:
        return int(importlib.metadata.version("setuptools").split(".")[0]) >= 61
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """memlib's wheel and the folder it is installed in, from the wheel alone (pip --target, no index, no
    dependencies: the running environment's). Built by pip from a copy of the checkout's build inputs, never
    in the checkout itself: pip builds in place, and a build/lib/ left there from an earlier build would ship
    the modules since removed. With setuptools here the build needs no network (--no-build-isolation); without
    it, pip fetches setuptools into an isolated build, and the tests skip when no index answers."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    isolation = ["--no-build-isolation"] if _setuptools_here() else []
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *isolation, "-w", str(tmp / "w"),
                          str(src)], capture_output=True, text=True, timeout=600, cwd=tmp)
    if out.returncode != 0 and "Could not find a version that satisfies" in out.stderr:
        pytest.skip("no package index for the build's setuptools: " + out.stderr.strip().splitlines()[-1])
    assert out.returncode == 0, out.stderr[-2000:]
    (whl,) = (tmp / "w").glob("memlib-*.whl")
    site = tmp / "site"
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(site),
                          str(whl)], capture_output=True, text=True, timeout=600, cwd=tmp)
    assert out.returncode == 0, out.stderr[-2000:]
    return whl, site


def _away_env(site: Path, home: Path) -> dict:
    """A user's environment with memlib from the installed wheel only: PYTHONPATH is the install folder (the
    checkout is on no path), HOME a fresh folder (no user kernelspecs or configs); the thread settings kept."""
    keep = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    return {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(home), **keep}


def test_pyproject_lists_every_subpackage():
    """pyproject.toml names its packages (packages.find cannot map notebooks/ into the wheel): every folder of
    memlib/ with an __init__.py is one of them, so a new subpackage cannot be left out of the wheel."""
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "memlib").rglob("__init__.py")
               if "__pycache__" not in p.parts}
    missing = sorted(on_disk - set(tool["packages"]))
    assert not missing, f"add {missing} to [tool.setuptools] packages in pyproject.toml"
    assert tool["package-dir"] == {"memlib.notebooks": "notebooks", "memlib.baselines": "baselines"}


def test_the_built_wheel_holds_every_subpackage_and_imports(wheel, tmp_path):
    """`pip wheel .` ships every module of memlib/ (it once left out memlib.claims, so `import memlib` failed outside
    an editable install; memlib.cli holds the command line) and the files `run` and `serve` read (the notebooks,
    the recorded plan totals); installed from the wheel alone (pip --target), every module imports from there and
    not from the checkout, and `python -m memlib --help` runs."""
    whl, site = wheel
    names = zipfile.ZipFile(whl).namelist()
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "memlib").rglob("*.py"))
    assert "memlib/cli/main.py" in sources and "memlib/cli/__init__.py" in sources
    assert not [p for p in sources if p not in names], names               # every module, memlib/cli/ included
    shipped = {n for n in names if n.startswith(("memlib/notebooks/", "memlib/baselines/"))}
    assert shipped == ({f"memlib/notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
                       | {f"memlib/baselines/{p.name}" for p in (ROOT / "baselines").glob("plan-*.json")})
    assert "memlib/notebooks/04_rho_dynamics.ipynb" in shipped and "memlib/baselines/plan-paper.json" in shipped
    modules = sorted(str(Path(p).with_suffix("")).replace("/", ".").removesuffix(".__init__") for p in sources)
    code = ("import importlib, memlib; print(memlib.__file__); "
            f"mods = [importlib.import_module(m) for m in {modules!r}]; "
            f"away = [m.__name__ for m in mods if not m.__file__.startswith({str(site)!r})]; "
            "print('not from the wheel:', away) if away else print('ok')")
    env = _away_env(site, tmp_path)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.stdout.strip().endswith("ok"), out.stdout[-2000:] + out.stderr[-2000:]
    assert out.stdout.startswith(str(site)), out.stdout
    out = subprocess.run([sys.executable, "-m", "memlib", "--help"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0 and "run | check | bench | data fetch | serve" in out.stdout, out.stderr[-2000:]
    code = ("from memlib.harness import paths, plan; from memlib.cli import common; "
            "print(paths.CHECKOUT, common.NOTEBOOK_DIR, plan.RECORDED, common.notebooks(), "
            "plan.recorded_estimate('paper', common.notebooks()) is not None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.stdout.split()[:3] == ["False", str(site / "memlib" / "notebooks"), str(site / "memlib" / "baselines")], \
        out.stdout + out.stderr[-2000:]
    assert "'04_rho_dynamics']" in out.stdout and out.stdout.strip().endswith("True"), out.stdout


def test_the_installed_wheel_runs_a_notebook_outside_the_checkout(wheel, tmp_path):
    """What a user who installed the wheel does: `python -m memlib run --profile smoke --only 04` in a folder of
    their own, with memlib (the library and the notebook) from the installed wheel and nothing from the checkout:
    the notebook runs in its kernel, and metrics.json, provenance.json and report.md are written. (~1.5 min.)"""
    whl, site = wheel
    cwd, results = tmp_path / "elsewhere", tmp_path / "results"
    cwd.mkdir()
    env = {**_away_env(site, tmp_path), "GIT_CEILING_DIRECTORIES": str(site)}   # a git repo above the install: none
    out = subprocess.run([sys.executable, "-c", "import memlib; print(memlib.__file__)"], capture_output=True,
                         text=True, cwd=cwd, env=env)
    assert Path(out.stdout.strip()).is_relative_to(site), out.stdout + out.stderr[-2000:]
    out = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--only", "04",
                          "--results-dir", str(results)], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    folder = results / "smoke" / "04_rho_dynamics"
    assert (folder / "metrics.json").is_file() and (results / "smoke" / "report.md").is_file(), out.stdout[-2000:]
    provenance = json.loads((folder / "provenance.json").read_text())
    assert provenance["git_commit"] is None            # the kernel's memlib was the wheel's, not the checkout's
    executed = json.loads((folder / "04_rho_dynamics.ipynb").read_text())
    assert Path(executed["metadata"]["papermill"]["input_path"]).is_relative_to(site)   # the wheel's notebook
    assert not (site / "results").exists() and not list(cwd.iterdir())                  # nothing written beside them
