"""How a claim's text reads its numbers: `render_text` fills a `why` (or a notebook's result prose) with
`{metric.key}` placeholders from a run's metrics, so an explanation cannot quote a stale run, and `stated_numbers`
finds the measured-looking numbers written as plain text (tested: a `why` may state none). `fmt` is how the report
prints a value. No claims code here: `memlib.harness.run` and `memlib.claims.core` read it.
"""
from __future__ import annotations

import math
import re


def fmt(v) -> str:
    """A value as the report prints it: 3 significant digits, a list in brackets, None as a dash."""
    if v is None:
        return "—"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            return str(v)
        return f"{v:.3g}"
    return str(v)


PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.\-]*)(?::([^{}]*))?\}")


def _fmt_one(v, spec: str) -> str:
    if v is None:
        return "—"
    if spec == "%":
        return f"{100 * float(v):.3g} %"
    if spec:
        return format(float(v), spec)
    return fmt(v)


def render_text(text: str, metrics: dict | None) -> str:
    """A `why` (or notebook prose) with its `{metric.key}` / `{metric.key:%}` / `{metric.key:.2f}` placeholders
    filled from `metrics`; a seed band reads "a / b / c"; a metric the run did not log reads "(not measured)".
    So every number in the text comes from the run it describes, and cannot go stale."""
    def one(m):
        key, spec = m.group(1), m.group(2) or ""
        v = (metrics or {}).get(key)
        if v is None:
            return f"({key}: not measured)"
        if isinstance(v, (list, tuple)):
            return " / ".join(_fmt_one(x, spec) for x in v)
        return _fmt_one(v, spec)
    return PLACEHOLDER.sub(one, text or "")


# Numbers that read as measurements: decimals (0.43, 1e-5) and percentages (34.5 %). Settings (20 layers,
# 1,500 steps, Fig 3a, 2026-11-23) are not caught. A `why` or `statement` holding one must use a placeholder.
_MEASURED = re.compile(r"(?<![\w.{:])(?:\d+\.\d+(?:e[-+]?\d+)?|\d+(?:\.\d+)?\s?%)(?![\w}])")


def stated_numbers(text: str, settings=()) -> list[str]:
    """The measured-looking numbers written as plain text in `text` (outside `{...}` placeholders), other
    than the claim's own `settings` (its threshold and fit gates' thresholds, as numbers or percentages)."""
    allowed = set()
    for t in settings:
        if isinstance(t, (int, float)):
            allowed |= {float(t), round(100 * float(t), 6)}
    out = []
    for n in _MEASURED.findall(PLACEHOLDER.sub("", text or "")):
        num = float(n.rstrip("% ").strip())
        if num not in allowed:
            out.append(n)
    return out
