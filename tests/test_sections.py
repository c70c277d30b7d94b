"""`run`'s sign of life (memlib.cli.sections): while a notebook executes, the section (the markdown heading above the
cell being executed), the cells done of the total and, where the last run recorded its cells' times, the time left;
one line per section in a log, one line rewritten in place on a terminal."""
import io
import json

import nbformat

from memlib.cli import sections


def _cells():
    md = nbformat.v4.new_markdown_cell
    code = nbformat.v4.new_code_cell
    return [md("# Paper 9 — a title"), code("x = 1"), md("## Fig 2 — the first figure\ntext"), code("y = 2"),
            code("z = 3"), md("no heading here"), md("## Fig 3 — the second"), code("w = 4")]


def test_a_log_gets_one_line_per_section_with_the_cells_done_and_the_time_left():
    out = io.StringIO()
    times = iter(range(0, 1000, 10))
    p = sections.SectionProgress(_cells(), "09_nb", durations={"x = 1": 5, "y = 2": 60, "z = 3": 60, "w = 4": 30},
                                 out=out, tty=False, clock=lambda: next(times))
    for i in range(len(p.cells)):
        p.cell(i)
    p.done()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines                                   # three sections, four code cells
    assert lines[0].startswith("  09_nb: Paper 9 — a title (cell 1/4") and "about 2:35 left" in lines[0]
    assert "Fig 2 — the first figure (cell 2/4" in lines[1] and "about 2:30 left" in lines[1]
    assert "Fig 3 — the second (cell 4/4" in lines[2] and "about 0:30 left" in lines[2]
    out = io.StringIO()
    p = sections.SectionProgress(_cells(), "09_nb", durations={"x = 1": 5}, out=out, tty=False)
    p.cell(1)
    assert "left" not in out.getvalue()                             # the last run's times do not cover the rest


def test_a_terminal_gets_one_line_rewritten_in_place():
    out = io.StringIO()
    p = sections.SectionProgress(_cells(), "09_nb", out=out, tty=True)
    for i in range(len(p.cells)):
        p.cell(i)
    p.done()
    text = out.getvalue()
    assert "\n" not in text and text.count("\r\x1b[K") == 5 and "cell 3/4" in text and text.endswith("\r\x1b[K")


def test_a_notebook_executed_by_run_shows_its_sections(tmp_path):
    """The papermill engine `run` executes with (a real kernel) tells the progress of each cell before it runs."""
    import papermill as pm
    from memlib.cli.notebooks import ensure_kernel
    nb = nbformat.v4.new_notebook(cells=_cells())
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    out = io.StringIO()
    name = sections.engine(lambda cells: sections.SectionProgress(cells, "09_nb", out=out, tty=False))
    pm.execute_notebook(str(path), str(tmp_path / "out.ipynb"), kernel_name=ensure_kernel(), engine_name=name,
                        progress_bar=False)
    lines = out.getvalue().splitlines()
    assert [line.split(": ", 1)[1].split(" (")[0] for line in lines] == [
        "Paper 9 — a title", "Fig 2 — the first figure", "Fig 3 — the second"], lines
    executed = json.loads((tmp_path / "out.ipynb").read_text())
    durations = sections.earlier_durations(tmp_path / "out.ipynb")
    assert set(durations) == {"x = 1", "y = 2", "z = 3", "w = 4"} and len(executed["cells"]) == 8
