"""Move generation, attack tests and making moves on a flat board.

A board is a list with one entry per square (index ``row * cols + col``): 0 when empty,
``+code`` for a White piece and ``-code`` for a Black one, where ``code`` is 1 + the piece's
position in ``variant.pieces``. A side is ``+1`` (White) or ``-1`` (Black), so "own piece" is
``board[s] * side > 0``. A move is ``(from_index, to_index)``. Every table is built once from
the variant's data, which keeps the generator free of board-size or piece constants.

Moves are pseudo-legal (the course does not enforce check). Within one piece they come in a
fixed order: its slides direction by direction (in the variant's order, nearest square
first), then its leaps (in the variant's order); a pawn pushes before it captures, towards the
lower column first.
"""
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .pieces import CS3243, WHITE, BLACK, Edition

Move = Tuple[int, int]
SIDE_OF_COLOUR = {WHITE: 1, BLACK: -1}
COLOUR_OF_SIDE = {1: WHITE, -1: BLACK}


class Rules:
    """The precomputed move and attack tables of one variant, and the operations on boards."""

    def __init__(self, variant: Edition = CS3243):
        self.variant = variant
        self.size = variant.size
        self.code_of = {p.name: i + 1 for i, p in enumerate(variant.pieces)}
        self.piece_of = {i + 1: p for i, p in enumerate(variant.pieces)}
        self.king = self.code_of[variant.royal]
        self.pawns = frozenset(c for c, p in self.piece_of.items() if p.pawn)
        self.pawn_code = min(self.pawns) if self.pawns else 0
        kinds = len(variant.pieces) + 1
        # Per piece code and square: the moving piece's rays and leap targets.
        self.rays: List[List[Tuple[Tuple[int, ...], ...]]] = [[()] * self.size for _ in range(kinds)]
        self.leaps: List[List[Tuple[int, ...]]] = [[()] * self.size for _ in range(kinds)]
        # Per side and square: pawn push target (or -1) and pawn capture targets.
        self.pawn_push = {1: [-1] * self.size, -1: [-1] * self.size}
        self.pawn_captures: Dict[int, List[Tuple[int, ...]]] = {1: [()] * self.size, -1: [()] * self.size}
        for code, piece in self.piece_of.items():
            for s in range(self.size):
                self.rays[code][s] = tuple(r for r in (self._ray(s, d) for d in piece.slides) if r)
                self.leaps[code][s] = tuple(t for t in (self._step(s, v) for v in piece.leaps) if t is not None)
        for side in (1, -1):
            for s in range(self.size):
                push = self._step(s, (0, side))
                self.pawn_push[side][s] = -1 if push is None else push
                self.pawn_captures[side][s] = tuple(
                    t for t in (self._step(s, (-1, side)), self._step(s, (1, side))) if t is not None)
        # Reverse tables for "is square s attacked": walk from s along each vector negated.
        self.leap_attackers: List[Tuple[Tuple[int, frozenset], ...]] = []
        self.ray_attackers: List[Tuple[Tuple[Tuple[int, ...], frozenset], ...]] = []
        for s in range(self.size):
            by_target: Dict[int, Set[int]] = {}
            for code, piece in self.piece_of.items():
                for dc, dr in piece.leaps:
                    t = self._step(s, (-dc, -dr))
                    if t is not None:
                        by_target.setdefault(t, set()).add(code)
            self.leap_attackers.append(tuple((t, frozenset(c)) for t, c in by_target.items()))
            by_direction: Dict[Tuple[int, int], Set[int]] = {}
            for code, piece in self.piece_of.items():
                for dc, dr in piece.slides:
                    by_direction.setdefault((-dc, -dr), set()).add(code)
            rays = ((self._ray(s, d), frozenset(c)) for d, c in by_direction.items())
            self.ray_attackers.append(tuple((r, c) for r, c in rays if r))
        # A pawn of `side` attacks s from the squares one step diagonally behind s.
        self.pawn_attackers = {
            side: [tuple(t for t in (self._step(s, (-1, -side)), self._step(s, (1, -side))) if t is not None)
                   for s in range(self.size)]
            for side in (1, -1)}

    def _step(self, s: int, vector) -> Optional[int]:
        row, col = divmod(s, self.variant.cols)
        col, row = col + vector[0], row + vector[1]
        return self.variant.index(col, row) if self.variant.on_board(col, row) else None

    def _ray(self, s: int, vector) -> Tuple[int, ...]:
        squares = []
        t = self._step(s, vector)
        while t is not None:
            squares.append(t)
            t = self._step(t, vector)
        return tuple(squares)

    # -- move generation --------------------------------------------------------------------

    def moves_from(self, board: Sequence[int], s: int) -> List[Move]:
        """The pseudo-legal moves of the piece on s (none when s is empty), in the fixed order."""
        p = board[s]
        if not p:
            return []
        side = 1 if p > 0 else -1
        code = p * side
        out = []
        if code in self.pawns:
            t = self.pawn_push[side][s]
            if t >= 0 and not board[t]:
                out.append((s, t))
            for t in self.pawn_captures[side][s]:
                if board[t] * side < 0:
                    out.append((s, t))
            return out
        for ray in self.rays[code][s]:
            for t in ray:
                q = board[t]
                if not q:
                    out.append((s, t))
                else:
                    if q * side < 0:
                        out.append((s, t))
                    break
        for t in self.leaps[code][s]:
            if board[t] * side <= 0:
                out.append((s, t))
        return out

    def moves(self, board: Sequence[int], side: int) -> List[Move]:
        """All pseudo-legal moves of `side`, piece by piece in square order."""
        out: List[Move] = []
        pawns, rays, leaps = self.pawns, self.rays, self.leaps
        push, captures = self.pawn_push[side], self.pawn_captures[side]
        append = out.append
        for s, p in enumerate(board):
            code = p * side
            if code <= 0:
                continue
            if code in pawns:
                t = push[s]
                if t >= 0 and not board[t]:
                    append((s, t))
                for t in captures[s]:
                    if board[t] * side < 0:
                        append((s, t))
                continue
            for ray in rays[code][s]:
                for t in ray:
                    q = board[t]
                    if not q:
                        append((s, t))
                    else:
                        if q * side < 0:
                            append((s, t))
                        break
            for t in leaps[code][s]:
                if board[t] * side <= 0:
                    append((s, t))
        return out

    # -- attacks, check, safety ---------------------------------------------------------------

    def attacked(self, board: Sequence[int], s: int, by_side: int) -> bool:
        """Could a piece of `by_side` capture on square s with its next move?"""
        for t, codes in self.leap_attackers[s]:
            if board[t] * by_side in codes:
                return True
        for ray, codes in self.ray_attackers[s]:
            for t in ray:
                q = board[t]
                if q:
                    if q * by_side in codes:
                        return True
                    break
        pawn = by_side * self.pawn_code
        for t in self.pawn_attackers[by_side][s]:
            if board[t] == pawn:
                return True
        return False

    def king_square(self, board: Sequence[int], side: int) -> int:
        """Square of `side`'s King, or -1 when it has been captured."""
        try:
            return board.index(self.king * side)
        except ValueError:
            return -1

    def in_check(self, board: Sequence[int], side: int) -> bool:
        """Is `side`'s King attacked (a captured King counts as attacked)?"""
        k = self.king_square(board, side)
        return k < 0 or self.attacked(board, k, -side)

    def make(self, board: Sequence[int], move: Move) -> List[int]:
        """The board after `move` (a new list; the given one is left as it was)."""
        s, t = move
        after = list(board)
        after[t] = after[s]
        after[s] = 0
        return after

    def is_safe(self, board: Sequence[int], move: Move) -> bool:
        """After `move`, is the mover's King unattacked? Capturing the enemy King is always safe."""
        s, t = move
        side = 1 if board[s] > 0 else -1
        if board[t] == -side * self.king:
            return True
        return not self.in_check(self.make(board, move), side)

    def captures_king(self, board: Sequence[int], move: Move) -> bool:
        return abs(board[move[1]]) == self.king and board[move[1]] * board[move[0]] < 0

    # -- conversions ---------------------------------------------------------------------------

    def code(self, piece: str, colour: str) -> int:
        return self.code_of[piece] * SIDE_OF_COLOUR[colour]

    def piece(self, code: int) -> Tuple[str, str]:
        """(piece_type, colour) of a non-zero board entry."""
        return (self.piece_of[abs(code)].name, WHITE if code > 0 else BLACK)


RULES = Rules(CS3243)


def perft(rules: Rules, board: List[int], side: int, depth: int) -> int:
    """Number of move sequences of length `depth`; a position whose King was captured has none."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(rules.moves(board, side))  # the last ply counted in bulk
    total = 0
    king = rules.king
    for s, t in rules.moves(board, side):
        if board[t] * -side == king:
            continue  # the game ends here: this sequence cannot be extended
        after = list(board)
        after[t] = after[s]
        after[s] = 0
        total += perft(rules, after, -side, depth - 1)
    return total
