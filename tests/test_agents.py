"""Tests for the course's opponents (agents/) and the student-file loader.

Positions are gameboard dicts written compactly: "Kd0 Rg0 kd6" is a White King on d0, a White
Rook on g0 and a Black King on d6 (Fairy-Stockfish letters, upper case White), in that dict
order.
"""
import random
import sys
from pathlib import Path

import pytest

from agents import make_agent
from agents.dummy import DummyAgent
from agents.greedy import GreedyAgent
from agents.minimax import MinimaxAgent
from agents.random_agent import RandomAgent
from agents.smart import SmartAgent
from harness.isolation.student import StudentAgent
from agents.tactics import capture_value, checks, mating
from harness.variants.cs3243.game import Game, board_from_gameboard, course_move, start_gameboard
from harness.core.referee import play_game
from harness.variants.cs3243.protocol import parse_answer
from harness.variants.cs3243.rules import RULES

from boards import gb, mv  # noqa: E402

safe = RULES.is_safe

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = range(60)


def course_moves(gameboard, colour, keep=lambda board, m: True):
    board = board_from_gameboard(gameboard)
    side = 1 if colour == "White" else -1
    return {course_move(RULES, m) for m in RULES.moves(board, side) if keep(board, m)}


def answers(agent, gameboard, colour="White", seeds=SEEDS):
    """Every move the agent plays from this position over many seeded generators."""
    return {agent.choose_move(dict(gameboard), colour, random.Random(seed)) for seed in seeds}


# -- Dummy -------------------------------------------------------------------------------------

def test_dummy_plays_first_move_of_first_piece_in_course_start_order():
    board = start_gameboard()
    # a1 Ferz is first in the dict; its first diagonal step (+1 column, +1 row) is b2.
    assert DummyAgent().choose_move(board, "White", random.Random(0)) == mv("a1b2")
    # a5 Ferz: b6 holds its own Bishop, so the next diagonal (+1 column, -1 row) is b4.
    assert DummyAgent().choose_move(board, "Black", random.Random(0)) == mv("a5b4")


def test_dummy_follows_dict_order_not_square_order():
    # The Rook on g3 comes first in the dict although the Knight's square a0 comes first.
    board = gb("Rg3 Na0 Kd0 kd6")
    assert DummyAgent().choose_move(board, "White", random.Random(0)) == mv("g3g4")
    board = gb("Na0 Rg3 Kd0 kd6")
    assert DummyAgent().choose_move(board, "White", random.Random(0)) == mv("a0b2")


def test_dummy_skips_pieces_without_moves_and_enemy_pieces():
    # Black's Rook first, then a blocked White pawn (c2 holds a Black pawn), then the King.
    board = gb("rg6 Pc1 pc2 Kd0 kd6")
    # c1 pawn: push blocked, captures: b2, d2 empty, so it has no move; the King moves next.
    assert DummyAgent().choose_move(board, "White", random.Random(0)) == mv("d0d1")


def test_dummy_ignores_its_king_safety():
    # The Bishop on d1 shields the King from the Rook on d5; its first move unshields it.
    board = gb("Bd1 Kd0 rd5 kd6")
    move = DummyAgent().choose_move(board, "White", random.Random(0))
    assert move == mv("d1e2")
    b = board_from_gameboard(board)
    assert not safe(b, (RULES.variant.square_index(move[0]), RULES.variant.square_index(move[1])))


# -- Random ------------------------------------------------------------------------------------

def test_random_reaches_every_move_and_never_another():
    board = gb("Kd0 Nb1 Pf1 kd6 pe2")
    expected = course_moves(board, "White")
    seen = answers(RandomAgent(), board, seeds=range(400))
    assert seen == expected


def test_random_plays_unsafe_moves_too():
    board = gb("Kd0 Bd1 kd6 rd5")
    unsafe = course_moves(board, "White", lambda b, m: not safe(b, m))
    assert unsafe and unsafe <= answers(RandomAgent(), board, seeds=range(300))


# -- Greedy ------------------------------------------------------------------------------------

