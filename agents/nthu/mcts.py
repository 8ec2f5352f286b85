"""mcts: UCT for NTHU MiniChess 6x5 (agents/uct.py, the game in agents/nthu/mcts_game.py).

Budget per move: `iterations` (deterministic with the game's seed: a game replays exactly) with
a wall-clock cap of `seconds` (1 s by default, lowered to the referee's deadline when that is
shorter); the search stops at 90 % of the cap. The playouts' generator is seeded from the
game's seed and the ply, so the same game gives the same moves.
"""
from harness.core.agent import Agent
from harness.core.variant import Move

from ..uct import DEFAULT_C, Uct
from .mcts_game import DEFAULT_ALPHA, NthuGame

DEFAULT_ITERATIONS = 200000
DEFAULT_SECONDS = 1.0


class MctsAgent(Agent):
    name = "mcts"

    def __init__(self, iterations=DEFAULT_ITERATIONS, seconds=DEFAULT_SECONDS, c=DEFAULT_C, playout_plies=0,
                 alpha=DEFAULT_ALPHA):
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.alpha = alpha
        self.game = NthuGame(playout_plies)
        self.deadline = None
        self.seed = 0
        self.last_iterations = 0

    def start_game(self, colour, seed):
        self.seed = seed

    def set_deadline(self, seconds):
        self.deadline = seconds

    def choose_move(self, view, colour, rng):
        seconds = self.seconds
        if self.deadline is not None:
            seconds = min(seconds, 0.8 * self.deadline) if seconds is not None else 0.8 * self.deadline
        uct = Uct(self.game, self.c, seed=self.seed * 1000 + view.plies, alpha=self.alpha)
        move, self.last_iterations, _ = uct.search((view.board, view.side, view.plies), self.iterations,
                                                   None if seconds is None else 0.9 * seconds)
        return Move(*move)
