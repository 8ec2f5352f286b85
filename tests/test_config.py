"""Tests for harness/config.py: reading, writing and rejecting the course's config.txt."""
from pathlib import Path

import pytest

from harness.variants.cs3243.config import (
    ConfigError, Setup, format_config, parse_config, read_config, start_setup, write_config,
)
from harness.variants.cs3243.game import interleave

REPO = Path(__file__).resolve().parent.parent

START = Setup(
    white=[
        ("Ferz", ("a", 1)), ("Ferz", ("g", 1)),
        ("Pawn", ("b", 1)), ("Pawn", ("c", 1)), ("Pawn", ("d", 1)), ("Pawn", ("e", 1)),
        ("Pawn", ("f", 1)),
        ("Knight", ("a", 0)), ("Bishop", ("b", 0)), ("Queen", ("c", 0)), ("King", ("d", 0)),
        ("Princess", ("e", 0)), ("Empress", ("f", 0)), ("Rook", ("g", 0)),
    ],
    black=[
        ("Ferz", ("a", 5)), ("Ferz", ("g", 5)),
        ("Pawn", ("b", 5)), ("Pawn", ("c", 5)), ("Pawn", ("d", 5)), ("Pawn", ("e", 5)),
        ("Pawn", ("f", 5)),
        ("Knight", ("a", 6)), ("Bishop", ("b", 6)), ("Queen", ("c", 6)), ("King", ("d", 6)),
        ("Princess", ("e", 6)), ("Empress", ("f", 6)), ("Rook", ("g", 6)),
    ],
    rows=7,
    cols=7,
)

ENEMY_COUNTS = ("Number of Enemy King, Queen, Bishop, Rook, Knight, Ferz, Princess, Empress, "
                "Pawn (space between):")
OWN_COUNTS = ("Number of Own King, Queen, Bishop, Rook, Knight, Ferz, Princess, Empress, "
              "Pawn (space between):")

# The start file, line by line (line n of the file is START_LINES[n - 1]):
# 1 Rows, 2 Cols, 3 Enemy counts, 4 Enemy header, 5-18 Enemy pieces,
# 19 Own counts, 20 Own header, 21-34 Own pieces.
START_LINES = [
    "Rows:7",
    "Cols:7",
    ENEMY_COUNTS + "1 1 1 1 1 2 1 1 5",
    "Position of Enemy Pieces:",
    "[Ferz,a5]", "[Ferz,g5]", "[Pawn,b5]", "[Pawn,c5]", "[Pawn,d5]", "[Pawn,e5]", "[Pawn,f5]",
    "[Knight,a6]", "[Bishop,b6]", "[Queen,c6]", "[King,d6]", "[Princess,e6]", "[Empress,f6]",
    "[Rook,g6]",
    OWN_COUNTS + "1 1 1 1 1 2 1 1 5",
    "Starting Position of Pieces [Piece, Pos]:",
    "[Ferz,a1]", "[Ferz,g1]", "[Pawn,b1]", "[Pawn,c1]", "[Pawn,d1]", "[Pawn,e1]", "[Pawn,f1]",
    "[Knight,a0]", "[Bishop,b0]", "[Queen,c0]", "[King,d0]", "[Princess,e0]", "[Empress,f0]",
    "[Rook,g0]",
]
START_TEXT = "\n".join(START_LINES) + "\n"

# A custom position: a few pieces each, not on start squares.
FEW = Setup(
    white=[("King", ("c", 2)), ("Rook", ("a", 3)), ("Pawn", ("e", 4))],
    black=[("Princess", ("f", 1)), ("King", ("d", 6))],
    rows=7,
    cols=7,
)
FEW_TEXT = (
    "Rows:7\n"
    "Cols:7\n"
    + ENEMY_COUNTS + "1 0 0 0 0 0 1 0 0\n"
    "Position of Enemy Pieces:\n"
    "[Princess,f1]\n"
    "[King,d6]\n"
    + OWN_COUNTS + "1 0 0 1 0 0 0 0 1\n"
    "Starting Position of Pieces [Piece, Pos]:\n"
    "[King,c2]\n"
    "[Rook,a3]\n"
    "[Pawn,e4]\n"
)


