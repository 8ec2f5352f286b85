"""Tests for harness/core/game.py: how a game ends, the no-capture counter and the gameboard order.

The spec fixes the order of the end checks before each ply: king capture, no move at all
(draw), every move unsafe (loss: checkmate / out of valid moves), 50 quiet plies (draw),
maximum length (draw).
"""
import pytest

from harness.variants.cs3243.game import (
    CHECKMATE, FIFTY_MOVE_DRAW, KING_CAPTURE, MAX_PLIES, NO_MOVES_DRAW, OUT_OF_VALID_MOVES,
    Game, board_from_gameboard, interleave, move_from_name, move_name, start_gameboard,
)
from harness.variants.cs3243.rules import RULES

W, B = "White", "Black"


def gameboard(**pieces):
    """A gameboard dict, in keyword order: gameboard(d0=('King', W), d6=('King', B))."""
    return {(name[0], int(name[1:])): value for name, value in pieces.items()}


def move(text):
    """'d3d6' -> internal move."""
    return move_from_name(RULES, text)


def play_line(game, line):
    """Play the moves of `line` ('a1b2' strings), checking the game is not over before each."""
    for text in line.split():
        assert not game.adjudicate(), (text, game.result, game.reason)
        m = move(text)
        assert m in game.legal_moves(), text
        game.play(m)


def sorted_names(moves):
    return sorted(move_name(RULES, m) for m in moves)


# -- King capture ---------------------------------------------------------------------------

def test_king_capture_ends_the_game_and_the_capturer_wins():
    game = Game(gameboard(a0=("King", W), d3=("Rook", W), d6=("King", B), a6=("Queen", B)))
    game.play(move("d3d6"))
    assert (game.result, game.reason) == ("white", KING_CAPTURE)
    assert game.over


def test_black_capturing_the_white_king_wins_for_black():
    game = Game(gameboard(d0=("King", W), g6=("King", B), d5=("Rook", B)), to_move=B)
    game.play(move("d5d0"))
    assert (game.result, game.reason) == ("black", KING_CAPTURE)


def test_king_capture_is_checked_before_the_no_moves_draw():
    # After Rxd6 Black has no piece and so no move; the King capture still decides the game.
    game = Game(gameboard(a0=("King", W), d3=("Rook", W), d6=("King", B)))
    game.play(move("d3d6"))
    assert game.legal_moves() == []
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("white", KING_CAPTURE)


# -- No move at all / every move unsafe -----------------------------------------------------

# White King in the far corner a6, walled in by its own pawns: a5 is blocked by the King,
# b5 by the pawn on b6, and b6 stands on the far row (no promotion). Pawn captures would land
# on own pieces or the empty c6. White has no move at all.
BOXED = dict(a6=("King", W), a5=("Pawn", W), b5=("Pawn", W), b6=("Pawn", W), g0=("King", B))


def test_no_move_at_all_is_a_draw():
    game = Game(gameboard(**BOXED))
    assert game.legal_moves() == []
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("draw", NO_MOVES_DRAW)


def test_no_moves_draw_is_checked_before_the_all_unsafe_loss():
    # Same box, and the Black Knight on c5 attacks the King: in check with no move is a draw.
    game = Game(gameboard(**BOXED, c5=("Knight", B)))
    assert RULES.in_check(game.board, 1)
    assert game.legal_moves() == []
    game.adjudicate()
    assert (game.result, game.reason) == ("draw", NO_MOVES_DRAW)


def test_every_move_unsafe_while_in_check_is_checkmate():
    # Ra6 checks along the a-file; Rb6 covers b0 and b1.
    game = Game(gameboard(a0=("King", W), a6=("Rook", B), b6=("Rook", B), g6=("King", B)))
    assert sorted_names(game.legal_moves()) == ["a0a1", "a0b0", "a0b1"]
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("black", CHECKMATE)


def test_every_move_unsafe_while_not_in_check_is_out_of_valid_moves():
    # The King on a0 is not attacked; Rg1 covers a1 and b1, Rb6 covers b0 and b1.
    game = Game(gameboard(a0=("King", W), g1=("Rook", B), b6=("Rook", B), g6=("King", B)))
    assert not RULES.in_check(game.board, 1)
    assert sorted_names(game.legal_moves()) == ["a0a1", "a0b0", "a0b1"]
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("black", OUT_OF_VALID_MOVES)


