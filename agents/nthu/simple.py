"""Two small opponents for NTHU MiniChess 6x5.

random: a uniformly random move (the game's generator `rng`, so games replay).
greedy: the move that leaves it the most material without letting the opponent capture its king
next (the king-threat rule); ties broken with `rng.choice` in the course's order.
"""
from harness.core.agent import Agent
from harness.core.variant import Move
from harness.variants.nthu import core


class RandomAgent(Agent):
    name = "random"

    def choose_move(self, view, colour, rng):
        s, t = rng.choice(core.moves(view.board, view.side))
        return Move(s, t)


class GreedyAgent(Agent):
    name = "greedy"

    def choose_move(self, view, colour, rng):
        board, side = view.board, view.side
        best, chosen = None, []
        for m in core.moves(board, side):
            after = core.play(board, m)
            score = -core.WIN if core.can_take_king(after, -side) else core.material(after, side)
            if best is None or score > best:
                best, chosen = score, [m]
            elif score == best:
                chosen.append(m)
        s, t = rng.choice(chosen)
        return Move(s, t)
