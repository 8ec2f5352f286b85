"""Command line: `python -m harness COMMAND ...` (also the `minichess` command). Errors are one line
on stderr, never a traceback.

This module only assembles the commands (`harness/commands/`, one module each, with its parser and
its run) and turns the errors they raise into one line and an exit code. See docs/cli.md.
"""
import os
import sys
from typing import List, Optional

from .runs import cluster
from .core.agent import AgentError
from .core.analyser import AnalysisError
from .core.variant import SetupError
from .commands import COMMANDS
from .commands.common import RESUME_HINT, Parser, UsageError
from .runs.results import ResultsError
from .runs.series import SeriesError

PROG = "python -m harness"
ONE_LINE_ERRORS = (SetupError, UsageError, AgentError, ResultsError, SeriesError, cluster.ClusterError,
                   AnalysisError)


def build_parser(prog: str = PROG) -> Parser:
    parser = Parser(prog=prog,
                    description="Minichess assignments (CS3243 7x7 fairy minichess first): rules, referee, "
                                "series and reports. `python -m harness COMMAND --help` for a command's options.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Optional[List[str]] = None, prog: str = PROG) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    raw = {command.__name__.rsplit(".", 1)[-1]: command for command in COMMANDS if getattr(command, "RAW", False)}
    if argv[:1] and argv[0] in raw:      # its own parser: the options pass through as given
        def run() -> int:
            return raw[argv[0]].run_raw(argv[1:], prog=f"{prog} {argv[0]}")
    else:
        parser = build_parser(prog)
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2

        def run() -> int:
            return args.run(args)
    try:
        return run()
    except ONE_LINE_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:          # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted" + (f": {RESUME_HINT[0]}" if RESUME_HINT else ""), file=sys.stderr, flush=True)
        return 130


def entry() -> None:
    """The `minichess` command (pyproject.toml's console script), equal to `python -m harness`."""
    sys.exit(main(prog=os.path.basename(sys.argv[0]) or PROG))
