"""The referee: every ending on crafted positions (tiny scripted agents), answer validation,
board copies, timing, and every hostile student file (through the sandbox)."""
from pathlib import Path

import pytest

from agents import make_agent
from harness.core.agent import Agent, AgentTimeout
from harness.variants.cs3243.game import Game, start_gameboard
from harness.core.referee import play_game
from harness.variants.cs3243.rules import RULES
from harness.isolation.sandbox import OUTPUT_LIMIT, SandboxAgent
from harness.variants.cs3243.pieces import BLACK, WHITE

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
V = RULES.variant
W, B = WHITE, BLACK


def sq(name):
    return V.square_of(V.parse_name(name))


def mv(name):
    """'c1a1' -> (('c', 1), ('a', 1))."""
    return (sq(name[:2]), sq(name[2:]))


class Scripted(Agent):
    """Answers from a list, in turn; a callable entry is called with the board it is shown."""

    def __init__(self, answers, name="scripted"):
        self.answers = list(answers)
        self.name = name
        self.boards = []

    def choose_move(self, gameboard, colour, rng):
        self.boards.append(list(gameboard.items()))
        answer = self.answers.pop(0)
        return answer(gameboard) if callable(answer) else answer


class Cycle(Agent):
    """Plays the given moves round and round (for quiet shuffles)."""

    def __init__(self, moves):
        self.moves = [mv(m) for m in moves]
        self.calls = 0
        self.name = "cycle"

    def choose_move(self, gameboard, colour, rng):
        self.calls += 1
        return self.moves[(self.calls - 1) % len(self.moves)]


# Crafted positions (the referee's board is a Game built from a course gameboard dict).
KING_CAPTURE = {sq("d0"): ("King", W), sq("d3"): ("Queen", W), sq("d6"): ("King", B)}
MATE_IN_ONE = {sq("g3"): ("King", W), sq("b0"): ("Rook", W), sq("c1"): ("Rook", W), sq("a6"): ("King", B)}
STALEMATE_TRAP = {sq("g0"): ("King", W), sq("b0"): ("Rook", W), sq("c4"): ("Rook", W), sq("a6"): ("King", B)}
BLOCKED = {sq("a6"): ("King", B), sq("g3"): ("King", W)}
BLOCKED.update({sq(f"{c}{r}"): ("Pawn", B) for c in "ab" for r in range(7) if f"{c}{r}" != "a6"})
KINGS_ONLY = {sq("a0"): ("King", W), sq("g6"): ("King", B)}


def never():
    return Scripted([], name="never-asked")


# ----------------------------------------------------------------------------- endings


def test_king_capture():
    record = play_game(Scripted([mv("d3d6")]), never(), 1, Game(KING_CAPTURE))
    assert (record["result"], record["reason"], record["plies"], record["moves"]) == (
        "white", "king_capture", 1, ["d3d6"])
    assert record["error"] is None


def test_checkmate():
    record = play_game(Scripted([mv("c1a1")]), never(), 1, Game(MATE_IN_ONE))
    assert (record["result"], record["reason"], record["plies"]) == ("white", "checkmate", 1)


def test_out_of_valid_moves():
    record = play_game(Scripted([mv("c4c5")]), never(), 1, Game(STALEMATE_TRAP))
    assert (record["result"], record["reason"], record["plies"]) == ("white", "out_of_valid_moves", 1)


def test_no_moves_draw():
    record = play_game(Scripted([mv("g3g4")]), never(), 1, Game(BLOCKED))
    assert (record["result"], record["reason"], record["plies"]) == ("draw", "no_moves_draw", 1)


def test_fifty_move_draw_default_limit():
    white, black = Cycle(["a0a1", "a1a0"]), Cycle(["g6g5", "g5g6"])
    record = play_game(white, black, 1, Game(KINGS_ONLY))
    assert (record["result"], record["reason"], record["plies"]) == ("draw", "fifty_move_draw", 50)
    assert record["fifty"] == 50
    assert (white.calls, black.calls) == (25, 25)


def test_fifty_move_draw_configured_limit():
    record = play_game(Cycle(["a0a1", "a1a0"]), Cycle(["g6g5", "g5g6"]), 1,
                       Game(KINGS_ONLY, fifty_limit=6))
    assert (record["result"], record["reason"], record["plies"], record["fifty"]) == (
        "draw", "fifty_move_draw", 6, 6)


