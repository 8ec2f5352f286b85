"""`perft DEPTH`: count move sequences from a position (a rules check)."""
import time

from ..core.variant import BLACK
from .common import UsageError, add_variant_option, positive_int, start_options, variant_of


def run(args) -> int:
    variant = variant_of(args)
    options = start_options(args, variant)
    if args.black:
        if not variant.can_start_black or args.fen is not None:
            raise UsageError("--black is for cs3243's --config and start positions; a FEN gives the side to move")
        options["to_move"] = BLACK
    state = variant.start(**options)
    print("depth nodes seconds", flush=True)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = variant.perft(state, depth)
        print(f"{depth} {nodes} {time.perf_counter() - started:.3f}", flush=True)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("perft", help="count move sequences from a position (rules check)")
    p.add_argument("depth", type=positive_int, metavar="DEPTH")
    p.add_argument("--config", metavar="FILE", help="cs3243: start from this config.txt position")
    p.add_argument("--fen", metavar="FEN", help="start from this position (variants that read FEN)")
    p.add_argument("--black", action="store_true", help="cs3243: Black moves first")
    add_variant_option(p)
    p.set_defaults(run=run)