def test_greedy_prefers_king_capture_over_mating_move():
    board = gb("Kd0 Ra0 Qc4 ka6 pa5")
    assert mv("a0b0") in course_moves(board, "White", mating)       # a mate is available
    assert answers(GreedyAgent(), board) == {mv("c4a6")}


def test_greedy_prefers_mating_move_over_check():
    board = gb("Kd0 Rg0 Nd2 kd6 pc5 pd5 pe5")
    assert mv("d2e4") in course_moves(board, "White", checks)
    assert answers(GreedyAgent(), board) == {mv("g0g6")}


def test_greedy_plays_a_random_safe_check_and_never_an_unsafe_one():
    # Knight d2 is pinned by the Rook on d3: its checks (e4, c4) would lose the King.
    board = gb("Kd0 Nd2 Ng3 kd6 rd3 pc5 pd5 pe5")
    assert mv("d2e4") in course_moves(board, "White", checks)
    assert answers(GreedyAgent(), board) == {mv("g3e4"), mv("g3f5")}


def test_greedy_plays_a_random_safe_move_without_check_or_mate():
    board = gb("Kd0 Nd2 kd6 rd3 pc5 pd5 pe5")
    safe_moves = course_moves(board, "White", safe)
    assert safe_moves == {mv("d0d1"), mv("d0e0"), mv("d0c0"), mv("d0e1"), mv("d0c1")}
    assert answers(GreedyAgent(), board) == safe_moves


def test_greedy_without_safe_move_still_answers_a_move():
    board = gb("Ka0 kg6 ra6 rb6")
    assert not course_moves(board, "White", safe)
    assert answers(GreedyAgent(), board, seeds=range(5)) <= course_moves(board, "White")


def test_greedy_plays_black():
    # Mirror of the mating position: Black's Rook g6 -> g0 mates.
    board = gb("kd6 rg6 nd4 Kd0 Pc1 Pd1 Pe1")
    assert answers(GreedyAgent(), board, "Black") == {mv("g6g0")}


# -- Smart -------------------------------------------------------------------------------------

def test_smart_prefers_king_capture_over_mating_move():
    assert answers(SmartAgent(), gb("Kd0 Ra0 Qc4 ka6 pa5")) == {mv("c4a6")}


def test_smart_prefers_mating_move_over_check_capture():
    board = gb("Kd0 Rg0 Nd2 kd6 pc5 pd5 pe5 pe4")
    b = board_from_gameboard(board)
    knight_takes = (RULES.variant.parse_name("d2"), RULES.variant.parse_name("e4"))
    assert checks(b, knight_takes) and capture_value(b, knight_takes) == 100
    assert answers(SmartAgent(), board) == {mv("g0g6")}


def test_smart_prefers_check_capture_over_bigger_plain_capture():
    # Nxe4+ takes a pawn with check; Rxg4 takes the Queen without check.
    board = gb("Kd0 Nd2 Rg0 kd6 pc5 pd5 pe5 pe4 qg4")
    assert answers(SmartAgent(), board) == {mv("d2e4")}


def test_smart_prefers_capture_over_check():
    board = gb("Kd0 Nd2 Rg0 kd6 pc5 pd5 pe5 qg4")
    assert {mv("d2e4"), mv("d2c4")} <= course_moves(board, "White", checks)
    assert answers(SmartAgent(), board) == {mv("g0g4")}


def test_smart_prefers_check_over_quiet_move():
    board = gb("Kd0 Nd2 kd6 pc5 pd5 pe5")
    assert answers(SmartAgent(), board) == {mv("d2e4"), mv("d2c4")}


def test_smart_plays_a_random_safe_quiet_move_otherwise():
    board = gb("Kd0 Nb1 kd6 pd5")
    assert not course_moves(board, "White", checks)
    assert answers(SmartAgent(), board) == course_moves(board, "White", safe)


def test_smart_takes_queen_over_rook():
    board = gb("Kd0 Rc2 kg6 qc4 rf2")
    assert not course_moves(board, "White", checks)
    assert answers(SmartAgent(), board) == {mv("c2c4")}


