"""The analyser interface, beside the agent contract (harness/core/agent.py): given a state, an
evaluation from White's view and the analyser's best move, at the analyser's fixed limit (a node
count, so an analysis repeats exactly).

An `Evaluation` is the score in centipawns (a pawn = 100) or a mate distance (moves to mate,
positive when White mates; cp is None then), and the best move (a variant `Move`, None when the
analyser names none). Searches report scores from the side to move: `from_mover` turns one into
White's view.
"""
from typing import Any, NamedTuple, Optional, Tuple

from .variant import Move

WIN_SLOPE = 0.00368208          # chess's win % slope per centipawn (lichess), an analyser's default


class AnalysisError(Exception):
    """A game review that cannot be done as asked; the text is one line."""


class AnalyserError(AnalysisError):
    """An analyser that cannot be started or that fails."""


class Evaluation(NamedTuple):
    cp: Optional[int]              # centipawns from White's view; None when `mate` is given
    mate: Optional[int]            # moves to mate, positive when White mates
    best: Optional[Move]           # the analyser's move in the position


def from_mover(side: int, best: Optional[Move], cp: Optional[int] = None,
               mate_plies: Optional[int] = None) -> Evaluation:
    """An evaluation from White's view of a search's score for the side to move (`side` +1 for
    White, -1 for Black): `cp` centipawns, or a won (positive) or lost (negative) game
    `mate_plies` plies away, which is (plies + 1) // 2 moves."""
    if mate_plies is not None:
        moves = max(1, (abs(mate_plies) + 1) // 2)
        return Evaluation(None, side * (moves if mate_plies > 0 else -moves), best)
    assert cp is not None, "a score is centipawns or a mate"
    return Evaluation(side * int(cp), None, best)


class Analyser:
    """Base class: subclasses set `label` and implement `evaluate`.

    What the review needs to know of an analyser's scale and noise, measured per analyser (each
    variant's own; docs/analysis.md, "The rule"):
    - `win_slope`: the win % logistic's coefficient per centipawn of this analyser, fitted to
      recorded games' results (bench/win_curve.py); chess's lichess figure by default;
    - `noise`: win % points; a drop below it is not judged (bench/analysis.py measures it: the
      90th percentile of how far the analyser's own best move "drops" its mover's win % when the
      position after it is searched afresh at the default nodes);
    - `second_look`: a judged move's two positions are searched again with this many times the
      nodes (1: no second look);
    - `margin`: win % points an inaccuracy's or a mistake's drop needs beyond its threshold, so
      that they hold at 100 times the nodes as blunders do (bench/analysis.py, issue 60).
    """

    label = "analyser"    # names the analyser and its limit: analysis.jsonl's "analyser" field
    nodes = 0             # the node count of a first look
    win_slope = WIN_SLOPE
    noise = 0.0
    second_look = 1
    margin = 3.0          # bench/analysis.py: ?! and ? held at 100x in 15 of 17 without, 10 of 10 with it

    def verify(self) -> None:
        """Called once before any work: AnalyserError (one line) when it cannot run at all."""

    def evaluate(self, state: Any, nodes: Optional[int] = None) -> Evaluation:
        """The evaluation of a position where the game is not over, searched to `nodes` (default
        the analyser's own count)."""
        raise NotImplementedError

    def rule_text(self) -> str:
        """What the label adds to the analyser's name: the second look (a line made under another
        rule is analysed again)."""
        text = f"second look x{self.second_look}" if self.second_look > 1 else "no second look"
        return text + (f", margin {self.margin:g}" if self.margin else "")

    def close(self) -> None:
        """Stop whatever the analyser started (an engine process); safe to call twice."""


class SearchAnalyser(Analyser):
    """An analyser on one of our own searches (nthu's and congo's `ab`): `search(state, nodes)`
    gives (move, score for the side to move, whether that score is a search's result: its first ply
    finished, or a win found before searching); a score beyond
    `mate_bound` is a won (lost) end `mate - |score|` plies away. A position whose first ply the
    node count cannot finish is searched again with twice the nodes, up to `retries` times the
    node count (then AnalyserError)."""

    mate = 0
    mate_bound = 0
    retries = 64
    default_nodes = 1000

    def __init__(self, nodes: Optional[int] = None):
        self.nodes = self.default_nodes if nodes is None else nodes
        self.label = f"ab,nodes={self.nodes}, {self.rule_text()}"

    def search(self, state: Any, nodes: int) -> Tuple[Optional[Tuple[int, int]], int, bool]:
        raise NotImplementedError

    def evaluate(self, state: Any, nodes: Optional[int] = None) -> Evaluation:
        start = budget = nodes or self.nodes
        while True:
            move, score, finished = self.search(state, budget)
            if move is not None and finished:
                break
            if budget >= start * self.retries:
                raise AnalyserError(f"analyser '{self.label}': {budget} nodes do not finish one ply in {state}")
            budget *= 2
        best = Move(*move)
        if abs(score) > self.mate_bound:
            return from_mover(state.side, best, mate_plies=(self.mate - abs(score)) * (1 if score > 0 else -1))
        return from_mover(state.side, best, cp=score)
