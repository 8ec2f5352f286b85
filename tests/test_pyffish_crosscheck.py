"""Our rules against Fairy-Stockfish's (pyffish, a pinned test dependency), with our own
variant file harness/cs3243.ini.

On every position of seeded random games (at least 2,000 in all) our move list equals
pyffish's legal moves, our FEN after a move equals pyffish's (checked on a third of the moves
and every last move: each pyffish call costs about 2 ms), and the endings agree where
the two rule sets agree: a captured King loses, a side with no move at all draws, 50 plies
without a capture draw. Where they differ (the spec's "Interop" section: the engine does not
apply "every move leaves your King attacked = you lose now"), the check is what the engine
does instead: the game goes on, and every move lets the opponent capture the King next ply.
"""
import random

import pytest

pyffish = pytest.importorskip("pyffish", reason="pyffish is not installed: pip install pyffish==0.0.90")

from harness.variants.cs3243.fen import START_FEN, VARIANT_FILE, VARIANT_NAME, engine_move, from_fen, to_fen  # noqa: E402
from harness.variants.cs3243.game import (CHECKMATE, FIFTY_MOVE_DRAW, KING_CAPTURE, NO_MOVES_DRAW,  # noqa: E402
                          OUT_OF_VALID_MOVES, Game, board_from_gameboard)
from harness.variants.cs3243.rules import RULES, perft  # noqa: E402

V = VARIANT_NAME
SEED = 3243
MIN_POSITIONS = 2000
LOSS = -pyffish.VALUE_MATE
DRAW = pyffish.VALUE_DRAW


@pytest.fixture(scope="module", autouse=True)
def variant():
    with open(VARIANT_FILE) as handle:
        pyffish.load_variant_config(handle.read())
    assert V in pyffish.variants()


def ours(game):
    return sorted(engine_move(RULES, m) for m in game.legal_moves())


def theirs(fen, moves=()):
    return sorted(pyffish.legal_moves(V, fen, list(moves)))


def every_move_loses_the_king_in_fsf(fen):
    """In the engine's rules: whatever the side to move plays, the opponent can then take its King."""
    mover = fen.split()[1]
    for move in pyffish.legal_moves(V, fen, []):
        after = pyffish.get_fen(V, fen, [move])
        gameboard, _, _, _ = from_fen(after)
        squares = [f"{c}{r + 1}" for (c, r), (piece, colour) in gameboard.items()
                   if piece == "King" and colour[0].lower() == mover]
        assert len(squares) == 1, after
        if not any(reply[2:] == squares[0] for reply in pyffish.legal_moves(V, after, [])):
            return False
    return True


def check_ending(game, fen):
    """Our ending (game.over) against pyffish's view of the same position."""
    immediate = pyffish.is_immediate_game_end(V, fen, [])
    optional = pyffish.is_optional_game_end(V, fen, [])
    if game.reason == KING_CAPTURE:
        # the side to move has lost its King: the engine says it has lost, with no moves left
        assert immediate == (True, LOSS) and pyffish.game_result(V, fen, []) == LOSS, fen
        assert theirs(fen) == []
    elif game.reason == NO_MOVES_DRAW:
        # pyffish reports "no legal move" through game_result, not as an immediate game end
        assert theirs(fen) == [] and pyffish.game_result(V, fen, []) == DRAW, fen
    elif game.reason == FIFTY_MOVE_DRAW:
        assert immediate[0] is False and optional == (True, DRAW), fen
    elif game.reason in (CHECKMATE, OUT_OF_VALID_MOVES):
        # the rules differ here: the engine plays on, and loses the King a ply later
        assert immediate[0] is False, fen
        assert every_move_loses_the_king_in_fsf(fen), fen
    else:
        pytest.fail(f"unexpected ending {game.reason} at {fen}")


def test_start_position_and_first_moves():
    assert pyffish.start_fen(V) == START_FEN
    assert to_fen(Game()) == START_FEN
    assert theirs(START_FEN) == ours(Game())
    assert len(theirs(START_FEN)) == 12


