"""What arithmetic a run's numbers came from: CPU model, the instruction set torch's kernels picked, the
BLAS and oneDNN builds, thread counts, the GPU and its driver.

Float32 results legitimately differ between CPUs (oneDNN and MKL pick other kernels for AVX2 and AVX-512),
thread counts (another summation order) and devices. The verdicts must not (`memlib.harness.envelope`); this record,
in every provenance.json and the report's header, says which arithmetic a set of numbers had.
"""
from __future__ import annotations

import os
import platform
import re

import torch

# The environment variables that change which kernels run (ISA pins, BLAS reproducibility modes, threads).
ARITHMETIC_ENV = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", "MKL_CBWR", "MKL_ENABLE_INSTRUCTIONS",
                  "OMP_NUM_THREADS", "MKL_NUM_THREADS", "CUBLAS_WORKSPACE_CONFIG")


def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo on Linux; platform elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _config_version(pattern: str) -> str | None:
    m = re.search(pattern, torch.__config__.show())
    return m.group(1).strip() if m else None


def arithmetic() -> dict:
    """The facts that decide a float32 run's last bits, read from torch and the machine (for provenance.json)."""
    out = {"cpu": cpu_model(), "machine": platform.machine(),
           "cpu_capability": torch.backends.cpu.get_cpu_capability(),
           "mkl": _config_version(r"Math Kernel Library Version ([^\n]+?) for"),
           "onednn": _config_version(r"MKL-DNN (v[\d.]+)"),
           "intra_op_threads": torch.get_num_threads(), "inter_op_threads": torch.get_num_interop_threads(),
           "env": {k: os.environ[k] for k in ARITHMETIC_ENV if k in os.environ}}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        out["gpu"] = torch.cuda.get_device_name()
        out["cuda"] = torch.version.cuda
        out["cudnn"] = torch.backends.cudnn.version()
        try:
            import subprocess
            out["gpu_driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                               capture_output=True, text=True, timeout=10).stdout.strip() or None
        except (OSError, subprocess.SubprocessError):
            out["gpu_driver"] = None
    return out


def describe(arith: dict | None) -> str:
    """One line: 'Intel(R) Xeon(R) ... (AVX512; MKL 2024.2, oneDNN v3.12.0; 2 threads)'."""
    if not arith:
        return "arithmetic not recorded"
    parts = [arith.get("cpu_capability") or "?"]
    libs = ", ".join(x for x in (f"MKL {arith['mkl'].split('-')[0]}" if arith.get("mkl") else "",
                                 f"oneDNN {arith['onednn']}" if arith.get("onednn") else "") if x)
    if libs:
        parts.append(libs)
    parts.append(f"{arith.get('intra_op_threads', '?')} threads")
    if arith.get("env"):
        parts.append(" ".join(f"{k}={v}" for k, v in sorted(arith["env"].items())))
    text = f"{arith.get('cpu', '?')} ({'; '.join(parts)})"
    if arith.get("gpu"):
        text += f"; GPU {arith['gpu']} (CUDA {arith.get('cuda')}, driver {arith.get('gpu_driver') or '?'})"
    return text
