"""AB.py self-play ladder: does doubling the node budget make it stronger, and how fast is it?

Run: python bench/ab_strength.py [--budgets 1000 2000 4000 8000] [--games 20] [--jobs 2]
                                 [--seed 3243] [--timing-games 10] [--positions 24] [--ab AB.py]

1. Ladder. For each N in --budgets, AB.py with a budget of N nodes per move plays AB.py with
   2N, --games games. Each side is its own copy of AB.py (harness.isolation.student.StudentAgent, a
   fresh module per game and side; as Black it sees the mirrored board), with the budget
   constant (NODE_BUDGET) set on that copy after loading; a per-game cap derived from it
   (GAME_CAP, when AB.py has one) keeps its ratio to the budget. Every game starts from a
   seeded random 2-ply opening (two uniformly random plies from the start position with
   harness.variants.cs3243.game.Game), then the referee (harness.core.referee.play_game) plays it out. Openings come
   in pairs: game 2k and 2k+1 share opening seed --seed + k, with the 2N side White in game 2k
   and Black in 2k+1. The same openings are used on every rung. The opening plies count toward
   the 50-ply rule.
   Printed per rung, from the 2N side: W/D/L, score (win 1, draw 1/2), the logistic Elo
   difference Elo = -400 * log10(1 / score - 1) with its 95 % margin (the standard error of the
   per-game score, sqrt(variance of the results / games), taken to Elo at score +- 1.96 standard
   errors; printed as "Elo +- half the interval's width", or as "Elo [low, high]" when an end of
   the interval is past 0 % or 100 % and so infinite), the endings, the plies per game, and
   AB.py's nodes per second at N and at 2N.
2. Nodes per second. AB.py counts its nodes (main search + quiescence) in ENGINE.nodes, reset
   at each move; the rate is the sum of those counts over the sum of the wall-clock seconds of
   studentAgent on a fixed set of positions (--positions positions taken every 4 plies from
   seeded greedy-vs-smart games; each asked with AB.py's game-following state cleared), one
   process, before the games start. If AB.py has no such counter, the rate is budget / seconds.
3. Time at the default budget (the budget AB.py ships with): median and max seconds per move
   and the max total think time in one game, over the moves of the side that plays at the
   default budget when that budget is one of the ladder's (N or 2N), otherwise over a short
   run of AB.py (White, as in the course) against Minimax from the start position
   (--timing-games games, seeds 0..n-1). Games run in --jobs parallel processes, so on a
   machine with fewer free cores than jobs these times are inflated.
"""
import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from agents import make_agent  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.isolation.student import StudentAgent  # noqa: E402
from harness.variants.cs3243.game import DEFAULT_FIFTY_LIMIT, DEFAULT_MAX_PLIES, Game, move_from_name  # noqa: E402
from harness import stats  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.runs.pool import worker_pool  # noqa: E402

BUDGET_NAME = "NODE_BUDGET"
CAP_NAME = "GAME_CAP"
# figures derived from the budget (the per-game allowances, the opening's budget): they keep
# their ratio to it when the budget is set
DERIVED_NAMES = (CAP_NAME, "EXTRA_CAP", "OPEN_BUDGET")
OPENING_PLIES = 2


# -- AB.py as an agent with a chosen budget ------------------------------------------------------

