"""`congo PROGRAM ...`: the Congo course's programs, positions on stdin, answers on stdout; and
`congo test PART --program CMD ...`, which tests a student's own program against them
(harness.congo_tester). Both parse their own options, so the CLI hands them the rest of the
command line as given (`RAW = True`)."""
import argparse
from typing import List

RAW = True
PROG = "python -m harness congo"
TESTER = "test"


def run_raw(argv: List[str]) -> int:
    if argv[:1] == [TESTER]:
        from ..congo_tester.run import main as test_main
        return test_main(argv[1:], prog=f"{PROG} {TESTER}")
    from ..variants.congo.programs import main as congo_main
    return congo_main(argv, prog=PROG, epilog=f"{PROG} {TESTER} PART --program CMD: test your own program "
                                              f"for PART against these ({PROG} {TESTER} --help)")


def add_parser(sub) -> None:
    p = sub.add_parser("congo", help="the Congo course's programs: moves, apply, eval1, minimax, eval2, "
                                     "alphabeta, bestmove; `congo test PART --program CMD` tests your own "
                                     "(python -m harness congo --help)", add_help=False)
    p.add_argument("program_args", nargs=argparse.REMAINDER, metavar="PROGRAM ...")
    p.set_defaults(run=lambda args: run_raw(args.program_args))
