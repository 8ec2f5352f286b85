"""AB.py against Fairy-Stockfish on a ladder of node limits: score, W/D/L and Elo difference.

Run: python bench/ab_vs_fsf.py [--games 20] [--nodes 100 1000 10000] [--seed 3243] [--jobs N]
                                [--ab AB.py] [--engine /usr/games/fairy-stockfish] [--out FILE.jsonl]

Per rung (one node limit for the engine) it plays --games games. Each game starts from a
seeded random 2-ply opening (two uniformly random plies from the start position), then hands
the position to the players; openings come in pairs, so each one is played once with AB.py as
White and once as Black (colours alternate game by game). AB.py is loaded with
harness.student.StudentAgent (a fresh module for each game; as Black it sees the mirrored
board) and the engine is agents.uci.UciAgent (one process per game). The opening plies count
toward the 50-ply rule, as the spec says.

Score is AB.py's: a win 1, a draw 1/2, a loss 0. The Elo difference (AB.py minus the engine)
is the logistic one, Elo = -400 * log10(1 / score - 1); its 95 % margin comes from the standard
error of the per-game score (sqrt(variance of the game results / games)), taken to Elo at
score +- 1.96 standard errors (half the width of that interval). A score of 0 % or 100 % has
no finite Elo; it is printed as -inf / +inf.

--out writes every game's record (with start_fen and engine_moves) as JSON lines, numbered by
`game` from 1, so `python -m harness replay FILE.jsonl GAME` shows any of them. Our goal: at
least 50 % against 1,000 nodes.
"""
import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.student import StudentAgent  # noqa: E402
from agents.uci import UciAgent  # noqa: E402
from harness.variants.cs3243.fen import engine_record_fields  # noqa: E402
from harness.variants.cs3243.game import Game  # noqa: E402
from harness import stats  # noqa: E402
from harness.referee import play_game  # noqa: E402
from harness.variants.cs3243.pieces import BLACK, WHITE  # noqa: E402

OPENING_PLIES = 2


def opening(seed: int, pair: int, fifty: int, max_plies: int) -> Game:
    """The start position after OPENING_PLIES random plies (the same for both games of a pair)."""
    rng = random.Random(f"ab_vs_fsf:{seed}:{pair}")
    game = Game(fifty_limit=fifty, max_plies=max_plies)
    for _ in range(OPENING_PLIES):
        if game.adjudicate():
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def play_one(task: dict) -> dict:
    """One game of the ladder (runs in a worker process when --jobs > 1)."""
    game = opening(task["seed"], task["pair"], task["fifty"], task["max_plies"])
    ab = StudentAgent(task["ab"])
    ab.name = "AB.py"
    engine = UciAgent(task["engine"], nodes=task["nodes"])
    white, black = (ab, engine) if task["ab_colour"] == WHITE else (engine, ab)
    started = time.perf_counter()
    try:
        record = play_game(white, black, task["game_seed"], game)
    finally:
        white.close()
        black.close()
    record.update(engine_record_fields(game))
    record.update({"game": task["game"], "nodes": task["nodes"], "ab_colour": task["ab_colour"],
                   "opening_plies": OPENING_PLIES, "wall_seconds": round(time.perf_counter() - started, 3)})
    return record


def ab_points(record: dict) -> Optional[float]:
    """AB.py's score in a game: 1, 0.5 or 0 (None when the harness itself failed)."""
    result = record.get("result")
    if result == "draw":
        return 0.5
    if result in ("white", "black"):
        return 1.0 if result == record["ab_colour"].lower() else 0.0
    return None


def elo_with_margin(points: List[float]) -> Tuple[float, float, float]:
    """(score, Elo difference, 95 % margin in Elo) of a list of per-game points (harness.stats)."""
    wins, draws = points.count(1.0), points.count(0.5)
    losses = len(points) - wins - draws
    return stats.score(wins, draws, losses), stats.elo(wins, draws, losses), stats.elo_margin(wins, draws, losses)


def format_elo(diff: float, margin: float) -> str:
    if not math.isfinite(diff):
        return "+inf" if diff > 0 else "-inf"
    if math.isnan(margin):
        return f"{diff:+.0f}"
    if not math.isfinite(margin):
        return f"{diff:+.0f} +- inf"
    return f"{diff:+.0f} +- {margin:.0f}"