def test_one_safe_move_is_enough_to_play_on():
    # As the checkmate position but with the second Rook on c6: b0 and b1 are safe squares.
    game = Game(gameboard(a0=("King", W), a6=("Rook", B), c6=("Rook", B), g6=("King", B)))
    assert game.adjudicate() is False
    assert game.result is None and game.reason is None


def test_black_out_of_valid_moves_is_a_white_win():
    game = Game(gameboard(a6=("King", B), g5=("Rook", W), b0=("Rook", W), g0=("King", W)), to_move=B)
    assert not RULES.in_check(game.board, -1)
    game.adjudicate()
    assert (game.result, game.reason) == ("white", OUT_OF_VALID_MOVES)


# -- The no-capture counter -----------------------------------------------------------------

# Kings and pawns that can shuffle, plus a capture available to White (Rg0xg4).
PAWNS = dict(a0=("King", W), c1=("Pawn", W), g0=("Rook", W),
             a6=("King", B), e5=("Pawn", B), g4=("Knight", B))


def test_pawn_moves_do_not_reset_the_no_capture_counter():
    game = Game(gameboard(**PAWNS))
    play_line(game, "c1c2 e5e4 c2c3")
    assert game.quiet_plies == 3


def test_a_capture_resets_the_no_capture_counter():
    game = Game(gameboard(**PAWNS))
    play_line(game, "c1c2 e5e4 g0g4")
    assert game.quiet_plies == 0
    play_line(game, "e4e3")
    assert game.quiet_plies == 1


def test_fifty_move_draw_comes_exactly_at_the_configured_limit():
    game = Game(gameboard(**PAWNS), fifty_limit=4)
    play_line(game, "c1c2 e5e4 g0g4 e4e3 c2c3 a6a5")    # capture on ply 3, then 3 quiet plies
    assert game.adjudicate() is False
    play_line(game, "a0b0")                              # the 4th quiet ply
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("draw", FIFTY_MOVE_DRAW)


# Black King a6 and White King e3 shuffle; Rb0 covers the b-file and Rg1 can swing to a1.
LADDER = dict(a6=("King", B), e3=("King", W), b0=("Rook", W), g1=("Rook", W))
SHUFFLE = "a6a5 e3e4 a5a6 e4e3"   # Black moves first here


def test_fifty_move_draw_default_is_fifty_quiet_plies():
    game = Game(gameboard(**LADDER), to_move=B)
    assert game.fifty_limit == 50
    play_line(game, " ".join([SHUFFLE] * 12) + " a6a5")   # 49 quiet plies
    assert game.quiet_plies == 49
    assert game.adjudicate() is False
    play_line(game, "e3e4")                               # the 50th
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("draw", FIFTY_MOVE_DRAW)


def test_mate_on_the_fiftieth_quiet_ply_wins():
    game = Game(gameboard(**LADDER), to_move=B)
    play_line(game, " ".join([SHUFFLE] * 12) + " a6a5")   # 49 quiet plies
    play_line(game, "g1a1")                               # the 50th, and it mates
    assert game.quiet_plies == 50
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("white", CHECKMATE)


# -- Maximum game length --------------------------------------------------------------------

def test_max_plies_draw():
    game = Game(max_plies=3)
    play_line(game, "b1b2 b5b4")
    assert game.adjudicate() is False
    play_line(game, "c1c2")
    assert game.adjudicate() is True
    assert (game.result, game.reason) == ("draw", MAX_PLIES)


def test_fifty_move_draw_is_checked_before_max_plies():
    game = Game(fifty_limit=2, max_plies=2)
    play_line(game, "b1b2 b5b4")
    game.adjudicate()
    assert (game.result, game.reason) == ("draw", FIFTY_MOVE_DRAW)


# -- The gameboard dict and its order -------------------------------------------------------

COURSE_ORDER = [
    (("a", 1), ("Ferz", W)), (("a", 5), ("Ferz", B)), (("g", 1), ("Ferz", W)), (("g", 5), ("Ferz", B)),
    (("b", 1), ("Pawn", W)), (("b", 5), ("Pawn", B)), (("c", 1), ("Pawn", W)), (("c", 5), ("Pawn", B)),
    (("d", 1), ("Pawn", W)), (("d", 5), ("Pawn", B)), (("e", 1), ("Pawn", W)), (("e", 5), ("Pawn", B)),
    (("f", 1), ("Pawn", W)), (("f", 5), ("Pawn", B)),
    (("a", 0), ("Knight", W)), (("a", 6), ("Knight", B)), (("b", 0), ("Bishop", W)), (("b", 6), ("Bishop", B)),
    (("c", 0), ("Queen", W)), (("c", 6), ("Queen", B)), (("d", 0), ("King", W)), (("d", 6), ("King", B)),
    (("e", 0), ("Princess", W)), (("e", 6), ("Princess", B)), (("f", 0), ("Empress", W)),
    (("f", 6), ("Empress", B)), (("g", 0), ("Rook", W)), (("g", 6), ("Rook", B)),
]


