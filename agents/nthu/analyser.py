"""NTHU's analyser for the game review: ab's search (agents/nthu/search.py) to a node count.

Each position gets a fresh search (no table kept from the positions before), so the same
position always gets the same evaluation. A position whose first ply the node count cannot
finish (king threats make the quiescence search wide) is searched again with twice the nodes,
until it does. ab's evaluation counts a pawn as 2 course points of 50
units, so its scores are centipawns as they stand; a won or lost end (a king threat, no move, a
material lead at the step limit) found by the search is a mate distance.
"""
from harness.analysis.analyser import Analyser, AnalyserError, Evaluation, from_mover
from harness.variants.base import Move

from .search import MATE, MATE_BOUND, Search

DEFAULT_NODES = 3000      # about 0.04 s a position on one core (docs/analysis.md)
RETRIES = 64              # a search that cannot finish its first ply is given up to 64 times the nodes


class SearchAnalyser(Analyser):
    def __init__(self, nodes: int = DEFAULT_NODES):
        self.nodes = nodes
        self.label = f"ab,nodes={nodes}"

    def evaluate(self, state) -> Evaluation:
        budget = self.nodes
        while True:      # a position whose first ply needs more nodes gets twice as many, and so on
            move, score, depth = Search().best_move(state.board, state.side, state.plies,
                                                    max_nodes=budget, score_forced=True)
            if move is not None and depth > 0:
                break
            if budget >= self.nodes * RETRIES:
                raise AnalyserError(f"analyser '{self.label}': {budget} nodes do not finish one ply "
                                    f"in {state}")
            budget *= 2
        best = Move(*move)
        if abs(score) > MATE_BOUND:
            return from_mover(state.side, best, mate_plies=(MATE - abs(score)) * (1 if score > 0 else -1))
        return from_mover(state.side, best, cp=score)
