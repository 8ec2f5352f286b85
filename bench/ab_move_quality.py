"""How good AB.py's moves are, judged by Fairy-Stockfish: several files on the same positions.

Run: python bench/ab_move_quality.py RESULTS.jsonl [MORE.jsonl ...] --ab OLD.py NEW.py
                                     [--positions 200] [--plies 8 80] [--judge-nodes 300000]

A game against the engine costs about 45 searches of AB.py and gives one result; this asks
each file for its move in --positions positions taken from recorded games (the `--out` files
of bench/ab_vs_fsf.py: AB.py to move, plies --plies FIRST..LAST, spread evenly over the games,
the same positions for every file) and has Fairy-Stockfish judge the moves: its score of the
position at --judge-nodes nodes (`go nodes N`), and of each file's move (`go nodes N
searchmoves MOVE`; harness.isolation.uci_engine's engine, `ucinewgame` before every search, so every verdict is
repeatable; the FEN carries the plies since the last capture). A
move's loss is the best score minus the move's, in the engine's centipawns (0 when the move is
the engine's own choice or scores higher; mates count as 2000, so a loss is at most 4000).

Every file is asked in a fresh module (no game history: the 50-ply counter at 0, the per-game
allowance unspent, no strong-opponent boost), so the comparison is of the search and its
evaluation at the file's NODE_BUDGET; --budget sets one for all files.

Printed per file: mean loss, the share of moves losing more than 100 and 300, the share
matching the engine's choice; then for each later file against the first the paired
difference of the mean loss (per position, with its 95 % margin from the spread of the
per-position differences) and the positions where the two chose differently.

This is a screen, not a verdict: it ranks changes to the search on the engine's judgement of
single moves at a fraction of the cost of games (docs/ab-design.md); a change is kept on games.
"""
import argparse
import json
import os
import random
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_strength import ab_agent  # noqa: E402
from ab_vs_opponent import replay  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness import stats  # noqa: E402
from harness.isolation.uci_engine import UciEngine, parse_score  # noqa: E402
from harness.variants.cs3243 import VARIANT  # noqa: E402
from harness.variants.cs3243.fen import course_to_engine, to_fen  # noqa: E402
from harness.variants.cs3243.pieces import BLACK, WHITE  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

MATE_CP = 2000
SEARCH_TIMEOUT = 600.0


def judge(engine: UciEngine, fen: str, nodes: int, searchmoves: str = "") -> tuple:
    """(best move, score in centipawns for the side to move, mates as +-MATE_CP) of the position
    `fen`, searched to `nodes` from a cleared hash (only among `searchmoves` when given)."""
    if not engine.running:
        engine.start()
    engine.new_game()
    line, infos = engine.search(fen, f"go nodes {nodes}" + (f" searchmoves {searchmoves}" if searchmoves else ""),
                                SEARCH_TIMEOUT)
    cp, mate = parse_score(infos)
    return line.split()[1], cp if mate is None else (MATE_CP if mate > 0 else -MATE_CP)


def positions(paths, count, first, last):
    """(record, ply) pairs: AB.py to move at plies first..last, spread evenly over the games
    (each game's plies in an order shuffled by its opening seed, pair and colour; round after
    round, one ply from each game)."""
    candidates = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        for record in records:
            own = 0 if record["ab_colour"] == WHITE else 1
            plies = [k for k in range(first, min(last, record["plies"] - 1) + 1) if k % 2 == own]
            random.Random(f"{record.get('opening_seed')}:{record.get('pair')}:{record['ab_colour']}").shuffle(plies)
            candidates.append((record, plies))
    chosen = []
    for round_ in range(max((len(plies) for _, plies in candidates), default=0)):
        for record, plies in candidates:
            if round_ < len(plies) and len(chosen) < count:
                chosen.append((record, plies[round_]))
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="bench/ab_vs_fsf.py --out files (the games)")
    parser.add_argument("--ab", nargs="+", required=True, help="the AB.py files to compare")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--plies", type=int, nargs=2, default=[8, 80], metavar=("FIRST", "LAST"))
    parser.add_argument("--judge-nodes", type=int, default=300000)
    parser.add_argument("--budget", type=int, default=None, help="NODE_BUDGET for every file")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    args = parser.parse_args(argv)
    for path in args.results + args.ab + [args.engine]:
        if not os.path.exists(path):
            print(f"error: '{path}' does not exist", file=sys.stderr)
            return 2
    chosen = positions(args.results, args.positions, *args.plies)
    if not chosen:
        print(f"error: no position with AB.py to move at plies {args.plies[0]}-{args.plies[1]} "
              f"in {', '.join(args.results)}", file=sys.stderr)
        return 2
    engine = UciEngine(args.engine, VARIANT.uci_variant, VARIANT.uci_variant_file)
    started = time.perf_counter()
    losses = {path: [] for path in args.ab}
    picks = {path: [] for path in args.ab}
    matches = {path: 0 for path in args.ab}
    seconds = {path: 0.0 for path in args.ab}
    try:
        for record, ply in chosen:
            game = replay(record["moves"][:ply])
            colour = WHITE if ply % 2 == 0 else BLACK
            fen = to_fen(game)
            best, best_score = judge(engine, fen, args.judge_nodes)
            verdicts = {best: best_score}
            for path in args.ab:
                agent = ab_agent(path, args.budget)
                tick = time.perf_counter()
                move = course_to_engine(RULES, agent.choose_move(dict(game.gameboard), colour, None))
                seconds[path] += time.perf_counter() - tick
                agent.close()
                if move not in verdicts:
                    verdicts[move] = judge(engine, fen, args.judge_nodes, move)[1]
                losses[path].append(min(2 * MATE_CP, max(0, best_score - verdicts[move])))
                picks[path].append(move)
                matches[path] += move == best
    finally:
        engine.close()
    n = len(chosen)
    print(f"{n} positions (plies {args.plies[0]}-{args.plies[1]}, {len(args.results)} results files), "
          f"judged by {os.path.basename(args.engine)} at {args.judge_nodes} nodes, "
          f"{time.perf_counter() - started:.0f} s")
    for path in args.ab:
        loss = losses[path]
        print(f"{path}: mean loss {sum(loss) / n:.1f} cp, over 100: {100 * sum(x > 100 for x in loss) / n:.1f} %, "
              f"over 300: {100 * sum(x > 300 for x in loss) / n:.1f} %, the engine's move: "
              f"{100 * matches[path] / n:.1f} %, think {seconds[path]:.0f} s")
    base = args.ab[0]
    for path in args.ab[1:]:
        diffs = [b - a for a, b in zip(losses[base], losses[path])]
        mean, margin = stats.mean_with_margin(diffs) or (diffs[0], float("nan"))
        differ = sum(a != b for a, b in zip(picks[base], picks[path]))
        print(f"{path} - {base}: mean loss {mean:+.1f} +- {margin:.1f} cp "
              f"(95 %, {n} positions, {differ} chosen differently)")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
