"""A sign of life while `run` executes a notebook: the section it is in (the markdown heading above the cell being
executed), the code cells done of the total, and, where an earlier run of the notebook recorded its cells' times
(papermill's `duration` in the executed notebook a finished run left), about how long the rest takes. A notebook
runs 20-30 minutes at quick with nothing else at the terminal. On a terminal (stderr a tty): one line rewritten in
place at each cell; in a log: one line per section, never one per cell."""
from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

ENGINE = "memlib-sections"     # the papermill engine `engine` registers
INJECTED = "injected-parameters"    # papermill's tag on the cell of parameters it adds


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def heading(cell) -> str | None:
    """A markdown cell's first heading (`# ...`, `## ...`), without its hashes; None for any other cell."""
    if cell.get("cell_type") != "markdown":
        return None
    for line in _source(cell).splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip() or None
    return None


def earlier_durations(executed: Path) -> dict[str, float]:
    """{a code cell's source: the seconds it took} from an executed notebook a finished run left (papermill's
    metadata); {} where there is none or it cannot be read."""
    try:
        nb = json.loads(Path(executed).read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        d = ((cell.get("metadata") or {}).get("papermill") or {}).get("duration")
        if cell.get("cell_type") == "code" and isinstance(d, (int, float)):
            out[_source(cell)] = float(d)
    return out


def _clock(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class SectionProgress:
    """What `run` shows of a notebook while it executes (`cell(index)` before each cell, `done()` at the end).
    `label`: the notebook's short name; `durations`: `earlier_durations`; `tty`: rewrite one line in place."""

    def __init__(self, cells, label: str, *, durations: dict | None = None, out=None, tty: bool | None = None,
                 clock=time.monotonic):
        self.cells, self.label, self.out, self.clock = list(cells), label, out or sys.stderr, clock
        self.tty = self.out.isatty() if tty is None else tty
        self.code = [i for i, c in enumerate(self.cells) if c.get("cell_type") == "code"]
        self.durations = durations or {}
        self.section, self.started, self.shown = None, clock(), False

    def _section_of(self, index: int) -> str:
        for c in reversed(self.cells[:index + 1]):
            h = heading(c)
            if h:
                return h
        return "set-up"

    def _left(self, index: int) -> str:
        """About how long the cells from `index` on take, by the earlier run's times ('' where it lacks one)."""
        rest = [_source(self.cells[i]) for i in self.code if i >= index and INJECTED not in
                ((self.cells[i].get("metadata") or {}).get("tags") or [])]     # its paths differ from run to run
        if not self.durations or not rest or any(s not in self.durations for s in rest):
            return ""
        return f", about {_clock(sum(self.durations[s] for s in rest))} left by the last run's cell times"

    def cell(self, index: int) -> None:
        if self.cells[index].get("cell_type") != "code":
            return
        section = self._section_of(index)
        done = sum(i < index for i in self.code)
        line = (f"  {self.label}: {section} (cell {done + 1}/{len(self.code)}, {_clock(self.clock() - self.started)} "
                f"in{self._left(index)})")
        try:
            if self.tty:
                self.out.write("\r\x1b[K" + line[:(_width() - 1)])
                self.shown = True
            elif section != self.section:
                self.out.write(line + "\n")
            self.out.flush()
        except (OSError, ValueError):        # our stderr closed: nothing to show
            pass
        self.section = section

    def done(self) -> None:
        """Clear the line rewritten in place (a terminal), so that what `run` prints next starts on its own."""
        if self.tty and self.shown:
            try:
                self.out.write("\r\x1b[K")
                self.out.flush()
            except (OSError, ValueError):
                pass


def _width() -> int:
    return shutil.get_terminal_size((100, 20)).columns


def engine(progress_for) -> str:
    """Register (again) the papermill engine that calls `progress_for(cells)` for the notebook it executes (a
    `SectionProgress`) and tells it of each cell before the cell runs; its name, for `execute_notebook`'s
    `engine_name`."""
    from papermill.engines import NBClientEngine, papermill_engines   # the Jupyter stack: only where run needs it

    class Sections(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):
            progress = progress_for(nb_man.nb.cells)
            start = nb_man.cell_start

            def cell_start(cell, cell_index=None, **kw):
                if cell_index is not None:
                    progress.cell(cell_index)
                return start(cell, cell_index, **kw)
            nb_man.cell_start = cell_start
            try:
                return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)
            finally:
                progress.done()

    papermill_engines.register(ENGINE, Sections)
    return ENGINE
