"""FEN and engine notation (harness.variants.cs3243.fen), game records' engine fields and the replay command."""
import json
import random

import pytest

from harness.variants.cs3243.fen import (START_FEN, VARIANT_FILE, course_to_engine, engine_move, engine_record_fields,
                         engine_to_course, from_fen, game_from_fen, parse_engine_move, to_fen)
from harness.variants.cs3243.game import Game, start_gameboard
from harness.cli import main
from harness.replay import load_record
from harness.variants.cs3243.replay import board_lines, replay_lines
from harness.variants.cs3243.rules import RULES
from harness.variants.cs3243.pieces import BLACK, WHITE

V = RULES.variant


def sq(name):
    return V.parse_name(name)


def random_game(seed, plies=60):
    """A seeded random playout of the referee's Game, stopped at its end or after `plies`."""
    rng = random.Random(seed)
    game = Game()
    while not game.adjudicate() and game.plies < plies:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_start_fen():
    assert to_fen(Game()) == START_FEN
    assert to_fen(start_gameboard()) == START_FEN
    assert to_fen(start_gameboard(), WHITE, 0, 1) == START_FEN
    assert to_fen(start_gameboard(), BLACK, 7, 12) == "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER b - - 7 12"
    assert to_fen(Game().board, -1).split()[1] == "b"


def test_start_fen_reads_back_as_the_course_dict_in_order():
    gameboard, colour, halfmove, fullmove = from_fen(START_FEN)
    assert list(gameboard.items()) == list(start_gameboard().items())
    assert (colour, halfmove, fullmove) == (WHITE, 0, 1)


def test_variant_file_states_the_start_fen():
    text = open(VARIANT_FILE).read()
    assert f"startFen = {START_FEN}" in text and "[cs3243]" in text


def test_engine_squares_are_course_rows_plus_one():
    assert engine_move(RULES, (sq("a1"), sq("b2"))) == "a2b3"
    assert course_to_engine(RULES, (("a", 1), ("b", 2))) == "a2b3"
    assert engine_to_course(RULES, "a2b3") == (("a", 1), ("b", 2))
    assert parse_engine_move(RULES, "g7a1") == (sq("g6"), sq("a0"))
    for bad in ("a0b1", "a8a7", "h1h2", "a1", "a2b3q", "", "(none)", None, "a02b3"):
        assert parse_engine_move(RULES, bad) is None, bad
    assert course_to_engine(RULES, (("a", 7), ("b", 2))) is None


def test_fen_ranks_run_from_row_6_down():
    gameboard = {("a", 0): ("King", WHITE), ("g", 6): ("King", BLACK), ("c", 3): ("Empress", WHITE),
                 ("d", 5): ("Princess", BLACK), ("e", 1): ("Ferz", BLACK)}
    fen = to_fen(gameboard, BLACK, 12, 30)
    assert fen == "6k/3a3/7/2E4/7/4f2/K6 b - - 12 30"
    back, colour, halfmove, fullmove = from_fen(fen)
    assert back == gameboard and (colour, halfmove, fullmove) == (BLACK, 12, 30)


@pytest.mark.parametrize("seed", range(20))
def test_round_trip_on_random_positions(seed):
    game = random_game(seed, plies=random.Random(seed).randrange(1, 80))
    fen = to_fen(game)
    gameboard, colour, halfmove, fullmove = from_fen(fen)
    assert gameboard == game.gameboard          # same squares and pieces (order is from_fen's own)
    assert colour == game.to_move and halfmove == game.quiet_plies
    assert fullmove == 1 + game.plies // 2
    assert to_fen(gameboard, colour, halfmove, fullmove) == fen
    again = game_from_fen(fen)
    assert again.board == game.board and again.quiet_plies == game.quiet_plies and to_fen(again).split()[:5] == fen.split()[:5]


def test_fullmove_from_a_black_start():
    game = Game(to_move=BLACK)
    assert to_fen(game).endswith(" b - - 0 1")
    game.play(game.legal_moves()[0])
    assert to_fen(game).endswith(" w - - 1 2")


