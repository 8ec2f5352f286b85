"""Tests for harness/rules.py: each piece's exact move set, attacks, check and safety.

Positions are small gameboard dicts in course coordinates (column letter, row 0 at White's
back rank). Moves are compared as sorted 'c3c4' strings (from square then to square, in
course rows), except where the generator's fixed order is itself the rule under test.
"""
import pytest

from harness.variants.cs3243.game import board_from_gameboard, move_name, start_gameboard
from harness.variants.cs3243.rules import RULES

W, B = "White", "Black"
WHITE, BLACK = 1, -1


def sq(name):
    """Board index of a course square name such as 'd3'."""
    s = RULES.variant.parse_name(name)
    assert s is not None, name
    return s


def position(**pieces):
    """A flat board from keyword squares: position(d3=('Rook', W), d6=('King', B))."""
    return board_from_gameboard({(name[0], int(name[1:])): value for name, value in pieces.items()})


def names(moves):
    """Internal moves as sorted 'c3c4' strings."""
    return sorted(move_name(RULES, m) for m in moves)


def course_names(moves):
    """Course moves ((col, row), (col, row)) as sorted 'c3c4' strings."""
    return sorted(f"{a[0]}{a[1]}{b[0]}{b[1]}" for a, b in moves)


def expected(source, targets):
    """Sorted 'c3c4' strings for the moves from `source` to each square in `targets`."""
    return sorted(source + t for t in targets.split())


def moves_of(board, name):
    return names(RULES.moves_from(board, sq(name)))


def test_helper_course_names():
    assert course_names([(("c", 3), ("c", 4)), (("a", 1), ("b", 2))]) == ["a1b2", "c3c4"]


# -- King -----------------------------------------------------------------------------------

def test_king_steps_to_all_eight_neighbours_from_the_centre():
    board = position(d3=("King", W), g6=("King", B))
    assert moves_of(board, "d3") == expected("d3", "c2 c3 c4 d2 d4 e2 e3 e4")


def test_king_in_a_corner_has_three_steps():
    board = position(a0=("King", W), g6=("King", B))
    assert moves_of(board, "a0") == expected("a0", "a1 b0 b1")


def test_king_cannot_step_onto_own_pieces():
    board = position(d3=("King", W), d4=("Pawn", W), c2=("Pawn", W), g6=("King", B))
    assert moves_of(board, "d3") == expected("d3", "c3 c4 d2 e2 e3 e4")


def test_king_captures_an_enemy_piece():
    board = position(d3=("King", W), e4=("Rook", B), g6=("King", B))
    assert moves_of(board, "d3") == expected("d3", "c2 c3 c4 d2 d4 e2 e3 e4")


def test_king_may_step_into_check_pseudo_legally():
    # e-file is attacked by the Black Rook on e6, yet e0 and e1 are still among the King's moves.
    board = position(d0=("King", W), e6=("Rook", B), a6=("King", B))
    assert moves_of(board, "d0") == expected("d0", "c0 c1 d1 e0 e1")


def test_black_king_moves_the_same_way():
    board = position(d6=("King", B), a0=("King", W))
    assert moves_of(board, "d6") == expected("d6", "c5 c6 d5 e5 e6")


# -- Queen ----------------------------------------------------------------------------------

def test_queen_slides_in_all_eight_directions_to_the_edges():
    board = position(d3=("Queen", W))
    assert moves_of(board, "d3") == expected(
        "d3", "d4 d5 d6 d2 d1 d0 e3 f3 g3 c3 b3 a3 e4 f5 g6 e2 f1 g0 c4 b5 a6 c2 b1 a0")


def test_queen_in_a_corner_slides_along_three_rays():
    board = position(g6=("Queen", W))
    assert moves_of(board, "g6") == expected(
        "g6", "g5 g4 g3 g2 g1 g0 f6 e6 d6 c6 b6 a6 f5 e4 d3 c2 b1 a0")


def test_queen_slide_stops_before_an_own_piece():
    board = position(d3=("Queen", W), d5=("Pawn", W), f5=("Pawn", W))
    assert moves_of(board, "d3") == expected(
        "d3", "d4 d2 d1 d0 e3 f3 g3 c3 b3 a3 e4 e2 f1 g0 c4 b5 a6 c2 b1 a0")


def test_queen_slide_captures_the_first_enemy_and_stops():
    board = position(d3=("Queen", W), d5=("Pawn", B), f5=("Pawn", B), d6=("Rook", B), g6=("Rook", B))
    assert moves_of(board, "d3") == expected(
        "d3", "d4 d5 d2 d1 d0 e3 f3 g3 c3 b3 a3 e4 f5 e2 f1 g0 c4 b5 a6 c2 b1 a0")


