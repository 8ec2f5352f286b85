"""Dummy: the first move it generates, whatever happens to its King.

It visits its own pieces in gameboard dict order (the course's order, which the referee keeps)
and plays the first move of the first piece that has one. Within a piece the order is
`Rules.moves_from`'s fixed order: slides direction by direction (nearest square first), then
leaps, each in the variant's vector order (row +1, row -1, column +1, column -1, then the
diagonals (+1,+1), (+1,-1), (-1,+1), (-1,-1) as (column, row) steps); a pawn pushes before it
captures, lower column first. README.md ("Dummy: move order") lists the order piece by piece.
"""
from harness.variants.cs3243.game import board_from_gameboard, course_move
from harness.variants.cs3243.rules import RULES, SIDE_OF_COLOUR

from harness.core.agent import Agent
from .tactics import NoMove


class DummyAgent(Agent):
    name = "dummy"

    def __init__(self, rules=RULES):
        self.rules = rules

    def choose_move(self, gameboard, colour, rng):
        side = SIDE_OF_COLOUR[colour]
        board = board_from_gameboard(gameboard, self.rules)
        variant = self.rules.variant
        for square in gameboard:
            s = variant.square_index(square)
            if board[s] * side <= 0:
                continue
            moves = self.rules.moves_from(board, s)
            if moves:
                return course_move(self.rules, moves[0])
        raise NoMove(f"{colour} has no move")
