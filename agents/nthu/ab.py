"""ab: our strongest NTHU MiniChess 6x5 agent (the search is in agents/nthu/search.py).

Budget per move: `nodes` nodes (deterministic: a game replays exactly) with a wall-clock cap of
`seconds` (1 s by default, lowered to the referee's deadline when that is shorter). The search
stops at 90 % of the cap, leaving the rest for finishing the node in hand and returning.
"""
from harness.core.agent import Agent, search_score
from harness.core.variant import Move

from .search import MATE, MATE_BOUND, Search

DEFAULT_NODES = 100000
DEFAULT_SECONDS = 1.0


class AlphaBetaAgent(Agent):
    name = "ab"

    def __init__(self, nodes=DEFAULT_NODES, seconds=DEFAULT_SECONDS):
        self.nodes = nodes
        self.seconds = seconds
        self.deadline = None
        self.search = self.make_search()
        self.last_depth = 0
        self.last_score = None

    def make_search(self):
        """A fresh search (nnue's is ab's on its network)."""
        return Search()

    def start_game(self, colour, seed):
        self.search = self.make_search()

    def set_deadline(self, seconds):
        self.deadline = seconds

    def choose_move(self, view, colour, rng):
        seconds = self.seconds
        if self.deadline is not None:
            seconds = min(seconds, 0.8 * self.deadline)
        move, self.last_score, self.last_depth = self.search.best_move(view.board, view.side, view.plies,
                                                          max_nodes=self.nodes, seconds=0.9 * seconds)
        return Move(*move)

    def move_score(self):
        return None if self.last_score is None else search_score(self.last_score, MATE, MATE_BOUND)
