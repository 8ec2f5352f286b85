"""Greedy: among its safe moves, a King capture; else a mating move; else a checking move;
else any safe move. Ties are broken with `rng.choice` over the candidates in the generator's
stable order. With no safe move it has already lost; it then plays a random move (the referee
ends the game before asking, so this only keeps the agent from crashing).
"""
from harness.rules import RULES

from .base import Agent
from .tactics import NoMove, captures_king, checks, mating, read_board, side_of, to_course


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(self, rules=RULES):
        self.rules = rules

    def candidates(self, board, side):
        """The moves Greedy picks from at random (all equally good to it)."""
        rules = self.rules
        moves = rules.moves(board, side)
        safe = [m for m in moves if rules.is_safe(board, m)]
        if not safe:
            return moves
        for test in (captures_king, mating, checks):
            chosen = [m for m in safe if test(board, m, rules)]
            if chosen:
                return chosen
        return safe

    def choose_move(self, gameboard, colour, rng):
        moves = self.candidates(read_board(gameboard, self.rules), side_of(colour))
        if not moves:
            raise NoMove(f"{colour} has no move")
        return to_course(rng.choice(moves), self.rules)
