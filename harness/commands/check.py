"""`check FILE.py`: would the course's autograder accept this file?"""
import os

from ..grading.file_check import check_file, format_problem
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from .common import UsageError, positive_seconds


def run(args) -> int:
    if os.path.isdir(args.file):
        raise UsageError(f"'{args.file}' is a folder: pass the .py file to check, e.g. {os.path.join(args.file, 'AB.py')}")
    if not os.path.isfile(args.file):
        raise UsageError(f"file '{args.file}' does not exist")
    warnings: list = []
    problems = check_file(args.file, args.move_timeout, warnings)
    for problem in sorted(problems + [(line, "warning: " + text) for line, text in warnings]):
        print(format_problem(args.file, problem))
    if not problems:
        count = f" ({len(warnings)} warning{'s' if len(warnings) > 1 else ''})" if warnings else ""
        print(f"{args.file}: OK, the course's autograder checks pass{count}")
    return 1 if problems else 0


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="would the course's autograder accept this file?")
    p.add_argument("file", metavar="FILE.py")
    p.add_argument("--move-timeout", type=positive_seconds, default=DEFAULT_MOVE_TIMEOUT,
                   metavar="SECONDS", help=f"time allowed for the import and for one call "
                                           f"(default {DEFAULT_MOVE_TIMEOUT:g})")
    p.set_defaults(run=run)
