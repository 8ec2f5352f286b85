"""Search speed of AB.py versions side by side, and whether they search exactly alike.

Run: python bench/ab_speed.py OLD.py NEW.py [MORE.py ...] [--positions 40] [--budget 20000]
                              [--rounds 3] [--seed 1] [--games 0] [--game-budget 3000]

Positions: --positions White-to-move positions, each reached from the start position by an
even number (6 to 30) of seeded uniformly random plies (games that end on the way are
skipped). Every file is loaded as a fresh module (importlib from its path) and asked
`Engine().think(board, 0, --budget, [])` on each position; the files take turns position by
position (A on 1, B on 1, A on 2, ...) and the whole set is repeated --rounds times, so a
loaded machine slows them alike. The first round's answers are compared.

Printed per file: total nodes, seconds, nodes per second and the ratio of its nodes per
second to the first file's; then for each later file one line "identical to FIRST on all N
positions" or the positions where (move, score, nodes, depth_done) differ.

--games K: also K whole games per file through studentAgent, the file against itself (a fresh
module per side and game; Black sees the mirrored board as in the harness, via
harness.isolation.student.StudentAgent), its node budget set to --game-budget (the per-game cap keeps
its ratio). Game k starts with 2 seeded random plies (seed --seed + k) and stops after
--max-plies plies. Printed per file: plies, seconds; then whether every later file played
the same moves, with the same (score, depth, nodes) reported in GAME['info'], as the first in
every game (or the games that differ).
"""
import argparse
import os
import random
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_strength import ab_agent  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.isolation.student import load_student_module  # noqa: E402
from harness.variants.cs3243.game import Game  # noqa: E402


def positions(count, seed):
    """count White-to-move gameboards after 6..30 seeded random plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game()
        plies = rng.randrange(3, 16) * 2
        while game.plies < plies and not game.adjudicate():
            game.play(rng.choice(game.legal_moves()))
        if game.plies == plies and not game.adjudicate():
            out.append(dict(game.gameboard))
    return out


def bench_positions(paths, boards, budget, rounds):
    """(nodes, seconds) per file and the first round's answers per file."""
    nodes = [0] * len(paths)
    secs = [0.0] * len(paths)
    answers = [[] for _ in paths]
    modules = [load_student_module(p) for p in paths]
    for rnd in range(rounds):
        for gameboard in boards:
            for i, mod in enumerate(modules):
                b = mod.dict_to_flat(gameboard)
                eng = mod.Engine()
                t0 = time.perf_counter()
                move, score = eng.think(b, 0, budget, [])
                secs[i] += time.perf_counter() - t0
                nodes[i] += eng.nodes
                if rnd == 0:
                    answers[i].append((move, score, eng.nodes, eng.depth_done))
    return nodes, secs, answers


def play(path, seed, budget, max_plies):
    """One game of the file against itself: ([(move, GAME['info'])...], seconds)."""
    sides = {"White": ab_agent(path, budget), "Black": ab_agent(path, budget)}
    rng = random.Random(seed)
    game = Game()
    variant = game.rules.variant
    for _ in range(2):
        game.play(rng.choice(game.legal_moves()))
    moves = []
    t0 = time.perf_counter()
    while game.plies < max_plies and not game.adjudicate():
        answer = sides[game.to_move].choose_move(game.gameboard, game.to_move, rng)
        move = (variant.square_index(answer[0]), variant.square_index(answer[1]))
        # the move and what the mover's search reported: (score, depth, nodes, 50-ply count)
        moves.append((move, sides[game.to_move].module.GAME.get("info")))
        game.play(move)
    return moves, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="AB.py versions; the first is the reference")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budget", type=int, default=20000, help="nodes per think() call")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=0, help="whole self-play games per file")
    ap.add_argument("--game-budget", type=int, default=3000, help="NODE_BUDGET in the games")
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()
    paths = [os.path.abspath(f) for f in args.files]
    first = args.files[0]

    boards = positions(args.positions, args.seed)
    nodes, secs, answers = bench_positions(paths, boards, args.budget, args.rounds)
    print(f"{len(boards)} positions, budget {args.budget}, {args.rounds} rounds")
    for i, f in enumerate(args.files):
        rate = nodes[i] / secs[i]
        ratio = rate / (nodes[0] / secs[0])
        print(f"  {f}: {nodes[i]} nodes, {secs[i]:.2f} s, {rate:.0f} nodes/s, ratio {ratio:.3f}")
    for i, f in enumerate(args.files[1:], 1):
        bad = [k for k, (a, b) in enumerate(zip(answers[0], answers[i])) if a != b]
        if bad:
            print(f"  {f}: DIFFERS from {first} on positions {bad}")
        else:
            print(f"  {f}: identical to {first} on all {len(boards)} positions")

    if args.games:
        games = [[] for _ in paths]
        gsecs = [0.0] * len(paths)
        for k in range(args.games):
            for i, path in enumerate(paths):
                moves, s = play(path, args.seed + k, args.game_budget, args.max_plies)
                games[i].append(moves)
                gsecs[i] += s
        print(f"{args.games} self-play games, NODE_BUDGET {args.game_budget}, at most {args.max_plies} plies")
        for i, f in enumerate(args.files):
            plies = sum(len(g) for g in games[i])
            print(f"  {f}: {plies} plies, {gsecs[i]:.2f} s, ratio {gsecs[0] / gsecs[i]:.3f} (speed)")
        for i, f in enumerate(args.files[1:], 1):
            bad = [k for k in range(args.games) if games[0][k] != games[i][k]]
            if bad:
                print(f"  {f}: DIFFERS from {first} in games {bad}")
            else:
                print(f"  {f}: same moves as {first} in all {args.games} games")


if __name__ == "__main__":
    sys.exit(exit_code(main))