def with_lines(changes=None, drop=(), append=()):
    """The start file with some lines (1-based) replaced, some dropped, some appended."""
    lines = list(START_LINES)
    for number, text in (changes or {}).items():
        lines[number - 1] = text
    lines = [line for number, line in enumerate(lines, 1) if number not in drop]
    return "\n".join(lines + list(append)) + "\n"


def error_of(text):
    with pytest.raises(ConfigError) as info:
        parse_config(text, "bad.txt")
    return info.value


# ----------------------------------------------------------------------------- good files


def test_shipped_config_reads_to_the_start_setup():
    assert read_config(REPO / "config.txt") == START


def test_shipped_config_is_exactly_the_writer_output():
    assert (REPO / "config.txt").read_bytes() == format_config(START).encode("utf-8")


def test_shipped_config_is_the_course_layout_line_by_line():
    assert (REPO / "config.txt").read_text(encoding="utf-8") == START_TEXT


def test_start_setup_helper_equals_the_course_start():
    assert start_setup() == START


def test_format_config_of_start_is_the_course_layout():
    assert format_config(START) == START_TEXT


def test_format_config_of_custom_position_is_exact():
    assert format_config(FEW) == FEW_TEXT


def test_format_config_ends_with_a_newline():
    assert format_config(FEW).endswith("]\n")


def test_write_config_writes_lf_line_endings(tmp_path):
    path = tmp_path / "out.txt"
    write_config(path, FEW)
    assert path.read_bytes() == FEW_TEXT.encode("utf-8")


def test_round_trip_of_the_start(tmp_path):
    path = tmp_path / "start.txt"
    write_config(path, START)
    assert read_config(path) == START


def test_round_trip_of_a_custom_position_with_few_pieces(tmp_path):
    path = tmp_path / "few.txt"
    write_config(path, FEW)
    assert read_config(path) == FEW


def test_crlf_file_reads(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(START_TEXT.replace("\n", "\r\n").encode("utf-8"))
    assert read_config(path) == START


def test_last_line_without_newline_reads(tmp_path):
    path = tmp_path / "nonl.txt"
    path.write_bytes(START_TEXT.rstrip("\n").encode("utf-8"))
    assert read_config(path) == START


def test_other_years_own_header_without_pawn_reads():
    text = with_lines({19: "Number of Own King, Queen, Bishop, Rook, Knight, Ferz, Princess, "
                           "Empress (space between):1 1 1 1 1 2 1 1 5"})
    assert parse_config(text) == START


def test_count_line_wording_does_not_matter():
    text = with_lines({3: "Enemy pieces: 1 1 1 1 1 2 1 1 5", 4: "Black",
                       19: "Own: 1 1 1 1 1 2 1 1 5", 20: "White"})
    assert parse_config(text) == START


def test_non_start_position_reads():
    assert parse_config(FEW_TEXT) == FEW


def test_surrounding_whitespace_and_trailing_blank_lines_are_accepted():
    text = "\n".join("  " + line + " \t" for line in START_LINES) + "\n\n  \n\n"
    assert parse_config(text) == START


def test_utf8_bom_is_ignored(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + START_TEXT.encode("utf-8"))
    assert read_config(path) == START


def test_gameboard_from_shipped_config_is_the_course_start_dict_in_order():
    board = gameboard_of(read_config(REPO / "config.txt"))
    assert list(board.items()) == [
        (("a", 1), ("Ferz", "White")), (("a", 5), ("Ferz", "Black")),
        (("g", 1), ("Ferz", "White")), (("g", 5), ("Ferz", "Black")),
        (("b", 1), ("Pawn", "White")), (("b", 5), ("Pawn", "Black")),
        (("c", 1), ("Pawn", "White")), (("c", 5), ("Pawn", "Black")),
        (("d", 1), ("Pawn", "White")), (("d", 5), ("Pawn", "Black")),
        (("e", 1), ("Pawn", "White")), (("e", 5), ("Pawn", "Black")),
        (("f", 1), ("Pawn", "White")), (("f", 5), ("Pawn", "Black")),
        (("a", 0), ("Knight", "White")), (("a", 6), ("Knight", "Black")),
        (("b", 0), ("Bishop", "White")), (("b", 6), ("Bishop", "Black")),
        (("c", 0), ("Queen", "White")), (("c", 6), ("Queen", "Black")),
        (("d", 0), ("King", "White")), (("d", 6), ("King", "Black")),
        (("e", 0), ("Princess", "White")), (("e", 6), ("Princess", "Black")),
        (("f", 0), ("Empress", "White")), (("f", 6), ("Empress", "Black")),
        (("g", 0), ("Rook", "White")), (("g", 6), ("Rook", "Black")),
    ]


def test_gameboard_order_puts_the_longer_sides_rest_last():
    board = gameboard_of(FEW)
    assert list(board.items()) == [
        (("c", 2), ("King", "White")), (("f", 1), ("Princess", "Black")),
        (("a", 3), ("Rook", "White")), (("d", 6), ("King", "Black")),
        (("e", 4), ("Pawn", "White")),
    ]


# ----------------------------------------------------------------------------- bad files


def test_config_error_has_path_line_and_problem():
    err = ConfigError("bad.txt", 5, "unknown piece 'Dragon'")
    assert (str(err), err.path, err.line, err.problem) == (
        "bad.txt:5: unknown piece 'Dragon'", "bad.txt", 5, "unknown piece 'Dragon'")


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_empty_file():
    assert str(error_of("")) == "bad.txt:1: file is empty"


def test_whitespace_only_file_is_empty():
    assert str(error_of("\n  \r\n\n")) == "bad.txt:1: file is empty"


def test_missing_file_names_the_file(tmp_path):
    path = tmp_path / "missing.txt"
    with pytest.raises(ConfigError) as info:
        read_config(path)
    assert str(info.value) == f"{path}:0: cannot read file (No such file or directory)"


def test_directory_instead_of_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError) as info:
        read_config(tmp_path)
    assert str(info.value) == f"{tmp_path}:0: cannot read file (Is a directory)"


