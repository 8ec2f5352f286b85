"""Command line: `python -m harness COMMAND ...`. Errors are one line on stderr, never a traceback.

Commands: perft (rules check), play (one game, move by move), series (N games between two
agents), report (an agent against the course's opponents, judged by the course's pass marks)
and check (would the course's autograder accept this file?). See README.md ("Command-line reference").
"""
import argparse
import os
import sys
import time
from typing import List, NoReturn, Optional

from . import box, cluster, grade, players, stats, tournament
from .argtypes import whole_number as whole_number_at_least
from .agent import AgentError
from .check import check_file, check_summary, format_problem
from .game import Game
from .html_report import write_report_html, write_series_html
from .referee import play_game
from .report import (COURSE_GAME_SECONDS, DEFAULT_OPPONENTS, build_report, directory_name, opponent_entry,
                     plan_report, render_text, write_report)
from .results import ResultsError, append_record, outcome
from .sandbox import DEFAULT_MOVE_TIMEOUT
from .series import SeriesError, SeriesPlan, run_plans
from .variants import DEFAULT_VARIANT, UnknownVariant, find_variant, variant_names
from .variants.base import BLACK, Variant
from .variants.cs3243.config import ConfigError
from .variants.cs3243.game import DEFAULT_FIFTY_LIMIT, DEFAULT_MAX_PLIES

DEFAULT_OUT = "reports"


class UsageError(Exception):
    """A problem with the command line or its files, reported as one line."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage dump), still with exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def variant_of(args) -> Variant:
    try:
        return find_variant(getattr(args, "variant", None) or DEFAULT_VARIANT)
    except UnknownVariant as exc:
        raise UsageError(str(exc)) from None


def start_options(args, variant: Variant) -> dict:
    """The variant's start options from --fifty, --max-plies, --config and --fen."""
    try:
        return variant.game_options(fifty=getattr(args, "fifty", None),
                                    max_plies=getattr(args, "max_plies", None),
                                    config=getattr(args, "config", None), fen=getattr(args, "fen", None))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def move_timeout_of(args, variant: Variant) -> float:
    """--move-timeout, or the variant's own default (nthu: the course's 10 s), or the sandbox's."""
    given = getattr(args, "move_timeout", None)
    if given is not None:
        return given
    return variant.default_move_timeout or DEFAULT_MOVE_TIMEOUT


positive_int = whole_number_at_least(1)
whole_number = whole_number_at_least(None)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"'{text}' must be a positive number of seconds")
    return value


def agent_spec(spec: str, variant: str = DEFAULT_VARIANT) -> str:
    """Check an agent spec early, so a typo is one line before any game starts."""
    players.check_spec(spec, variant)
    return spec


# ----------------------------------------------------------------------------- perft


def cmd_perft(args) -> int:
    variant = variant_of(args)
    options = start_options(args, variant)
    if args.black:
        if variant.name != "cs3243":
            raise UsageError(f"--black is for cs3243 positions; {variant.name} takes the side from --fen")
        options["to_move"] = BLACK
    state = variant.start(**options)
    print("depth nodes seconds", flush=True)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = variant.perft(state, depth)
        print(f"{depth} {nodes} {time.perf_counter() - started:.3f}", flush=True)
    return 0


# ----------------------------------------------------------------------------- play


def describe_result(record: dict) -> str:
    if record["result"] == "draw":
        outcome = "Draw"
    else:
        outcome = f"{record['result'].capitalize()} ({record[record['result']]}) wins"
    return f"{outcome} by {record['reason']} after {record['plies']} plies."


def print_output_notes(record: dict) -> None:
    for colour, text in (record.get("printed") or {}).items():
        if text:
            print(f"\n{colour.capitalize()} printed (the course rejects files that print):")
            print("    " + text.rstrip().replace("\n", "\n    "))
    for colour, count in (record.get("mutated") or {}).items():
        if count:
            print(f"{colour.capitalize()} changed the board it was given on {count} moves "
                  f"(it only ever gets a copy).")


