"""Congo's rules, one rule per test on a crafted position: each piece's moves (the lion's castle
and flying capture, the giraffe's non-capturing step, pawn and superpawn retreats and the river
cases), drowning, promotion (2022 only), the move number, and the end rules of play."""
import pytest

from congo_helpers import after, fen, moves, targets
from harness.core.variant import BLACK, WHITE, Move, Termination
from harness.variants.congo import CongoEnding
from harness.variants.congo import VARIANT, rules

LIONS = {"d1": "L", "a7": "l"}      # two lions out of each other's way (a7 is outside any castle)


def position(side="w", **pieces):
    placed = dict(LIONS)
    placed.update(pieces)
    return fen(placed, side)


# -- lion -------------------------------------------------------------------------------------

def test_lion_steps_in_all_eight_directions_inside_its_castle():
    assert targets(fen({"d2": "L", "a7": "l"}), "d2") == "c1 c2 c3 d1 d3 e1 e2 e3"


def test_lion_never_steps_out_of_its_castle():
    assert targets(fen({"c1": "L", "a7": "l"}), "c1") == "c2 d1 d2"


def test_lion_cannot_step_into_the_river():
    assert targets(fen({"d3": "L", "a7": "l"}), "d3") == "c2 c3 d2 e2 e3"


def test_black_lion_steps_inside_the_black_castle():
    assert targets(fen({"a1": "L", "e7": "l"}, "b"), "e7") == "d6 d7 e6"


def test_lion_captures_by_a_step_and_own_pieces_block():
    assert targets(fen({"d2": "L", "e3": "p", "c3": "P", "a7": "l"}), "d2") == "c1 c2 d1 d3 e1 e2 e3"


def test_lion_flies_along_an_open_file_to_capture_the_enemy_lion():
    assert "d3d5" in moves(fen({"d3": "L", "d5": "l"}), "d3")


def test_lion_flight_is_blocked_by_any_piece_between():
    assert "d1d7" not in moves(fen({"d1": "L", "d7": "l", "d4": "p"}), "d1")
    assert "d1d7" not in moves(fen({"d1": "L", "d7": "l", "d2": "P"}), "d1")


def test_lion_flies_along_an_open_diagonal():
    assert targets(fen({"c3": "L", "e5": "l"}), "c3") == "c2 d2 d3 e5"


def test_lion_flies_from_outside_its_castle():
    assert targets(fen({"b2": "L", "f6": "l"}), "b2") == "c1 c2 c3 f6"


def test_lion_does_not_fly_along_a_rank():
    assert targets(fen({"c2": "L", "g2": "l"}), "c2") == "c1 c3 d1 d2 d3"


def test_lion_does_not_fly_at_other_pieces():
    assert targets(fen({"d1": "L", "d5": "z", "a7": "l"}), "d1") == "c1 c2 d2 e1 e2"


def test_a_lion_step_that_is_also_a_flight_is_listed_once():
    assert moves(fen({"d2": "L", "d3": "l"}), "d2").count("d2d3") == 1


# -- zebra, elephant, giraffe -----------------------------------------------------------------

def test_zebra_leaps_like_a_knight_over_pieces():
    assert targets(position(d4="Z", d5="P", c4="p", e5="p"), "d4") == "b3 b5 c2 c6 e2 e6 f3 f5"


def test_zebra_captures_enemies_and_is_blocked_by_own_pieces():
    assert targets(position(b1="Z", c3="p", d2="P"), "b1") == "a3 c3"


def test_elephant_moves_one_or_two_squares_straight():
    assert targets(position(c3="E"), "c3") == "a3 b3 c1 c2 c4 c5 d3 e3"


def test_elephant_jumps_two_squares_and_captures_either_distance():
    assert targets(position(c3="E", c4="P", c5="p", d3="p"), "c3") == "a3 b3 c1 c2 c5 d3 e3"


def test_giraffe_steps_one_square_in_eight_directions_or_leaps_two():
    assert targets(fen({"a1": "L", "a7": "l", "d3": "G"}), "d3") == \
        "b1 b3 b5 c2 c3 c4 d1 d2 d4 d5 e2 e3 e4 f1 f3 f5"


def test_giraffe_step_never_captures():
    assert "d3e4" not in moves(fen({"a1": "L", "a7": "l", "d3": "G", "e4": "p"}), "d3")


def test_giraffe_captures_two_squares_away_jumping():
    found = moves(fen({"a1": "L", "a7": "l", "d3": "G", "d4": "P", "d5": "p", "b5": "P"}), "d3")
    assert "d3d5" in found and "d3b5" not in found and "d3d4" not in found


# -- pawn -------------------------------------------------------------------------------------

def test_pawn_steps_straight_or_diagonally_forward():
    assert targets(position(c2="P"), "c2") == "b3 c3 d3"


def test_pawn_captures_straight_and_diagonally_forward():
    assert targets(position(c2="P", b3="P", c3="p", d3="p"), "c2") == "c3 d3"


def test_black_pawn_moves_down_the_board():
    assert targets(position("b", e6="p"), "e6") == "d5 e5 f5"