def test_smart_ranks_check_captures_by_victim_value():
    # Both knights capture with check: the one taking the Rook, not the pawn.
    board = gb("Kd0 Nd2 Ng3 kd6 pc5 pd5 pe5 pe4 rf5")
    b = board_from_gameboard(board)
    v = RULES.variant
    for name in ("d2e4", "g3e4", "g3f5"):
        move = (v.parse_name(name[:2]), v.parse_name(name[2:]))
        assert checks(b, move) and safe(b, move)
    assert answers(SmartAgent(), board) == {mv("g3f5")}


def test_smart_never_plays_an_unsafe_capture():
    # Nd2xb3 would win the Queen but the Knight is pinned; Na0xb2 is the only safe capture.
    board = gb("Kd0 Nd2 Na0 kd6 rd3 qb3 pb2")
    assert answers(SmartAgent(), board) == {mv("a0b2")}


# -- Built-ins: registry, both colours, replay -------------------------------------------------

@pytest.mark.parametrize("name", ["dummy", "random", "greedy", "smart", "minimax"])
def test_builtin_agents_play_a_legal_move_with_either_colour(name):
    agent = make_agent(name)
    assert agent.name == name
    for colour in ("White", "Black"):
        game = Game(to_move=colour)
        answer = agent.choose_move(dict(game.gameboard), colour, random.Random(1))
        assert parse_answer(game, answer) is not None


def test_same_seed_replays_the_same_game():
    first = play_game(RandomAgent(), GreedyAgent(), seed=11, game=Game())
    second = play_game(RandomAgent(), GreedyAgent(), seed=11, game=Game())
    assert first["moves"] == second["moves"]
    assert {k: v for k, v in first.items() if k != "think"} == \
           {k: v for k, v in second.items() if k != "think"}


def test_different_seeds_give_different_games():
    games = {tuple(play_game(RandomAgent(), RandomAgent(), seed=s, game=Game())["moves"][:10]) for s in range(5)}
    assert len(games) > 1


def test_minimax_replays_with_its_seed():
    start = Game(gb("Kd0 Rg0 Nd2 Pb1 Pf1 kd6 pc5 pd5 pe5 rb6"), fifty_limit=10)
    again = Game(gb("Kd0 Rg0 Nd2 Pb1 Pf1 kd6 pc5 pd5 pe5 rb6"), fifty_limit=10)
    first = play_game(MinimaxAgent(depth=2), RandomAgent(), seed=3, game=start)
    second = play_game(MinimaxAgent(depth=2), RandomAgent(), seed=3, game=again)
    assert first["moves"] == second["moves"]


# -- Student files -----------------------------------------------------------------------------

def test_student_agent_plays_white_as_written():
    agent = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    assert agent.choose_move(start_gameboard(), "White", random.Random(0)) == mv("b1b2")


def test_student_agent_mirrors_board_and_answer_for_black():
    agent = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    board = start_gameboard()
    assert agent.choose_move(board, "Black", random.Random(0)) == mv("b5b4")
    shown = agent.module.seen[-1]
    # Same order, rows mirrored, colours swapped: the Black a5 Ferz shows as a White a1 Ferz.
    expected = [((c, 6 - r), (p, "White" if colour == "Black" else "Black"))
                for (c, r), (p, colour) in board.items()]
    assert shown == expected


def test_student_agent_mirrors_a_position_with_moved_pieces():
    agent = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    board = gb("Kd0 Pc1 kd6 pe3 pa5")
    assert agent.choose_move(board, "Black", random.Random(0)) == mv("e3e2")


def test_student_agent_accepts_a_list_answer():
    agent = StudentAgent(str(FIXTURES / "list_answer.py"))
    board = start_gameboard()
    white = agent.choose_move(board, "White", random.Random(0))
    black = agent.choose_move(board, "Black", random.Random(0))
    assert white == mv("b1b2") and isinstance(white, tuple) and isinstance(white[0], tuple)
    assert black == mv("b5b4")