def test_non_utf8_file_names_the_line(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(with_lines({5: "[Ferz,a5]\xe9"}).encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        read_config(path)
    assert str(info.value) == f"{path}:5: file is not UTF-8 text"


def test_read_config_error_names_the_real_path(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(with_lines({5: "[Dragon,a5]"}), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        read_config(path)
    assert str(info.value) == f"{path}:5: unknown piece 'Dragon'"


def test_rows_line_missing():
    assert str(error_of(with_lines(drop={1}))) == "bad.txt:1: expected 'Rows:7', found 'Cols:7'"


def test_rows_not_a_number():
    assert str(error_of(with_lines({1: "Rows:x"}))) == "bad.txt:1: Rows 'x' is not a number"


def test_rows_not_the_board_size():
    assert str(error_of(with_lines({1: "Rows:8"}))) == "bad.txt:1: Rows is 8, expected 7"


def test_cols_not_the_board_size():
    assert str(error_of(with_lines({2: "Cols:5"}))) == "bad.txt:2: Cols is 5, expected 7"


def test_cols_line_missing():
    assert str(error_of(with_lines(drop={2}))) == (
        "bad.txt:2: expected 'Cols:7', found 'Number of Enemy King, Queen, Bishop, ...'")


def test_file_ends_before_the_enemy_count_line():
    assert str(error_of("Rows:7\nCols:7\n")) == (
        "bad.txt:3: file ends before the Enemy count line")


def test_count_line_without_colon():
    assert str(error_of(with_lines({3: "1 1 1 1 1 2 1 1 5"}))) == (
        "bad.txt:3: expected the Enemy count line ('Number of ...:' and 9 counts), "
        "found '1 1 1 1 1 2 1 1 5'")


def test_count_not_a_number():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 1 x 1 1 2 1 1 5"}))) == (
        "bad.txt:3: count 'x' is not a number")


def test_too_few_counts():
    assert str(error_of(with_lines({19: OWN_COUNTS + "1 1 1 1 1 2 1 1"}))) == (
        "bad.txt:19: expected 9 counts, found 8")


def test_too_many_counts():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 1 1 1 1 2 1 1 5 0"}))) == (
        "bad.txt:3: expected 9 counts, found 10")


def test_negative_count():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 1 1 1 1 2 1 -1 5"}))) == (
        "bad.txt:3: count -1 is negative")


def test_header_line_missing():
    assert str(error_of(with_lines(drop={4}))) == (
        "bad.txt:4: expected the Enemy header line, found piece line '[Ferz,a5]'")


def test_unknown_piece():
    assert str(error_of(with_lines({5: "[Dragon,a5]"}))) == "bad.txt:5: unknown piece 'Dragon'"


def test_piece_name_is_case_sensitive():
    assert str(error_of(with_lines({21: "[ferz,a1]"}))) == "bad.txt:21: unknown piece 'ferz'"


def test_malformed_piece_line():
    assert str(error_of(with_lines({6: "[Ferz g5]"}))) == (
        "bad.txt:6: malformed piece line '[Ferz g5]'")


def test_piece_line_without_brackets_is_malformed():
    assert str(error_of(with_lines({6: "Ferz,g5"}))) == "bad.txt:6: malformed piece line 'Ferz,g5'"


def test_malformed_square():
    assert str(error_of(with_lines({6: "[Ferz,5g]"}))) == "bad.txt:6: malformed square '5g'"


def test_square_off_the_board():
    assert str(error_of(with_lines({6: "[Ferz,h9]"}))) == (
        "bad.txt:6: square 'h9' is off the 7x7 board")


def test_row_seven_is_off_the_board():
    assert str(error_of(with_lines({18: "[Rook,g7]"}))) == (
        "bad.txt:18: square 'g7' is off the 7x7 board")


def test_two_pieces_of_one_side_on_one_square():
    assert str(error_of(with_lines({6: "[Ferz,a5]"}))) == "bad.txt:6: two pieces on square 'a5'"


def test_white_piece_on_a_black_pieces_square():
    assert str(error_of(with_lines({21: "[Ferz,a5]"}))) == (
        "bad.txt:21: two pieces on square 'a5'")


def test_truncated_file():
    assert str(error_of(with_lines(drop={34}))) == (
        "bad.txt:34: expected 14 Own piece lines, found 13")


def test_truncated_file_with_trailing_blank_lines():
    assert str(error_of(with_lines(drop={34}, append=["", "  "]))) == (
        "bad.txt:34: expected 14 Own piece lines, found 13")


def test_count_line_where_a_piece_line_was_expected():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 1 1 1 1 2 1 1 6"}))) == (
        "bad.txt:19: expected 15 Enemy piece lines, found 14")