def cmd_play(args) -> int:
    variant = variant_of(args)
    agent_spec(args.white, variant.name)
    agent_spec(args.black, variant.name)
    game = Game(variant, variant.start(**start_options(args, variant)))
    print(f"White: {args.white}   Black: {args.black}   seed {args.seed}   {variant.describe(game.state)}")
    print(variant.board_text(game.state))
    print(f"({variant.legend()}; upper case White, lower case Black)\n", flush=True)

    def show(game: Game, colour: str, move, seconds: float) -> None:
        print(f"{game.plies:>3}. {colour:<5} {variant.move_name(move)}  ({seconds:.3f} s)")
        print(variant.board_text(game.state, last=move), flush=True)

    white = players.build(args.white, move_timeout_of(args, variant), variant.name)
    black = players.build(args.black, move_timeout_of(args, variant), variant.name)
    try:
        record = play_game(white, black, args.seed, game, on_move=show, game_time=args.game_time)
    finally:
        white.close()
        black.close()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            append_record(handle, {"game": 0, **record})
    print(f"\n{describe_result(record)}")
    if record["error"]:
        print(f"Error: {record['error']}")
    print_output_notes(record)
    if args.out:
        print(f"saved: {args.out} (python -m harness replay {args.out} --game 0)")
    return 0


# ----------------------------------------------------------------------------- series


def series_limits(args) -> dict:
    variant = variant_of(args)
    start_options(args, variant)          # a bad option or config file is one line, now
    return {"seed": args.seed, "fifty": args.fifty, "max_plies": args.max_plies,
            "move_timeout": move_timeout_of(args, variant), "config": args.config, "variant": variant.name,
            "fen": getattr(args, "fen", None), "game_time": args.game_time, "openings": args.openings or 0,
            **box_option(args)}


def box_option(args) -> dict:
    """{"box": settings} for .py files (harness.box), or {} with --no-box."""
    settings = grade.box_from_args(args)
    return {"box": settings.to_dict()} if settings is not None and hasattr(args, "no_box") else {}


def progress_mode(args) -> Optional[str]:
    return "none" if args.quiet else (args.progress or "auto")


_RESUME_HINT: List[str] = []     # set while a run is going: what to tell the user on Ctrl-C


def runs_in(out: str) -> None:
    _RESUME_HINT[:] = [f"the games finished so far are kept in {out}; run the same command with --resume "
                       f"to play the rest"]


def cmd_series(args) -> int:
    limits = series_limits(args)
    agent_spec(args.white, limits["variant"])
    agent_spec(args.black, limits["variant"])
    out = args.out or os.path.join(DEFAULT_OUT, directory_name(f"{args.white}-vs-{args.black}"))
    plan = SeriesPlan(out=out, white=args.white, black=args.black, games=args.games,
                      swap=bool(limits["openings"]), **limits)
    runs_in(out)
    with cluster.connect(args.cluster) as executor:
        records = run_plans([plan], jobs=args.jobs, resume=args.resume, fresh=args.force,
                            progress=progress_mode(args), executor=executor)[0]
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
    print(stats.score_line(args.white, args.black, wins, losses, draws))
    print(stats.elo_line(wins, losses, draws))
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


# ----------------------------------------------------------------------------- report


def opponent_list(text: str) -> List[str]:
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError("no opponent named")
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty opponent name in '{text}'")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"an opponent is named twice in '{text}'")
    return names


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


def cmd_report(args) -> int:
    variant = variant_of(args)
    report_defaults(args, variant)
    limits = series_limits(args)
    agent_spec(args.agent, limits["variant"])
    for opponent in args.opponents:
        agent_spec(opponent, limits["variant"])
    colours = ("white", "black") if args.colour == "both" or limits["openings"] else (args.colour,)
    laid_out = plan_report(args.agent, args.opponents, colours, args.games, args.out, **limits)
    runs_in(args.out)      # before the check: a Ctrl-C from here on gets the resume hint
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
        all_records = run_plans([plan for *_, plan in laid_out], jobs=args.jobs, resume=args.resume,
                                fresh=args.force, progress=progress_mode(args), on_plan_done=done,
                                executor=executor)
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
    write_report(args.out, report)
    html = write_report_html(args.out, report)
    print(render_text(report), end="")
    print(f"written: {os.path.join(args.out, 'report.json')}, {os.path.join(args.out, 'report.md')}, {html}")
    return 0


