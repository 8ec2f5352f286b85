"""Command line: `python -m harness COMMAND ...`. Errors are one line on stderr, never a traceback."""
import argparse
import sys
import time
from typing import List, Optional

from .config import ConfigError, read_config
from .game import Game, interleave
from .rules import perft
from .variant import BLACK, WHITE


class UsageError(Exception):
    """A problem with the command line or its files, reported as one line."""


def load_start(config: Optional[str], to_move: str = WHITE, **limits) -> Game:
    """A Game from the start position or from a config file."""
    if config is None:
        return Game(to_move=to_move, **limits)
    setup = read_config(config)
    return Game(interleave(setup.white, setup.black), to_move=to_move, **limits)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' must be at least 1")
    return value


def cmd_perft(args) -> int:
    game = load_start(args.config, BLACK if args.black else WHITE)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = perft(game.rules, game.board, game.side, depth)
        print(f"{depth} {nodes} {time.perf_counter() - started:.3f}", flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m harness",
                                     description="7x7 fairy minichess (CS3243): rules, referee, series and reports.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("perft", help="count move sequences from a position (rules check)")
    p.add_argument("depth", type=positive_int, metavar="DEPTH")
    p.add_argument("--config", metavar="FILE", help="start from this config.txt position")
    p.add_argument("--black", action="store_true", help="Black moves first")
    p.set_defaults(run=cmd_perft)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (ConfigError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
