"""The course's searching agents, exactly as its programs compute: minimax (depth 2, eval1) and
alpha-beta (depth 4, eval2). Each plays the first best move in name order (the move `bestmove`
prints), so it is deterministic; promotion follows the game's edition."""
from harness.core.agent import Agent
from harness.core.variant import Move
from harness.variants.congo import State
from harness.variants.congo import rules, search

from .basic import NoMove


class CourseSearchAgent(Agent):
    """The course's fixed-depth search with its evaluation, the first best root move."""
    name = "course-search"
    root = staticmethod(search.minimax_root)
    evaluation = staticmethod(rules.eval1)
    default_depth = 2

    def __init__(self, depth: int = 0):
        self.depth = depth or self.default_depth

    def choose_move(self, view: State, colour, rng) -> Move:
        _, best = self.root(view.board, view.side, self.depth, self.evaluation, view.promotion)
        if best is None:
            raise NoMove("no move in this position")
        return Move(*best)


class MinimaxAgent(CourseSearchAgent):
    """minimax, depth 2, eval1."""
    name = "minimax"


class AlphaBetaAgent(CourseSearchAgent):
    """alphabeta, depth 4, eval2."""
    name = "alphabeta"
    root = staticmethod(search.alphabeta_root)
    evaluation = staticmethod(rules.eval2)
    default_depth = 4
