"""Congo's analyser for the game review: ab's search (agents/congo/ab.py) to a node count.

Each position gets a fresh engine (no table kept from the positions before) searching without
contempt (a draw is level for both sides) and without the game's history, so the same position
always gets the same evaluation. ab's material counts a pawn as 100, so its scores are
centipawns; a lion capture found by the search is a mate distance.
"""
from harness.analysis.analyser import Analyser, AnalyserError, Evaluation, from_mover
from harness.variants.base import Move

from .ab import MATE, MATE_BOUND, Engine

DEFAULT_NODES = 1500      # about 0.04 s a position on one core (docs/analysis.md)


class SearchAnalyser(Analyser):
    def __init__(self, nodes: int = DEFAULT_NODES):
        self.nodes = nodes
        self.label = f"ab,nodes={nodes}"

    def evaluate(self, state) -> Evaluation:
        engine = Engine(state.promotion, self.nodes, contempt=0)
        move, score = engine.choose(state.board, state.side, frozenset(), state.max_plies - state.plies,
                                    score_forced=True)
        best = Move(*move)
        if abs(score) > MATE_BOUND:
            return from_mover(state.side, best, mate_plies=(MATE - abs(score)) * (1 if score > 0 else -1))
        if engine.depth_done == 0:
            raise AnalyserError(f"analyser '{self.label}': {self.nodes} nodes do not finish one ply; "
                                f"give more with --nodes")
        return from_mover(state.side, best, cp=score)
