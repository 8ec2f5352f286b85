"""perft from the NTHU start position by two independent paths: the variant's generator and a
plain reimplementation of docs/nthu.md written here (2-D board, the spec's direction lists)."""
import pytest

from harness.variants.nthu import VARIANT

EXPECTED = {1: 7, 2: 49, 3: 452, 4: 4212, 5: 46360}

# The spec in its own words: (drow, dcol) pairs, white towards row 0.
ROOK = [(0, 1), (0, -1), (1, 0), (-1, 0)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)]
KING = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
VALUE = {"P": 2, "R": 6, "N": 7, "B": 8, "Q": 20, "K": 100}


def start():
    """rows of (colour, letter) or None; row 0 is Black's back rank."""
    grid = [[None] * 5 for _ in range(6)]
    for c, letter in enumerate("KQBNR"):
        grid[0][c] = ("b", letter)
        grid[1][c] = ("b", "P")
        grid[4][c] = ("w", "P")
    for c, letter in enumerate("RNBQK"):
        grid[5][c] = ("w", letter)
    return grid


def inside(r, c):
    return 0 <= r < 6 and 0 <= c < 5


def gen(grid, me):
    out = []
    for r in range(6):
        for c in range(5):
            cell = grid[r][c]
            if cell is None or cell[0] != me:
                continue
            kind = cell[1]
            if kind == "P":
                f = -1 if me == "w" else 1
                if inside(r + f, c) and grid[r + f][c] is None:
                    out.append((r, c, r + f, c))
                for dc in (1, -1):
                    t = grid[r + f][c + dc] if inside(r + f, c + dc) else None
                    if t is not None and t[0] != me:
                        out.append((r, c, r + f, c + dc))
            elif kind in "RBQ":
                dirs = {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}[kind]
                for dr, dc in dirs:
                    rr, cc = r + dr, c + dc
                    while inside(rr, cc):
                        t = grid[rr][cc]
                        if t is not None and t[0] == me:
                            break
                        out.append((r, c, rr, cc))
                        if t is not None:
                            break
                        rr, cc = rr + dr, cc + dc
            else:
                for dr, dc in (KNIGHT if kind == "N" else KING):
                    rr, cc = r + dr, c + dc
                    if inside(rr, cc) and (grid[rr][cc] is None or grid[rr][cc][0] != me):
                        out.append((r, c, rr, cc))
    return out


def after(grid, move):
    r, c, rr, cc = move
    new = [row[:] for row in grid]
    piece = new[r][c]
    if piece[1] == "P" and rr in (0, 5):
        piece = (piece[0], "Q")
    new[rr][cc], new[r][c] = piece, None
    return new


def over(grid, me, plies):
    """The spec's end rules: 50 plies, or the side to move can take the enemy king."""
    if plies >= 50:
        return True
    return any(grid[m[2]][m[3]] == ("b" if me == "w" else "w", "K") for m in gen(grid, me))


def plain_perft(grid, me, plies, depth):
    if depth == 0:
        return 1
    if over(grid, me, plies):
        return 0
    other = "b" if me == "w" else "w"
    return sum(plain_perft(after(grid, m), other, plies + 1, depth - 1) for m in gen(grid, me))


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_of_the_variant(depth):
    assert VARIANT.perft(VARIANT.start(), depth) == EXPECTED[depth]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_of_the_plain_reimplementation(depth):
    assert plain_perft(start(), "w", 0, depth) == EXPECTED[depth]


def test_the_generic_perft_of_the_base_class_agrees_at_depth_4():
    from harness.core.variant import Variant
    assert Variant.perft(VARIANT, VARIANT.start(), 4) == EXPECTED[4]


def test_both_generators_list_the_same_moves_in_the_same_order_along_random_games():
    import random
    rng = random.Random(6)
    for _ in range(10):
        state, grid, me = VARIANT.start(), start(), "w"
        while VARIANT.outcome(state) is None:
            mine = [VARIANT.move_name(m) for m in VARIANT.legal_moves(state)]
            plain = gen(grid, me)
            assert mine == ["abcde"[c] + str(6 - r) + "abcde"[cc] + str(6 - rr)
                            for r, c, rr, cc in plain]
            i = rng.randrange(len(plain))
            state = VARIANT.apply(state, VARIANT.legal_moves(state)[i])
            grid, me = after(grid, plain[i]), "b" if me == "w" else "w"
            assert [[VARIANT.grid(state)[r][c] for c in range(5)] for r in range(6)] == [
                [None if x is None else (x[1], "White" if x[0] == "w" else "Black") for x in row]
                for row in grid]
