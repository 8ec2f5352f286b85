"""Tests for perft (harness/rules.py) and the `python -m harness perft` command line.

perft counts move sequences of a given length over all pseudo-legal moves; a position in
which a King has been captured is terminal. The start figures are the spec's reference
figures (they agree with Fairy-Stockfish configured for this variant).
"""
import subprocess
import sys
from pathlib import Path

import pytest

from harness.variants.cs3243.game import board_from_gameboard, start_gameboard
from harness.variants.cs3243.rules import RULES, perft

REPO = Path(__file__).resolve().parent.parent
W, B = "White", "Black"
START_FIGURES = {1: 12, 2: 144, 3: 2532, 4: 44370, 5: 936626}


def gameboard(**pieces):
    return {(name[0], int(name[1:])): value for name, value in pieces.items()}


def start_board():
    return board_from_gameboard(start_gameboard())


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_from_the_start_matches_the_reference_figures(depth):
    assert perft(RULES, start_board(), 1, depth) == START_FIGURES[depth]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_with_black_first_from_the_start_mirrors_white(depth):
    assert perft(RULES, start_board(), -1, depth) == START_FIGURES[depth]


def test_perft_depth_zero_is_one():
    assert perft(RULES, start_board(), 1, 0) == 1


def test_perft_leaves_the_board_unchanged():
    board = start_board()
    before = list(board)
    perft(RULES, board, 1, 3)
    assert board == before


# White: King a0, Rook d0. Black: King d6, Pawn g5.
# White has 14 moves: King a1 b0 b1 (3); Rook d1..d5 and the King capture d0d6 (6), e0 f0 g0
# (3), c0 b0 (2). After each of the 13 other moves Black has 6: King c5 c6 d5 e5 e6 (d5 takes
# the Rook when it stands there) and the pawn push g5g4. After d0d6 the game is over: 0.
KING_CAPTURE_POSITION = dict(a0=("King", W), d0=("Rook", W), d6=("King", B), g5=("Pawn", B))


def test_perft_counts_a_king_capture_as_a_move():
    board = board_from_gameboard(gameboard(**KING_CAPTURE_POSITION))
    assert perft(RULES, board, 1, 1) == 14


def test_perft_does_not_extend_a_line_after_a_king_capture():
    board = board_from_gameboard(gameboard(**KING_CAPTURE_POSITION))
    assert perft(RULES, board, 1, 2) == 13 * 6      # not 13 * 6 + 1 for the lone pawn push


def _reference_perft(board, side, depth):
    """Plain recursion: every move, and a position without the mover's King has no moves."""
    if depth == 0:
        return 1
    if RULES.king_square(board, side) < 0:
        return 0
    return sum(_reference_perft(RULES.make(board, m), -side, depth - 1) for m in RULES.moves(board, side))


def test_perft_agrees_with_plain_recursion_where_kings_fall():
    # Kings within reach of each other's pieces, so King captures happen at every depth.
    board = board_from_gameboard(gameboard(
        d0=("King", W), d2=("Queen", W), b1=("Knight", W), e1=("Pawn", W),
        d5=("King", B), c4=("Princess", B), f4=("Ferz", B), e5=("Pawn", B)))
    for side in (1, -1):
        for depth in (1, 2, 3, 4):
            assert perft(RULES, board, side, depth) == _reference_perft(board, side, depth), (side, depth)


# -- command line ---------------------------------------------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def test_cli_perft_prints_one_line_per_depth():
    done = run_cli("perft", "3")
    assert done.returncode == 0, done.stderr
    header, *lines = done.stdout.splitlines()
    assert header == "depth nodes seconds"       # the columns are labelled
    assert [line.split()[:2] for line in lines] == [["1", "12"], ["2", "144"], ["3", "2532"]]
    for line in lines:
        fields = line.split()
        assert len(fields) == 3
        float(fields[2])       # seconds
    assert "Traceback" not in done.stderr


def test_cli_perft_black_first():
    done = run_cli("perft", "3", "--black")
    assert done.returncode == 0, done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()[1:]] == [["1", "12"], ["2", "144"], ["3", "2532"]]


def test_cli_perft_from_the_shipped_config_is_the_start():
    done = run_cli("perft", "2", "--config", "config.txt")
    assert done.returncode == 0, done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()[1:]] == [["1", "12"], ["2", "144"]]


@pytest.mark.parametrize("depth", ["x", "0", "-1", "2.5"])
def test_cli_perft_rejects_a_bad_depth(depth):
    done = run_cli("perft", depth)
    assert done.returncode != 0
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and depth in errors[0], done.stderr


def test_cli_perft_missing_config_names_the_file(tmp_path):
    missing = tmp_path / "no_such_config.txt"
    done = run_cli("perft", "2", "--config", str(missing))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert str(missing) in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""
