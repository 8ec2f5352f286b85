"""Gardner's 5x5 minichess: the board as data, the moves and the end rules' tests (standard
library only; of the project, the small-board chess shared with NTHU's game: smallchess).

A board is a tuple of 25 ints, square ``rank * 5 + file`` with a1 = 0, b1 = 1, ..., e5 = 24
(White's side is ranks 1-2). A piece is its code (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen,
6 king), positive for White, negative for Black; a side is the sign of its pieces. The rules are
chess's on this board without castling, without the pawn's double step (so without en passant),
as Fairy-Stockfish's built-in ``gardner``: a pawn reaching the far rank becomes a queen, rook,
bishop or knight (the mover's choice); a move may not leave the mover's king attacked.
"""
from typing import List, Optional, Tuple

from .. import smallchess

SIZE = 5
SQUARES = SIZE * SIZE
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
LETTERS = ".PNBRQK"                 # by code; White upper case, Black lower case
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)   # the order a pawn's promotions are listed in

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# (from, to, promotion code or 0)
MoveT = Tuple[int, int, int]


def _rays(square: int, directions) -> Tuple[Tuple[int, ...], ...]:
    return smallchess.rays(square, [(dr, df) for df, dr in directions], SIZE, SIZE, keep_empty=False)


def _steps(square: int, offsets) -> Tuple[int, ...]:
    return smallchess.steps(square, [(dr, df) for df, dr in offsets], SIZE, SIZE)


ORTHOGONAL_RAYS = tuple(_rays(s, ORTHOGONAL) for s in range(SQUARES))
DIAGONAL_RAYS = tuple(_rays(s, DIAGONAL) for s in range(SQUARES))
QUEEN_RAYS = tuple(ORTHOGONAL_RAYS[s] + DIAGONAL_RAYS[s] for s in range(SQUARES))
SLIDER_RAYS = {BISHOP: DIAGONAL_RAYS, ROOK: ORTHOGONAL_RAYS, QUEEN: QUEEN_RAYS}
KNIGHT_STEPS = tuple(_steps(s, KNIGHT_JUMPS) for s in range(SQUARES))
KING_STEPS = tuple(_steps(s, ORTHOGONAL + DIAGONAL) for s in range(SQUARES))
# a pawn of `side` on a square: where it steps (-1: off the board) and the squares it captures on
PAWN_STEP = {side: tuple(s + side * SIZE if 0 <= s + side * SIZE < SQUARES else -1 for s in range(SQUARES))
             for side in (1, -1)}
PAWN_CAPTURES = {side: tuple(_steps(s, ((-1, side), (1, side))) for s in range(SQUARES)) for side in (1, -1)}
LAST_RANK = {1: range(SQUARES - SIZE, SQUARES), -1: range(0, SIZE)}

START = (ROOK, KNIGHT, BISHOP, QUEEN, KING,
         PAWN, PAWN, PAWN, PAWN, PAWN,
         0, 0, 0, 0, 0,
         -PAWN, -PAWN, -PAWN, -PAWN, -PAWN,
         -ROOK, -KNIGHT, -BISHOP, -QUEEN, -KING)


# attacked(board, square, by): is `square` attacked by a piece of side `by`?
attacked = smallchess.attack_test(PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, KNIGHT_STEPS, KING_STEPS, PAWN_CAPTURES,
                                  ORTHOGONAL_RAYS, DIAGONAL_RAYS)


def king_square(board, side: int) -> int:
    """The square of `side`'s king; -1 when it has none (not a position of the game)."""
    try:
        return board.index(KING * side)
    except ValueError:
        return -1


def in_check(board, side: int) -> bool:
    k = king_square(board, side)
    return k >= 0 and attacked(board, k, -side)


def pseudo_moves(board, side: int) -> List[MoveT]:
    """Every move of `side` by the pieces' movement, square by square from a1 (a king may be left
    attacked); a pawn reaching the far rank gives four moves, queen, rook, bishop, knight."""
    out: List[MoveT] = []
    append = out.append
    last = LAST_RANK[side]
    for s in range(SQUARES):
        p = board[s] * side
        if p <= 0:
            continue
        if p == PAWN:
            targets = []
            t = PAWN_STEP[side][s]
            if t >= 0 and board[t] == 0:
                targets.append(t)
            for t in PAWN_CAPTURES[side][s]:
                if board[t] * side < 0:
                    targets.append(t)
            for t in targets:
                if t in last:
                    for promotion in PROMOTIONS:
                        append((s, t, promotion))
                else:
                    append((s, t, 0))
        elif p == KNIGHT or p == KING:
            for t in (KNIGHT_STEPS if p == KNIGHT else KING_STEPS)[s]:
                if board[t] * side <= 0:
                    append((s, t, 0))
        else:
            for ray in SLIDER_RAYS[p][s]:
                for t in ray:
                    q = board[t] * side
                    if q > 0:
                        break
                    append((s, t, 0))
                    if q < 0:
                        break
    return out


def play(board, move: MoveT) -> tuple:
    """The board after `move` (a new tuple)."""
    s, t, promotion = move
    b = list(board)
    p = b[s]
    b[s] = 0
    b[t] = (promotion if p > 0 else -promotion) if promotion else p
    return tuple(b)


def legal_moves(board, side: int) -> List[MoveT]:
    """The moves of `side` that do not leave its own king attacked, in `pseudo_moves`' order."""
    out = []
    king = KING * side
    k = king_square(board, side)
    for move in pseudo_moves(board, side):
        s, t, promotion = move
        b = list(board)
        b[t] = b[s] if not promotion else promotion * side
        b[s] = 0
        if not attacked(b, t if board[s] == king else k, -side):
            out.append(move)
    return out


def irreversible(board, move: MoveT) -> bool:
    """A capture or a pawn move: it resets the 50-move counter (and no position before it can
    come back)."""
    s, t, _ = move
    return board[t] != 0 or abs(board[s]) == PAWN


def _dark(square: int) -> bool:
    rank, file = divmod(square, SIZE)
    return (rank + file) % 2 == 0            # a1 is dark, as on the chessboard


def cannot_mate(board, side: int) -> bool:
    """Fairy-Stockfish's `has_insufficient_material` for a chess-like game, on this board: `side`
    can never mate when it has no rook, queen or pawn (a pawn may become a rook or queen) and its
    pieces are bishops while all bishops on the board stand on squares of one colour and no other
    piece but the kings is on the board, or a lone knight with nothing else but the kings."""
    own = [abs(p) for p in board if p * side > 0 and abs(p) != KING]
    if any(p in (PAWN, ROOK, QUEEN) for p in own):
        return False
    others = [(s, abs(p)) for s, p in enumerate(board) if p and abs(p) != KING]
    bishops = {_dark(s) for s, p in others if p == BISHOP}
    unbound = [p for _, p in others if p != BISHOP]      # knights, pawns, rooks, queens (either side)
    if BISHOP in own and (len(bishops) == 2 or unbound):
        return False
    if KNIGHT in own and len(others) >= 2:
        return False
    return True


def perft(board, side: int, depth: int) -> int:
    """Legal move sequences of length `depth`, as Fairy-Stockfish counts them (the draw rules do
    not stop a sequence; a position without moves ends it)."""
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(play(board, m), -side, depth - 1) for m in moves)


def square_name(square: int) -> str:
    rank, file = divmod(square, SIZE)
    return f"{'abcde'[file]}{rank + 1}"


def parse_square(text: str) -> Optional[int]:
    if len(text) != 2 or text[0] not in "abcde" or text[1] not in "12345":
        return None
    return (int(text[1]) - 1) * SIZE + "abcde".index(text[0])
