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
