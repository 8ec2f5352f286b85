"""Random: a uniformly random move among all its pseudo-legal moves, whatever happens to its King.

The moves are listed in the generator's stable order (square by square, then each piece's
fixed order) before `rng.choice`, so a seed replays the same choice.
"""
from harness.variants.cs3243.game import board_from_gameboard, course_move
from harness.variants.cs3243.rules import RULES, SIDE_OF_COLOUR

from harness.core.agent import Agent
from .tactics import NoMove


class RandomAgent(Agent):
    name = "random"

    def __init__(self, rules=RULES):
        self.rules = rules

    def choose_move(self, gameboard, colour, rng):
        moves = self.rules.moves(board_from_gameboard(gameboard, self.rules), SIDE_OF_COLOUR[colour])
        if not moves:
            raise NoMove(f"{colour} has no move")
        return course_move(self.rules, rng.choice(moves))