def summary_line(nodes: int, records: List[dict]) -> str:
    points = [p for p in (ab_points(r) for r in records) if p is not None]
    wins, draws = points.count(1.0), points.count(0.5)
    losses = len(points) - wins - draws
    failed = len(records) - len(points)
    if not points:
        return f"nodes={nodes:<6} games={len(records):<3} no scored games"
    score, diff, margin = elo_with_margin(points)
    reasons: Dict[str, int] = {}
    for r in records:
        reasons[r.get("reason") or "?"] = reasons.get(r.get("reason") or "?", 0) + 1
    ab_moves = ab_seconds = 0.0
    for r in records:
        side = r["think"][r["ab_colour"].lower()]
        ab_moves += side["moves"]
        ab_seconds += side["total"]
    per_move = ab_seconds / ab_moves if ab_moves else 0.0
    text = (f"nodes={nodes:<6} games={len(points):<3} W/D/L={wins}/{draws}/{losses:<3} "
            f"score={100 * score:5.1f}%  Elo={format_elo(diff, margin):<12} "
            f"AB s/move={per_move:.2f}  endings: "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    return text + (f"  ({failed} not scored)" if failed else "")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ab", default=os.path.join(ROOT, "AB.py"), help="the agent file (default: AB.py)")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish", help="UCI engine path")
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000, 10000], help="engine node limits")
    parser.add_argument("--games", type=int, default=20, help="games per rung (default 20, even is best)")
    parser.add_argument("--seed", type=int, default=3243, help="seed of the openings and the games")
    parser.add_argument("--fifty", type=int, default=50, help="plies without capture for a draw")
    parser.add_argument("--max-plies", type=int, default=1000, help="maximum game length in plies")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--out", help="write every game's record to this JSON-lines file")
    parser.add_argument("--verbose", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    for path, what in ((args.ab, "agent file"), (args.engine, "engine")):
        if not os.path.exists(path):
            print(f"error: {what} '{path}' does not exist", file=sys.stderr)
            return 2
    if args.games < 1 or args.jobs < 1 or any(n < 1 for n in args.nodes):
        print("error: --games, --jobs and --nodes must be at least 1", file=sys.stderr)
        return 2

    tasks = []
    for rung, nodes in enumerate(args.nodes):
        for i in range(args.games):
            tasks.append({"game": len(tasks) + 1, "nodes": nodes, "pair": i // 2,
                          "ab_colour": WHITE if i % 2 == 0 else BLACK, "ab": args.ab, "engine": args.engine,
                          "seed": args.seed, "game_seed": args.seed * 100000 + rung * 1000 + i,
                          "fifty": args.fifty, "max_plies": args.max_plies})
    print(f"AB.py ({args.ab}) vs {os.path.basename(args.engine)}: {args.games} games per rung, "
          f"{OPENING_PLIES}-ply random openings (seed {args.seed}), colours alternating, "
          f"50-ply rule {args.fifty}", flush=True)
    started = time.perf_counter()
    by_nodes: Dict[int, List[dict]] = {n: [] for n in args.nodes}
    out = open(args.out, "w", encoding="utf-8") if args.out else None

    def done(record: dict) -> None:
        by_nodes[record["nodes"]].append(record)
        if out:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if args.verbose:
            points = ab_points(record)
            print(f"  game {record['game']:>3} nodes={record['nodes']} AB {record['ab_colour']:<5} "
                  f"-> {points} ({record['result']}, {record['reason']}, {record['plies']} plies, "
                  f"{record['wall_seconds']:.1f} s){'  ' + record['error'] if record.get('error') else ''}",
                  file=sys.stderr, flush=True)
        if len(by_nodes[record["nodes"]]) == args.games:
            print(summary_line(record["nodes"], by_nodes[record["nodes"]]), flush=True)

    try:
        if args.jobs == 1:
            for task in tasks:
                done(play_one(task))
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for record in pool.map(play_one, tasks):
                    done(record)
    finally:
        if out:
            out.close()
    print(f"total {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
