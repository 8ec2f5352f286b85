"""`python -m harness congo test PART --program "CMD" ...`: the command line and the run.

One run of the program gets every case (the course's input); while it runs, the reference
computes its answers. If that run fails (it crashed, hung past --timeout, printed too much, not
text, or not one answer per case), every case is run alone, so each failing case is named with
what happened, and the others are still compared.
"""
import argparse
import os
import sys
import threading
import time
from typing import Callable, List, Optional, Sequence

from ..core.argtypes import Parser, UsageError, check_writable, positive_seconds, whole_number
from ..isolation.box import BoxSettings, bwrap
from ..isolation.untrusted_run import CommandError, Finished, command_line, home_of
from ..isolation.untrusted_run import run as run_program
from ..variants.congo import programs
from ..variants.congo.rules import LETTERS
from . import cases as casegen
from . import check, report

PROG = "python -m harness congo test"
DEFAULT_CASES = 500
DEFAULT_TIMEOUT = 10.0
DEFAULT_SHOW = 5
OUTPUT_CAP = 8 << 20            # bytes a run may print
PROGRESS_EVERY = 10.0           # seconds between progress lines when cases run one by one


def _part(text: str) -> str:
    if text not in programs.PROGRAMS:
        raise argparse.ArgumentTypeError(f"'{text}' is not a part ({', '.join(programs.PROGRAMS)})")
    return text


def build_parser(prog: str = PROG) -> Parser:
    p = Parser(prog=prog, description="Test your own program for one part of the Congo course against the "
                                      "reference: generated cases in the course's input, every answer compared.")
    p.add_argument("part", type=_part, metavar="PART",
                   help=f"the program to test: {', '.join(programs.PROGRAMS)}")
    p.add_argument("--program", required=True, metavar="CMD",
                   help='your program\'s command line, split as a shell would ("./moves", "python3 mine.py")')
    p.add_argument("--depth", type=programs.depth_value, metavar="D",
                   help="minimax, alphabeta, bestmove: the search depth (default: the part's, 2 or 4)")
    p.add_argument("--piece", type=programs.piece_letter, metavar="X",
                   help="moves: only the moves of this piece type (L Z E G P S)")
    p.add_argument("--edition", choices=("2021", "2022"),
                   help="the rules year of the cases and the reference (default: the part's, 2021 for "
                        "eval1 and minimax, else 2022)")
    p.add_argument("--cases", type=whole_number(1), default=DEFAULT_CASES, metavar="N",
                   help=f"how many cases (default {DEFAULT_CASES}; the first N of a seed are always the same)")
    p.add_argument("--seed", type=whole_number(0), default=0, metavar="S", help="the cases' seed (default 0)")
    p.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="T",
                   help=f"seconds a run of the program may take (default {DEFAULT_TIMEOUT:g}); the first run "
                        "gets all cases, then each case alone if that run fails")
    p.add_argument("--show", type=whole_number(0), default=DEFAULT_SHOW, metavar="K",
                   help=f"how many differences to print (default {DEFAULT_SHOW})")
    p.add_argument("--json", metavar="FILE", help="write every difference and failure as JSON")
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML, one test case per case (for CI)")
    p.add_argument("--no-box", action="store_true",
                   help="run the program without the box (bubblewrap and resource limits)")
    return p


def reference_options(args: argparse.Namespace) -> List[str]:
    """PART's options for the reference programs' parser; UsageError for an option PART lacks."""
    out = []
    if args.piece is not None:
        if args.part != "moves":
            raise UsageError(f"--piece is an option of moves, not of {args.part}")
        out += ["--piece", LETTERS[args.piece]]
    if args.depth is not None:
        if args.part not in programs.DEFAULT_DEPTH:
            raise UsageError(f"--depth is an option of minimax, alphabeta and bestmove, not of {args.part}")
        out += ["--depth", str(args.depth)]
    out += ["--edition", args.edition or programs.DEFAULT_EDITION.get(args.part, "2022")]
    return out