def test_max_plies():
    record = play_game(Cycle(["a0a1", "a1a0"]), Cycle(["g6g5", "g5g6"]), 1,
                       Game(KINGS_ONLY, fifty_limit=1000, max_plies=7))
    assert (record["result"], record["reason"], record["plies"], record["max_plies"]) == (
        "draw", "max_plies", 7, 7)


def test_mate_on_the_last_quiet_ply_wins():
    record = play_game(Scripted([mv("c1a1")]), never(), 1, Game(MATE_IN_ONE, fifty_limit=1))
    assert (record["result"], record["reason"]) == ("white", "checkmate")


# ----------------------------------------------------------------------------- faulty agents


@pytest.mark.parametrize("answer", [
    "d1d2",
    None,
    (("d", 1),),
    (("d", 1), ("d", 2), ("d", 3)),
    (("d", 1), ("d", 3)),          # no double step
    (("d", 5), ("d", 4)),          # the opponent's pawn
    (("d", 3), ("d", 4)),          # an empty square
    (("h", 1), ("h", 2)),          # off the board
    (("d", True), ("d", 2)),       # True is not a row
    (("d", 1.0), ("d", 2)),
    ((1, 1), (1, 2)),
    ({"d": 1}, {"d": 2}),
])
def test_illegal_answers_lose(answer):
    record = play_game(Scripted([answer]), never(), 1, Game())
    assert (record["result"], record["reason"], record["plies"]) == ("black", "illegal_move", 0)
    assert record["error"] == f"White: illegal answer {answer!r}"


def test_a_list_answer_is_accepted():
    record = play_game(Scripted([[["d", 1], ["d", 2]], None]), never(), 1, Game())
    assert record["moves"] == ["d1d2"]
    # Black was asked next (never() has no answers -> IndexError -> crash)
    assert (record["result"], record["reason"]) == ("white", "crash")


def test_black_illegal_move_loses():
    record = play_game(Scripted([mv("d1d2")]), Scripted([mv("d1d2")]), 1, Game())
    assert (record["result"], record["reason"], record["plies"]) == ("white", "illegal_move", 1)
    assert record["error"].startswith("Black: illegal answer")


def test_crash_records_the_error():
    def boom(board):
        raise ValueError("boom")
    record = play_game(Scripted([boom]), never(), 1, Game())
    assert (record["result"], record["reason"], record["error"]) == ("black", "crash", "White: ValueError: boom")


def test_timeout_from_an_agent():
    def slow(board):
        raise AgentTimeout("no answer within 2 s")
    record = play_game(Scripted([mv("d1d2")]), Scripted([slow]), 1, Game())
    assert (record["result"], record["reason"], record["error"]) == (
        "white", "timeout", "Black: no answer within 2 s")


# ----------------------------------------------------------------------------- boards and timing


def test_agents_get_fresh_copies_in_course_order():
    white = Scripted([mv("b1b2"), mv("b2b3")])
    black = Scripted([mv("b5b4"), lambda board: board.clear() or mv("c5c4")])
    play_game(white, black, 1, Game(max_plies=4))
    start = list(start_gameboard().items())
    assert white.boards[0] == start
    assert black.boards[0][-1] == (sq("b2"), ("Pawn", W))          # moved piece goes to the end
    assert white.boards[1][-2:] == [(sq("b2"), ("Pawn", W)), (sq("b4"), ("Pawn", B))]
    assert len(white.boards[1]) == 28


def test_a_mutated_copy_never_reaches_the_referee():
    game = Game(max_plies=2)
    black = Scripted([lambda board: board.clear() or mv("b5b4")])
    record = play_game(Scripted([mv("b1b2")]), black, 1, game)
    assert record["mutated"] == {"white": 0, "black": 1}
    assert record["reason"] == "max_plies"
    assert len(game.gameboard) == 28 and game.gameboard[sq("b4")] == ("Pawn", B)


def test_think_times_are_recorded_per_move():
    record = play_game(Cycle(["a0a1", "a1a0"]), Cycle(["g6g5", "g5g6"]), 1,
                       Game(KINGS_ONLY, fifty_limit=6))
    for side in ("white", "black"):
        think = record["think"][side]
        assert think["moves"] == 3 == len(think["seconds"])
        assert think["max"] == max(think["seconds"])
        assert think["total"] == pytest.approx(sum(think["seconds"]), abs=1e-5)