@pytest.mark.parametrize("fen, words", [
    ("", "empty"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF w - - 0 1", "6 ranks"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAERR w - - 0 1", "more than 7"),
    ("nbqkaer/fpppppf/6/7/7/FPPPPPF/NBQKAER w - - 0 1", "6 squares"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKXER w - - 0 1", "unknown piece letter 'X'"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER x - - 0 1", "side to move"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w KQ - 0 1", "castling"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - -1 1", "halfmove"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 0", "fullmove"),
    ("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1 x", "fields"),
])
def test_bad_fens_are_clear_value_errors(fen, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        from_fen(fen)


def test_short_fen_defaults():
    gameboard, colour, halfmove, fullmove = from_fen("nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER")
    assert (colour, halfmove, fullmove) == (WHITE, 0, 1) and len(gameboard) == 28


def test_engine_record_fields():
    game = random_game(3, plies=30)
    fields = engine_record_fields(game)
    assert fields["start_fen"] == START_FEN
    assert fields["engine_moves"] == [engine_move(RULES, m) for m in game.moves_played]
    # replaying the engine moves from the start FEN gives the game's position
    again = game_from_fen(fields["start_fen"])
    for text in fields["engine_moves"]:
        again.play(parse_engine_move(RULES, text))
    assert to_fen(again) == to_fen(game)
    game = game_from_fen("6k/7/7/7/7/7/K6 b - - 9 40")
    assert engine_record_fields(game)["start_fen"] == "6k/7/7/7/7/7/K6 b - - 9 1"


# -- replay ----------------------------------------------------------------------------------

def a_record(seed=4, game_number=7):
    game = random_game(seed, plies=400)
    record = {"game": game_number, "seed": seed, "white": "random", "black": "random",
              "result": game.result, "reason": game.reason, "plies": game.plies,
              "moves": game.move_names(), "error": None}
    record.update(engine_record_fields(game))
    return record, game


def test_board_lines():
    lines = board_lines(RULES, Game().board)
    assert lines[0] == "  6 | n b q k a e r"
    assert lines[6] == "  0 | N B Q K A E R"
    assert lines[-1].split() == list("abcdefg")


def test_replay_lines_show_every_ply_and_the_ending():
    record, game = a_record()
    text = list(replay_lines(record))
    plies = [line for line in text if line.startswith("ply ")]
    assert len(plies) == game.plies + 1
    first = game.moves_played[0]
    assert plies[1].startswith(f"ply 1: White {V.name_of(first[0])}{V.name_of(first[1])} "
                               f"(engine {engine_move(RULES, first)})")
    fens = [line.split("FEN: ")[1] for line in text if line.startswith("  FEN: ")]
    assert fens[-1] == to_fen(game)
    assert text[-1].startswith("result: ") and game.reason in text[-1]


def test_replay_of_a_record_without_engine_fields_uses_course_moves():
    record, game = a_record(seed=8)
    del record["start_fen"], record["engine_moves"]
    text = list(replay_lines(record))
    assert "assumed" in text[1]
    assert [line for line in text if line.startswith("  FEN: ")][-1] == "  FEN: " + to_fen(game)


def test_replay_flags_an_inconsistent_record():
    record, _ = a_record()
    record["engine_moves"] = record["engine_moves"][:3] + ["a1a7"]
    text = list(replay_lines(record))
    assert "not a legal move here" in text[-1]


def run_replay(argv):
    return main(["replay"] + argv)


def test_replay_command(tmp_path, capsys):
    record, _ = a_record(game_number=2)
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({**record, "game": 1}) + "\n" + json.dumps(record) + "\n")
    assert run_replay([str(path), "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game 2: random (White) vs random (Black), seed 4")
    assert run_replay([str(path), "5"]) == 2
    assert capsys.readouterr().err == f"error: '{path}' has no game 5 (games 1..2)\n"
    assert run_replay([str(tmp_path / "none.jsonl"), "1"]) == 2
    assert "cannot read" in capsys.readouterr().err
    path.write_text("{not json\n")
    assert run_replay([str(path), "1"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}:1: not a JSON record")


def test_records_without_game_numbers_count_from_one(tmp_path):
    record, _ = a_record()
    del record["game"]
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n\n" + json.dumps({**record, "seed": 99}) + "\n")
    assert load_record(str(path), 2)["seed"] == 99
    with pytest.raises(ValueError, match="GAME must be 1..2"):
        load_record(str(path), 3)
