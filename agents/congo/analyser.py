"""Congo's analyser for the game review: ab's search (agents/congo/ab.py) to a node count.

Each position gets a fresh engine (no table kept from the positions before) searching without
contempt (a draw is level for both sides) and without the game's history, so the same position
always gets the same evaluation (a position whose first ply the node count cannot finish is
searched again with twice the nodes, until it does). ab's material counts a pawn as 100, so its scores are
centipawns; a lion capture found by the search is a mate distance.
"""
from harness.analysis.analyser import Analyser, AnalyserError, Evaluation, from_mover
from harness.variants.base import Move

from .ab import MATE, MATE_BOUND, Engine

DEFAULT_NODES = 1500      # about 0.04 s a position on one core (docs/analysis.md)
RETRIES = 64              # a search that cannot finish its first ply is given up to 64 times the nodes


class SearchAnalyser(Analyser):
    def __init__(self, nodes: int = DEFAULT_NODES):
        self.nodes = nodes
        self.label = f"ab,nodes={nodes}"

    def evaluate(self, state) -> Evaluation:
        budget = self.nodes
        while True:      # a position whose first ply needs more nodes gets twice as many, and so on
            engine = Engine(state.promotion, budget, contempt=0)
            move, score = engine.choose(state.board, state.side, frozenset(), state.max_plies - state.plies,
                                        score_forced=True)
            if abs(score) > MATE_BOUND or engine.depth_done > 0:
                break
            if budget >= self.nodes * RETRIES:
                raise AnalyserError(f"analyser '{self.label}': {budget} nodes do not finish one ply in {state.fen}")
            budget *= 2
        best = Move(*move)
        if abs(score) > MATE_BOUND:
            return from_mover(state.side, best, mate_plies=(MATE - abs(score)) * (1 if score > 0 else -1))
        return from_mover(state.side, best, cp=score)
