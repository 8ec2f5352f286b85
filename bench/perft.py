"""Leaf nodes per second for perft from the start position (the last ply counted in bulk).

It also measures, side by side in one run, the two ways of making a move: copying the board
(what harness.variants.cs3243.rules.perft does) against changing it in place and undoing the change;
and the small boards (Gardner 5x5 perft 5, NTHU 6x5 perft 6, on harness/variants/smallchess.py) in
CPU seconds of this process, which a loaded machine disturbs less than the wall clock.

Run: python bench/perft.py [DEPTH]   (default 5)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness.core.interrupts import exit_code  # noqa: E402
from harness.variants import find_variant  # noqa: E402
from harness.variants.cs3243.game import Game  # noqa: E402
from harness.variants.cs3243.rules import Rules, perft  # noqa: E402


def perft_in_place(rules: Rules, board, side: int, depth: int) -> int:
    """perft with make/undo on one list, for comparison with the copying version."""
    if depth == 1:
        return len(rules.moves(board, side))
    total = 0
    king = rules.king
    for s, t in rules.moves(board, side):
        captured = board[t]
        if captured * -side == king:
            continue
        board[t], board[s] = board[s], 0
        total += perft_in_place(rules, board, -side, depth - 1)
        board[s], board[t] = board[t], captured
    return total


def best_of(runs: int, count, clock=time.perf_counter) -> tuple:
    best, nodes = None, None
    for _ in range(runs):
        started = clock()
        nodes = count()
        elapsed = clock() - started
        best = elapsed if best is None else min(best, elapsed)
    return nodes, best


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    game = Game()
    print(f"Python {sys.version.split()[0]}, perft {depth} from the start, best of 3")
    variant = find_variant("cs3243")
    state = variant.start()
    seam_nodes, seam_s = best_of(3, lambda: variant.perft(state, depth))
    copy_nodes, copy_s = best_of(3, lambda: perft(game.rules, game.board, game.side, depth))
    assert seam_nodes == copy_nodes
    undo_nodes, undo_s = best_of(3, lambda: perft_in_place(game.rules, list(game.board), game.side, depth))
    assert copy_nodes == undo_nodes
    for label, nodes, seconds in (("variant interface (perft CLI)", seam_nodes, seam_s),
                                  ("copy-make (cs3243 rules.perft)", copy_nodes, copy_s),
                                  ("make/undo in place", undo_nodes, undo_s)):
        print(f"{label:<31}: {nodes} leaves in {seconds:.3f} s = {nodes / seconds:,.0f} leaves/s")
    print(f"copy-make / in-place speed ratio: {undo_s / copy_s:.2f}")
    print(f"variant interface / direct speed ratio: {copy_s / seam_s:.3f}")
    for name, small_depth in (("gardner", 5), ("nthu", 6)):
        small = find_variant(name)
        start = small.start()
        nodes, seconds = best_of(5, lambda: small.perft(start, small_depth), time.process_time)
        print(f"{name + ' perft ' + str(small_depth) + ' (CPU s)':<31}: {nodes} leaves in {seconds:.3f} s = "
              f"{nodes / seconds:,.0f} leaves/s")


if __name__ == "__main__":
    sys.exit(exit_code(main))