def test_more_piece_lines_than_the_enemy_counts():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 1 1 1 1 2 1 1 4"}))) == (
        "bad.txt:18: found more than 13 Enemy piece lines")


def test_more_piece_lines_than_the_own_counts():
    assert str(error_of(with_lines(append=["[Pawn,c3]"]))) == (
        "bad.txt:35: found more than 14 Own piece lines")


def test_counts_per_type_disagree_with_piece_lines():
    assert str(error_of(with_lines({3: ENEMY_COUNTS + "1 2 0 1 1 2 1 1 5"}))) == (
        "bad.txt:3: Enemy count for Queen is 2, but the file lists 1")


def test_side_without_a_king():
    text = with_lines({3: ENEMY_COUNTS + "0 1 1 1 1 2 1 1 5"}, drop={15})
    assert str(error_of(text)) == "bad.txt:3: Enemy side has no King"


def test_side_with_two_kings():
    text = with_lines({19: OWN_COUNTS + "2 0 1 1 1 2 1 1 5", 30: "[King,c0]"})
    assert str(error_of(text)) == "bad.txt:19: Own side has 2 Kings"


def test_blank_line_among_piece_lines():
    assert str(error_of(with_lines({10: ""}))) == (
        "bad.txt:10: blank line where an Enemy piece line was expected")


def test_extra_line_after_the_end():
    assert str(error_of(with_lines(append=["hello"]))) == (
        "bad.txt:35: unexpected line after the Own pieces: 'hello'")


def test_extra_line_after_blank_lines_at_the_end():
    assert str(error_of(with_lines(append=["", "hello", ""]))) == (
        "bad.txt:36: unexpected line after the Own pieces: 'hello'")


def test_extra_piece_line_after_a_blank_line_at_the_end():
    assert str(error_of(with_lines(append=["", "[Pawn,c3]"]))) == (
        "bad.txt:36: found more than 14 Own piece lines")


def test_blank_line_where_the_own_count_line_was_expected():
    assert str(error_of(with_lines({19: ""}))) == (
        "bad.txt:19: blank line where the Own count line was expected")


def test_file_ends_before_the_own_header_line():
    text = "\n".join(START_LINES[:19]) + "\n"
    assert str(error_of(text)) == "bad.txt:20: file ends before the Own header line"


def gameboard_of(setup):
    return interleave(setup.white, setup.black)