# -- Rook -----------------------------------------------------------------------------------

def test_rook_slides_orthogonally_to_the_edges():
    board = position(d3=("Rook", W))
    assert moves_of(board, "d3") == expected("d3", "d4 d5 d6 d2 d1 d0 e3 f3 g3 c3 b3 a3")


def test_rook_in_a_corner_slides_along_two_edges():
    board = position(a0=("Rook", W))
    assert moves_of(board, "a0") == expected("a0", "a1 a2 a3 a4 a5 a6 b0 c0 d0 e0 f0 g0")


def test_rook_slide_stops_before_an_own_piece():
    board = position(d3=("Rook", W), d5=("Pawn", W), b3=("Knight", W))
    assert moves_of(board, "d3") == expected("d3", "d4 d2 d1 d0 e3 f3 g3 c3")


def test_rook_slide_captures_the_first_enemy_and_stops():
    board = position(d3=("Rook", W), d5=("Pawn", B), d6=("King", B), b3=("Knight", B), a3=("Queen", B))
    assert moves_of(board, "d3") == expected("d3", "d4 d5 d2 d1 d0 e3 f3 g3 c3 b3")


def test_rook_does_not_move_diagonally():
    board = position(d3=("Rook", W), e4=("Pawn", B), c2=("Pawn", B))
    assert not {"d3e4", "d3c2"} & set(moves_of(board, "d3"))


# -- Bishop ---------------------------------------------------------------------------------

def test_bishop_slides_diagonally_to_the_edges():
    board = position(d3=("Bishop", W))
    assert moves_of(board, "d3") == expected("d3", "e4 f5 g6 e2 f1 g0 c4 b5 a6 c2 b1 a0")


def test_bishop_in_a_corner_slides_along_one_diagonal():
    board = position(a0=("Bishop", W))
    assert moves_of(board, "a0") == expected("a0", "b1 c2 d3 e4 f5 g6")


def test_bishop_slide_stops_before_an_own_piece():
    board = position(d3=("Bishop", W), e4=("Pawn", W), b1=("Pawn", W))
    assert moves_of(board, "d3") == expected("d3", "e2 f1 g0 c4 b5 a6 c2")


def test_bishop_slide_captures_the_first_enemy_and_stops():
    board = position(d3=("Bishop", W), e4=("Pawn", B), f5=("Queen", B), b1=("Pawn", B), a0=("Rook", B))
    assert moves_of(board, "d3") == expected("d3", "e4 e2 f1 g0 c4 b5 a6 c2 b1")


# -- Knight ---------------------------------------------------------------------------------

def test_knight_leaps_to_all_eight_squares_from_the_centre():
    board = position(d3=("Knight", W))
    assert moves_of(board, "d3") == expected("d3", "b2 b4 c1 c5 e1 e5 f2 f4")


def test_knight_leaps_over_surrounding_pieces():
    around = {n: ("Pawn", W) for n in ("c2", "c3", "c4", "d2", "d4", "e2", "e3", "e4")}
    board = position(d3=("Knight", W), **around)
    assert moves_of(board, "d3") == expected("d3", "b2 b4 c1 c5 e1 e5 f2 f4")


def test_knight_does_not_land_on_own_piece_but_captures_enemy():
    board = position(d3=("Knight", W), b2=("Pawn", W), f4=("Pawn", B))
    assert moves_of(board, "d3") == expected("d3", "b4 c1 c5 e1 e5 f2 f4")


def test_knight_near_the_edges_loses_off_board_leaps():
    board = position(a0=("Knight", W), b1=("Knight", B))
    assert moves_of(board, "a0") == expected("a0", "b2 c1")
    assert moves_of(board, "b1") == expected("b1", "a3 c3 d0 d2")


# -- Ferz -----------------------------------------------------------------------------------

def test_ferz_steps_one_square_diagonally():
    board = position(d3=("Ferz", W))
    assert moves_of(board, "d3") == expected("d3", "c2 c4 e2 e4")


def test_ferz_does_not_land_on_own_piece_but_captures_enemy():
    board = position(d3=("Ferz", W), c4=("Pawn", W), e4=("Pawn", B), d4=("Pawn", B))
    assert moves_of(board, "d3") == expected("d3", "c2 e2 e4")


def test_ferz_in_a_corner_has_one_step():
    board = position(a0=("Ferz", W))
    assert moves_of(board, "a0") == ["a0b1"]


