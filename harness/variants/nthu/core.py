"""NTHU MiniChess 6x5: the board as data and the course's move generator (standard library only).

This module imports nothing from the project but the small-board chess it shares with Gardner's
game (harness/variants/smallchess.py, standard library only), so `export-nthu` can put the two
texts into a single-file player. A board is a sequence of 30 ints, square index
``row * 5 + col`` with row 0 at the top (Black's back rank); a piece is its course code (1 pawn .. 6 king), positive for
White, negative for Black. A side is the sign of its pieces: ``+1`` White, ``-1`` Black.
"""
from harness.variants.smallchess import attack_test, rays, steps  # export: drop

ROWS, COLS = 6, 5
SQUARES = ROWS * COLS
EMPTY, PAWN, ROOK, KNIGHT, BISHOP, QUEEN, KING = range(7)
# material by course code (a promoted pawn is a queen); the course's values
VALUE = (0, 2, 6, 7, 8, 20, 100)
STEP_LIMIT = 50
WIN = 100000                      # the baselines' score for a king threat

ROOK_DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1))
KING_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


ORTH_RAYS = tuple(rays(s, ROOK_DIRS, ROWS, COLS) for s in range(SQUARES))
DIAG_RAYS = tuple(rays(s, BISHOP_DIRS, ROWS, COLS) for s in range(SQUARES))
# rays in the course's order for each slider, by code
RAYS = {ROOK: ORTH_RAYS, BISHOP: DIAG_RAYS,
        QUEEN: tuple(ORTH_RAYS[s] + DIAG_RAYS[s] for s in range(SQUARES))}
STEPS = {KNIGHT: tuple(steps(s, KNIGHT_STEPS, ROWS, COLS) for s in range(SQUARES)),
         KING: tuple(steps(s, KING_STEPS, ROWS, COLS) for s in range(SQUARES))}


def _pawn_tables(side):
    dr = -1 if side == 1 else 1           # White moves towards row 0
    step, caps = [], []
    for sq in range(SQUARES):
        r, c = divmod(sq, COLS)
        step.append((r + dr) * COLS + c if 0 <= r + dr < ROWS else -1)
        # the capture towards col+1 first, then towards col-1
        caps.append(steps(sq, ((dr, 1), (dr, -1)), ROWS, COLS))
    return tuple(step), tuple(caps)


PAWN_STEP, PAWN_CAPS = {}, {}
for _side in (1, -1):
    PAWN_STEP[_side], PAWN_CAPS[_side] = _pawn_tables(_side)
# the row where a side's pawn becomes a queen
LAST_ROW = {1: 0, -1: ROWS - 1}

START = (
    -KING, -QUEEN, -BISHOP, -KNIGHT, -ROOK,
    -PAWN, -PAWN, -PAWN, -PAWN, -PAWN,
    0, 0, 0, 0, 0,
    0, 0, 0, 0, 0,
    PAWN, PAWN, PAWN, PAWN, PAWN,
    ROOK, KNIGHT, BISHOP, QUEEN, KING,
)


def moves(board, side):
    """The moves (from, to) of `side`, in the course's order (pseudo-legal: no check rule)."""
    out = []
    append = out.append
    for sq in range(SQUARES):
        p = board[sq] * side
        if p <= 0:
            continue
        if p == PAWN:
            t = PAWN_STEP[side][sq]
            if t >= 0 and board[t] == 0:
                append((sq, t))
            for t in PAWN_CAPS[side][sq]:
                if board[t] * side < 0:
                    append((sq, t))
        elif p == KNIGHT or p == KING:
            for t in STEPS[p][sq]:
                if board[t] * side <= 0:
                    append((sq, t))
        else:
            for ray in RAYS[p][sq]:
                for t in ray:
                    q = board[t] * side
                    if q > 0:
                        break
                    append((sq, t))
                    if q < 0:
                        break
    return out


def play(board, move):
    """The board after `move` (a new tuple); a pawn reaching the far row becomes a queen."""
    s, t = move
    b = list(board)
    p = b[s]
    if (p == PAWN and t < COLS) or (p == -PAWN and t >= SQUARES - COLS):
        p = QUEEN if p > 0 else -QUEEN
    b[t] = p
    b[s] = 0
    return tuple(b)


# attacked(board, sq, side): is square `sq` attacked by a piece of `side`?
attacked = attack_test(PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, STEPS[KNIGHT], STEPS[KING], PAWN_CAPS,
                       ORTH_RAYS, DIAG_RAYS)


def king_square(board, side):
    """The square of `side`'s king, or -1 if it has none."""
    king = KING * side
    for sq in range(SQUARES):
        if board[sq] == king:
            return sq
    return -1


def can_take_king(board, side):
    """The course's win(n): `side` (to move) has a move that captures the enemy king."""
    k = king_square(board, -side)
    return k >= 0 and attacked(board, k, side)


def material(board, side):
    """The course's material: `side`'s pieces minus the other side's."""
    total = 0
    for p in board:
        if p > 0:
            total += VALUE[p]
        elif p < 0:
            total -= VALUE[-p]
    return total * side
