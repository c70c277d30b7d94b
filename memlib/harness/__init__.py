"""memlib.harness: what runs the science, apart from it (issue 43).

A notebook's run and its context (`run`, `context`, `modes`), the sections a run executes (`parts`; `deferred`: what
quick leaves to full), the model cache (`store`, `cachekey`), trainings as data and their execution (`plan`,
`jobfile`, `estimate`, `engine`: Ray), the variation envelope (`envelope`), the benchmark (`bench`), datasets fetched
(`fetch`), and the plumbing under them (`fileio`, `machine`, `paths`, `progress`). The science (data, models,
training, metrics, linear algebra, plots) is memlib's top level; the claims engine and the command line are
`memlib.claims` and `memlib.cli`.
"""