# ----------------------------------------------------------------------------- check


def cmd_check(args) -> int:
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


# ----------------------------------------------------------------------------- export-nthu


def cmd_export_nthu(args) -> int:
    from .variants.nthu.export import export_nthu
    try:
        out = export_nthu(args.agent, args.out, seconds=args.seconds)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(f"{out}: NTHU player ({args.agent}, {args.seconds:g} s of search per move); run it as "
          f"the course's runner does: {out} state action")
    return 0


# ----------------------------------------------------------------------------- grade, tournament


def add_box_options(p: argparse.ArgumentParser, can_turn_off: bool = True) -> None:
    """--cluster, --memory-mb (and --no-box) for the commands that play games."""
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Dask scheduler (tcp://HOST:PORT) instead of the local pool")
    p.add_argument("--memory-mb", type=positive_int, default=grade.BOX_MEMORY_MB, metavar="MB",
                   help=f"address space a student file may use (default {grade.BOX_MEMORY_MB})")
    if can_turn_off:
        p.add_argument("--no-box", action="store_true",
                       help=".py files run in their own process only, without bubblewrap and its limits "
                            "(for speed comparisons)")


def cmd_grade(args) -> int:
    limits = series_limits(args)
    if limits["openings"]:
        raise UsageError("grade plays from the course's start position; --openings is for series, "
                             "report and tournament")
    for opponent in args.opponents:
        agent_spec(opponent, limits["variant"])
        if players.is_file_spec(opponent, limits["variant"]):
            raise UsageError(f"opponent '{opponent}': grade plays the class against built-in opponents")
    runner = cluster.runner(args.cluster)
    runs_in(args.out)
    try:
        gradebook = grade.grade_class(args.class_dir, args.out, args.games, args.opponents, limits["variant"],
                                args.seed, limits["move_timeout"], args.game_time, grade.box_from_args(args),
                                args.jobs, runner, args.resume, args.force, progress_mode(args),
                                say=(lambda text: None) if args.quiet else grade.say,
                                start={key: limits[key] for key in ("fifty", "max_plies", "config", "fen")})
    finally:
        if runner is not None:
            runner.close()
    print("\n".join(grade.summary_lines(gradebook)))
    print(f"isolation: {gradebook['isolation']}")
    print(f"written: {os.path.join(args.out, grade.GRADEBOOK_CSV)}, {os.path.join(args.out, grade.GRADEBOOK_JSON)}, "
          f"reports in {os.path.join(args.out, grade.STUDENTS)}")
    return 0


def add_grade_parser(sub) -> None:
    p = sub.add_parser("grade", help="a whole class's files, boxed, against the course's opponents: a gradebook")
    p.add_argument("class_dir", metavar="CLASS_DIR",
                   help="sub-folders NAME/ with AB.py (or one .py file), or NAME.py files")
    p.add_argument("--out", required=True, metavar="DIR", help="where the gradebook and the reports go")
    p.add_argument("--games", type=positive_int, default=50, metavar="N",
                   help="games per opponent (default 50, as the course)")
    p.add_argument("--opponents", type=opponent_list, default=list(DEFAULT_OPPONENTS),
                   metavar="A,B,...", help=f"default {','.join(DEFAULT_OPPONENTS)}")
    add_game_options(p, "game i against each opponent is played with seed S+i (default 0)")
    add_game_time_option(p, COURSE_GAME_SECONDS)
    add_run_options(p, box=False)
    p.set_defaults(run=cmd_grade)


def cmd_tournament(args) -> int:
    limits = series_limits(args)
    if len(args.players) < 2:
        raise UsageError("a tournament needs at least two agents")
    if len(set(args.players)) != len(args.players):
        raise UsageError("an agent is named twice")
    for spec in args.players:
        agent_spec(spec, limits["variant"])
    out = args.out or os.path.join(DEFAULT_OUT, "tournament")
    runs_in(out)
    with cluster.connect(args.cluster) as executor:
        report = tournament.run_tournament(args.players, args.games, out, jobs=args.jobs, executor=executor,
                                resume=args.resume, force=args.force, progress=progress_mode(args),
                                **limits)
    print(tournament.render_text(report), end="")
    print(f"written: {os.path.join(out, tournament.REPORT_JSON)}, {os.path.join(out, tournament.REPORT_MD)}, "
          f"{os.path.join(out, 'report.html')}")
    return 0


def add_tournament_parser(sub) -> None:
    p = sub.add_parser("tournament", help="round robin of agents, both colours: crosstable and Elo ratings")
    p.add_argument("players", nargs="+", metavar="AGENT", help="two or more agents (built-in names or .py files)")
    p.add_argument("--games", type=positive_int, default=10, metavar="N",
                   help="games per pair and colour (default 10)")
    p.add_argument("--out", metavar="DIR", help=f"where the games and report go (default {DEFAULT_OUT}/tournament)")
    add_game_options(p, "game i of each pair is played with seed S+i (default 0)")
    add_game_time_option(p, None)
    add_run_options(p)
    p.set_defaults(run=cmd_tournament)


# ----------------------------------------------------------------------------- parser


def add_variant_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default=DEFAULT_VARIANT, metavar="NAME",
                   help=f"the game: {', '.join(variant_names())} (default {DEFAULT_VARIANT})")


