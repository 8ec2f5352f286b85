"""One module per command: each holds its parser (`add_parser(sub)`, which sets `run`) and its
run. `harness/cli.py` assembles them in the order of `COMMANDS` (the order `--help` lists them).
A module with `RAW = True` takes the rest of the command line as given (`run_raw(argv)`)."""
from . import (analyse, check, compare, congo, export_nthu, grade, gradescope, perft, play, puzzles, replay, report,
               serve, series, similar, tournament, train_nnue)

COMMANDS = (perft, play, series, report, check, export_nthu, replay, analyse, congo, grade, tournament, gradescope,
            compare, puzzles, similar, serve, train_nnue)
