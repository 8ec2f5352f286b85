"""`compare NEW OLD`: is NEW stronger? Game pairs and an SPRT that stops as soon as it knows."""
import argparse
import math
import os

from ..runs import cluster
from ..compare.pairs import Sprt, text_lines
from ..compare.run import COMPARE_JSON, run_compare
from ..runs.series import directory_name
from ..stats import SPRT_MODELS
from .common import (DEFAULT_OUT, UsageError, add_game_options, add_game_time_option, add_run_options, agent_spec,
                     agents_help, positive_int, progress_mode, runs_in, series_limits)

DEFAULT_OPENINGS = 4
DEFAULT_MAX_GAMES = 1000


def finite_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    return value


def even_games(value: int, option: str) -> int:
    if value % 2:
        raise UsageError(f"{option} {value}: games come in pairs (one opening, colours reversed); give an even number")
    return value


def run(args) -> int:
    limits = series_limits(args)
    agent_spec(args.new, limits["variant"])
    agent_spec(args.old, limits["variant"])
    sprt = None
    if args.games is None:
        try:
            sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta, args.model)
        except ValueError as exc:
            raise UsageError(f"SPRT: {exc}") from None
    games = even_games(args.games, "--games") if args.games is not None else even_games(args.max_games, "--max-games")
    out = args.out or os.path.join(DEFAULT_OUT, directory_name(f"compare-{args.new}-vs-{args.old}"))
    runs_in(out, args)
    with cluster.connect(args.cluster) as executor:
        summary = run_compare(args.new, args.old, games, out, sprt, jobs=args.jobs, executor=executor,
                              resume=args.resume, force=args.force, progress=progress_mode(args), **limits)
    print("\n".join(text_lines(summary)))
    for note in summary["notes"]:
        print(f"note: {note}")
    print(f"results: {os.path.join(out, 'results.jsonl')}; summary: {os.path.join(out, COMPARE_JSON)}; "
          f"pictures: {os.path.join(out, 'report.html')}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="is NEW stronger than OLD? game pairs and an SPRT that stops when it knows",
                       description="NEW against OLD in game pairs (one random opening of --openings plies, default "
                                   f"{DEFAULT_OPENINGS}, played twice with the colours reversed) until a sequential "
                                   "probability ratio test decides (fastchess's lines, compare.json, report.html). "
                                   "See docs/compare.md.")
    p.add_argument("new", metavar="NEW", help=lambda: "the new agent: " + agents_help())
    p.add_argument("old", metavar="OLD", help="the agent it should beat (same forms)")
    test = p.add_argument_group("the test (SPRT, fastchess's defaults)")
    test.add_argument("--elo0", type=finite_number, default=0.0, metavar="ELO",
                      help="H0: NEW is this much stronger (default 0)")
    test.add_argument("--elo1", type=finite_number, default=10.0, metavar="ELO",
                      help="H1: NEW is this much stronger (default 10)")
    test.add_argument("--alpha", type=finite_number, default=0.05,
                      help="the chance of accepting H1 when H0 holds (default 0.05)")
    test.add_argument("--beta", type=finite_number, default=0.05,
                      help="the chance of accepting H0 when H1 holds (default 0.05)")
    test.add_argument("--model", choices=SPRT_MODELS, default="normalized",
                      help="the Elo of elo0 and elo1: normalized (default, as fastchess) or logistic")
    length = test.add_mutually_exclusive_group()
    length.add_argument("--max-games", type=positive_int, default=DEFAULT_MAX_GAMES, metavar="N",
                        help=f"stop without a decision after N games (default {DEFAULT_MAX_GAMES})")
    length.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="play exactly N games, no test (figures only)")
    p.add_argument("--out", metavar="DIR",
                   help=f"where results go (default {DEFAULT_OUT}/compare-NEW-vs-OLD)")
    add_game_options(p, "pair k starts from the opening of seed S+2k; game i is played with seed S+i (default 0)")
    add_game_time_option(p, None)
    add_run_options(p)
    p.set_defaults(run=run, openings=DEFAULT_OPENINGS)