def add_game_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--seed", type=whole_number, default=0, metavar="S", help=seed_help)
    add_variant_option(p)
    p.add_argument("--fifty", type=positive_int, default=None, metavar="PLIES",
                   help=f"cs3243: draw after this many plies without a capture (default {DEFAULT_FIFTY_LIMIT})")
    p.add_argument("--max-plies", type=positive_int, default=None, metavar="PLIES",
                   help=f"draw when a game reaches this many plies (cs3243 default {DEFAULT_MAX_PLIES}, "
                        f"congo 300)")
    p.add_argument("--move-timeout", type=positive_seconds, default=None,
                   metavar="SECONDS", help="a .py file or program agent loses a move it has not answered "
                                           f"in this time (default {DEFAULT_MOVE_TIMEOUT:g}; nthu 10, as the course)")
    p.add_argument("--config", metavar="FILE", help="cs3243: start from the position in this config.txt")
    p.add_argument("--fen", metavar="FEN", help="start from this position (variants that read FEN)")


def add_game_time_option(p: argparse.ArgumentParser, default: Optional[float]) -> None:
    p.add_argument("--game-time", type=positive_seconds, default=default, metavar="SECONDS",
                   help="an agent whose thinking over one game passes this loses by game_time "
                        + (f"(default {default:g}, the course's limit per game)" if default else "(default: no limit)"))


