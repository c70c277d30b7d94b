import re
import tomllib
from pathlib import Path

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
    import json
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)$", (ROOT / "constraints.txt").read_text(), re.M))
    assert "memlib" not in {k.lower() for k in pins}
    assert not any("+" in v for v in pins.values())                        # no local tags (+cpu)
    base = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    recorded = [nb.get("provenance", {}).get("versions", {}) for nb in base.get("notebooks", {}).values()]
    assert recorded, "baselines/quick-cpu.json records no notebook's versions"
    assert {v.get("torch", "").split("+")[0] for v in recorded} == {pins["torch"]}, "rebuilt: refresh constraints.txt"
    assert {v.get("numpy") for v in recorded} == {pins["numpy"]}, "rebuilt: refresh constraints.txt"


def test_memlib_imports_without_torchvision():
    import subprocess
    import sys
    code = ("import sys; sys.modules['torchvision'] = None; import memlib, memlib.data, memlib.store, "
            "memlib.plot, memlib.claims; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def _run_all(tmp_path, env_extra, *args):
    import os
    import subprocess
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
    import os
    import subprocess
    import sys
    wheels = os.environ.get("MEMLIB_TEST_WHEELHOUSE")
    if not wheels:
        import pytest
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


def test_the_built_wheel_holds_every_subpackage_and_imports(tmp_path):
    """`pip wheel .` ships every module of memlib/ (it once left out memlib.claims, so `import memlib` failed outside
    an editable install; memlib.cli holds the command line); installed from the wheel alone (pip --target), every
    module imports from there and not from the checkout, and `python -m memlib --help` runs."""
    import subprocess
    import sys
    import zipfile
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "w"), str(ROOT)],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    if out.returncode != 0 and "Could not find a version that satisfies" in out.stderr:
        import pytest
        pytest.skip("no package index for the build's setuptools: " + out.stderr.strip().splitlines()[-1])
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = (tmp_path / "w").glob("memlib-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "memlib").rglob("*.py"))
    assert "memlib/cli/main.py" in sources and "memlib/cli/__init__.py" in sources
    assert not [p for p in sources if p not in names], names               # every module, memlib/cli/ included
    site = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(site),
                          str(wheel)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    modules = sorted(str(Path(p).with_suffix("")).replace("/", ".").removesuffix(".__init__") for p in sources)
    code = ("import importlib, memlib; print(memlib.__file__); "
            f"mods = [importlib.import_module(m) for m in {modules!r}]; "
            f"away = [m.__name__ for m in mods if not m.__file__.startswith({str(site)!r})]; "
            "print('not from the wheel:', away) if away else print('ok')")
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.stdout.strip().endswith("ok"), out.stdout[-2000:] + out.stderr[-2000:]
    assert out.stdout.startswith(str(site)), out.stdout
    out = subprocess.run([sys.executable, "-m", "memlib", "--help"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0 and "run | check | bench | data fetch | serve" in out.stdout, out.stderr[-2000:]
