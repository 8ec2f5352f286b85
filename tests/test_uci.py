"""The UCI agent: Fairy-Stockfish beats Random in complete games, and an engine that cannot
start, dies, hangs or answers nonsense loses the game with the right reason."""
import os
import random

import pytest

from harness.core.agent import AgentError, AgentTimeout
from agents.uci import UciAgent, UciError, uci_agent_from_spec
from harness.variants.cs3243.fen import START_FEN, engine_record_fields, from_fen
from harness.variants.cs3243.game import CRASH, ILLEGAL_MOVE, KING_CAPTURE, TIMEOUT, Game, start_gameboard
from harness.core.referee import play_game
from harness.variants.cs3243.pieces import BLACK, WHITE

FSF = "/usr/games/fairy-stockfish"
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
needs_fsf = pytest.mark.skipif(not os.path.exists(FSF),
                               reason="fairy-stockfish not installed: apt-get install fairy-stockfish")


def fake(mode):
    return os.path.join(FIXTURES, f"fake_uci_{mode}.py")


def random_agent():
    try:
        from agents import make_agent
        return make_agent("random")
    except (AgentError, ImportError) as exc:   # the built-in Random is not there yet
        pytest.skip(f"agents.make_agent('random') unavailable: {exc}")


def play(white, black, seed, game=None):
    game = game or Game()
    try:
        record = play_game(white, black, seed, game)
    finally:
        white.close()
        black.close()
    record.update(engine_record_fields(game))
    return record, game


# -- the spec string ----------------------------------------------------------------------------

def test_spec_parsing():
    agent = uci_agent_from_spec(f"uci:{FSF},nodes=1000")
    assert (agent.path, agent.nodes, agent.movetime) == (FSF, 1000, None)
    assert agent.name == "uci:fairy-stockfish(nodes=1000)"
    assert agent.go_command() == "go nodes 1000"
    agent = uci_agent_from_spec("uci:fairy-stockfish,movetime=50,timeout=2.5")
    assert (agent.nodes, agent.movetime, agent.timeout) == (None, 50, 2.5)
    assert agent.go_command() == "go movetime 50"
    agent = uci_agent_from_spec("uci:/opt/a,b/engine")
    assert agent.path == "/opt/a,b/engine" and agent.nodes == 1000   # default limit
    agent = uci_agent_from_spec("uci:eng,nodes=10,movetime=20")
    assert agent.go_command() == "go nodes 10 movetime 20"


@pytest.mark.parametrize("spec", ["uci:", "uci:,nodes=5", "uci:eng,nodes=x", "uci:eng,nodes=0",
                                  "uci:eng,depth=3", "uci:eng,nodes=1,nodes=2", "eng"])
def test_bad_specs(spec):
    with pytest.raises(AgentError):
        uci_agent_from_spec(spec)


# -- against the real engine --------------------------------------------------------------------

@needs_fsf
@pytest.mark.parametrize("seed, engine_colour", [(1, WHITE), (2, BLACK)])
def test_fairy_stockfish_beats_random(seed, engine_colour):
    engine = UciAgent(FSF, nodes=1000)
    other = random_agent()
    white, black = (engine, other) if engine_colour == WHITE else (other, engine)
    record, game = play(white, black, seed)
    assert record["error"] is None
    assert record["result"] == engine_colour.lower(), record
    assert record["reason"] in (KING_CAPTURE, "checkmate", "out_of_valid_moves")
    assert record["start_fen"] == START_FEN
    assert len(record["engine_moves"]) == record["plies"] == len(game.moves_played)
    assert engine.proc is None   # closed: one process per game


@needs_fsf
def test_engine_plays_black_from_a_fen_position():
    """The FEN sent says whose turn it is: the engine answers with its own piece."""
    engine = UciAgent(FSF, nodes=200)
    try:
        gameboard, _, _, _ = from_fen("nbqkaer/fpppppf/7/7/1F5/1PPPPPF/NBQKAER b - - 1 1")
        move = engine.choose_move(gameboard, BLACK, random.Random(0))
        assert gameboard[move[0]][1] == BLACK
        assert engine.proc is not None and engine.proc.poll() is None
    finally:
        engine.close()
    assert engine.proc is None


@needs_fsf
def test_movetime_limit():
    engine = UciAgent(FSF, movetime=30)
    try:
        move = engine.choose_move(start_gameboard(), WHITE, random.Random(0))
        assert start_gameboard()[move[0]][1] == WHITE
    finally:
        engine.close()


def test_wrong_variant_file_is_a_clear_crash(tmp_path):
    if not os.path.exists(FSF):
        pytest.skip("fairy-stockfish not installed: apt-get install fairy-stockfish")
    engine = UciAgent(FSF, nodes=10, variant_path=str(tmp_path / "missing.ini"))
    record, _ = play(engine, random_agent(), 0)
    assert (record["result"], record["reason"]) == ("black", CRASH)
    assert "did not load variant cs3243" in record["error"]


# -- misbehaving engines ------------------------------------------------------------------------

def test_missing_engine_is_a_crash_with_a_clear_error():
    engine = uci_agent_from_spec("uci:/nonexistent/engine,nodes=10")
    record, _ = play(engine, random_agent(), 0)
    assert (record["result"], record["reason"]) == ("black", CRASH)
    assert "cannot start engine '/nonexistent/engine'" in record["error"]
    assert "No such file" in record["error"]


def test_hanging_engine_times_out():
    engine = UciAgent(fake("hang"), nodes=10, timeout=1)
    record, _ = play(random_agent(), engine, 0)
    assert (record["result"], record["reason"]) == ("white", TIMEOUT)
    assert "no bestmove within 1 s" in record["error"]


def test_hang_raises_agent_timeout_and_kills_the_process():
    engine = UciAgent(fake("hang"), nodes=10, timeout=0.5)
    try:
        with pytest.raises(AgentTimeout):
            engine.choose_move(start_gameboard(), WHITE, random.Random(0))
        assert engine.proc.poll() is not None   # killed at once
    finally:
        engine.close()


def test_illegal_answer_loses():
    engine = UciAgent(fake("illegal"), nodes=10)
    record, _ = play(engine, random_agent(), 0)
    assert (record["result"], record["reason"]) == ("black", ILLEGAL_MOVE)
    assert "('a', 6), ('a', 5)" in record["error"]   # a7a6 in course squares


def test_no_move_answer_is_illegal():
    engine = UciAgent(fake("none"), nodes=10)
    record, _ = play(engine, random_agent(), 0)
    assert (record["result"], record["reason"]) == ("black", ILLEGAL_MOVE)
    assert engine.last_answer == "bestmove (none)"


def test_engine_that_dies_is_a_crash():
    engine = UciAgent(fake("crash"), nodes=10)
    record, _ = play(random_agent(), engine, 0)
    assert (record["result"], record["reason"]) == ("white", CRASH)
    assert "exited with code 3" in record["error"] and "segmentation fault (pretend)" in record["error"]


def test_engine_without_the_variant_is_a_crash():
    engine = UciAgent(fake("novariant"), nodes=10)
    with pytest.raises(UciError, match="did not load variant cs3243"):
        engine.choose_move(start_gameboard(), WHITE, random.Random(0))
    engine.close()