# -- Empress and Princess --------------------------------------------------------------------

def test_empress_moves_as_rook_plus_knight():
    board = position(d3=("Empress", W))
    assert moves_of(board, "d3") == expected(
        "d3", "d4 d5 d6 d2 d1 d0 e3 f3 g3 c3 b3 a3 b2 b4 c1 c5 e1 e5 f2 f4")


def test_empress_leaps_when_its_slides_are_blocked():
    walls = {n: ("Pawn", W) for n in ("d2", "d4", "c3", "e3")}
    board = position(d3=("Empress", W), **walls)
    assert moves_of(board, "d3") == expected("d3", "b2 b4 c1 c5 e1 e5 f2 f4")


def test_empress_does_not_slide_diagonally():
    board = position(d3=("Empress", W), e4=("Pawn", B))
    assert "d3e4" not in moves_of(board, "d3")


def test_princess_moves_as_bishop_plus_knight():
    board = position(d3=("Princess", W))
    assert moves_of(board, "d3") == expected(
        "d3", "e4 f5 g6 e2 f1 g0 c4 b5 a6 c2 b1 a0 b2 b4 c1 c5 e1 e5 f2 f4")


def test_princess_leaps_when_its_slides_are_blocked():
    walls = {n: ("Pawn", W) for n in ("c2", "c4", "e2", "e4")}
    board = position(d3=("Princess", W), **walls)
    assert moves_of(board, "d3") == expected("d3", "b2 b4 c1 c5 e1 e5 f2 f4")


def test_princess_does_not_slide_orthogonally():
    board = position(d3=("Princess", W), d4=("Pawn", B))
    assert "d3d4" not in moves_of(board, "d3")


# -- Pawn -----------------------------------------------------------------------------------

def test_white_pawn_moves_towards_row_6():
    board = position(d3=("Pawn", W))
    assert moves_of(board, "d3") == ["d3d4"]


def test_black_pawn_moves_towards_row_0():
    board = position(d3=("Pawn", B))
    assert moves_of(board, "d3") == ["d3d2"]


@pytest.mark.parametrize("blocker", [("Pawn", W), ("Pawn", B), ("Knight", B), ("King", B)])
def test_pawn_push_is_blocked_by_any_piece(blocker):
    board = position(d3=("Pawn", W), d4=blocker)
    assert moves_of(board, "d3") == []


def test_pawn_has_no_double_step_from_its_start_row():
    board = position(d1=("Pawn", W), d5=("Pawn", B))
    assert moves_of(board, "d1") == ["d1d2"]
    assert moves_of(board, "d5") == ["d5d4"]


def test_white_pawn_captures_diagonally_forward():
    board = position(d3=("Pawn", W), c4=("Knight", B), e4=("Rook", B))
    assert moves_of(board, "d3") == expected("d3", "c4 d4 e4")


def test_black_pawn_captures_diagonally_forward():
    board = position(d3=("Pawn", B), c2=("Knight", W), e2=("Rook", W))
    assert moves_of(board, "d3") == expected("d3", "c2 d2 e2")


def test_pawn_does_not_capture_own_pieces_diagonally():
    board = position(d3=("Pawn", W), c4=("Knight", W), e4=("Rook", W))
    assert moves_of(board, "d3") == ["d3d4"]


def test_pawn_does_not_capture_straight_ahead():
    board = position(d3=("Pawn", W), d4=("Queen", B))
    assert "d3d4" not in moves_of(board, "d3")


def test_pawn_does_not_capture_backwards_or_sideways():
    enemies = {n: ("Knight", B) for n in ("c2", "d2", "e2", "c3", "e3")}
    board = position(d3=("Pawn", W), **enemies)
    assert moves_of(board, "d3") == ["d3d4"]


def test_pawn_does_not_move_to_a_diagonal_empty_square():
    board = position(d3=("Pawn", W))
    assert "d3c4" not in moves_of(board, "d3") and "d3e4" not in moves_of(board, "d3")


def test_pawn_on_the_far_row_has_no_moves():
    # No promotion: a White pawn on row 6 and a Black pawn on row 0 are stuck for good,
    # even with enemies beside and behind them.
    board = position(d6=("Pawn", W), c6=("Rook", B), c5=("Rook", B), e5=("Rook", B),
                     d0=("Pawn", B), c0=("Rook", W), c1=("Rook", W), e1=("Rook", W))
    assert moves_of(board, "d6") == []
    assert moves_of(board, "d0") == []


# -- No castling ----------------------------------------------------------------------------

