"""NTHU MiniChess 6x5 rules (docs/nthu.md): each piece's moves in the course's order, promotion,
the end rules in their order, move names. One rule per test, on a crafted position."""
import pytest

from harness.variants import find_variant
from harness.core.variant import BLACK, WHITE, Move
from harness.variants.nthu import NthuEnding
from harness.variants.nthu import VARIANT
from harness.variants.nthu.core import QUEEN

from nthu_boards import moves_from, names, position, sq


def test_the_registry_finds_the_variant():
    assert find_variant("nthu") is VARIANT
    assert VARIANT.name == "nthu"


def test_white_starts_with_its_pawns_then_the_knight_in_scan_order():
    assert names(VARIANT.legal_moves(VARIANT.start())) == [
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "b1c3", "b1a3"]


def test_black_scans_from_row_0_so_its_back_rank_knight_comes_first():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("d2d3"))
    assert names(VARIANT.legal_moves(state)) == [
        "d6e4", "d6c4", "a5a4", "b5b4", "c5c4", "d5d4", "e5e4"]


def test_white_pawn_steps_then_captures_towards_col_plus_1_then_col_minus_1():
    state = position(c3="P", b4="p", d4="n", a1="K", e6="k")
    assert moves_from(state, "c3") == ["c3c4", "c3d4", "c3b4"]


def test_black_pawn_steps_down_then_captures_towards_col_plus_1_then_col_minus_1():
    state = position(white=False, c4="p", b3="P", d3="N", a1="K", e6="k")
    assert moves_from(state, "c4") == ["c4c3", "c4d3", "c4b3"]


def test_pawn_has_no_double_step_and_no_capture_straight_ahead():
    state = position(c2="P", c3="p", a1="K", e6="k")
    assert moves_from(state, "c2") == []


def test_pawn_does_not_capture_its_own_side():
    state = position(c3="P", b4="N", d4="R", a1="K", e6="k")
    assert moves_from(state, "c3") == ["c3c4"]


def test_rook_rays_right_left_down_up():
    state = position(c3="R", a1="K", e6="k")
    assert moves_from(state, "c3") == [
        "c3d3", "c3e3", "c3b3", "c3a3", "c3c2", "c3c1", "c3c4", "c3c5", "c3c6"]


def test_a_ray_includes_an_enemy_piece_and_stops_before_an_own_piece():
    state = position(c3="R", a3="p", c5="P", a1="K", e6="k")
    assert moves_from(state, "c3") == ["c3d3", "c3e3", "c3b3", "c3a3", "c3c2", "c3c1", "c3c4"]


def test_bishop_rays_in_the_course_order():
    state = position(c3="B", a2="K", e6="k")
    assert moves_from(state, "c3") == [
        "c3d2", "c3e1", "c3b2", "c3a1", "c3d4", "c3e5", "c3b4", "c3a5"]


def test_queen_takes_the_rook_directions_then_the_bishop_directions():
    state = position(c3="Q", a2="K", e6="k")
    assert moves_from(state, "c3") == [
        "c3d3", "c3e3", "c3b3", "c3a3", "c3c2", "c3c1", "c3c4", "c3c5", "c3c6",
        "c3d2", "c3e1", "c3b2", "c3a1", "c3d4", "c3e5", "c3b4", "c3a5"]


def test_knight_jumps_in_the_course_order():
    state = position(c3="N", a1="K", e6="k")
    assert moves_from(state, "c3") == [
        "c3e2", "c3a2", "c3e4", "c3a4", "c3d1", "c3b1", "c3d5", "c3b5"]


def test_king_steps_in_the_course_order():
    state = position(c3="K", a6="k")
    assert moves_from(state, "c3") == [
        "c3c2", "c3d3", "c3c4", "c3b3", "c3d2", "c3b2", "c3d4", "c3b4"]


def test_king_may_step_onto_an_attacked_square_there_is_no_check_rule():
    state = position(a1="K", b6="r", e6="k")
    assert moves_from(state, "a1") == ["a1b1", "a1a2", "a1b2"]


def test_white_pawn_reaching_rank_6_becomes_a_queen():
    state = VARIANT.apply(position(b5="P", a1="K", e3="k"), VARIANT.parse_move("b5b6"))
    assert state.board[sq("b6")] == QUEEN
    assert VARIANT.parse_move("b5b6").promotion is None


def test_a_capture_onto_the_far_row_also_promotes():
    state = VARIANT.apply(position(b5="P", c6="n", a1="K", e3="k"), VARIANT.parse_move("b5c6"))
    assert state.board[sq("c6")] == QUEEN


