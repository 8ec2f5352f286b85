"""How decisively AB.py beats an opponent, and at what cost in time; several files side by side.

Run: python bench/ab_vs_opponent.py [FILE ...] [--opponent minimax [smart ...]] [--seeds 1000 1100]
                                    [--jobs 2] [--budget N] [--out FILE.jsonl]

Every file (default: AB.py) plays the opponent as White and as Black on every seed in the
half-open range --seeds. The seed drives the opponent's random tie-breaks; AB.py is
deterministic (its search is bounded by nodes, not time), so the files meet the same opponent
and any difference between them comes from their own moves. Games run in process through
harness.isolation.student.StudentAgent (a fresh module per game; as Black it sees the mirrored board) and
harness.core.referee.play_game, --jobs at a time; --budget sets NODE_BUDGET on every copy (GAME_CAP
keeps its ratio), as bench/ab_strength.py does.

Printed per file:
- W/D/L, and the seed and colour of every game not won;
- game length: mean and median plies, and how many games went past 100 plies;
- how fast it gets ahead: the share of games in which its material lead (the harness's piece
  values) is at most +300 after 40 and after 60 plies (a game already won counts as ahead);
- think time: median seconds per move, and per game the median, the 99th percentile and the
  longest total;
- nodes per game (the file's `GAME['nodes']` at the end, plus `GAME['extra']` if it has one:
  main search and quiescence, book moves free): median, 99th percentile and most. Unlike
  seconds these are exact, so a change to the budget can be judged on them whatever the
  machine's load; divide by the nodes per second of bench/ab_speed.py on a quiet machine for
  the time;
- the games in which the strong-opponent boost fired (`GAME['extra']` above 0: nodes spent
  beyond the plain budget), with those extra nodes.

--out writes each game's summary with its moves as JSON lines (bench/ab_reply_quality.py reads
them).

Against Minimax a draw comes about once in a few hundred games, so W/D/L needs thousands of games
to tell two versions apart. Game length and the lead figures move long before: compare those.
Times are wall-clock with --jobs games in parallel, so they are only comparable within one run.
"""
import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_strength import BUDGET_NAME, CAP_NAME, ab_agent  # noqa: E402
from agents import make_agent  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.variants.cs3243.game import Game, move_from_name  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.runs.pool import in_task_order, worker_pool  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

LEAD_PLIES = (40, 60)
LEAD_MARGIN = 300
LONG_GAME = 100
WON_ALREADY = 10 ** 6


def replay(moves):
    """The game after the recorded plies `moves` (move names such as "c1c2") from the start."""
    game = Game()
    for name in moves:
        game.play(move_from_name(RULES, name))
    return game


def material_lead(game, colour):
    """colour's material minus the other side's, in the harness's piece values."""
    sign = {colour.capitalize(): 1}
    return sum(RULES.variant.by_name[piece].value * sign.get(owner, -1)
               for piece, owner in game.gameboard.values())