def test_random_games_against_pyffish():
    rng = random.Random(SEED)
    positions = 0
    endings = {}
    games = 0
    while positions < MIN_POSITIONS:
        games += 1
        game = Game()
        while True:
            fen = to_fen(game)
            if game.adjudicate():
                check_ending(game, fen)
                endings[game.reason] = endings.get(game.reason, 0) + 1
                break
            positions += 1
            assert ours(game) == theirs(fen), fen
            # The checks below are sampled: each pyffish call costs about 2 ms.
            if positions % 8 == 0:
                # the game is on for the engine too: no loss, no draw, no claimable 50-ply draw
                assert pyffish.is_immediate_game_end(V, fen, [])[0] is False, fen
                assert pyffish.is_optional_game_end(V, fen, [])[0] is False, fen
            move = rng.choice(game.legal_moves())
            game.play(move)
            if positions % 3 == 0 or game.over:
                # same position, halfmove clock and move number after the move
                assert to_fen(game) == pyffish.get_fen(V, fen, [engine_move(RULES, move)]), (fen, move)
    assert positions >= MIN_POSITIONS
    # the playouts reach the endings both rule sets share, and the one they do not
    assert endings.get(KING_CAPTURE, 0) > 0
    assert endings.get(CHECKMATE, 0) + endings.get(OUT_OF_VALID_MOVES, 0) > 0


def test_quiet_endgames_reach_the_fifty_ply_draw():
    """Sparse positions where random play rarely captures: the 50-ply rule and its edge."""
    rng = random.Random(SEED + 1)
    fifty = 0
    for _ in range(8):
        gameboard, colour, _, _ = from_fen("3k3/7/1f5/7/5F1/7/3K3 w - - 0 1")
        game = Game(gameboard, to_move=colour)
        while True:
            fen = to_fen(game)
            if game.adjudicate():
                check_ending(game, fen)
                fifty += game.reason == FIFTY_MOVE_DRAW
                break
            assert ours(game) == theirs(fen), fen
            expected = game.quiet_plies >= 50
            assert pyffish.is_optional_game_end(V, fen, [])[0] is expected, fen
            game.play(rng.choice(game.legal_moves()))
    assert fifty > 0


@pytest.mark.parametrize("fen, reason", [
    # White's King is walled in by its own pawns, which cannot move: no move at all
    ("PP4k/PP5/PP5/PP5/PP5/PP5/KP5 w - - 0 1", NO_MOVES_DRAW),
    # White has lost its King
    ("3k3/7/7/7/7/7/3Q3 w - - 0 1", KING_CAPTURE),
    # 50 quiet plies, and moves remain for both
    ("3k3/7/7/7/7/7/3K3 w - - 50 40", FIFTY_MOVE_DRAW),
    # Black King in the corner, in check, every move unsafe: checkmate for us, play on for the engine
    ("6k/4Q2/7/7/6Q/7/K6 b - - 0 1", CHECKMATE),
    # the same without the check: out of valid moves
    ("6k/4Q2/5Q1/7/7/7/K6 b - - 0 1", OUT_OF_VALID_MOVES),
])
def test_hand_made_endings(fen, reason):
    gameboard, colour, halfmove, _ = from_fen(fen)
    game = Game(gameboard, to_move=colour)
    game.quiet_plies = halfmove
    if reason == KING_CAPTURE:
        game.finish("black", KING_CAPTURE)   # how our game got there: Black took the King
    assert game.adjudicate() and game.reason == reason
    check_ending(game, fen)


def fsf_perft(fen, depth, played=()):
    moves = pyffish.legal_moves(V, fen, list(played))
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(fen, depth - 1, played + (m,)) for m in moves)


@pytest.mark.parametrize("depth, expected", [(1, 12), (2, 144), (3, 2532), (4, 44370)])
def test_perft_from_the_start(depth, expected):
    """pyffish has no perft of its own: count its legal-move tree, king-capture positions being
    terminal for the engine too (extinction)."""
    game = Game()
    assert perft(RULES, board_from_gameboard(game.gameboard), game.side, depth) == expected
    assert fsf_perft(START_FEN, depth) == expected