def test_black_pawn_reaching_rank_1_becomes_a_black_queen():
    state = VARIANT.apply(position(white=False, d2="p", a3="K", e6="k"), VARIANT.parse_move("d2d1"))
    assert state.board[sq("d1")] == -QUEEN


def test_apply_counts_plies_and_passes_the_move():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("d2d3"))
    assert (state.plies, VARIANT.to_move(state)) == (1, BLACK)


# -- end rules, in their order ----------------------------------------------------------------

def test_the_start_position_is_not_over():
    assert VARIANT.outcome(VARIANT.start()) is None


def test_step_limit_at_50_plies_more_material_wins():
    outcome = VARIANT.outcome(position(plies=50, a1="K", b2="P", e6="k"))
    assert (outcome.termination, outcome.winner) == (NthuEnding.STEP_LIMIT, WHITE)


def test_step_limit_with_equal_material_is_a_draw():
    outcome = VARIANT.outcome(position(plies=50, a1="K", b2="P", e6="k", d5="p"))
    assert (outcome.termination, outcome.winner, outcome.result) == (NthuEnding.STEP_LIMIT, None, "draw")


def test_step_limit_counts_a_promoted_pawn_as_a_queen():
    # Black's queen (a promoted pawn) outweighs White's rook and knight (6 + 7 < 20)
    state = VARIANT.apply(position(white=False, plies=49, a1="K", c3="R", d3="N", e6="k", b2="p"),
                          VARIANT.parse_move("b2b1"))
    outcome = VARIANT.outcome(state)
    assert (outcome.termination, outcome.winner) == (NthuEnding.STEP_LIMIT, BLACK)


def test_step_limit_overrides_the_king_threat_on_the_50th_ply():
    # White to move could capture Black's king, but Black has more material at ply 50
    outcome = VARIANT.outcome(position(plies=50, a1="K", a5="R", a6="k", e6="q"))
    assert (outcome.termination, outcome.winner) == (NthuEnding.STEP_LIMIT, BLACK)


def test_king_threat_before_ply_50_the_side_to_move_wins():
    outcome = VARIANT.outcome(position(plies=49, a1="K", a5="R", a6="k", e6="q"))
    assert (outcome.termination, outcome.winner) == (NthuEnding.KING_THREAT, WHITE)


def test_moving_into_an_attack_loses_at_once():
    state = VARIANT.apply(position(a1="K", b6="r", e6="k"), VARIANT.parse_move("a1b1"))
    outcome = VARIANT.outcome(state)
    assert (outcome.termination, outcome.winner) == (NthuEnding.KING_THREAT, BLACK)


def test_a_side_with_no_move_loses():
    outcome = VARIANT.outcome(position(e2="P", e3="p", a6="k"))
    assert (outcome.termination, outcome.winner) == (NthuEnding.NO_MOVES, BLACK)


# -- names ----------------------------------------------------------------------------------

def test_move_names_use_files_a_to_e_and_ranks_1_to_6():
    move = VARIANT.parse_move("d2d3")
    assert move == Move(sq("d2"), sq("d3")) == Move(23, 18)
    assert VARIANT.move_name(move) == "d2d3"
    assert VARIANT.parse_move("E1E2") == VARIANT.parse_move("e1e2")


@pytest.mark.parametrize("text", ["", "d2", "f2f3", "a0a1", "a7a6", "d2-d3", "d2d3q", "1234"])
def test_parse_move_rejects_text_that_is_not_a_move_name(text):
    with pytest.raises(ValueError):
        VARIANT.parse_move(text)


def test_the_protocol_accepts_a_legal_move_name_and_rejects_an_illegal_one():
    start = VARIANT.start()
    assert VARIANT.protocol.read(start, "d2d3") == VARIANT.parse_move("d2d3")
    assert VARIANT.protocol.read(start, "d2d4") is None


def test_values_are_the_course_material():
    assert VARIANT.values == {"Pawn": 2, "Rook": 6, "Knight": 7, "Bishop": 8, "Queen": 20, "King": 100}


def test_board_text_ranks_6_to_1_white_upper_case_last_move_in_brackets():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("d2d3"))
    assert VARIANT.board_text(state, VARIANT.parse_move("d2d3")).split("\n") == [
        "6  k  q  b  n  r ",
        "5  p  p  p  p  p ",
        "4  .  .  .  .  . ",
        "3  .  .  . [P] . ",
        "2  P  P  P [.] P ",
        "1  R  N  B  Q  K ",
        "   a  b  c  d  e",
        "Black to move, ply 1",
    ]
