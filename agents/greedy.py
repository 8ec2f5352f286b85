"""Greedy: among its safe moves, a King capture; else a mating move; else a checking move;
else any safe move. Ties are broken with `rng.choice` over the candidates in the generator's
stable order. With no safe move it has already lost; it then plays a random move (the referee
ends the game before asking, so this only keeps the agent from crashing).
"""
from .tactics import SafeMoveChooser, captures_king, checks, mating


class GreedyAgent(SafeMoveChooser):
    name = "greedy"

    def best_of(self, board, safe):
        for test in (captures_king, mating, checks):
            chosen = [m for m in safe if test(board, m, self.rules)]
            if chosen:
                return chosen
        return safe
