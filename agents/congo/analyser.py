"""Congo's analyser for the game review: ab's search (agents/congo/ab.py) to a node count.

Each position gets a fresh engine (no table kept from the positions before) searching without
contempt (a draw is level for both sides) and without the game's history, so the same position
always gets the same evaluation (one whose first ply the node count cannot finish is searched
again with twice the nodes, until it does). ab's material counts a pawn as 100, so its scores
are centipawns; a lion capture found by the search is a mate distance.
"""
from harness.core.analyser import SearchAnalyser as Base

from .ab import MATE, MATE_BOUND, Engine

DEFAULT_NODES = 1500      # about 0.04 s a position on one core (docs/analysis.md)


class SearchAnalyser(Base):
    mate, mate_bound, default_nodes = MATE, MATE_BOUND, DEFAULT_NODES
    # the review's rule for this analyser (docs/analysis.md, "The rule")
    win_slope = 0.001098
    noise = 0.3
    second_look = 10

    def search(self, state, nodes):
        engine = Engine(state.promotion, nodes, contempt=0)
        move, score = engine.choose(state.board, state.side, frozenset(), state.max_plies - state.plies,
                                    score_forced=True)
        # a lion to take is answered before any search (MATE - 1); an unfinished first ply leaves
        # the first move with -MATE, which is no score
        return move, score, engine.depth_done > 0 or score == MATE - 1
