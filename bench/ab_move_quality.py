"""How good AB.py's moves are, judged by Fairy-Stockfish: several files on the same positions.

Run: python bench/ab_move_quality.py RESULTS.jsonl [MORE.jsonl ...] --ab OLD.py NEW.py
                                     [--positions 200] [--plies 8 80] [--judge-nodes 300000]

A game against the engine costs about 45 searches of AB.py and gives one result; this asks
each file for its move in --positions positions taken from recorded games (the `--out` files
of bench/ab_vs_fsf.py: AB.py to move, plies --plies FIRST..LAST, spread evenly over the games,
the same positions for every file) and has Fairy-Stockfish judge the moves: its score of the
position at --judge-nodes nodes (`go nodes N`), and of each file's move (`go nodes N
searchmoves MOVE`, `ucinewgame` before every search, so every verdict is repeatable). A
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
import math
import os
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_strength import ab_agent  # noqa: E402
from ab_vs_opponent import replay  # noqa: E402
from agents.uci import UciAgent  # noqa: E402
from harness import stats  # noqa: E402
from harness.variants.cs3243.fen import course_to_engine  # noqa: E402
from harness.variants.cs3243.pieces import BLACK, WHITE  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

MATE_CP = 2000


class Judge(UciAgent):
    """Fairy-Stockfish asked for scores instead of moves."""

    def score(self, start_fen: str, moves, searchmoves: str = "") -> tuple:
        """(best move, score in centipawns for the side to move) after `moves` from start_fen."""
        if self.proc is None:
            self._start()
        self._send("ucinewgame")
        self._send(f"position fen {start_fen}" + (" moves " + " ".join(moves) if moves else ""))
        self._send(f"go nodes {self.nodes}" + (f" searchmoves {searchmoves}" if searchmoves else ""))
        seen: list = []
        line = self._expect(lambda text: text.startswith("bestmove"), "bestmove", self.timeout, seen)
        score = None
        for info in seen:
            words = info.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1:words.index("score") + 3]
                value = int(value)
                score = value if kind == "cp" else (MATE_CP if value > 0 else -MATE_CP)
        return line.split()[1], score


def positions(paths, count, first, last):
    """(record, ply) pairs: AB.py to move at plies first..last, spread evenly over the games."""
    candidates = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        for record in records:
            own = 0 if record["ab_colour"] == WHITE else 1
            plies = [k for k in range(first, min(last, record["plies"] - 1) + 1) if k % 2 == own]
            candidates.append((record, plies))
    chosen = []
    round_ = 0
    while len(chosen) < count and any(round_ < len(plies) for _, plies in candidates):
        for record, plies in candidates:
            # every game's plies in a spread order: middle, then the quarters, ...
            if round_ < len(plies) and len(chosen) < count:
                chosen.append((record, plies[(round_ * 7 + len(plies) // 2) % len(plies)]))
        round_ += 1
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
    judge = Judge(args.engine, nodes=args.judge_nodes)
    started = time.perf_counter()
    losses = {path: [] for path in args.ab}
    picks = {path: [] for path in args.ab}
    matches = {path: 0 for path in args.ab}
    seconds = {path: 0.0 for path in args.ab}
    try:
        for record, ply in chosen:
            game = replay(record["moves"][:ply])
            colour = WHITE if ply % 2 == 0 else BLACK
            history = record["engine_moves"][:ply]
            best, best_score = judge.score(record["start_fen"], history)
            verdicts = {best: best_score}
            for path in args.ab:
                agent = ab_agent(path, args.budget)
                tick = time.perf_counter()
                move = course_to_engine(RULES, agent.choose_move(dict(game.gameboard), colour, None))
                seconds[path] += time.perf_counter() - tick
                agent.close()
                if move not in verdicts:
                    verdicts[move] = judge.score(record["start_fen"], history, move)[1]
                losses[path].append(min(2 * MATE_CP, max(0, best_score - verdicts[move])))
                picks[path].append(move)
                matches[path] += move == best
    finally:
        judge.close()
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
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else float("nan")
        differ = sum(a != b for a, b in zip(picks[base], picks[path]))
        print(f"{path} - {base}: mean loss {mean:+.1f} +- {stats.Z95 * sd / math.sqrt(n):.1f} cp "
              f"(95 %, {n} positions, {differ} chosen differently)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
