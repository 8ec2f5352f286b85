"""NTHU's bonus agents (docs/advanced.md): mcts and nnue against the course's baselines, against
ab, their speed, and train-nnue's time and loss. Figures are printed, never asserted.

Run: python bench/advanced.py [--seconds 1] [--agents mcts,nnue] [--skip-ladder] [--skip-compare]
                              [--skip-speed] [--skip-training] [--max-games 200]

1. Ladder: each agent plays baseline1..4 (mcts 1..3), one game with each colour from the start,
   in this process with --seconds per move (the course allows 10 s; at 10 s a ladder takes about
   15 minutes of one core per agent); the course's pass rule per baseline.
2. compare (harness compare, SPRT [0, 20]): nnue-nodes against ab-nodes (equal nodes: 5,000 a
   move, no clock) and mcts against ab (both 1 s a move), at most --max-games games.
3. Speed: nodes per second of CPU time, nnue against ab, over 10 positions of seeded random
   games, 20,000 nodes each.
4. Training: train-nnue --positions 2000 --epochs 1 in a temporary folder (needs torch): its
   time and loss lines.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from agents.nthu.ab import AlphaBetaAgent  # noqa: E402
from agents.nthu.baselines import Baseline1, Baseline2, Baseline3, Baseline4  # noqa: E402
from agents.nthu.mcts import MctsAgent  # noqa: E402
from agents.nthu.nnue import NnueAgent, network  # noqa: E402
from agents.nthu.nnue_eval import NnueSearch  # noqa: E402
from agents.nthu.search import Search  # noqa: E402
from harness.core.game import Game  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.variants.nthu import VARIANT, core  # noqa: E402

BASELINES = (("baseline1", Baseline1), ("baseline2", Baseline2), ("baseline3", Baseline3), ("baseline4", Baseline4))
AGENTS = {"mcts": (lambda s: MctsAgent(seconds=s), 3), "nnue": (lambda s: NnueAgent(seconds=s), 4),
          "ab": (lambda s: AlphaBetaAgent(seconds=s), 4)}


def ladder(name, seconds):
    make, upto = AGENTS[name]
    passed_all = True
    for opponent, cls in BASELINES[:upto]:
        results = []
        for colour in ("white", "black"):
            started = time.perf_counter()
            white, black = (make(seconds), cls()) if colour == "white" else (cls(), make(seconds))
            record = play_game(white, black, 0, Game(VARIANT, VARIANT.start()))
            mark = "D" if record["result"] == "draw" else "W" if record["result"] == colour else "L"
            results.append(mark)
            print(f"  {name} as {colour:5} vs {opponent}: {mark} ({record['reason']}, "
                  f"{len(record['moves'])} plies, {time.perf_counter() - started:.0f} s)", flush=True)
        passed = results.count("W") == 2 or sorted(results) == ["D", "W"]
        passed_all &= passed
        print(f"{name} vs {opponent} at {seconds:g} s a move: {''.join(results)} {'PASS' if passed else 'FAIL'}",
              flush=True)
    print(f"{name}: baselines 1-{upto} {'all passed' if passed_all else 'NOT all passed'}", flush=True)


def compare(new, old, max_games):
    out = tempfile.mkdtemp(prefix=f"bench-compare-{new}-")
    cmd = [sys.executable, "-m", "harness", "compare", new, old, "--variant", "nthu", "--elo0", "0", "--elo1", "20",
           "--max-games", str(max_games), "--out", out, "--progress", "none"]
    print("$ " + " ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=False)


def speed():
    rng = random.Random(5)
    positions = []
    while len(positions) < 10:
        board, side, plies = core.START, 1, 0
        while plies < 40 and not core.can_take_king(board, side):
            if plies % 6 == 5:
                positions.append((board, side, plies))
            board, side, plies = core.play(board, rng.choice(core.moves(board, side))), -side, plies + 1
    positions = positions[:10]
    rates = {}
    for name, make in (("ab", Search), ("nnue", lambda: NnueSearch(network()))):
        nodes, cpu = 0, 0.0
        for board, side, plies in positions:
            search = make()
            started = time.process_time()
            search.best_move(board, side, plies, max_nodes=20000, score_forced=True)
            cpu += time.process_time() - started
            nodes += search.nodes
        rates[name] = nodes / cpu
        print(f"{name}: {nodes} nodes in {cpu:.2f} s of CPU: {rates[name]:,.0f} nodes/s", flush=True)
    print(f"nnue searches {rates['nnue'] / rates['ab']:.2f} x ab's nodes per second", flush=True)


def training():
    try:
        import torch  # noqa: F401
    except ImportError:
        print("training: skipped (no torch: make train)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "harness", "train-nnue", "--variant", "nthu", "--out", os.path.join(tmp, "net.json"),
               "--positions", "2000", "--epochs", "1", "--work", os.path.join(tmp, "work"), "--quiet"]
        print("$ " + " ".join(cmd[1:3] + cmd[3:]), flush=True)
        started = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=False)
        print(f"wall clock: {time.perf_counter() - started:.1f} s", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per move in the ladder (the course: 10)")
    ap.add_argument("--agents", default="mcts,nnue")
    ap.add_argument("--max-games", type=int, default=200)
    for part in ("ladder", "compare", "speed", "training"):
        ap.add_argument(f"--skip-{part}", action="store_true")
    args = ap.parse_args()
    if not args.skip_ladder:
        for name in args.agents.split(","):
            ladder(name, args.seconds)
    if not args.skip_compare:
        compare("nnue-nodes", "ab-nodes", args.max_games)
        compare("mcts", "ab", args.max_games)
    if not args.skip_speed:
        speed()
    if not args.skip_training:
        training()


if __name__ == "__main__":
    main()