def set_budget(module, nodes):
    """Set a loaded AB.py's per-move node budget; the figures derived from it (DERIVED_NAMES)
    keep their ratio to it."""
    default = getattr(module, BUDGET_NAME)
    setattr(module, BUDGET_NAME, nodes)
    for name in DERIVED_NAMES:
        if hasattr(module, name):
            setattr(module, name, getattr(module, name) * nodes // default)


def ab_agent(path, budget=None):
    """A fresh copy of AB.py as a referee agent; budget None keeps the file's own."""
    agent = StudentAgent(path)
    module = agent.module
    if not hasattr(module, BUDGET_NAME):
        raise SystemExit(f"{path} has no {BUDGET_NAME} constant to set")
    if budget is not None:
        set_budget(module, budget)
    agent.name = f"AB@{getattr(module, BUDGET_NAME)}"
    return agent


def default_budget(path):
    return getattr(ab_agent(path).module, BUDGET_NAME)


def opening(seed):
    """The start position after OPENING_PLIES seeded uniformly random plies."""
    rng = random.Random(seed)
    game = Game()
    for _ in range(OPENING_PLIES):
        if game.adjudicate():
            break
        game.play(rng.choice(game.legal_moves()))
    return game


# -- one game (runs in a worker process) ---------------------------------------------------------

def ladder_game(task):
    """task: (rung N, game index, base seed, path). The 2N side is White in even games."""
    n, index, base_seed, path = task
    opening_seed = base_seed + index // 2
    big_white = index % 2 == 0
    small, big = ab_agent(path, n), ab_agent(path, 2 * n)
    white, black = (big, small) if big_white else (small, big)
    started = time.perf_counter()
    try:
        record = play_game(white, black, seed=opening_seed, game=opening(opening_seed))
    finally:
        small.close()           # (a worker plays many games: each copy goes when its game ends)
        big.close()
    big_colour = "white" if big_white else "black"
    small_colour = "black" if big_white else "white"
    if record["result"] == "draw":
        outcome = "D"
    else:
        outcome = "W" if record["result"] == big_colour else "L"
    return {"kind": "ladder", "n": n, "index": index, "outcome": outcome,
            "reason": record["reason"], "plies": record["plies"], "error": record["error"],
            "think": {n: record["think"][small_colour], 2 * n: record["think"][big_colour]},
            "wall": time.perf_counter() - started}


def timing_game(task):
    """task: (seed, path): AB.py at its default budget (White) against Minimax."""
    seed, path = task
    ab = ab_agent(path)
    try:
        record = play_game(ab, make_agent("minimax"), seed=seed, game=Game())
    finally:
        ab.close()
    if record["result"] == "draw":
        outcome = "D"
    else:
        outcome = "W" if record["result"] == "white" else "L"
    return {"kind": "timing", "seed": seed, "outcome": outcome, "reason": record["reason"],
            "plies": record["plies"], "error": record["error"], "think": record["think"]["white"]}


def run_task(task):
    kind, payload = task
    return ladder_game(payload) if kind == "ladder" else timing_game(payload)


# -- nodes per second ----------------------------------------------------------------------------

def sample_positions(count):
    """(gameboard, colour) every 4 plies of seeded greedy-vs-smart games, `count` of them."""
    positions = []
    seed = 0
    while len(positions) < count and seed < 1000:
        record = play_game(make_agent("greedy"), make_agent("smart"), seed=10_000 + seed, game=Game())
        seed += 1
        game = Game()
        for ply, name in enumerate(record["moves"]):
            if ply % 4 == 0 and len(positions) < count and not game.adjudicate():
                positions.append((dict(game.gameboard), game.to_move))
            game.play(move_from_name(game.rules, name))
    return positions


def nodes_per_second(path, budget, positions):
    """(nodes/s, how it was measured) of AB.py at `budget` on the positions."""
    agent = ab_agent(path, budget)
    module = agent.module
    state = getattr(module, "GAME", None)
    engine = getattr(module, "ENGINE", None)
    counted = engine is not None and hasattr(engine, "nodes")
    rng = random.Random(0)
    nodes = 0
    seconds = 0.0
    for gameboard, colour in positions:
        if isinstance(state, dict):
            state["after"] = None          # each position on its own, not as part of a game
        started = time.perf_counter()
        agent.choose_move(dict(gameboard), colour, rng)
        seconds += time.perf_counter() - started
        nodes += engine.nodes if counted else budget
    how = "ENGINE.nodes" if counted else "budget/seconds"
    return (nodes / seconds if seconds else 0.0), how


# -- statistics ----------------------------------------------------------------------------------

def elo_with_margin(w, d, losses):
    """(score, Elo, low, high) from one side's W/D/L (harness.stats: the Elo at the score and at
    score -+ 1.96 standard errors, the 95 % interval; an end past 0 % or 100 % is infinite)."""
    return (stats.score(w, d, losses), stats.elo(w, d, losses)) + stats.elo_interval(w, d, losses)


def fmt_one(elo):
    if not math.isfinite(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo) + 0:+d}"


def fmt_elo(elo, low, high):
    """"+70 +- 140" (half the interval's width) when both ends are finite, else "+338 [-56, +inf]"."""
    if math.isfinite(low) and math.isfinite(high) and math.isfinite(elo):
        return f"{fmt_one(elo)} +- {(high - low) / 2:.0f}"
    return f"{fmt_one(elo)} [{fmt_one(low)}, {fmt_one(high)}]"


def time_summary(thinks):
    """Median and max seconds per move, max total seconds in one game."""
    moves = [s for t in thinks for s in t["seconds"]]
    if not moves:
        return None
    return statistics.median(moves), max(moves), max(t["total"] for t in thinks), len(moves), len(thinks)


