"""Exhaustive search for forced wins under CS3243's own rules: what "mate" means in the course.

The course does not enforce check. Before each ply the side to move loses when every one of its
moves leaves its King attacked (`checkmate`, or `out_of_valid_moves` when it is not in check
now), and capturing a King wins at once (docs/rules-cs3243.md). So a move *wins at once* when
the variant's `outcome` after it names the mover as the winner, and a side *forces a win within
N moves* when it has a move that wins at once, or (N > 1) a move after which every reply of the
opponent leaves a position where it forces a win within N - 1 moves. A reply that ends the game
otherwise (a draw by the 50-ply rule or by having no move) refutes. Nothing is pruned: every
move and every reply is tried, so a result is a proof under the project's rules
(`harness/variants/cs3243`), not an engine's opinion.

Order only changes the speed: captures first (the King first), then the move (and the
refutation) that worked last time at the same depth ("killers").
"""
from typing import Dict, List, Optional

from ..core.variant import Move
from ..variants.cs3243 import VARIANT
from ..variants.cs3243.game import Position


class MateSearch:
    """Forced wins of the side to move, by exhaustive search; one object may search many
    positions (its killers are only hints)."""

    def __init__(self, variant=VARIANT):
        self.variant = variant
        self.killer_move: Dict[int, Move] = {}      # depth -> a move that forced a win
        self.killer_reply: Dict[int, Move] = {}     # depth -> a reply that refuted one
        self.nodes = 0                              # positions made, for the curious

    # -- ordering ------------------------------------------------------------------------------

    def _ordered(self, state: Position, killer: Optional[Move]) -> List[Move]:
        moves = self.variant.legal_moves(state)
        board, values = state.board, state.rules.piece_of

        def key(move: Move):
            victim = board[move.to_square]
            return (move != killer, -(values[abs(victim)].value if victim else 0))
        moves.sort(key=key)
        return moves

    # -- the search ----------------------------------------------------------------------------

    def move_wins(self, state: Position, move: Move, depth: int) -> bool:
        """Does `move` force a win within `depth` of the mover's moves (this one included)?"""
        variant = self.variant
        mover = variant.to_move(state)
        after = variant.apply(state, move)
        self.nodes += 1
        ended = variant.outcome(after)
        if ended is not None:
            return ended.winner == mover
        if depth <= 1:
            return False
        for reply in self._ordered(after, self.killer_reply.get(depth)):
            answered = variant.apply(after, reply)
            self.nodes += 1
            ended = variant.outcome(answered)
            if (ended is not None and ended.winner != mover) or (
                    ended is None and self.winning_move(answered, depth - 1) is None):
                self.killer_reply[depth] = reply
                return False
        return True

    def winning_move(self, state: Position, depth: int) -> Optional[Move]:
        """A move that forces a win within `depth` moves, or None when there is none."""
        for move in self._ordered(state, self.killer_move.get(depth)):
            if self.move_wins(state, move, depth):
                self.killer_move[depth] = move
                return move
        return None

    def winning_moves(self, state: Position, depth: int) -> List[Move]:
        """Every move that forces a win within `depth` moves, in the variant's move order."""
        return [m for m in self.variant.legal_moves(state) if self.move_wins(state, m, depth)]

    def mate_distance(self, state: Position, most: int) -> Optional[int]:
        """The fewest moves (1..most) in which the side to move forces a win, or None."""
        for depth in range(1, most + 1):
            if self.winning_move(state, depth) is not None:
                return depth
        return None


def passed(state: Position) -> Position:
    """The same position with the other side to move (a "null move"): what the opponent
    threatens. Only for looking; never a position of a game."""
    return state.replace(side=-state.side, king_taken_by=0)


def in_check(state: Position) -> bool:
    """Is the King of the side to move attacked?"""
    return state.rules.in_check(state.board, state.side)
