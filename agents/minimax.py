"""Minimax: alpha-beta (negamax) to depth 4 plies over its pseudo-legal moves.

Scores are from the point of view of the side to move at each node:
- a move that captures the enemy King ends the game: ``WIN - ply`` where `ply` is the number
  of plies from the root up to and including that capture (a faster win scores higher, a
  slower loss is less bad);
- a side with no move at all: draw, 0;
- depth exhausted: material (the shared piece values of `harness.variant`), own minus enemy.
The course's "every move leaves your King attacked = you lose" needs no rule of its own: the
search sees the King being captured on the next ply.

Ties at the root are kept exactly: after the first root move, each later one is searched with
the window ``(best - 1, +inf)``, which cuts off only moves that are strictly worse, so every
root move whose exact value equals the best is known; `rng.choice` picks among them in the
generator's stable order. Move ordering (King captures first, then captures most valuable
victim / least valuable attacker first, then quiet moves) changes the speed, never the value.
The board is a flat list changed in place and restored after each move (measured faster than
copying it per node).
"""
from typing import List, Sequence, Tuple

from harness.variants.cs3243.game import board_from_gameboard, course_move
from harness.variants.cs3243.rules import RULES, SIDE_OF_COLOUR, Move, Rules

from harness.core.agent import Agent, search_score
from .tactics import VALUE, NoMove

WIN = 10_000_000      # above any material balance
INF = 10 ** 9
DEFAULT_DEPTH = 4


def material(board: Sequence[int], side: int) -> int:
    """Own material minus enemy material, in centipawns (the Kings cancel while both stand)."""
    total = 0
    for p in board:
        if p:
            total += VALUE[p] if p * side > 0 else -VALUE[p]
    return total


class Searcher:
    """The alpha-beta search over one Rules' move generator; `nodes` counts positions searched."""

    def __init__(self, rules: Rules = RULES):
        self.rules = rules
        self.nodes = 0

    def root(self, board: List[int], side: int, depth: int) -> Tuple[int, List[Move]]:
        """(exact value, every root move of that value in generator order) for `side` to move.

        `board` is changed during the search and restored before returning."""
        if depth < 1:
            raise ValueError("depth must be at least 1")
        moves = self.rules.moves(board, side)
        if not moves:
            return 0, []
        ordered = self.order(board, moves, side)
        mat = material(board, side)
        king = self.rules.king
        negamax = self.negamax
        best, tied = -INF, []
        for move in ordered:
            s, t = move
            q = board[t]
            if q == -side * king:
                value = WIN - 1
            elif depth == 1:
                value = mat + VALUE[q]
            else:
                p = board[s]
                board[t] = p
                board[s] = 0
                alpha = best - 1 if tied else -INF
                value = -negamax(board, -side, depth - 1, -INF, -alpha, 1, -(mat + VALUE[q]))
                board[s] = p
                board[t] = q
            if value > best:
                best, tied = value, [move]
            elif value == best:
                tied.append(move)
        position = {m: i for i, m in enumerate(moves)}
        tied.sort(key=position.__getitem__)
        return best, tied

    def order(self, board: Sequence[int], moves: List[Move], side: int) -> List[Move]:
        """King captures, then captures by victim value (desc) and attacker value (asc), then quiet."""
        captures, quiet = [], []
        for m in moves:
            (captures if board[m[1]] else quiet).append(m)
        captures.sort(key=lambda m: VALUE[board[m[1]]] * 1_000_000 - VALUE[board[m[0]]], reverse=True)
        return captures + quiet

    def negamax(self, board: List[int], side: int, depth: int, alpha: int, beta: int,
                ply: int, mat: int) -> int:
        """Fail-soft alpha-beta value of the position for `side` to move; `ply` plies from the
        root have been played and `mat` is the material balance from `side`'s point of view."""
        self.nodes += 1
        moves = self.rules.moves(board, side)
        if not moves:
            return 0
        enemy_king = -side * self.rules.king
        value_of = VALUE
        if depth == 1:
            # Every child is a leaf: its value is the material after the move, so only the
            # best capture matters; nothing needs to be made on the board.
            gain = 0
            for _, t in moves:
                q = board[t]
                if q:
                    if q == enemy_king:
                        return WIN - ply - 1
                    v = value_of[q]
                    if v > gain:
                        gain = v
            return mat + gain
        captures, quiet = [], []
        for m in moves:
            q = board[m[1]]
            if q:
                if q == enemy_king:
                    return WIN - ply - 1   # the best any move here can score
                captures.append(m)
            else:
                quiet.append(m)
        if captures:
            captures.sort(key=lambda m: value_of[board[m[1]]] * 1_000_000 - value_of[board[m[0]]],
                          reverse=True)
            captures.extend(quiet)
            ordered = captures
        else:
            ordered = quiet
        negamax = self.negamax
        best = -INF
        child_depth, child_ply = depth - 1, ply + 1
        for s, t in ordered:
            p = board[s]
            q = board[t]
            board[t] = p
            board[s] = 0
            value = -negamax(board, -side, child_depth, -beta, -alpha, child_ply, -(mat + value_of[q]))
            board[s] = p
            board[t] = q
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
        return best


class MinimaxAgent(Agent):
    name = "minimax"

    def __init__(self, depth: int = DEFAULT_DEPTH, rules: Rules = RULES):
        self.depth = depth
        self.rules = rules
        self.searcher = Searcher(rules)
        self.value = None

    def choose_move(self, gameboard, colour, rng):
        board = board_from_gameboard(gameboard, self.rules)
        self.value, best = self.searcher.root(board, SIDE_OF_COLOUR[colour], self.depth)
        if not best:
            raise NoMove(f"{colour} has no move")
        return course_move(self.rules, rng.choice(best))

    def move_score(self):
        """The search's exact value of its move (a King capture N plies away counts as a mate)."""
        return None if self.value is None else search_score(self.value, WIN, WIN - 1000)
