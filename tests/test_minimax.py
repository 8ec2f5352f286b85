"""Tests for the Minimax opponent: wins, losses, tie-keeping and equality with plain minimax.

Positions are gameboard dicts written compactly: "Kd0 Rg0 kd6" is a White King on d0, a White
Rook on g0 and a Black King on d6 (Fairy-Stockfish letters, upper case White).
"""
import random

import pytest

from agents.minimax import WIN, MinimaxAgent, Searcher
from harness.variants.cs3243.game import Game, board_from_gameboard, course_move
from harness.variants.cs3243.rules import RULES

from boards import gb, mv  # noqa: E402

safe = RULES.is_safe


def search(text, side=1, depth=4):
    """(value, set of best course moves) of Minimax's root search."""
    value, best = Searcher().root(board_from_gameboard(gb(text)), side, depth)
    return value, {course_move(RULES, m) for m in best}


def chosen(text, colour="White", seeds=range(20)):
    agent = MinimaxAgent()
    return {agent.choose_move(gb(text), colour, random.Random(s)) for s in seeds}


# -- A plain minimax, written independently, as the reference ---------------------------------

def reference_material(board, side):
    total = 0
    for p in board:
        if p:
            value = RULES.piece_of[abs(p)].value
            total += value if p * side > 0 else -value
    return total


def reference_value(board, side, depth, ply=0):
    """Plain minimax (no pruning, no ordering), from `side`'s point of view."""
    if depth == 0:
        return reference_material(board, side)
    moves = RULES.moves(board, side)
    if not moves:
        return 0
    best = None
    for move in moves:
        if RULES.captures_king(board, move):
            value = WIN - (ply + 1)
        else:
            value = -reference_value(RULES.make(board, move), -side, depth - 1, ply + 1)
        best = value if best is None else max(best, value)
    return best


def reference_root(board, side, depth):
    moves = RULES.moves(board, side)
    values = {}
    for move in moves:
        if RULES.captures_king(board, move):
            values[move] = WIN - 1
        else:
            values[move] = -reference_value(RULES.make(board, move), -side, depth - 1, 1)
    best = max(values.values())
    return best, [m for m in moves if values[m] == best]


def king_en_prise(board, side):
    """Can `side` capture the enemy King right away? (Such positions make dull test cases.)"""
    return RULES.in_check(board, -side)


def game_positions(count, seed):
    """Positions (board, side) met in seeded random games, every few plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game()
        while not game.adjudicate() and game.plies < 40:
            if game.plies % 7 == 3 and not king_en_prise(game.board, game.side):
                out.append((list(game.board), game.side))
            game.play(rng.choice(game.legal_moves()))
    return out[:count]


def sparse_positions(count, seed):
    """Random positions with both Kings and a handful of other pieces."""
    rng = random.Random(seed)
    out = []
    codes = [c for c in RULES.piece_of if c != RULES.king]
    while len(out) < count:
        board = [0] * RULES.size
        squares = rng.sample(range(RULES.size), rng.randint(4, 9))
        board[squares[0]], board[squares[1]] = RULES.king, -RULES.king
        for s in squares[2:]:
            board[s] = rng.choice(codes) * rng.choice((1, -1))
        side = rng.choice((1, -1))
        if not king_en_prise(board, side):
            out.append((board, side))
    return out


# -- Tests --------------------------------------------------------------------------------------

def test_minimax_captures_king_in_one():
    assert search("Kd0 Ra0 Qc4 ka6 pa5") == (WIN - 1, {mv("c4a6")})
    assert chosen("Kd0 Ra0 Qc4 ka6 pa5") == {mv("c4a6")}


def test_minimax_captures_king_in_one_as_black():
    assert chosen("kd6 qb2 Kb0 Pa1 Pc1", "Black") == {mv("b2b0")}


def test_minimax_avoids_losing_its_king_in_two():
    # Nd2xb3 wins the Queen but unpins the d-file: the Rook on d3 would take the King.
    text = "Kd0 Nd2 Na0 kd6 rd3 qb3 pb2"
    value, best = search(text)
    assert value > -WIN // 2
    assert mv("d2b3") not in best
    board = board_from_gameboard(gb(text))
    for answer in chosen(text):
        move = (RULES.variant.square_index(answer[0]), RULES.variant.square_index(answer[1]))
        assert safe(board, move)


def test_minimax_finds_a_forced_win_within_four_plies():
    # Rg0-g6 is a quiet move after which every Black reply lets the King be taken (ply 3).
    assert search("Kd0 Rg0 Nd2 kd6 pc5 pd5 pe5") == (WIN - 3, {mv("g0g6")})


def test_minimax_prefers_the_faster_of_two_wins():
    # Qxa6 takes the King now (ply 1); Rb0 or Qc6 would take it on ply 3.
    text = "Kd0 Ra0 Qc4 ka6 pa5"
    board = board_from_gameboard(gb(text))
    v = RULES.variant
    slower = (v.parse_name("a0"), v.parse_name("b0"))
    assert reference_value(RULES.make(board, slower), -1, 3, 1) == -(WIN - 3)
    assert search(text) == (WIN - 1, {mv("c4a6")})


def test_minimax_delays_a_forced_loss():
    # Black is lost: Kg6 or Kg4 survive one more White move (King taken on ply 4), the f-file
    # squares are taken at once (ply 2). The slower loss scores better.
    text = "Rf0 Rd2 Ra3 pd3 Rf3 kg5 Ka6"
    assert search(text, side=-1) == (-(WIN - 4), {mv("g5g6"), mv("g5g4")})


def test_minimax_calls_a_position_without_moves_a_draw():
    # Black's King in the corner, walled in by its own pawns, none of which can move.
    board = board_from_gameboard(gb("ka0 pa1 pb0 pb1 Kg6"))
    assert RULES.moves(board, -1) == []
    assert Searcher().root(board, -1, 4) == (0, [])


def test_minimax_keeps_every_tied_root_move():
    # Two Kings and nothing to win: every move is worth 0 at depth 2, all are kept.
    board = board_from_gameboard(gb("Kd0 kd6"))
    value, best = Searcher().root(board, 1, 2)
    assert value == 0 and best == RULES.moves(board, 1)


def test_minimax_breaks_ties_at_random():
    assert len(chosen("Kd0 Nb1 kd6 pa5", seeds=range(40))) > 1


@pytest.mark.parametrize("positions", [
    pytest.param(lambda: game_positions(12, seed=1), id="from-random-games"),
    pytest.param(lambda: sparse_positions(12, seed=2), id="sparse"),
])
def test_minimax_root_equals_plain_minimax_at_depth_three(positions):
    for board, side in positions():
        expected = reference_root(board, side, 3)
        before = list(board)
        assert Searcher().root(board, side, 3) == expected
        assert board == before   # the in-place search restores the board


def test_minimax_root_equals_plain_minimax_at_depth_four_on_sparse_positions():
    for board, side in sparse_positions(6, seed=3):
        assert Searcher().root(board, side, 4) == reference_root(board, side, 4)
