"""Training recipes as data, one module per paper: every setting a figure trains with, by profile, with the
paper's value beside it and the reason for any departure. The notebook, its explorer, the tour and the planner
read the same values, so changing one figure's settings is a one-file edit (notebook N reads `paperN`)."""