def test_pawn_in_the_river_cannot_retreat():
    assert targets(position(c4="P"), "c4") == "b5 c5 d5"


def test_pawn_on_its_own_side_cannot_retreat():
    assert targets(position("b", e5="p"), "e5") == "d4 e4 f4"


def test_pawn_past_the_river_retreats_one_or_two_squares_into_or_across_it():
    assert targets(position(c5="P"), "c5") == "b6 c3 c4 c6 d6"


def test_black_pawn_past_the_river_retreats_upwards():
    assert targets(position("b", e3="p"), "e3") == "d2 e2 e4 e5 f2"


def test_pawn_retreat_does_not_jump():
    assert targets(position(c5="P", c4="P"), "c5") == "b6 c6 d6"


def test_pawn_retreat_does_not_capture():
    assert targets(position(c5="P", c3="p"), "c5") == "b6 c4 c6 d6"


def test_pawn_on_the_far_rank_without_promotion_can_only_retreat():
    assert targets(position(b7="P"), "b7") == "b5 b6"


# -- superpawn --------------------------------------------------------------------------------

def test_superpawn_moves_forward_sideways_and_back_one_or_two():
    assert targets(position(d4="S"), "d4") == "b2 c3 c4 c5 d2 d3 d5 e3 e4 e5 f2"


def test_superpawn_captures_sideways_and_forward():
    assert targets(position(d4="S", c4="p", d5="p", e4="P"), "d4") == "b2 c3 c4 c5 d2 d3 d5 e3 e5 f2"


def test_superpawn_retreat_neither_captures_nor_jumps():
    assert targets(position(d4="S", d3="p", c3="P"), "d4") == "c4 c5 d5 e3 e4 e5 f2"


def test_black_superpawn_retreats_upwards_from_its_own_side():
    assert targets(position("b", d6="s"), "d6") == "c5 c6 c7 d5 d7 e5 e6 e7"


# -- executing a move ---------------------------------------------------------------------------

def test_a_piece_moving_along_the_river_drowns():
    assert after(position(c4="E", g1="P"), "c4e4") == position("b", g1="P")


def test_an_unmoved_piece_left_in_the_river_drowns():
    assert after(position(a4="P", g1="P"), "g1g2") == position("b", g2="P")


def test_a_piece_entering_the_river_survives():
    assert after(position(c3="P"), "c3c4") == position("b", c4="P")


def test_a_piece_leaving_the_river_survives():
    assert after(position(c4="Z"), "c4d6") == position("b", d6="Z")


def test_the_opponents_river_pieces_never_drown():
    assert after(position(g4="p", g1="P"), "g1g2") == position("b", g4="p", g2="P")


def test_a_capture_inside_the_river_still_drowns_the_capturer():
    assert after(position(c4="E", e4="p"), "c4e4") == position("b")


def test_2022_promotes_a_pawn_on_the_far_rank():
    assert after(position(b6="P"), "b6b7", "2022") == position("b", b7="S")


def test_2022_promotes_a_pawn_capturing_onto_the_far_rank():
    assert after(position(b6="P", c7="z"), "b6c7", "2022") == position("b", c7="S")


def test_2022_promotes_a_black_pawn_on_rank_1():
    assert after(position("b", f2="p"), "f2f1", "2022") == fen({**LIONS, "f1": "s"}, "w", 2)


def test_2021_does_not_promote():
    assert after(position(b6="P"), "b6b7", "2021") == position("b", b7="P")


def test_the_move_number_grows_after_black_moves_only():
    assert after(fen({**LIONS, "g2": "P"}, "w", 7), "g2g3").endswith(" b 7")
    assert after(fen({**LIONS, "g6": "p"}, "b", 7), "g6g5").endswith(" w 8")


# -- end rules (play) -----------------------------------------------------------------------------

def play(start_fen, *names, **options):
    state = VARIANT.start(fen=start_fen, **options)
    for name in names:
        move = VARIANT.parse_move(name)
        assert move in VARIANT.legal_moves(state), name
        state = VARIANT.apply(state, move)
    return state


def test_capturing_the_lion_wins():
    outcome = VARIANT.outcome(play(fen({"d3": "L", "d5": "l", "a2": "P"}), "d3d5"))
    assert (outcome.termination, outcome.winner) == (CongoEnding.LION_CAPTURE, WHITE)


def test_only_the_two_lions_left_is_a_draw():
    outcome = VARIANT.outcome(play(fen({"d2": "L", "e6": "l", "e3": "p"}), "d2e3"))
    assert (outcome.termination, outcome.winner) == (CongoEnding.LIONS_ONLY, None)


def test_no_move_for_the_side_to_move_is_a_draw():
    stuck = fen({"a1": "L", "d7": "l", "a7": "P", "a6": "p"}, "w")
    assert moves(stuck) == []
    outcome = VARIANT.outcome(VARIANT.start(fen=stuck, edition="2021"))
    assert (outcome.termination, outcome.winner) == (Termination.NO_MOVES_DRAW, None)


