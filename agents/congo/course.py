"""The course's searching agents, exactly as its programs compute: minimax (depth 2, eval1) and
alpha-beta (depth 4, eval2). Each plays the first best move in name order (the move `bestmove`
prints), so it is deterministic; promotion follows the game's edition."""
from harness.agent import Agent
from harness.variants.base import Move
from harness.variants.congo import State
from harness.variants.congo import rules, search

from .basic import NoMove


class MinimaxAgent(Agent):
    name = "minimax"

    def __init__(self, depth: int = 2):
        self.depth = depth

    def choose_move(self, view: State, colour, rng) -> Move:
        _, best = search.minimax_root(view.board, view.side, self.depth, rules.eval1, view.promotion)
        if best is None:
            raise NoMove("no move in this position")
        return Move(*best)


class AlphaBetaAgent(Agent):
    name = "alphabeta"

    def __init__(self, depth: int = 4):
        self.depth = depth

    def choose_move(self, view: State, colour, rng) -> Move:
        _, best = search.alphabeta_root(view.board, view.side, self.depth, rules.eval2, view.promotion)
        if best is None:
            raise NoMove("no move in this position")
        return Move(*best)
