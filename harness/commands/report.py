"""`report [AGENT]`: an agent against the course's opponents, judged by the course's pass marks."""
import os
import sys

from ..isolation import box
from ..runs import cluster
from ..grading import grade
from .. import players
from ..analysis.run import analyse_games, check_analyser
from ..grading.file_check import check_summary
from ..grading.report_html import write_report_html
from ..grading.report import (COURSE_GAME_SECONDS, DEFAULT_OPPONENTS, add_reviews, build_report, keep_previous,
                              opponent_entry, plan_report, render_text, write_report)
from ..runs.results import group_settings, hold_folder, open_group
from ..runs.series import RunOptions, run_plans
from ..core.variant import Variant
from .common import (DEFAULT_OUT, UsageError, add_analyser_options, add_game_options, add_run_options, agent_spec,
                     opponent_list,
                     positive_int, positive_seconds, progress_mode, runs_in, series_limits, variant_of)


def report_defaults(args, variant: Variant) -> None:
    """--games, --opponents, --colour and --game-time left out: the variant's course's own (cs3243:
    50 games as White against its five opponents, 30 s of thinking per game; nthu: baselines 1-4,
    one game with each colour, no game clock)."""
    defaults = {"games": variant.report_games, "opponents": list(variant.report_opponents),
                "colour": variant.report_colour, "game_time": variant.game_seconds}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if not args.opponents:
        raise UsageError(f"{variant.name} has no default opponents: name them with --opponents")


def run(args) -> int:
    variant = variant_of(args)
    report_defaults(args, variant)
    limits = series_limits(args)
    agent_spec(args.agent, limits["variant"])
    for opponent in args.opponents:
        agent_spec(opponent, limits["variant"])
    if not args.analyse and (args.analyser is not None or args.nodes is not None):
        raise UsageError("--analyser and --nodes set the game review's analyser: add --analyse [lost|all]")
    if args.analyse:         # an analyser that cannot start is one line now, before any game
        check_analyser(args.analyser, limits["variant"], args.nodes)
    colours = ("white", "black") if args.colour == "both" or limits["openings"] else (args.colour,)
    laid_out = plan_report(args.agent, args.opponents, colours, args.games, args.out, **limits)
    with hold_folder(args.out):      # one run at a time in --out
        if args.keep_previous:
            kept = keep_previous(args.out, [key for key, *_ in laid_out])
            if kept and not args.quiet:
                print(f"note: the previous report is kept in {kept}", file=sys.stderr, flush=True)
        open_group(args.out, group_settings(limits, games=args.games, opponents=list(args.opponents),
                                            colour=list(colours)), args.resume, args.force, "report")
        return _run(args, variant, limits, laid_out)


def _run(args, variant: Variant, limits: dict, laid_out: list) -> int:
    runs_in(args.out, args)  # from here Ctrl-C gets the hint
    check = (check_summary(args.agent, limits["move_timeout"], grade.box_from_args(args))
             if players.is_file_spec(args.agent, limits["variant"]) else None)
    if check is not None and not check["accepted"] and not args.quiet:
        print(f"note: the course's check rejects {args.agent}: {'; '.join(check['problems'][:3])}",
              file=sys.stderr, flush=True)

    def done(plan, records) -> None:
        if not args.quiet:
            wins = sum(1 for r in records if r["result"] == plan.perspective)
            draws = sum(1 for r in records if r["result"] == "draw")
            print(f"done: {plan.label}: {len(records)} games, W{wins} D{draws} "
                  f"L{len(records) - wins - draws}", file=sys.stderr, flush=True)

    with cluster.connect(args.cluster) as executor:
        all_records = run_plans([plan for *_, plan in laid_out], RunOptions(
            jobs=args.jobs, resume=args.resume, fresh=args.force, progress=progress_mode(args), on_plan_done=done,
            executor=executor)).records
    entries = {key: opponent_entry(opponent, colour, records, plan.results_path,
                                   variant.pass_marks, variant.game_seconds)
               for (key, opponent, colour, plan), records in zip(laid_out, all_records)}
    settings = {"games": args.games, "colour": "both" if limits["openings"] else args.colour,
                "opponents": args.opponents, "jobs": args.jobs or os.cpu_count(), **limits,
                **laid_out[0][3].options}          # the limits in force (the variant's defaults filled in)
    report = build_report(args.agent, settings, entries, check)
    games: dict = {}
    for (_, opponent, colour, _), records in zip(laid_out, all_records):
        games.setdefault(opponent, {})[colour] = records
    course = variant.course_grading(games)
    if course is not None:          # a course with its own rule (NTHU): its verdict is the report's
        report["course"] = course
        report["passed"] = course["passed"]
    if box.weaker(grade.box_from_args(args)):
        report["notes"].append(box.isolation(grade.box_from_args(args)))
    if args.analyse:
        reviewed = [(plan.results_path, r) for (_, _, colour, plan), records in zip(laid_out, all_records)
                    for r in records if args.analyse == "all" or r["result"] != colour]
        done = analyse_games(reviewed, args.analyser, args.nodes, jobs=args.jobs or os.cpu_count() or 1,
                             progress=progress_mode(args))
        add_reviews(report, {key: done.get(plan.results_path, {}) for key, _, _, plan in laid_out})
    write_report(args.out, report)
    html = write_report_html(args.out, report)
    print(render_text(report), end="")
    print(f"written: {os.path.join(args.out, 'report.json')}, {os.path.join(args.out, 'report.md')}, {html}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="an agent against the course's opponents, with pass marks")
    p.add_argument("agent", nargs="?", default="AB.py", metavar="AGENT",
                   help="the agent to judge (default AB.py)")
    p.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games per opponent and colour (default: the course's: cs3243 and congo 50; nthu 1)")
    p.add_argument("--opponents", type=opponent_list, default=None,
                   metavar="A,B,...", help=f"default: the variant's (cs3243 {','.join(DEFAULT_OPPONENTS)}; "
                                           f"congo random,greedy,minimax,alphabeta; nthu baseline1,...,baseline4)")
    p.add_argument("--colour", choices=("white", "black", "both"), default=None,
                   help="the agent's colour (default white, as in the course; nthu both)")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"where report.json, report.md and the games go (default {DEFAULT_OUT})")
    add_game_options(p, "game i against each opponent is played with seed S+i (default 0)")
    p.add_argument("--game-time", type=positive_seconds, default=None, metavar="SECONDS",
                   help="an agent whose thinking over one game passes this loses by game_time (default: the "
                        f"course's limit per game, cs3243 {COURSE_GAME_SECONDS:g}; congo and nthu none)")
    p.add_argument("--analyse", nargs="?", const="lost", choices=("lost", "all"), default=None,
                   help="after the games, review them (harness analyse): the games the agent did not win "
                        "(lost, the default) or all; report.md names each turning point")
    add_analyser_options(p)
    add_run_options(p, keep_previous=True)
    p.set_defaults(run=run)