def test_the_ply_limit_is_a_draw():
    start = fen({"d1": "L", "d7": "l", "a2": "P", "g6": "p"})
    assert VARIANT.outcome(play(start, "a2a3", max_plies=2)) is None
    outcome = VARIANT.outcome(play(start, "a2a3", "g6g5", max_plies=2))
    assert (outcome.termination, outcome.winner) == (Termination.MAX_PLIES, None)


def test_the_default_ply_limit_is_300():
    assert VARIANT.start().max_plies == 300


def test_the_game_goes_on_otherwise():
    assert VARIANT.outcome(VARIANT.start()) is None


# -- the variant's interface ----------------------------------------------------------------------

def test_start_positions_of_the_two_editions():
    assert VARIANT.start().fen == "g1ele1z/ppppppp/7/7/7/PPPPPPP/G1ELE1Z w 1"
    assert VARIANT.start(edition="2021").fen == "2ele1z/ppppppp/7/7/7/PPPPPPP/2ELE1Z w 1"


def test_start_perft_of_the_2022_start():
    assert [VARIANT.perft(VARIANT.start(), d) for d in (1, 2, 3)] == [27, 729, 19579]


def test_fast_perft_agrees_with_the_generic_one():
    from harness.core.variant import Variant
    state = play("1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12")
    assert VARIANT.perft(state, 3) == Variant.perft(VARIANT, state, 3) == 16050


def test_states_are_hashable_and_equal_by_value():
    assert hash(VARIANT.start()) == hash(VARIANT.start()) and VARIANT.start() == VARIANT.start()


def test_move_names_round_trip():
    move = VARIANT.parse_move("e7d6")
    assert move == Move(rules.parse_square("e7"), rules.parse_square("d6"))
    assert VARIANT.move_name(move) == "e7d6"


@pytest.mark.parametrize("text", ["e7", "e7d8", "h1h2", "e7-d6", "E7D6", "", "e7d6x"])
def test_parse_move_rejects_bad_text(text):
    with pytest.raises(ValueError, match="is not a Congo move name"):
        VARIANT.parse_move(text)


def test_the_protocol_accepts_names_and_moves_and_refuses_others():
    state = VARIANT.start()
    assert VARIANT.protocol.read(state, "a2a3") == VARIANT.parse_move("a2a3")
    assert VARIANT.protocol.read(state, VARIANT.parse_move("g1f3")) == VARIANT.parse_move("g1f3")
    assert VARIANT.protocol.read(state, "a2a4") is None
    assert VARIANT.protocol.read(state, "nonsense") is None


def test_to_move():
    assert VARIANT.to_move(VARIANT.start()) == WHITE
    assert VARIANT.to_move(play(VARIANT.start().fen, "a2a3")) == BLACK


def test_board_text():
    assert VARIANT.board_text(VARIANT.start(), last=VARIANT.parse_move("a2a3")) == "\n".join([
        "    a  b  c  d  e  f  g",
        " 7  g  .  e  l  e  .  z ",
        " 6  p  p  p  p  p  p  p ",
        " 5  .  .  .  .  .  .  . ",
        " 4  ~  ~  ~  ~  ~  ~  ~   river",
        " 3 [.] .  .  .  .  .  . ",
        " 2 [P] P  P  P  P  P  P ",
        " 1  G  .  E  L  E  .  Z ",
        "White to move, move 1 (2022 rules)",
    ])


def test_grid_and_square_names():
    grid = VARIANT.grid(VARIANT.start())
    assert grid[0][0] == ("G", BLACK) and grid[6][3] == ("L", WHITE) and grid[3] == [None] * 7
    assert VARIANT.square_names() == (list("abcdefg"), list("7654321"))


@pytest.mark.parametrize("options,message", [
    ({"fen": "7/7/7/7/7/7/3L3 w 1"}, "Black has 0 lions; a game needs exactly one per side"),
    ({"fen": "3l3/7/7/7/7/7/2LL3 w 1"}, "White has 2 lions; a game needs exactly one per side"),
    ({"edition": "2023"}, "unknown Congo edition '2023': use 2021 or 2022"),
    ({"max_plies": 0}, "congo: the ply limit must be a whole number >= 1, not 0"),
    ({"config": "x.txt"}, "congo: unknown start option 'config'"),
])
def test_start_errors(options, message):
    with pytest.raises(ValueError) as err:
        VARIANT.start(**options)
    assert str(err.value) == message


def test_a_lion_left_in_the_river_drowns_like_any_piece():
    # only possible from a FEN: White's lion on d4 stays there while the a2 pawn moves
    assert after(fen({"d4": "L", "d7": "l", "a2": "P"}), "a2a3") == fen({"d7": "l", "a3": "P"}, "b")


def test_a_record_names_the_start_edition_and_the_plies_left():
    state = VARIANT.apply(VARIANT.start(max_plies=10), VARIANT.parse_move("a2a3"))
    assert VARIANT.record_fields(state, []) == {
        "fen": "g1ele1z/ppppppp/7/7/P6/1PPPPPP/G1ELE1Z b 1", "edition": "2022", "max_plies": 9}