def add_run_options(p: argparse.ArgumentParser, box: bool = True) -> None:
    p.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                   help="games played at once (default: the number of cores)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--resume", action="store_true",
                       help="continue an interrupted run in --out, playing only the missing games")
    group.add_argument("--force", action="store_true",
                       help="start over in an --out that already holds games (they are discarded)")
    p.add_argument("--progress", choices=("bar", "plain", "none"), default=None,
                   help="a progress bar, a plain line every few seconds, or nothing "
                        "(default: a bar on a terminal, plain lines otherwise)")
    p.add_argument("--quiet", action="store_true", help="no progress (same as --progress none)")
    p.add_argument("--openings", type=positive_int, default=None, metavar="PLIES",
                   help="strength testing: each pair of games starts from a position reached by PLIES "
                        "seeded random plies, the second game with the colours reversed")
    add_box_options(p, can_turn_off=box)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m harness",
                    description="Minichess assignments (CS3243 7x7 fairy minichess first): rules, referee, "
                                "series and reports. `python -m harness COMMAND --help` for a command's options.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    agents_help = ("a built-in (cs3243: dummy, random, greedy, smart, minimax; congo: random, greedy, minimax, "
                   "alphabeta, ab), a path to a .py file with studentAgent, or uci:PATH[,nodes=N][,movetime=MS] "
                   "(a UCI engine such as Fairy-Stockfish)")

    p = sub.add_parser("perft", help="count move sequences from a position (rules check)")
    p.add_argument("depth", type=positive_int, metavar="DEPTH")
    p.add_argument("--config", metavar="FILE", help="cs3243: start from this config.txt position")
    p.add_argument("--fen", metavar="FEN", help="start from this position (variants that read FEN)")
    p.add_argument("--black", action="store_true", help="cs3243: Black moves first")
    add_variant_option(p)
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("play", help="one game shown move by move")
    p.add_argument("--white", required=True, metavar="AGENT", help=agents_help)
    p.add_argument("--black", required=True, metavar="AGENT", help=agents_help)
    add_game_options(p, "the game's seed (default 0)")
    add_game_time_option(p, None)
    p.add_argument("--out", metavar="FILE", help="also save the game as a results record (JSON line) for replay")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("series", help="N games between two agents, in parallel, with results.jsonl")
    p.add_argument("--white", required=True, metavar="AGENT", help=agents_help)
    p.add_argument("--black", required=True, metavar="AGENT", help=agents_help)
    p.add_argument("--games", type=positive_int, required=True, metavar="N")
    p.add_argument("--out", metavar="DIR",
                   help=f"where results go (default {DEFAULT_OUT}/WHITE-vs-BLACK)")
    add_game_options(p, "game i is played with seed S+i (default 0)")
    add_game_time_option(p, None)
    add_run_options(p)
    p.set_defaults(run=cmd_series)

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
    add_run_options(p)
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("check", help="would the course's autograder accept this file?")
    p.add_argument("file", metavar="FILE.py")
    p.add_argument("--move-timeout", type=positive_seconds, default=DEFAULT_MOVE_TIMEOUT,
                   metavar="SECONDS", help=f"time allowed for the import and for one call "
                                           f"(default {DEFAULT_MOVE_TIMEOUT:g})")
    p.set_defaults(run=cmd_check)
    from .variants.nthu.export import DEFAULT_SECONDS
    p = sub.add_parser("export-nthu", help="write an agent as a single-file NTHU MiniChess program")
    p.add_argument("agent", metavar="AGENT", help="the agent to write (ab)")
    p.add_argument("--out", required=True, metavar="PATH", help="the program file to write")
    p.add_argument("--seconds", type=positive_seconds, default=DEFAULT_SECONDS, metavar="S",
                   help=f"search time per move (default {DEFAULT_SECONDS:g}; the course allows 10 s, "
                        "the interpreter's start included)")
    p.set_defaults(run=cmd_export_nthu)
    from . import replay
    replay.add_parser(sub)

    p = sub.add_parser("congo", help="the Congo course's programs: moves, apply, eval1, minimax, eval2, "
                                     "alphabeta, bestmove (python -m harness congo --help)", add_help=False)
    p.add_argument("program_args", nargs=argparse.REMAINDER, metavar="PROGRAM ...")
    add_grade_parser(sub)
    add_tournament_parser(sub)
    return parser


def run_congo(argv: List[str]) -> int:
    """`python -m harness congo PROGRAM ...`: the course's programs, stdin to stdout."""
    from .variants.congo.programs import main as congo_main
    return congo_main(argv, prog="python -m harness congo")


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["congo"]:         # its own parser: the programs' options pass through as given
        def run() -> int:
            return run_congo(argv[1:])
    else:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2

        def run() -> int:
            return args.run(args)
    try:
        return run()
    except (ConfigError, UsageError, AgentError, ResultsError, SeriesError, cluster.ClusterError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:          # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted" + (f": {_RESUME_HINT[0]}" if _RESUME_HINT else ""), file=sys.stderr, flush=True)
        return 130


def entry() -> None:
    """The `minichess` command (pyproject.toml's console script), equal to `python -m harness`."""
    sys.exit(main())