def main(argv: Optional[Sequence[str]] = None, prog: str = PROG,
         say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)) -> int:
    try:
        args = build_parser(prog).parse_args(argv)
        wanted = reference_options(args)
        options = programs.build_parser().parse_args([args.part, *wanted])
        command = command_line(args.program)
        for path, option in ((args.json, "--json"), (args.junit, "--junit")):
            if path is not None:
                check_writable(path, option)
    except UsageError as exc:          # a parser names itself (the reference's its own name): drop that
        print(f"{prog}: error: {str(exc).split(': error: ', 1)[-1]}", file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"{prog}: error: --program: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:              # --help
        return exc.code if isinstance(exc.code, int) else 0
    # the student's own machine: their folder shown at its own path (nothing of a grader's to hide;
    # a program naming its folder by its absolute path runs as it does unboxed)
    box = None if args.no_box else BoxSettings(fixed_mounts=False)
    if box is not None and bwrap()[0] is None:
        say(f"note: {bwrap()[1]}: the program runs with resource limits only")
    cases = casegen.make_cases(args.cases, args.seed, options.edition, args.part, options.piece
                               if args.part == "moves" else None)
    try:
        # `python3 -m package` given from the student's folder: that folder is the program's own
        shown = home_of(command) or os.getcwd()
        differences, failures = test(args.part, options, cases, command, args.timeout, box, say, shown)
    except StartError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    verdict = report.Verdict(args.part, " ".join(wanted), args.seed, options.edition, cases,
                             differences, failures)
    sys.stdout.write(report.text(verdict, args.show))
    if args.json:
        report.write_json(verdict, args.json)
    if args.junit:
        report.write_junit(verdict, args.junit)
    return 0 if not differences and not failures else 1


class StartError(Exception):
    """The program cannot be started at all (one line)."""


def test(program: str, options: argparse.Namespace, cases: List[casegen.Case], command: List[str],
         timeout: float, box: Optional[BoxSettings], say: Callable[[str], None], shown: Optional[str] = None):
    """(differences, failures) of `command` on `cases`; `shown`: the folder the box shows it
    (`untrusted_run.run`'s)."""
    expected: List[List[str]] = []
    problem: List[BaseException] = []

    def compute():
        try:
            expected.extend(check.expected_answers(program, options, cases))
        except BaseException as exc:       # handed to the main thread
            problem.append(exc)

    worker = threading.Thread(target=compute, daemon=True)
    worker.start()
    per_case = check.lines_per_case(program)
    finished = run_program(command, check.input_text(program, cases).encode(), timeout, OUTPUT_CAP, box,
                           shown=shown)
    _refuse_unstartable(finished, box)
    while worker.is_alive():
        worker.join(0.2)                   # short waits: Ctrl-C stays prompt
    if problem:
        raise problem[0]
    failed = finished.failure(timeout, OUTPUT_CAP)
    lines, wrong = (None, None) if failed else check.output_lines(finished.output, per_case * len(cases))
    if lines is not None:
        return _compare(program, cases, expected, [lines[i * per_case:(i + 1) * per_case]
                                                   for i in range(len(cases))]), []
    why = failed or wrong
    if failed and finished.timed_out:
        why += " (raise --timeout if it is only slow)"
    say(f"note: the run of all {len(cases)} cases {why}; running each case alone")
    return one_by_one(program, cases, expected, command, timeout, box, say, shown)


def _refuse_unstartable(finished: Finished, box: Optional[BoxSettings]) -> None:
    if finished.cannot_start:
        hint = ("; in the box the program sees only the system, Python and its own folder: --no-box runs it "
                "outside" if box is not None and bwrap()[0] is not None else "")
        raise StartError(finished.last_error() + hint)


def _compare(program, cases, expected, got) -> List[check.Difference]:
    out = []
    for case, want, have in zip(cases, expected, got):
        diff = check.compare(program, case, want, have)
        if diff is not None:
            out.append(diff)
    return out


def one_by_one(program: str, cases: List[casegen.Case], expected: List[List[str]], command: List[str],
               timeout: float, box: Optional[BoxSettings], say: Callable[[str], None],
               shown: Optional[str] = None):
    per_case = check.lines_per_case(program)
    differences, failures = [], []
    last = time.monotonic()
    for i, (case, want) in enumerate(zip(cases, expected)):
        finished = run_program(command, check.input_text(program, [case]).encode(), timeout, OUTPUT_CAP, box,
                               shown=shown)
        what = finished.failure(timeout, OUTPUT_CAP)
        lines = None
        if what is None:
            lines, what = check.output_lines(finished.output, per_case)
        if what is not None:
            failures.append(check.Failure(case, what))
        else:
            diff = check.compare(program, case, want, lines)
            if diff is not None:
                differences.append(diff)
        if time.monotonic() - last >= PROGRESS_EVERY and i + 1 < len(cases):
            last = time.monotonic()
            say(f"  {i + 1}/{len(cases)} cases run alone, {len(failures)} failed")
    return differences, failures
