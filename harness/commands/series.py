"""`series --white A --black B --games N`: N games in parallel, results.jsonl and the score lines."""
import os

from ..isolation import box
from ..runs import cluster
from ..grading import grade
from .. import players
from ..view.text import elo_line, score_line
from ..grading.report_html import write_series_html
from ..runs.results import hold_folder, outcome
from ..runs.series import RunOptions, SeriesPlan, directory_name, run_plans
from .common import (DEFAULT_OUT, add_game_options, add_game_time_option, add_run_options, agent_spec, agents_help,
                     positive_int, progress_mode, runs_in, series_limits)


def run(args) -> int:
    limits = series_limits(args)
    agent_spec(args.white, limits["variant"])
    agent_spec(args.black, limits["variant"])
    out = args.out or os.path.join(DEFAULT_OUT, directory_name(f"{args.white}-vs-{args.black}"))
    plan = SeriesPlan(out=out, white=args.white, black=args.black, games=args.games,
                      swap=bool(limits["openings"]), **limits)
    with hold_folder(out):           # one run at a time in --out
        return _run(args, plan, limits, out)


def _run(args, plan: SeriesPlan, limits: dict, out: str) -> int:
    runs_in(out, args)
    with cluster.connect(args.cluster) as executor:
        records = run_plans([plan], RunOptions(jobs=args.jobs, resume=args.resume, fresh=args.force,
                                               progress=progress_mode(args), executor=executor)).records[0]
    score = {key: sum(1 for r in records if r["result"] == key) for key in ("white", "draw", "black")}
    endings = {}
    for r in records:
        endings[r["reason"]] = endings.get(r["reason"], 0) + 1
    print(f"{args.white} (White) vs {args.black} (Black): {len(records)} games: "
          f"White won {score['white']}, {score['draw']} drawn, Black won {score['black']}")
    if plan.swap:      # colours reversed game by game: the score is the first agent's, not White's
        first = [outcome(r, plan.first_colour(r["game"])) for r in records]
        wins, losses, draws = first.count("win"), first.count("loss"), first.count("draw")
        print(f"(with --openings, games alternate colours: the lines below are {args.white}'s results)")
    else:
        wins, losses, draws = score["white"], score["black"], score["draw"]
    print(score_line(args.white, args.black, wins, losses, draws))
    print(elo_line(wins, losses, draws))
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items(), key=lambda i: -i[1])))
    for colour in ("white", "black"):
        printed = sum(1 for r in records if (r.get("printed") or {}).get(colour))
        if printed:
            print(f"note: {colour.capitalize()} printed output in {printed} games: "
                  f"the course's autograder rejects files that print")
    html = write_series_html(out, plan.settings(), records)
    if box.weaker(grade.box_from_args(args)) and any(players.is_file_spec(s, limits["variant"])
                                                     for s in (args.white, args.black)):
        print(f"note: {box.isolation(grade.box_from_args(args))}")
    print(f"results: {plan.results_path}; summary: {os.path.join(out, 'report.json')}; pictures: {html}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("series", help="N games between two agents, in parallel, with results.jsonl")
    p.add_argument("--white", required=True, metavar="AGENT", help=agents_help)
    p.add_argument("--black", required=True, metavar="AGENT", help=agents_help)
    p.add_argument("--games", type=positive_int, required=True, metavar="N")
    p.add_argument("--out", metavar="DIR",
                   help=f"where results go (default {DEFAULT_OUT}/WHITE-vs-BLACK)")
    add_game_options(p, "game i is played with seed S+i (default 0)")
    add_game_time_option(p, None)
    add_run_options(p)
    p.set_defaults(run=run)
