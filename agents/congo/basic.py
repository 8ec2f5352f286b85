"""Congo's simple agents: random and greedy. Ties are broken with `rng.choice` over the moves in
name order, so a seed replays the same game."""
from harness.core.agent import Agent
from harness.core.variant import Move
from harness.variants.congo import State
from harness.variants.congo.rules import LION, MATERIAL, generate


class NoMove(Exception):
    """Asked for a move in a position without one (the referee ends such a game first)."""


def moves_of(state: State):
    moves = generate(state.board, state.side)
    if not moves:
        raise NoMove("no move in this position")
    return moves


class RandomAgent(Agent):
    name = "random"

    def choose_move(self, view: State, colour, rng) -> Move:
        return Move(*rng.choice(moves_of(view)))


class GreedyAgent(Agent):
    """The enemy lion if it can take it; else a capture of the most valuable piece; else any move."""
    name = "greedy"

    def choose_move(self, view: State, colour, rng) -> Move:
        board = view.board
        moves = moves_of(view)
        lion = [m for m in moves if board[m[1]] == -LION * view.side]
        if lion:
            return Move(*rng.choice(lion))
        captures = [m for m in moves if board[m[1]]]
        if captures:
            top = max(abs(MATERIAL[board[t] + 6]) for _, t in captures)
            return Move(*rng.choice([m for m in captures if abs(MATERIAL[board[m[1]] + 6]) == top]))
        return Move(*rng.choice(moves))