# -- main ----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000, 8000],
                        help="the N of each rung (N vs 2N); default 1000 2000 4000 8000")
    parser.add_argument("--games", type=int, default=20, help="games per rung (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes (default 2)")
    parser.add_argument("--seed", type=int, default=3243, help="first opening seed (default 3243)")
    parser.add_argument("--timing-games", type=int, default=10,
                        help="AB.py vs Minimax games for the default-budget times (default 10)")
    parser.add_argument("--positions", type=int, default=24,
                        help="positions for the nodes-per-second measure (default 24)")
    parser.add_argument("--ab", default=os.path.join(ROOT, "AB.py"), help="the file (default AB.py)")
    args = parser.parse_args()
    path = os.path.abspath(args.ab)
    rungs = args.budgets
    default = default_budget(path)
    in_ladder = any(default in (n, 2 * n) for n in rungs)

    print(f"AB.py self-play ladder ({path}): budget N vs 2N nodes per move ({BUDGET_NAME}; "
          f"AB.py's default {default})")
    print(f"  {args.games} games per rung, colours alternating, openings: {OPENING_PLIES} random plies "
          f"(seeds {args.seed}..{args.seed + (args.games - 1) // 2}, each played with both colours); "
          f"fifty-move limit {DEFAULT_FIFTY_LIMIT} plies, max game length {DEFAULT_MAX_PLIES} plies; "
          f"--jobs {args.jobs}; Python {sys.version.split()[0]}")

    positions = sample_positions(args.positions)
    rate = {}
    for budget in sorted({b for n in rungs for b in (n, 2 * n)} | {default}):
        rate[budget], how = nodes_per_second(path, budget, positions)
    print(f"  nodes/s: {how} over {len(positions)} fixed positions (greedy-vs-smart games, every "
          f"4th ply), one process: " + ", ".join(f"{b}: {rate[b]:,.0f}" for b in sorted(rate)))

    tasks = [("ladder", (n, i, args.seed, path)) for n in rungs for i in range(args.games)]
    if not in_ladder:
        tasks += [("timing", (seed, path)) for seed in range(args.timing_games)]
    results = []
    started = time.perf_counter()
    with worker_pool(args.jobs, len(tasks)) as run:
        for result in run(run_task, tasks):
            results.append(result)
    wall = time.perf_counter() - started

    print()
    print(f"  {'N':>6} {'2N':>6} {'games':>5} {'W':>3} {'D':>3} {'L':>3} {'score':>7}  "
          f"{'Elo 2N-N (95%)':<18} {'nodes/s N':>10} {'nodes/s 2N':>10}  endings")
    default_thinks = []
    for n in rungs:
        games = [r for r in results if r["kind"] == "ladder" and r["n"] == n]
        wdl = Counter(r["outcome"] for r in games)
        score, elo, low, high = elo_with_margin(wdl["W"], wdl["D"], wdl["L"])
        endings = Counter(r["reason"] for r in games)
        errors = [r for r in games if r["error"]]
        why = ", ".join(f"{k} {v}" for k, v in endings.most_common())
        print(f"  {n:>6} {2 * n:>6} {len(games):>5} {wdl['W']:>3} {wdl['D']:>3} {wdl['L']:>3} "
              f"{score:>7.1%}  {fmt_elo(elo, low, high):<18} {rate[n]:>10,.0f} {rate[2 * n]:>10,.0f}  {why}"
              + (f"  ERRORS {len(errors)}: {errors[0]['error']}" if errors else ""))
        plies = [r["plies"] for r in games]
        print(f"  {'':>6} {'':>6} plies per game: median {statistics.median(plies):.0f}, max {max(plies)}")
        for budget in (n, 2 * n):
            if budget == default:
                default_thinks.extend(r["think"][budget] for r in games)

    print()
    if in_ladder:
        source = "the default-budget side's moves in the ladder games"
    else:
        timing = [r for r in results if r["kind"] == "timing"]
        default_thinks = [r["think"] for r in timing]
        wdl = Counter(r["outcome"] for r in timing)
        endings = Counter(r["reason"] for r in timing)
        source = (f"AB.py (White) vs Minimax, {len(timing)} games from the start position: "
                  f"W/D/L {wdl['W']}/{wdl['D']}/{wdl['L']}; endings: "
                  + ", ".join(f"{k} {v}" for k, v in endings.most_common()))
    summary = time_summary(default_thinks)
    print(f"Time at the default budget ({default} nodes), {source}")
    if summary is None:
        print("  no moves")
    else:
        median, worst, total, moves, games = summary
        print(f"  seconds per move: median {median:.3f}, max {worst:.3f} ({moves} moves); "
              f"max total think time in one game {total:.2f} s ({games} games)")
    print(f"Wall time {wall:.0f} s")


if __name__ == "__main__":
    sys.exit(exit_code(main))
