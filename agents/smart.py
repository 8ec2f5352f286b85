"""Smart: the safe move of highest utility; ties broken with `rng.choice`.

Utility, highest first: a King capture; a mating move; a move that checks and captures; a move
that only captures; a move that only checks; the rest. Inside the two capture tiers a more
valuable victim ranks higher (values in `harness.variant`, see agents/CHOICES.md). With no
safe move it has already lost; it then plays a random move rather than crash.
"""
from harness.rules import RULES

from .base import Agent
from .tactics import (
    NoMove, capture_value, captures_king, checks, mating, read_board, side_of, to_course,
)

KING_CAPTURE, MATE, CHECK_CAPTURE, CAPTURE, CHECK, QUIET = 5, 4, 3, 2, 1, 0


class SmartAgent(Agent):
    name = "smart"

    def __init__(self, rules=RULES):
        self.rules = rules

    def utility(self, board, move):
        """(tier, victim value inside the capture tiers, else 0); larger is better."""
        rules = self.rules
        if captures_king(board, move, rules):
            return (KING_CAPTURE, 0)
        if mating(board, move, rules):
            return (MATE, 0)
        victim = capture_value(board, move)
        check = checks(board, move, rules)
        if victim:
            return (CHECK_CAPTURE if check else CAPTURE, victim)
        return (CHECK if check else QUIET, 0)

    def candidates(self, board, side):
        """The moves of highest utility, in the generator's stable order."""
        rules = self.rules
        moves = rules.moves(board, side)
        safe = [m for m in moves if rules.is_safe(board, m)]
        if not safe:
            return moves
        scored = [(self.utility(board, m), m) for m in safe]
        best = max(u for u, _ in scored)
        return [m for u, m in scored if u == best]

    def choose_move(self, gameboard, colour, rng):
        moves = self.candidates(read_board(gameboard, self.rules), side_of(colour))
        if not moves:
            raise NoMove(f"{colour} has no move")
        return to_course(rng.choice(moves), self.rules)
