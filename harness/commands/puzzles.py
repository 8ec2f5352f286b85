"""`puzzles AGENT [--set NAME|FILE] [--json FILE]`: CS3243 tactics, the solved rate per theme.

`puzzles --show ID [--set NAME|FILE]` prints one puzzle's board."""
import json
import os
import sys

from ..isolation import box
from ..runs import cluster
from ..grading import grade
from .. import players
from ..puzzles.puzzle import DEFAULT_SET, PuzzleError, find, load_set, shipped_sets
from ..puzzles.run import render_text, run_set, summarize
from ..runs.results import SUMMARY_FILE, file_sha256, write_json
from ..runs.series import directory_name
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from ..variants.cs3243 import VARIANT
from .common import (UsageError, add_box_options, add_progress_options, add_resume_options, agent_spec,
                     box_option, check_writable, default_out, positive_int, positive_seconds, progress_mode,
                     runs_in)


def show(args) -> int:
    _, puzzles = load_set(args.set)
    puzzle = find(puzzles, args.show)
    if puzzle is None:
        raise UsageError(f"no puzzle '{args.show}' in set {args.set}")
    state = puzzle.state()
    print(f"puzzle {puzzle.id} ({puzzle.theme}), {state.to_move} to move")
    print(VARIANT.board_text(state))
    print(f"({VARIANT.legend()}; upper case White, lower case Black; row 0 is White's back rank)")
    print(f"FEN: {puzzle.fen}")
    print(f"winning move: {' or '.join(puzzle.solutions)}" + (f"; line: {' '.join(puzzle.line)}" if puzzle.line else ""))
    if puzzle.origin is not None:
        print(f"origin: {json.dumps(puzzle.origin)}")
    return 0


def run(args) -> int:
    try:
        if args.show is not None:
            return show(args)
        if args.agent is None:
            raise UsageError("name the AGENT to test (e.g. AB.py), or --show ID to see a puzzle")
        set_file, puzzles = load_set(args.set)
    except PuzzleError as exc:
        raise UsageError(str(exc)) from None
    agent_spec(args.agent, VARIANT.name)
    if args.json:
        check_writable(args.json, "--json")     # before the run, not after it
    is_file = players.is_file_spec(args.agent, VARIANT.name)
    out = args.out or default_out(os.path.join("puzzles", directory_name(
        f"{args.agent}-{os.path.splitext(os.path.basename(set_file))[0]}")))
    settings = {"agent": args.agent, "agent_sha256": file_sha256(args.agent) if is_file else None,
                "set": args.set, "set_sha256": file_sha256(set_file), "move_timeout": args.move_timeout,
                "game_time": VARIANT.game_seconds, "box": box_option(args).get("box")}
    runs_in(out, args)   # Ctrl-C: how to play the rest
    with cluster.connect(args.cluster) as executor:
        records = run_set(args.agent, puzzles, out, settings, jobs=args.jobs or os.cpu_count() or 1,
                          resume=args.resume, fresh=args.force, progress=progress_mode(args), executor=executor,
                          say=lambda text: print(text, file=sys.stderr, flush=True))
    summary = summarize(args.agent, args.set, set_file, puzzles, records)
    write_json(os.path.join(out, SUMMARY_FILE), summary)
    if args.json:
        write_json(args.json, summary)
    print(render_text(summary), end="")
    if is_file and box.weaker(grade.box_from_args(args)):
        print(f"note: {box.isolation(grade.box_from_args(args))}")
    written = os.path.join(out, SUMMARY_FILE) + (f", {args.json}" if args.json else "")
    print(f"attempts: {os.path.join(out, 'results.jsonl')}; summary: {written}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("puzzles", help="CS3243 tactics: an agent's solved rate per theme (mate in 1, mate in 2, ...)")
    p.add_argument("agent", nargs="?", metavar="AGENT",
                   help=f"the agent to test: {players.agent_forms(VARIANT.name)} (CS3243 only)")
    p.add_argument("--set", default=DEFAULT_SET, metavar="NAME|FILE",
                   help=f"a shipped set ({', '.join(shipped_sets()) or 'none'}) or a JSON-lines puzzle file "
                        f"(default {DEFAULT_SET}; format: docs/puzzles.md)")
    p.add_argument("--json", metavar="FILE", help="also write the summary (rates, every missed puzzle) here")
    p.add_argument("--show", metavar="ID", help="print this puzzle's board, FEN and solution, and stop")
    p.add_argument("--out", metavar="DIR", help="where each attempt is recorded (default "
                                                 "reports/puzzles/AGENT-SET)")
    p.add_argument("--move-timeout", type=positive_seconds, default=DEFAULT_MOVE_TIMEOUT, metavar="SECONDS",
                   help=f"a .py file loses a puzzle it has not answered in this time (default {DEFAULT_MOVE_TIMEOUT:g}, "
                        f"as the course)")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                   help="puzzles played at once (default: the number of cores)")
    add_resume_options(p)
    add_progress_options(p)
    add_box_options(p)
    p.set_defaults(run=run)
