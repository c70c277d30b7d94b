import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONDA_NAMES = {"pytorch": "torch"}         # conda package name -> pip name
CONDA_ONLY = {"python", "pip", "torchvision"}  # torchvision is optional (download=True only)


def _name(req: str) -> str:
    return re.split(r"[<>=!~\s\[;]", req.strip(), maxsplit=1)[0].lower()


def test_environment_yml_and_pyproject_name_the_same_dependencies():
    pyproject = {_name(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]}
    conda, in_deps = set(), False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if not line.startswith(" "):
            in_deps = line.startswith("dependencies:")
            continue
        m = re.match(r"^\s+-\s+([A-Za-z0-9_.\-]+)", line)
        if in_deps and m:
            name = _name(m.group(1))
            conda.add(CONDA_NAMES.get(name, name))
    assert pyproject == conda - CONDA_ONLY
    assert "torchvision" not in pyproject  # memlib must work without it


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
    """`pip wheel .` ships every package of memlib/ (it once left out memlib.claims, so `import memlib` failed outside
    an editable install); the unpacked wheel imports, with every module, from the wheel and not from the checkout."""
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
    packages = sorted(str(p.parent.relative_to(ROOT)) for p in (ROOT / "memlib").rglob("__init__.py"))
    assert packages and all(f"{pkg}/__init__.py" in names for pkg in packages), (packages, names)
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    modules = sorted(str(p.relative_to(ROOT).with_suffix("")).replace("/", ".") for p in (ROOT / "memlib").rglob("*.py")
                     if p.name not in ("__main__.py", "__init__.py"))
    code = ("import importlib, memlib; print(memlib.__file__); "
            f"[importlib.import_module(m) for m in {modules!r}]; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.stdout.strip().endswith("ok"), out.stderr[-2000:]
    assert out.stdout.startswith(str(tmp_path / "site")), out.stdout