def spend_allowance(module, plies):
    """A fresh AB.py joining a game after `plies` plies has used none of its per-game
    allowance; cut GAME_CAP to about what it would have left there (NODE_BUDGET per own move
    so far), so that it does not play the rest of the game on more nodes than in a real game."""
    budget = getattr(module, BUDGET_NAME)
    if hasattr(module, CAP_NAME):
        setattr(module, CAP_NAME, max(4 * budget, getattr(module, CAP_NAME) - plies // 2 * budget))


def play(task):
    """task: (file, budget, opponent, seed, colour[, start]): one game's summary. start: plies
    already played (recorded move names); the game goes on from there, and its plies and the
    lead checkpoints (LEAD_PLIES) are counted from there."""
    path, budget, opponent, seed, colour = task[:5]
    start = task[5] if len(task) > 5 else []
    ab = ab_agent(path, budget)
    if start:
        spend_allowance(ab.module, len(start))
    other = make_agent(opponent)
    white, black = (ab, other) if colour == "white" else (other, ab)
    leads = {}

    def observe(game, _colour, _move, _seconds):
        if game.plies - len(start) in LEAD_PLIES:
            leads[game.plies - len(start)] = material_lead(game, colour)

    record = play_game(white, black, seed=seed, game=replay(start), on_move=observe)
    state = getattr(ab.module, "GAME", {})
    nodes, extra = state.get("nodes"), state.get("extra")
    if nodes is not None and extra:
        nodes += extra
    for agent in (white, black):
        agent.close()
    won = record["result"] == colour
    outcome = "W" if won else ("D" if record["result"] == "draw" else "L")
    for ply in LEAD_PLIES:
        if ply not in leads and won:
            leads[ply] = WON_ALREADY
    return {"file": path, "seed": seed, "colour": colour, "outcome": outcome,
            "reason": record["reason"], "plies": record["plies"] - len(start), "leads": leads,
            "seconds": record["think"][colour]["seconds"], "nodes": nodes, "extra": extra,
            "error": record["error"], "moves": record["moves"]}


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(path, games, long_game=LONG_GAME):
    counts = Counter(g["outcome"] for g in games)
    plies = [g["plies"] for g in games]
    totals = [sum(g["seconds"]) for g in games]
    moves = [s for g in games for s in g["seconds"]]
    lines = [f"{path}: {len(games)} games, W/D/L {counts['W']}/{counts['D']}/{counts['L']}"]
    for g in sorted(games, key=lambda g: (g["seed"], g["colour"])):
        if g["outcome"] != "W":
            where = f"position {g['position']}, " if "position" in g else ""
            lines.append(f"  not won: {where}seed {g['seed']} as {g['colour']}: {g['outcome']} "
                         f"({g['reason']}, {g['plies']} plies){' ' + g['error'] if g['error'] else ''}")
    lines.append(f"  plies: mean {statistics.mean(plies):.1f}, median {statistics.median(plies):g}, "
                 f"over {long_game}: {sum(p > long_game for p in plies)}")
    shares = []
    for ply in LEAD_PLIES:
        behind = sum(g["leads"].get(ply, -WON_ALREADY) <= LEAD_MARGIN for g in games)
        shares.append(f"after {ply} plies {100 * behind / len(games):.1f} %")
    lines.append(f"  lead at most +{LEAD_MARGIN}: " + ", ".join(shares))
    lines.append(f"  think: median {statistics.median(moves):.3f} s per move; per game median "
                 f"{statistics.median(totals):.2f} s, 99th percentile {percentile(totals, 0.99):.2f} s, "
                 f"longest {max(totals):.2f} s")
    nodes = [g["nodes"] for g in games if g.get("nodes") is not None]
    if nodes:
        longest = max(games, key=lambda g: g.get("nodes") or 0)
        lines.append(f"  nodes per game (exact, the machine's load aside): median {statistics.median(nodes):,.0f}, "
                     f"99th percentile {percentile(nodes, 0.99):,}, most {max(nodes):,} "
                     f"(seed {longest['seed']} as {longest['colour']}, {longest['plies']} plies)")
    boosted = [g for g in games if g.get("extra")]
    if any(g.get("extra") is not None for g in games):
        lines.append(f"  strong-opponent boost (GAME['extra'] > 0): {len(boosted)} games"
                     + "".join(f"; seed {g['seed']} as {g['colour']}: {g['extra']:,} extra nodes"
                               for g in sorted(boosted, key=lambda g: (g['seed'], g['colour']))))
    return "\n".join(lines)


def play_all(tasks, jobs):
    """Every task's game summary (in task order), jobs games at a time, and the seconds taken.
    Each file is loaded here first: one that cannot be played stops the run with its line now,
    not in a pool's worker (whose SystemExit would leave the pool waiting for ever)."""
    for path in sorted({task[0] for task in tasks}):
        ab_agent(path).close()
    started = time.perf_counter()
    with worker_pool(jobs, len(tasks)) as run:
        games = in_task_order(run, play, tasks)
    return games, time.perf_counter() - started


def report(files, games, heading, out=None, long_game=LONG_GAME):
    """Print the heading and each file's summary; write every game's summary to out (JSON lines)."""
    print(heading)
    for path in files:
        print(summary(path, [g for g in games if g["file"] == path], long_game))
    if out:
        with open(out, "w") as handle:
            for g in games:
                handle.write(json.dumps(g) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", default=[os.path.join(ROOT, "AB.py")])
    parser.add_argument("--opponent", nargs="+", default=["minimax"],
                        help="one or more opponents, each reported on its own")
    parser.add_argument("--seeds", type=int, nargs=2, default=[1000, 1100], metavar=("FIRST", "END"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--out", help="write every game's summary here as JSON lines")
    args = parser.parse_args(argv)
    played = []
    for opponent in args.opponent:
        tasks = [(path, args.budget, opponent, seed, colour)
                 for path in args.files for seed in range(*args.seeds) for colour in ("white", "black")]
        games, seconds = play_all(tasks, args.jobs)
        report(args.files, games, f"{opponent}, seeds {args.seeds[0]}..{args.seeds[1] - 1}, both "
               f"colours, {args.jobs} jobs, {seconds:.0f} s")
        played.extend(dict(g, opponent=opponent) for g in games)
    if args.out:
        with open(args.out, "w") as handle:
            for g in played:
                handle.write(json.dumps(g) + "\n")


if __name__ == "__main__":
    sys.exit(exit_code(main))