def test_student_agent_returns_malformed_answer_unchanged(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("def studentAgent(gameboard):\n    return [('a', 9), ('b', 2)]\n")
    agent = StudentAgent(str(path))
    assert agent.choose_move(start_gameboard(), "Black", random.Random(0)) == [("a", 9), ("b", 2)]
    path2 = tmp_path / "none.py"
    path2.write_text("def studentAgent(gameboard):\n    return 'resign'\n")
    assert StudentAgent(str(path2)).choose_move(start_gameboard(), "White", random.Random(0)) == "resign"


def test_student_agent_errors_propagate(tmp_path):
    path = tmp_path / "boom.py"
    path.write_text("def studentAgent(gameboard):\n    return 1 // 0\n")
    with pytest.raises(ZeroDivisionError):
        StudentAgent(str(path)).choose_move(start_gameboard(), "White", random.Random(0))


def test_student_agent_cannot_change_callers_board(tmp_path):
    path = tmp_path / "vandal.py"
    path.write_text("def studentAgent(gameboard):\n    gameboard.clear()\n"
                    "    return (('b', 1), ('b', 2))\n")
    board = start_gameboard()
    before = list(board.items())
    for colour in ("White", "Black"):
        StudentAgent(str(path)).choose_move(board, colour, random.Random(0))
    assert list(board.items()) == before


def test_two_loads_of_one_file_are_independent():
    first = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    second = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    first.choose_move(start_gameboard(), "White", random.Random(0))
    assert first.module is not second.module
    assert len(first.module.seen) == 1 and second.module.seen == []


def test_a_closed_student_agents_module_is_freed_with_it():
    # a game played in this process: the module (and all it built) must not outlive the agent
    # once the game is over (benches play hundreds of games in one process)
    import gc
    import weakref
    agent = StudentAgent(str(FIXTURES / "first_pawn_forward.py"))
    record = play_game(agent, make_agent("dummy"), seed=0, game=Game(max_plies=6))
    assert record["plies"] == 6 and len(agent.module.seen) == 3
    name, function = agent.module.__name__, weakref.ref(agent.module.studentAgent)
    assert name in sys.modules
    agent.close()
    assert name not in sys.modules and function() is not None     # the agent itself still holds it
    del agent
    gc.collect()
    assert function() is None


CATCHES_CTRL_C = FIXTURES / "hostile" / "ctrl_c_self.py"   # interrupts itself, catches it, plays as clean.py


def clean_move(board):
    return StudentAgent(str(FIXTURES / "hostile" / "clean.py")).choose_move(board, "White", random.Random(0))


def test_ctrl_c_stops_the_run_even_when_the_student_file_catches_it():
    import signal
    agent = StudentAgent(str(CATCHES_CTRL_C))
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        agent.choose_move(start_gameboard(), "White", random.Random(0))
    assert signal.getsignal(signal.SIGINT) is before


def test_where_ctrl_c_is_ignored_the_student_file_answers_undisturbed():
    # a pool's workers ignore SIGINT (their parent stops them): a call there is left alone
    import signal
    agent = StudentAgent(str(CATCHES_CTRL_C))
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert agent.choose_move(start_gameboard(), "White", random.Random(0)) == clean_move(start_gameboard())
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_student_agent_imports_siblings_and_restores_sys_path(tmp_path):
    (tmp_path / "helper_for_student.py").write_text("MOVE = (('c', 1), ('c', 2))\n")
    path = tmp_path / "agent.py"
    path.write_text("from helper_for_student import MOVE\n\n"
                    "def studentAgent(gameboard):\n    return MOVE\n")
    before = list(sys.path)
    agent = StudentAgent(str(path))
    assert sys.path == before
    assert agent.choose_move(start_gameboard(), "White", random.Random(0)) == mv("c1c2")
    sys.modules.pop("helper_for_student", None)


def test_make_agent_loads_a_file_with_its_path_as_name():
    path = str(FIXTURES / "first_pawn_forward.py")
    agent = make_agent(path)
    assert isinstance(agent, StudentAgent) and agent.name == path
