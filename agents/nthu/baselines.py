"""Ports of the course's four baseline programs (docs/nthu.md, "The four baselines").

baseline1 plays the move at index ``128959393 mod n`` of its n moves in the course's order.
baseline2, 3 and 4 play the first move (in the course's order) of best score at depth 2, 4 and 6:
the course's minimax and its fail-hard alpha-beta give every root move the same exact value, and
the root keeps the first best (``s > best``). So one exact search reproduces all three; it may
order moves and keep a table inside the tree, as long as the root's values and order are the
course's. Scores: 100000 when the side to move can capture the enemy king (``win(n)``), else
material (pawn 2, rook 6, knight 7, bishop 8, queen 20, king 100) at depth 0; no child: -100000.
"""
from harness.core.agent import Agent
from harness.core.variant import Move
from harness.variants.nthu import core

BASELINE1_DRAW = 128959393      # the first draw of the course's generator seeded with 123
_INF = 1 << 30


class Baseline1(Agent):
    name = "baseline1"

    def choose_move(self, view, colour, rng):
        ms = core.moves(view.board, view.side)
        s, t = ms[BASELINE1_DRAW % len(ms)]
        return Move(s, t)


class ExactSearch:
    """The course's depth-limited negamax value, computed with alpha-beta and a table.

    A node's value depends only on (board, side, depth), so the table outlives a move."""

    def __init__(self, max_entries=2_000_000):
        self.table = {}
        self.max_entries = max_entries
        self.nodes = 0

    def value(self, board, side, depth, alpha, beta):
        """The exact value when it lies strictly inside (alpha, beta); else a bound on it."""
        self.nodes += 1
        if core.can_take_king(board, side):
            return core.WIN
        if depth == 0:
            return core.material(board, side)
        key = (board, side, depth)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            low, high, first = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        a0, b0 = alpha, beta
        ms = core.moves(board, side)
        if not ms:
            return -core.WIN
        # inside the tree any order gives the same value: the table's move, then captures
        # of the most valuable piece, then the rest in the course's order
        ms.sort(key=lambda m: 0 if m == first else -abs(board[m[1]]) - 1 if board[m[1]] else 1)
        best, best_move = -_INF, ms[0]
        for m in ms:
            v = -self.value(core.play(board, m), -side, depth - 1, -beta, -max(alpha, best))
            if v > best:
                best, best_move = v, m
                if best >= beta:
                    break
        if len(self.table) >= self.max_entries:
            self.table.clear()
        low, high = (entry[0], entry[1]) if entry is not None else (-_INF, _INF)
        if best <= a0:
            high = min(high, best)
        elif best >= b0:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high, best_move)
        return best

    def root(self, board, side, depth):
        """The course's root: the first move of best score, in the course's order."""
        best, best_move = -core.WIN - 10, None
        for m in core.moves(board, side):
            s = -self.value(core.play(board, m), -side, depth - 1, -_INF, -best)
            if s > best:
                best, best_move = s, m
        return best_move, best


class _SearchBaseline(Agent):
    depth = 0

    def __init__(self):
        self.search = ExactSearch()

    def choose_move(self, view, colour, rng):
        (s, t), _ = self.search.root(view.board, view.side, self.depth)
        return Move(s, t)


class Baseline2(_SearchBaseline):
    name = "baseline2"
    depth = 2


class Baseline3(_SearchBaseline):
    name = "baseline3"
    depth = 4


class Baseline4(_SearchBaseline):
    name = "baseline4"
    depth = 6
