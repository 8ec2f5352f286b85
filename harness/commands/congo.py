"""`congo PROGRAM ...`: the Congo course's programs, positions on stdin, answers on stdout. The
programs parse their own options (harness.variants.congo.programs), so the CLI hands them the
rest of the command line as given (`RAW = True`)."""
import argparse
from typing import List

RAW = True


def run_raw(argv: List[str]) -> int:
    from ..variants.congo.programs import main as congo_main
    return congo_main(argv, prog="python -m harness congo")


def add_parser(sub) -> None:
    p = sub.add_parser("congo", help="the Congo course's programs: moves, apply, eval1, minimax, eval2, "
                                     "alphabeta, bestmove (python -m harness congo --help)", add_help=False)
    p.add_argument("program_args", nargs=argparse.REMAINDER, metavar="PROGRAM ...")
    p.set_defaults(run=lambda args: run_raw(args.program_args))