def test_start_gameboard_is_in_the_course_order():
    assert list(start_gameboard().items()) == COURSE_ORDER


def test_a_new_game_starts_from_the_course_dict():
    game = Game()
    assert list(game.gameboard.items()) == COURSE_ORDER
    assert game.to_move == W


def test_a_moved_piece_is_reinserted_at_the_end():
    game = Game()
    game.play(move("a1b2"))
    assert list(game.gameboard.items()) == COURSE_ORDER[1:] + [(("b", 2), ("Ferz", W))]


def test_a_captured_key_is_deleted_and_the_capturer_goes_last():
    game = Game(gameboard(c5=("Pawn", B), d0=("King", W), c3=("Rook", W), a1=("Ferz", W), d6=("King", B)))
    game.play(move("c3c5"))
    assert list(game.gameboard.items()) == [
        (("d", 0), ("King", W)), (("a", 1), ("Ferz", W)), (("d", 6), ("King", B)), (("c", 5), ("Rook", W))]


def test_the_flat_board_follows_the_gameboard():
    game = Game()
    play_line(game, "a1b2 b5b4 b2c3 b4c3")
    assert board_from_gameboard(game.gameboard) == game.board
    assert game.gameboard[("c", 3)] == ("Pawn", B) and ("b", 2) not in game.gameboard


def test_game_copies_the_gameboard_it_is_given():
    given = gameboard(d0=("King", W), d6=("King", B), c3=("Rook", W))
    before = dict(given)
    game = Game(given)
    game.play(move("c3c4"))
    assert given == before and list(given) == list(before)


def test_interleave_alternates_own_and_enemy_then_the_longer_side():
    white = [("King", ("d", 0)), ("Rook", ("a", 0)), ("Pawn", ("b", 1)), ("Pawn", ("c", 1))]
    black = [("King", ("d", 6)), ("Queen", ("c", 6))]
    assert list(interleave(white, black).items()) == [
        (("d", 0), ("King", W)), (("d", 6), ("King", B)),
        (("a", 0), ("Rook", W)), (("c", 6), ("Queen", B)),
        (("b", 1), ("Pawn", W)), (("c", 1), ("Pawn", W))]


def test_interleave_with_the_longer_black_side():
    white = [("King", ("d", 0))]
    black = [("King", ("d", 6)), ("Queen", ("c", 6)), ("Rook", ("g", 6))]
    assert list(interleave(white, black).items()) == [
        (("d", 0), ("King", W)), (("d", 6), ("King", B)),
        (("c", 6), ("Queen", B)), (("g", 6), ("Rook", B))]


def test_interleave_of_the_start_setup_is_the_course_dict():
    from harness.variants.cs3243.config import start_setup
    setup = start_setup()
    assert list(interleave(setup.white, setup.black).items()) == COURSE_ORDER


@pytest.mark.parametrize("square", [("h", 0), ("a", 7), ("a", -1), ("a", "1"), ("a", True), ("aa", 1),
                                    "a1", ("a", 1, 0)])
def test_board_from_gameboard_rejects_a_bad_square(square):
    with pytest.raises(ValueError):
        board_from_gameboard({("d", 0): ("King", W), square: ("Rook", W)})


@pytest.mark.parametrize("value", [("Dragon", W), ("King", "Red"), ("king", W), "King",
                                   ("King", W, 1), None])
def test_board_from_gameboard_rejects_a_bad_piece(value):
    with pytest.raises(ValueError):
        board_from_gameboard({("d", 0): ("King", W), ("c", 3): value})


def test_move_from_name_reads_back_every_move_name_of_the_start_position():
    game = Game()
    moves = game.legal_moves()
    assert len(moves) == 12
    assert [move_from_name(RULES, move_name(RULES, m)) for m in moves] == moves
    v = RULES.variant
    assert move_from_name(RULES, "c1c2") == (v.parse_name("c1"), v.parse_name("c2"))