def test_a_seed_replays_the_game():
    first = play_game(make_agent("random"), make_agent("random"), 42, Game())
    again = play_game(make_agent("random"), make_agent("random"), 42, Game())
    other = play_game(make_agent("random"), make_agent("random"), 43, Game())
    assert first["moves"] == again["moves"] and first["result"] == again["result"]
    assert first["moves"] != other["moves"]


# ----------------------------------------------------------------------------- hostile files


def sandboxed(name, timeout=2.0):
    return SandboxAgent(str(HOSTILE / name), timeout)


def play_file(name, colour, timeout=2.0, opponent="dummy", seed=1):
    agent = sandboxed(name, timeout)
    other = make_agent(opponent)
    try:
        if colour == W:
            return play_game(agent, other, seed, Game())
        return play_game(other, agent, seed, Game())
    finally:
        agent.close()


FAULTS = [
    ("import_error.py", "crash", "at import: RuntimeError: broken at import (import_error.py line 2)"),
    ("raises.py", "crash", "ValueError: boom (raises.py line 5)"),
    ("exit_call.py", "crash", "called sys.exit(3) (exit_call.py line 6)"),
    ("exit_import.py", "crash", "at import: called sys.exit('bye at import') (exit_import.py line 4)"),
    ("os_exit.py", "crash", "the process exited with code 7 during its move"),
    ("kill_self.py", "crash", "the process was killed by signal SIGSEGV during its move"),
    ("no_agent.py", "crash", "does not define studentAgent(gameboard)"),
    ("memory.py", "crash", "MemoryError (memory.py line 5)"),
    ("garbage.py", "illegal_move", "illegal answer {("),
    ("hang.py", "timeout", "no answer within 1 s"),
    ("hang_import.py", "timeout", "import did not finish within 1 s"),
]


@pytest.mark.parametrize("colour", [W, B])
@pytest.mark.parametrize("name,reason,error", FAULTS, ids=[f[0] for f in FAULTS])
def test_hostile_file_loses_with_the_right_reason(name, reason, error, colour, capfd):
    record = play_file(name, colour, timeout=1.0)
    winner = "black" if colour == W else "white"
    assert (record["result"], record["reason"]) == (winner, reason)
    assert record["plies"] == (0 if colour == W else 1)
    assert record["error"].startswith(f"{colour}: ")
    assert error in record["error"]
    assert "StudentCrash" not in record["error"] and "AgentCrash" not in record["error"]
    out, err = capfd.readouterr()
    assert out == "" and err == ""          # nothing of the student's reaches the referee's output


def test_module_state_lasts_the_whole_game():
    record = play_file("stateful.py", W)
    assert (record["reason"], record["plies"]) == ("crash", 4)
    assert "RuntimeError: third call (calls=3)" in record["error"]


def test_a_file_that_prints_plays_on_and_its_output_is_recorded(capfd):
    printed = play_file("prints.py", W, opponent="random", seed=5)
    clean = play_file("clean.py", W, opponent="random", seed=5)
    assert printed["moves"] == clean["moves"] and printed["reason"] == clean["reason"]
    text = printed["printed"]["white"]
    assert text.startswith("hello from import\nthinking 1\nto stderr\nraw fd 1\n#####")
    assert "more bytes]" in text and len(text.encode()) < OUTPUT_LIMIT + 40
    assert printed["printed"]["black"] is None and clean["printed"] == {"white": None, "black": None}
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_a_file_that_sends_itself_ctrl_c_and_catches_it_plays_on():
    # only a Ctrl-C of the harness's own run stops it (harness.isolation.student); the sandbox's parent
    # stops its workers itself, so a file's own interrupt stays the file's business
    interrupted = play_file("ctrl_c_self.py", W, opponent="random", seed=5)
    clean = play_file("clean.py", W, opponent="random", seed=5)
    assert interrupted["moves"] == clean["moves"] and interrupted["reason"] == clean["reason"]
    assert interrupted["think"]["white"]["moves"] >= 5


def test_a_file_that_mutates_its_board_plays_on_and_is_counted():
    mutated = play_file("mutates.py", B)
    clean = play_file("clean.py", B)
    assert mutated["moves"] == clean["moves"] and mutated["reason"] == clean["reason"]
    assert mutated["mutated"] == {"white": 0, "black": clean["think"]["black"]["moves"]}
    assert clean["mutated"] == {"white": 0, "black": 0}


def test_a_file_plays_black_through_the_mirror():
    record = play_file("clean.py", B, opponent="random", seed=3)
    assert record["reason"] not in ("illegal_move", "crash", "timeout")
    assert record["think"]["black"]["moves"] >= 1
