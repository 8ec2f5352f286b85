"""NTHU's analyser for the game review: ab's search (agents/nthu/search.py) to a node count.

Each position gets a fresh search (no table kept from the positions before), so the same
position always gets the same evaluation; one whose first ply the node count cannot finish (king
threats make the quiescence search wide) is searched again with twice the nodes, until it does.
ab's evaluation counts a pawn as 2 course points of 50 units, so its scores are centipawns as they
stand; a won or lost end (a king threat, no move, a material lead at the step limit) found by the
search is a mate distance.
"""
from harness.core.analyser import SearchAnalyser as Base

from .search import MATE, MATE_BOUND, Search

DEFAULT_NODES = 3000      # about 0.04 s a position on one core (docs/analysis.md)


class SearchAnalyser(Base):
    mate, mate_bound, default_nodes = MATE, MATE_BOUND, DEFAULT_NODES
    # the review's rule for this analyser (docs/analysis.md, "The rule")
    win_slope = 0.003811
    noise = 0.8
    second_look = 10

    def search(self, state, nodes):
        move, score, depth = Search().best_move(state.board, state.side, state.plies, max_nodes=nodes,
                                                score_forced=True)
        return move, score, depth > 0
