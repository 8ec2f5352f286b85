"""Opponents for any variant, over the Variant interface only (harness/core/variant.py): a game
without agents of its own gets these three (agents/__init__.py), so every new game has a
sparring partner from its first day.

- random: a uniformly random legal move (the game's generator `rng`, so games replay);
- greedy: a move that wins at once if there is one, else the move after which it has the most
  material (`variant.values`, counted on `variant.grid`), ties broken with `rng`;
- ab: alpha-beta (negamax) on the same material, deepening one ply at a time until a node budget
  is spent (deterministic: a game replays exactly), the best move of the deepest finished search;
  a won game scores MATE less the plies to it, a drawn one 0; ties broken with `rng`;
- mcts: UCT (agents/uct.py) with random playouts of 8 plies and material at their end.

Each is made with the variant it plays (`VariantAgent(variant)`).
(NTHU has its own, faster mcts: agents/nthu/mcts.py.)
"""
import math
import time
from typing import Any, List, Optional, Tuple

from harness.core.agent import Agent, search_score
from harness.core.variant import WHITE, Move, Variant

from .uct import Uct

MATE = 100000
MATE_BOUND = MATE - 1000          # beyond it, a score is a forced win or loss
DEFAULT_NODES = 2000
DEFAULT_SECONDS = 2.0       # a cap for a slow machine: the node budget decides first
MAX_DEPTH = 8


class _OutOfBudget(Exception):
    pass


class VariantAgent(Agent):
    """An agent that plays `variant` through its interface; shown the state itself."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.value_of = {letter: variant.values.get(name, 0) for name, letter in variant.letters.items()}

    def material(self, state: Any) -> int:
        """White's material minus Black's."""
        total = 0
        for row in self.variant.grid(state):
            for cell in row:
                if cell is not None:
                    value = self.value_of.get(cell[0].upper(), 0)
                    total += value if cell[1] == WHITE else -value
        return total

    def score(self, state: Any, ply: int) -> int:
        """`state` from its mover's view: a finished game as won/lost/drawn, else material."""
        outcome = self.variant.outcome(state)
        mover = self.variant.to_move(state)
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return MATE - ply if outcome.winner == mover else -(MATE - ply)
        material = self.material(state)
        return material if mover == WHITE else -material


class RandomAgent(VariantAgent):
    name = "random"

    def choose_move(self, view, colour, rng):
        return rng.choice(self.variant.legal_moves(view))


class GreedyAgent(VariantAgent):
    name = "greedy"

    def choose_move(self, view, colour, rng):
        best, chosen = None, []
        for move in self.variant.legal_moves(view):
            value = -self.score(self.variant.apply(view, move), 1)
            if best is None or value > best:
                best, chosen = value, [move]
            elif value == best:
                chosen.append(move)
        return rng.choice(chosen)


class AlphaBetaAgent(VariantAgent):
    name = "ab"

    def __init__(self, variant: Variant, nodes: int = DEFAULT_NODES, seconds: float = DEFAULT_SECONDS):
        super().__init__(variant)
        self.nodes = nodes
        self.seconds = seconds
        self.deadline: Optional[float] = None
        self.last_score: Optional[int] = None
        self.last_depth = 0
        self._count = 0
        self._stop_nodes = 0
        self._stop_time = 0.0

    def set_deadline(self, seconds):
        self.deadline = seconds

    def choose_move(self, view, colour, rng):
        seconds = self.seconds if self.deadline is None else min(self.seconds, 0.8 * self.deadline)
        self._count, self._stop_nodes = 0, self.nodes
        self._stop_time = time.monotonic() + 0.9 * seconds
        moves = self.variant.legal_moves(view)
        best: List[Move] = list(moves)
        self.last_score, self.last_depth = None, 0
        for depth in range(1, MAX_DEPTH + 1):
            try:
                value, found = self.root(view, moves, depth)
            except _OutOfBudget:
                break
            best, self.last_score, self.last_depth = found, value, depth
            # the deepest finished search's best first: the next one cuts more
            moves = found + [m for m in moves if m not in found]
            if abs(value) > MATE_BOUND:
                break
        return rng.choice(best)

    def root(self, state, moves, depth) -> Tuple[int, List[Move]]:
        best, found = None, []
        for move in moves:
            # ties are kept (alpha lowered by one), so rng picks among equally good moves
            value = -self.search(self.variant.apply(state, move), depth - 1, 1, -MATE - 1,
                                 -(best - 1) if best is not None else MATE + 1)
            if best is None or value > best:
                best, found = value, [move]
            elif value == best:
                found.append(move)
        return best, found

    def search(self, state, depth: int, ply: int, alpha: int, beta: int) -> int:
        self._count += 1
        if self._count > self._stop_nodes or (self._count & 255 == 0 and time.monotonic() > self._stop_time):
            raise _OutOfBudget
        if depth == 0 or self.variant.outcome(state) is not None:
            return self.score(state, ply)
        children = [(self.variant.apply(state, m)) for m in self.variant.legal_moves(state)]
        if depth >= 2:       # the replies that leave the opponent least material first
            children.sort(key=lambda child: self.score(child, ply + 1))
        for child in children:
            value = -self.search(child, depth - 1, ply + 1, -beta, -alpha)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha

    def move_score(self):
        return None if self.last_score is None else search_score(self.last_score, MATE, MATE_BOUND)


class VariantGame:
    """A variant as agents/uct.py's game: moves in the variant's order, its outcome as the
    terminal, and as the playout `plies` random plies then the mover's material squashed to
    [0, 1] (logistic, PLAYOUT_K points)."""

    PLAYOUT_K = 4.0

    def __init__(self, agent: "VariantAgent", plies: int = 8):
        self.agent, self.variant, self.plies = agent, agent.variant, plies

    def moves(self, state):
        return self.variant.legal_moves(state)

    def play(self, state, move):
        return self.variant.apply(state, move)

    def terminal(self, state):
        outcome = self.variant.outcome(state)
        if outcome is None:
            return None
        if outcome.winner is None:
            return 0.5, False
        return (1.0 if outcome.winner == self.variant.to_move(state) else 0.0), True

    def playout(self, state, rng):
        mover = self.variant.to_move(state)
        for _ in range(self.plies):
            end = self.terminal(state)
            if end is not None:
                return end[0] if self.variant.to_move(state) == mover else 1.0 - end[0]
            state = self.variant.apply(state, rng.choice(self.variant.legal_moves(state)))
        material = self.agent.material(state)
        lead = material if mover == WHITE else -material
        return 1.0 / (1.0 + math.exp(-lead / self.PLAYOUT_K))


class MctsAgent(VariantAgent):
    """mcts: UCT (agents/uct.py) over the variant's interface, random playouts of 8 plies, a
    budget of `iterations` with a `seconds` cap; the search's generator seeded by the game's seed
    and the ply (a game replays exactly)."""
    name = "mcts"

    def __init__(self, variant: Variant, iterations: int = DEFAULT_NODES, seconds: float = DEFAULT_SECONDS):
        super().__init__(variant)
        self.iterations, self.seconds, self.seed = iterations, seconds, 0
        self.game = VariantGame(self)
        self.plies = 0

    def start_game(self, colour, seed):
        self.seed, self.plies = seed, 0

    def choose_move(self, view, colour, rng):
        self.plies += 1
        move = Uct(self.game, seed=self.seed * 1000 + self.plies).search(view, self.iterations, self.seconds)[0]
        return move
