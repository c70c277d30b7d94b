"""The command line, `python -m memlib ...` (what run_all.sh calls), one module per concern.

main        argparse and the dispatch to each command, with the one-line errors and exit statuses
common      what the commands share: the repository's folders, the notebook names, a writable-folder check
notebooks   `run`: the kernelspec, papermill into a staging folder, the folder swap
planning    the notebooks executed in planning mode (their trainings written down as jobs)
sections    `run`'s sign of life: the section and cell being executed, and the time left where known
ray_engine  `run --engine ray`: the rounds of plan -> train on Ray
signals     Ctrl-C, SIGTERM and SIGHUP as KeyboardInterrupt; signals deferred during a swap
kernels     the kernels' stderr relayed, and dropped once a signal stopped the run (no kernel noise after Ctrl-C)
report      the report's headline and regressions printed; the --against baseline checked
commands    each command's entry point, importing the code its command needs when it runs: check, plan,
            envelope, bench, data fetch here; run and serve in their modules
serve       the teaching tour in Voila

`memlib/__main__.py` calls `main.main`. Nothing here is imported by `import memlib`.
"""