def test_no_castling():
    board = position(d0=("King", W), a0=("Rook", W), g0=("Rook", W), d6=("King", B))
    assert moves_of(board, "d0") == expected("d0", "c0 c1 d1 e0 e1")
    assert "a0d0" not in moves_of(board, "a0") and "g0d0" not in moves_of(board, "g0")


# -- Start position -------------------------------------------------------------------------

START_WHITE = ["a1b2", "g1f2", "b1b2", "c1c2", "d1d2", "e1e2", "f1f2",
               "a0b2", "e0d2", "e0f2", "f0e2", "f0g2"]
START_BLACK = ["a5b4", "g5f4", "b5b4", "c5c4", "d5d4", "e5e4", "f5f4",
               "a6b4", "e6d4", "e6f4", "f6e4", "f6g4"]


def test_start_position_white_has_exactly_the_twelve_listed_moves():
    board = board_from_gameboard(start_gameboard())
    assert names(RULES.moves(board, WHITE)) == sorted(START_WHITE)


def test_start_position_black_has_the_mirrored_twelve_moves():
    board = board_from_gameboard(start_gameboard())
    assert names(RULES.moves(board, BLACK)) == sorted(START_BLACK)


# -- Move order -----------------------------------------------------------------------------

def test_moves_from_order_is_slides_direction_by_direction_then_leaps():
    # Dummy plays the first move of the first piece, so this order is part of the contract:
    # rook rays up (towards row 6), down, right, left, nearest square first; then knight
    # leaps (1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) as (column, row) steps.
    board = position(d3=("Empress", W))
    order = [move_name(RULES, m) for m in RULES.moves_from(board, sq("d3"))]
    assert order == ["d3d4", "d3d5", "d3d6", "d3d2", "d3d1", "d3d0",
                     "d3e3", "d3f3", "d3g3", "d3c3", "d3b3", "d3a3",
                     "d3e5", "d3f4", "d3f2", "d3e1", "d3c1", "d3b2", "d3b4", "d3c5"]


def test_pawn_moves_from_order_is_push_then_lower_column_capture():
    board = position(d3=("Pawn", W), c4=("Knight", B), e4=("Rook", B))
    order = [move_name(RULES, m) for m in RULES.moves_from(board, sq("d3"))]
    assert order == ["d3d4", "d3c4", "d3e4"]


def test_moves_lists_pieces_in_square_order_with_each_piece_in_moves_from_order():
    board = board_from_gameboard(start_gameboard())
    for side in (WHITE, BLACK):
        by_piece = [m for s in range(RULES.size) if board[s] * side > 0
                    for m in RULES.moves_from(board, s)]
        assert RULES.moves(board, side) == by_piece


def test_moves_from_an_empty_square_is_empty():
    board = board_from_gameboard(start_gameboard())
    assert RULES.moves_from(board, sq("d3")) == []


def test_make_returns_a_new_board_and_leaves_the_old_one():
    board = position(d3=("Rook", W), d5=("Pawn", B))
    before = list(board)
    after = RULES.make(board, (sq("d3"), sq("d5")))
    assert board == before
    assert after[sq("d5")] == RULES.code("Rook", W) and after[sq("d3")] == 0


# -- attacked -------------------------------------------------------------------------------

@pytest.mark.parametrize("piece, attacked, not_attacked", [
    ("King", "c2 c3 c4 d2 d4 e2 e3 e4", "d5 b3 f1"),
    ("Queen", "d6 d0 a3 g3 g6 a0 a6 g0", "e5 b4 f2"),
    ("Rook", "d6 d0 a3 g3 d4", "e4 c2 e5"),
    ("Bishop", "g6 a0 a6 g0 e4", "d4 e3 e5"),
    ("Knight", "b2 b4 c1 c5 e1 e5 f2 f4", "d4 e4 d5 f5"),
    ("Ferz", "c2 c4 e2 e4", "d4 c3 f5 e5"),
    ("Empress", "d6 a3 e5 b2", "e4 c2 f5"),
    ("Princess", "g6 a0 e5 b2", "d4 e3 d6"),
])
def test_attacked_by_each_piece_type(piece, attacked, not_attacked):
    board = position(d3=(piece, W))
    for name in attacked.split():
        assert RULES.attacked(board, sq(name), WHITE), (piece, name)
    for name in not_attacked.split():
        assert not RULES.attacked(board, sq(name), WHITE), (piece, name)


def test_attacked_is_per_side():
    board = position(d3=("Queen", W))
    assert RULES.attacked(board, sq("d6"), WHITE)
    assert not RULES.attacked(board, sq("d6"), BLACK)


