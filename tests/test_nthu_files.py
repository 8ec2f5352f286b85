"""The course's `state` and `action` files (docs/nthu.md, "The file protocol")."""
import pytest

from harness.variants.nthu import VARIANT, StateFileError
from harness.variants.nthu.files import parse_state, read_action

START_TEXT = (
    "0\n"
    "0 0 0 0 0 \n0 0 0 0 0 \n0 0 0 0 0 \n0 0 0 0 0 \n1 1 1 1 1 \n2 3 4 5 6 \n"
    "\n"
    "6 5 4 3 2 \n1 1 1 1 1 \n0 0 0 0 0 \n0 0 0 0 0 \n0 0 0 0 0 \n0 0 0 0 0 \n"
    "\n"
)


def test_the_start_state_is_written_byte_for_byte_as_the_runner_writes_it():
    assert VARIANT.state_text(VARIANT.start()) == START_TEXT


def test_black_to_move_is_a_1_on_the_first_line():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("d2d3"))
    text = VARIANT.state_text(state)
    assert text.split("\n")[:6] == ["1", "0 0 0 0 0 ", "0 0 0 0 0 ", "0 0 0 0 0 ", "0 0 0 1 0 ",
                                    "1 1 1 0 1 "]


def test_reading_what_was_written_gives_the_position_back():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("b1c3"))
    assert parse_state(VARIANT.state_text(state)) == (state.board, state.side)


def test_start_reads_a_state_file(tmp_path):
    path = tmp_path / "state"
    path.write_text(START_TEXT)
    assert VARIANT.start(str(path)) == VARIANT.start()


def test_a_row_of_four_numbers_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "state"
    path.write_text(START_TEXT.replace("0 0 0 0 0 \n", "0 0 0 0 \n", 2).replace("0 0 0 0 \n", "0 0 0 0 0 \n", 1))
    with pytest.raises(StateFileError) as e:
        VARIANT.start(str(path))
    assert str(e.value) == f"{path}:3: White's row 1 must be 5 integers, not '0 0 0 0'"


def test_a_bad_side_line_is_named():
    with pytest.raises(StateFileError) as e:
        parse_state("2\n" + START_TEXT[2:], "s")
    assert str(e.value) == "s:1: the side to move must be 0 (White) or 1 (Black), not '2'"


def test_a_piece_code_out_of_range_is_named():
    with pytest.raises(StateFileError) as e:
        parse_state(START_TEXT.replace("2 3 4 5 6 ", "2 3 4 5 7 "), "s")
    assert str(e.value) == "s:7: piece code 7 in White's row 5 is not 0..6"


def test_a_square_held_by_both_sides_is_named():
    # a Black pawn on row 4, col 0, where White has one
    text = START_TEXT[:-len("0 0 0 0 0 \n0 0 0 0 0 \n\n")] + "1 0 0 0 0 \n0 0 0 0 0 \n\n"
    with pytest.raises(StateFileError) as e:
        parse_state(text, "s")
    assert str(e.value) == "s:13: row 4 col 0 holds a piece of both sides"


def test_a_missing_file_is_one_line_not_a_traceback(tmp_path):
    path = tmp_path / "nope"
    with pytest.raises(StateFileError) as e:
        VARIANT.start(str(path))
    assert str(e.value) == f"{path}:0: cannot read the file (FileNotFoundError)"


def test_a_short_file_names_the_missing_row():
    with pytest.raises(StateFileError) as e:
        parse_state("0\n0 0 0 0 0 \n", "s")
    assert str(e.value) == "s:3: the file ends before White's row 1"


# -- action ---------------------------------------------------------------------------------

def test_action_the_last_complete_group_is_the_move_and_the_count_is_the_depth():
    assert read_action("4 3 3 3\n4 1 3 1\n5 1 3 2\n") == ((5, 1, 3, 2), 3)


def test_action_a_partial_last_group_is_ignored():
    assert read_action("4 3 3 3\n4 1 3") == ((4, 3, 3, 3), 1)


def test_action_reading_stops_at_the_first_token_that_is_not_an_integer():
    assert read_action("4 3 3 3 move 4 1 3 1") == ((4, 3, 3, 3), 1)


def test_action_without_a_complete_group_has_no_move():
    assert read_action("") == (None, 0)
    assert read_action("hello 4 3 3 3") == (None, 0)
    assert read_action("4 3 3") == (None, 0)


def test_action_numbers_may_be_spread_over_lines_and_spaces():
    assert read_action("4\n3   3\t3") == ((4, 3, 3, 3), 1)
