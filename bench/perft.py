"""Leaf nodes per second for perft from the start position (the last ply counted in bulk).

Run: python bench/perft.py [DEPTH]   (default 5; prints depth, nodes, seconds, leaves/s)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness.game import Game  # noqa: E402
from harness.rules import perft  # noqa: E402


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    game = Game()
    best = None
    for _ in range(3):
        started = time.perf_counter()
        nodes = perft(game.rules, game.board, game.side, depth)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    print(f"perft {depth}: {nodes} leaves, best of 3 {best:.3f} s, {nodes / best:,.0f} leaves/s "
          f"(Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
