"""`perft DEPTH`: count move sequences from a position (a rules check)."""
import time

from ..core.variant import BLACK
from .common import (UsageError, add_variant_option, config_help, fen_help, names_of, positive_int, registered,
                     start_options, variant_of)


def run(args) -> int:
    variant = variant_of(args)
    options = start_options(args, variant)
    if args.black:
        if not variant.can_start_black or args.fen is not None:
            raise UsageError(f"--black is for {black_variants()}'s --config and start positions; "
                             "a FEN gives the side to move")
        options["to_move"] = BLACK
    state = variant.start(**options)
    print("depth nodes seconds", flush=True)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = variant.perft(state, depth)
        print(f"{depth} {nodes} {time.perf_counter() - started:.3f}", flush=True)
    return 0


def black_variants() -> str:
    """The variants whose start may be given Black to move (`Variant.can_start_black`)."""
    return names_of([v for v in registered() if v.can_start_black])


def add_parser(sub) -> None:
    p = sub.add_parser("perft", help="count move sequences from a position (rules check)")
    p.add_argument("depth", type=positive_int, metavar="DEPTH")
    p.add_argument("--config", metavar="FILE", help=config_help)
    p.add_argument("--fen", metavar="FEN", help=fen_help)
    p.add_argument("--black", action="store_true", help=lambda: f"{black_variants()}: Black moves first")
    add_variant_option(p)
    p.set_defaults(run=run)
