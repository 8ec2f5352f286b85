"""`tournament A B C ...`: a round robin, both colours: crosstable and Elo ratings."""
import os
import sys

from ..runs import cluster
from ..grading import grade
from .. import tournament
from ..runs.results import hold_folder
from .common import (DEFAULT_OUT, UsageError, add_game_options, add_game_time_option, add_run_options, agent_spec,
                     positive_int, progress_mode, runs_in, series_limits)


def run(args) -> int:
    limits = series_limits(args)
    names = None
    if len(args.players) == 1 and os.path.isdir(args.players[0]):
        args.players, names = class_players(args.players[0], args.quiet)
    if len(args.players) < 2:
        raise UsageError("a tournament needs at least two agents (or a class folder holding two submissions)")
    if len(set(args.players)) != len(args.players):
        raise UsageError("an agent is named twice")
    for spec in args.players:
        agent_spec(spec, limits["variant"])
    out = args.out or os.path.join(DEFAULT_OUT, "tournament")
    runs_in(out, args)
    with hold_folder(out), cluster.connect(args.cluster) as executor:    # one run at a time in --out
        report = tournament.run_tournament(args.players, args.games, out, jobs=args.jobs, executor=executor,
                                           resume=args.resume, force=args.force, progress=progress_mode(args),
                                           names=names, **limits)
    print(tournament.render_text(report), end="")
    print(f"written: {os.path.join(out, tournament.REPORT_JSON)}, {os.path.join(out, tournament.REPORT_MD)}, "
          f"{os.path.join(out, 'report.html')}")
    return 0


def class_players(class_dir: str, quiet: bool) -> tuple:
    """A class folder's files, read as grade reads it (harness.grading.grade.find_submissions): their
    paths and {path: student}; each entry without a file is named on stderr."""
    skipped: list = []
    try:
        found = grade.find_submissions(class_dir, skipped)
    except grade.GradeError as exc:
        raise UsageError(str(exc)) from None
    for sub in found:
        if sub.path is None:
            skipped.append({"entry": sub.student, "reason": sub.problem})
    if not quiet:
        for entry in skipped:
            print(f"not in the tournament: {entry['entry']}: {entry['reason']}", file=sys.stderr, flush=True)
    players = [sub.path for sub in found if sub.path is not None]
    return players, {sub.path: sub.student for sub in found if sub.path is not None}


def add_parser(sub) -> None:
    p = sub.add_parser("tournament", help="round robin of agents, both colours: crosstable and Elo ratings")
    p.add_argument("players", nargs="+", metavar="AGENT",
                   help="two or more agents (built-in names or .py files), or a class folder as grade reads it "
                        "(its files, named by student)")
    p.add_argument("--games", type=positive_int, default=10, metavar="N",
                   help="games per pair and colour (default 10)")
    p.add_argument("--out", metavar="DIR", help=f"where the games and report go (default {DEFAULT_OUT}/tournament)")
    add_game_options(p, "game i of each pair is played with seed S+i (default 0)")
    add_game_time_option(p, None)
    add_run_options(p)
    p.set_defaults(run=run)
