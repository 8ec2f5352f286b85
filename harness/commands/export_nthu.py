"""`export-nthu AGENT --out PATH`: an agent written as a single-file NTHU MiniChess program."""
from ..variants.nthu.export import DEFAULT_SECONDS, export_nthu
from .common import UsageError, positive_seconds


def run(args) -> int:
    try:
        out = export_nthu(args.agent, args.out, seconds=args.seconds)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(f"{out}: NTHU player ({args.agent}, {args.seconds:g} s of search per move); run it as "
          f"the course's runner does: {out} state action")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("export-nthu", help="write an agent as a single-file NTHU MiniChess program")
    p.add_argument("agent", metavar="AGENT", help="the agent to write (ab, mcts or nnue)")
    p.add_argument("--out", required=True, metavar="PATH", help="the program file to write")
    p.add_argument("--seconds", type=positive_seconds, default=DEFAULT_SECONDS, metavar="S",
                   help=f"search time per move (default {DEFAULT_SECONDS:g}; the course allows 10 s, "
                        "the interpreter's start included)")
    p.set_defaults(run=run)
