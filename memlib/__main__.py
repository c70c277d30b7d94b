"""`python -m memlib ...`: the command line, which lives in memlib/cli/ (memlib.cli.main parses and dispatches)."""
import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
