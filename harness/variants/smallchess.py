"""Chess on a small board, shared by Gardner's 5x5 (harness/variants/gardner/rules.py) and NTHU's
6x5 (harness/variants/nthu/core.py): the move tables of a board and the test "is this square
attacked". Standard library only and no import of the project, because `export-nthu` puts this
text, with NTHU's board module, into a single-file player.

A board is a sequence of ints, square ``row * cols + col``; a piece is a code, positive for
White and negative for Black, and a side is the sign of its pieces. Which way a row counts, the
pieces' codes and the order of the directions are each game's (its move order comes from them).
"""


def on_board(row, col, rows, cols):
    return 0 <= row < rows and 0 <= col < cols


def rays(square, directions, rows, cols, keep_empty=True):
    """The squares a slider on `square` passes, one tuple per direction (drow, dcol) in the order
    given, nearest first; a direction that leaves the board at once gives an empty tuple, or
    none with keep_empty=False."""
    row0, col0 = divmod(square, cols)
    out = []
    for drow, dcol in directions:
        ray, row, col = [], row0 + drow, col0 + dcol
        while on_board(row, col, rows, cols):
            ray.append(row * cols + col)
            row, col = row + drow, col + dcol
        if ray or keep_empty:
            out.append(tuple(ray))
    return tuple(out)


def steps(square, offsets, rows, cols):
    """The squares one step (drow, dcol) away from `square`, in the order given."""
    row0, col0 = divmod(square, cols)
    return tuple((row0 + drow) * cols + col0 + dcol for drow, dcol in offsets
                 if on_board(row0 + drow, col0 + dcol, rows, cols))


def attack_test(pawn, knight, bishop, rook, queen, king, knight_steps, king_steps, pawn_captures,
                orthogonal_rays, diagonal_rays):
    """`attacked(board, square, by)`: is `square` attacked by a piece of side `by`? The pieces'
    codes and the tables by square; `pawn_captures[side][square]` the squares a pawn of `side`
    on `square` captures on. A closure, so the tables are read as fast as a module's globals."""
    def attacked(board, square, by):
        knight_by, king_by = knight * by, king * by
        for t in knight_steps[square]:
            if board[t] == knight_by:
                return True
        for t in king_steps[square]:
            if board[t] == king_by:
                return True
        # a pawn of `by` attacks the square from where an enemy pawn on the square would capture
        pawn_by = pawn * by
        for t in pawn_captures[-by][square]:
            if board[t] == pawn_by:
                return True
        rook_by, bishop_by, queen_by = rook * by, bishop * by, queen * by
        for ray in orthogonal_rays[square]:
            for t in ray:
                p = board[t]
                if p:
                    if p == rook_by or p == queen_by:
                        return True
                    break
        for ray in diagonal_rays[square]:
            for t in ray:
                p = board[t]
                if p:
                    if p == bishop_by or p == queen_by:
                        return True
                    break
        return False
    return attacked