def test_white_pawn_attacks_only_diagonally_forward():
    board = position(d3=("Pawn", W))
    attacked = [n for n in ("c4", "e4", "d4", "c2", "e2", "d2", "c3", "e3")
                if RULES.attacked(board, sq(n), WHITE)]
    assert attacked == ["c4", "e4"]


def test_black_pawn_attacks_only_diagonally_forward():
    board = position(d3=("Pawn", B))
    attacked = [n for n in ("c4", "e4", "d4", "c2", "e2", "d2", "c3", "e3")
                if RULES.attacked(board, sq(n), BLACK)]
    assert attacked == ["c2", "e2"]


@pytest.mark.parametrize("blocker", [("Knight", W), ("Knight", B)])
def test_rook_attack_is_blocked_by_the_first_piece(blocker):
    board = position(d0=("Rook", W), d3=blocker)
    assert RULES.attacked(board, sq("d3"), WHITE)        # the blocker itself is attacked
    assert not RULES.attacked(board, sq("d4"), WHITE)    # the squares behind it are not
    assert not RULES.attacked(board, sq("d6"), WHITE)


@pytest.mark.parametrize("blocker", [("Knight", W), ("Knight", B)])
def test_bishop_attack_is_blocked_by_the_first_piece(blocker):
    board = position(a0=("Bishop", W), c2=blocker)
    assert RULES.attacked(board, sq("c2"), WHITE)
    assert not RULES.attacked(board, sq("d3"), WHITE)
    assert not RULES.attacked(board, sq("g6"), WHITE)


@pytest.mark.parametrize("blocker", [("Knight", W), ("Knight", B)])
def test_queen_attack_is_blocked_by_the_first_piece(blocker):
    board = position(g6=("Queen", W), e4=blocker, g2=blocker)
    assert RULES.attacked(board, sq("e4"), WHITE) and RULES.attacked(board, sq("g2"), WHITE)
    assert not RULES.attacked(board, sq("d3"), WHITE) and not RULES.attacked(board, sq("a0"), WHITE)
    assert not RULES.attacked(board, sq("g1"), WHITE) and not RULES.attacked(board, sq("g0"), WHITE)


def test_knight_attack_is_not_blocked():
    around = {n: ("Pawn", B) for n in ("c2", "c3", "c4", "d2", "d4", "e2", "e3", "e4")}
    board = position(d3=("Knight", W), **around)
    assert RULES.attacked(board, sq("e5"), WHITE)


# -- check and safety -----------------------------------------------------------------------

def test_in_check_when_an_enemy_piece_attacks_the_king():
    board = position(d0=("King", W), d5=("Rook", B), a6=("King", B))
    assert RULES.in_check(board, WHITE)
    assert not RULES.in_check(board, BLACK)


def test_in_check_is_false_when_the_attack_is_blocked():
    board = position(d0=("King", W), d2=("Pawn", W), d5=("Rook", B), a6=("King", B))
    assert not RULES.in_check(board, WHITE)


def test_a_captured_king_counts_as_in_check():
    board = position(d5=("Rook", B), a6=("King", B))
    assert RULES.in_check(board, WHITE)


def test_moving_into_check_is_a_move_but_not_safe():
    board = position(d0=("King", W), e6=("Rook", B), a6=("King", B))
    into_check = (sq("d0"), sq("e1"))
    assert into_check in RULES.moves(board, WHITE)
    assert not RULES.is_safe(board, into_check)
    assert RULES.is_safe(board, (sq("d0"), sq("c1")))


def test_moving_a_pinned_piece_is_a_move_but_not_safe():
    board = position(d0=("King", W), d2=("Rook", W), d6=("Rook", B), a6=("King", B))
    off_the_line = (sq("d2"), sq("e2"))
    assert off_the_line in RULES.moves(board, WHITE)
    assert not RULES.is_safe(board, off_the_line)
    assert RULES.is_safe(board, (sq("d2"), sq("d6")))
    assert RULES.is_safe(board, (sq("d2"), sq("d5")))


def test_capturing_the_king_counts_as_safe():
    # White is in check from the Queen on a6 and stays so after Rxd6, but taking the King wins.
    board = position(a0=("King", W), d3=("Rook", W), d6=("King", B), a6=("Queen", B))
    capture = (sq("d3"), sq("d6"))
    assert RULES.in_check(board, WHITE)
    assert RULES.in_check(RULES.make(board, capture), WHITE)
    assert RULES.is_safe(board, capture)
    assert RULES.captures_king(board, capture)
