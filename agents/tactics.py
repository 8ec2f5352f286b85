"""The words the course uses to describe its opponents, as functions over the flat board.

All functions take a flat board of `harness.variants.cs3243.rules` and an internal move ``(from, to)``; the
mover is the owner of the piece on ``from``. Definitions (spec, "The course's opponents"):

- *safe*: after the move the mover's King is not attacked. Capturing the enemy King is safe.
- *mating*: after the move the opponent has at least one move and every one of them is unsafe.
- *checks*: after the move the opponent's King is attacked.
- *capture value*: the value of the piece on the target square (0 for a quiet move).
"""
from typing import List, Sequence

from harness.variants.cs3243.game import board_from_gameboard, course_move
from harness.variants.cs3243.rules import RULES, SIDE_OF_COLOUR, Move, Rules

from harness.core.agent import Agent

# Centipawn value of each board code, indexed directly by a signed board entry: Python's
# negative indices land in the second half of the list, which holds the same values, so
# VALUE[board[t]] is the victim's value whatever its colour (and VALUE[0] == 0).
_KINDS = len(RULES.variant.pieces)
VALUE: List[int] = [0] * (2 * _KINDS + 1)
for _code, _piece in RULES.piece_of.items():
    VALUE[_code] = _piece.value
    VALUE[-_code] = _piece.value


def mover(board: Sequence[int], move: Move) -> int:
    return 1 if board[move[0]] > 0 else -1


def captures_king(board: Sequence[int], move: Move, rules: Rules = RULES) -> bool:
    return rules.captures_king(board, move)


def checks(board: Sequence[int], move: Move, rules: Rules = RULES) -> bool:
    """After `move` the opponent's King is attacked. A King capture is not a check (it wins)."""
    if rules.captures_king(board, move):
        return False
    side = mover(board, move)
    after = rules.make(board, move)
    k = rules.king_square(after, -side)
    return k >= 0 and rules.attacked(after, k, side)


def mating(board: Sequence[int], move: Move, rules: Rules = RULES) -> bool:
    """After `move` the opponent has at least one move and every one of them is unsafe.

    A King capture is not called mating here: it ends the game by itself and every agent
    ranks it first anyway."""
    if rules.captures_king(board, move):
        return False
    side = mover(board, move)
    after = rules.make(board, move)
    replies = rules.moves(after, -side)
    if not replies:
        return False
    return not any(rules.is_safe(after, reply) for reply in replies)


def capture_value(board: Sequence[int], move: Move) -> int:
    """Centipawn value of the piece `move` captures; 0 when the target square is empty."""
    return VALUE[board[move[1]]]


class NoMove(Exception):
    """Asked for a move in a position where the side to move has none (the referee never does)."""


class SafeMoveChooser(Agent):
    """Greedy and Smart: pick at random among the best of their safe moves.

    Subclasses rank moves with `best_of(board, safe_moves)`. With no safe move the agent has
    already lost (the referee ends the game before asking); it then picks any move rather
    than crash."""

    def __init__(self, rules: Rules = RULES):
        self.rules = rules

    def best_of(self, board: Sequence[int], safe: List[Move]) -> List[Move]:
        raise NotImplementedError

    def candidates(self, board: Sequence[int], side: int) -> List[Move]:
        """The moves it picks from at random, in the generator's stable order."""
        moves = self.rules.moves(board, side)
        safe = [m for m in moves if self.rules.is_safe(board, m)]
        return self.best_of(board, safe) if safe else moves

    def choose_move(self, gameboard, colour, rng):
        moves = self.candidates(board_from_gameboard(gameboard, self.rules), SIDE_OF_COLOUR[colour])
        if not moves:
            raise NoMove(f"{colour} has no move")
        return course_move(self.rules, rng.choice(moves))
