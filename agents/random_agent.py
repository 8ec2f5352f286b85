"""Random: a uniformly random move among all its pseudo-legal moves, whatever happens to its King.

The moves are listed in the generator's stable order (square by square, then each piece's
fixed order) before `rng.choice`, so a seed replays the same choice.
"""
from harness.rules import RULES

from .base import Agent
from .tactics import NoMove, read_board, side_of, to_course


class RandomAgent(Agent):
    name = "random"

    def __init__(self, rules=RULES):
        self.rules = rules

    def choose_move(self, gameboard, colour, rng):
        moves = self.rules.moves(read_board(gameboard, self.rules), side_of(colour))
        if not moves:
            raise NoMove(f"{colour} has no move")
        return to_course(rng.choice(moves), self.rules)
