"""`play` with a human side, driven through standard input as a person would type: refused input
(one line saying why, nothing played), moves in every accepted spelling, `moves`, `undo`, `hint`,
`resign`, the end of input, both colours, all three variants, an agent file that crashes or
hangs, and the saved record. The session underneath (harness/play/session.py) is the web app's."""
import json
import re

import pytest
from cli_run import run_cli

from harness.play.session import HUMAN, Refused, Session, read_move
from harness.variants import find_variant

CS3243 = find_variant("cs3243")


def prompts(out):
    """The lines of a human game's transcript without the boards (what was typed is echoed)."""
    board = re.compile(r"^( ?\d+ |\s+a  b)")
    return [line for line in out.splitlines() if line and not board.match(line)]


def test_a_human_plays_white_against_greedy_in_the_terminal(tmp_path, capsys, monkeypatch):
    out_file = tmp_path / "game.jsonl"
    typed = "hello\na3a4\nc5c4\nb0b1\nd1d1\nB1-b2\nundo\nundo\nc1 C2\nmoves\nhint\nresign\n"
    code, out, err = run_cli(["play", "--white", "human", "--black", "greedy", "--seed", "1", "--out", str(out_file)],
                             capsys, stdin=typed, monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    lines = prompts(out)
    assert lines[2:] == [
        "White to move> hello",
        "'hello' is not a move: give the from- and to-square, e.g. a0b2",
        "White to move> a3a4",
        "'a3a4' is not a move here: there is no piece on a3",
        "White to move> c5c4",
        "'c5c4' is not a move here: the Pawn on c5 is Black's, and White is to move",
        "White to move> b0b1",
        "'b0b1' is not a move here: the Bishop on b0 has no move in this position",
        "White to move> d1d1",
        "'d1d1' is not a move here: a move must leave d1",
        "White to move> B1-b2",
        "  1. White b1b2",
        lines[14],
        "White to move> undo",
        "took back 2 plies.",
        "White to move> undo",
        "there is no move of yours to take back",
        "White to move> c1 C2",
        "  1. White c1c2",
        lines[21],
        "White to move> moves",
        "a0b2 a0c1 b0c1 b0d2 b0e3 b0f4 b0g5 c0c1 d0c1 e0f2 e0c1 e0d2 f0g2 f0e2 a1b2 b1b2 d1d2 e1e2 f1f2 g1f2 c2c3",
        "White to move> hint",
        lines[25],
        "White to move> resign",
        "White resigns.",
        "Black (greedy) wins by resignation after 2 plies.",
        f"saved: {out_file} (python -m harness replay {out_file} --game 0)",
    ]
    assert re.fullmatch(r"  2\. Black f6g4  \(\d\.\d{3} s\)", lines[14])
    assert re.fullmatch(r"  2\. Black d5d4  \(\d\.\d{3} s\)", lines[21])
    # the hint is the variant's strongest built-in (minimax), with its time and its search's score
    assert re.fullmatch(r"minimax would play c2c3 \(\d\.\d{3} s, score -0\.50\)", lines[25])
    record = json.loads(out_file.read_text())
    assert {k: record[k] for k in ("game", "white", "black", "result", "reason", "plies", "moves", "error")} == {
        "game": 0, "white": "human", "black": "greedy", "result": "black", "reason": "resignation", "plies": 2,
        "moves": ["c1c2", "d5d4"], "error": None}
    assert record["think"]["white"]["moves"] == record["think"]["black"]["moves"] == 1
    assert record["engine_moves"] == ["c2c3", "d6d5"] and record["variant"] == "cs3243"


def test_a_human_plays_black_in_nthu_and_the_end_of_input_resigns(capsys, monkeypatch):
    code, out, err = run_cli(["play", "--white", "greedy", "--black", "human", "--variant", "nthu", "--hint", "greedy",
                              "--seed", "2"], capsys, stdin="a2a3\nmoves\nhint\n", monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    lines = [line for line in prompts(out) if not re.fullmatch(r"(White|Black) to move, ply \d+", line)]
    assert lines[2:] == [
        lines[2],
        "Black to move> a2a3",
        "'a2a3' is not a move here: the Pawn on a2 is White's, and Black is to move",
        "Black to move> moves",
        "d6e4 d6c4 a5a4 b5b4 c5c4 d5d4 e5e4",
        "Black to move> hint",
        lines[8],
        "Black to move> (end of input)",
        "Black resigns.",
        "White (greedy) wins by resignation after 1 plies.",
    ]
    assert re.fullmatch(r"  1\. White d2d3  \(\d\.\d{3} s\)", lines[2])
    assert re.fullmatch(r"greedy would play a5a4 \(\d\.\d{3} s\)", lines[8])


def test_a_human_captures_the_lion_in_congo(capsys, monkeypatch):
    code, out, err = run_cli(["play", "--white", "human", "--black", "random", "--variant", "congo",
                              "--fen", "3l3/7/7/7/7/P6/3L3 w 1"], capsys, stdin="d1d6\nd1d7\n", monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert "'d1d6' is not a move here: the lion on d1 cannot go to d6 (it can go to c1, c2, d2, d7, e1, e2)" in out
    assert out.rstrip().endswith("White (human) wins by lion_capture after 1 plies.")


def test_two_humans_take_turns_and_undo_takes_back_one_ply(capsys, monkeypatch):
    code, out, _ = run_cli(["play", "--white", "human", "--black", "human", "--variant", "nthu"], capsys,
                           stdin="a2a3\ne5e4\nundo\nd5d4\nresign\n", monkeypatch=monkeypatch)
    lines = [line for line in prompts(out) if not re.fullmatch(r"(White|Black) to move, ply \d+", line)]
    assert lines[2:] == ["White to move> a2a3", "  1. White a2a3", "Black to move> e5e4", "  2. Black e5e4",
                         "White to move> undo", "took back 1 ply.", "Black to move> d5d4", "  2. Black d5d4",
                         "White to move> resign", "White resigns.", "Black (human) wins by resignation after 2 plies."]


@pytest.mark.parametrize("fixture,options,reason,error", [
    ("raises.py", [], "crash", "Black: ValueError: boom (raises.py line 5)"),
    ("hang.py", ["--move-timeout", "1"], "timeout", "Black: no answer within 1 s"),
])
def test_an_agent_file_that_crashes_or_hangs_loses_to_the_human(fixture, options, reason, error, capsys, monkeypatch):
    code, out, err = run_cli(["play", "--white", "human", "--black", f"tests/fixtures/hostile/{fixture}", *options],
                             capsys, stdin="d1d2\n", monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert out.rstrip().splitlines()[-2:] == [f"White (human) wins by {reason} after 1 plies.", f"Error: {error}"]


def test_a_bad_hint_agent_is_one_line_before_the_game(capsys, monkeypatch):
    code, out, err = run_cli(["play", "--white", "human", "--black", "greedy", "--hint", "nosuch"], capsys,
                             stdin="", monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("error: unknown agent 'nosuch'") and err.count("\n") == 1
    code, out, err = run_cli(["play", "--white", "human", "--black", "greedy", "--hint", "human"], capsys,
                             stdin="hint\nb1b2\n", monkeypatch=monkeypatch)
    assert (code, out, err) == (2, "", "error: --hint human: the hint is an agent's answer; give an agent "
                                       "(default: the variant's strongest built-in)\n")


# -- the session (shared with the web app) ---------------------------------------------------


def test_read_move_accepts_every_spelling_and_refuses_with_the_reason():
    state = CS3243.start()
    for text in ("b1b2", "B1B2", "b1-b2", " b1 b2 ", "b1 - B2"):
        assert CS3243.move_name(read_move(CS3243, state, text)) == "b1b2"
    with pytest.raises(Refused, match=r"^'a0a1' is not a move here: the Knight on a0 cannot go to a1 "
                                      r"\(it can go to b2\)$"):
        read_move(CS3243, state, "a0a1")
    with pytest.raises(Refused, match=r"^'z9z8' is not a move"):
        read_move(CS3243, state, "z9z8")


def test_undo_takes_back_the_humans_move_and_the_reply_and_the_record_follows():
    session = Session(CS3243, HUMAN, "greedy", seed=1)
    session.human_move("b1b2")
    session.agent_move()
    session.human_move("c1c2")
    session.agent_move()
    assert session.game.move_names() == ["b1b2", "f6g4", "c1c2", "g4c4"]
    assert session.undo() == 2
    assert session.game.move_names() == ["b1b2", "f6g4"] and session.humans_turn
    assert CS3243.fen(session.game.state) == CS3243.fen(session.plies[-1].state_before.advance(session.plies[-1].move))
    session.resign()
    with pytest.raises(Refused, match="game is over"):
        session.undo()
    record = session.record()
    assert (record["moves"], record["result"], record["reason"]) == (["b1b2", "f6g4"], "black", "resignation")
    assert record["think"]["white"]["moves"] == 1 and record["think"]["black"]["moves"] == 1
    session.close()


def test_an_agent_cannot_resign_and_a_human_cannot_move_for_it():
    session = Session(CS3243, "greedy", HUMAN)
    with pytest.raises(Refused, match="^it is White's turn, and greedy plays White$"):
        session.human_move("b1b2")
    both = Session(CS3243, "greedy", "random")
    with pytest.raises(Refused, match="^no human plays in this game"):
        both.resign()


# -- the probe's score and the FEN it is asked about ------------------------------------------


def test_search_scores_become_centipawns_or_moves_to_mate():
    from harness.core.agent import search_score
    assert search_score(35, 10_000, 9_000) == {"cp": 35}
    assert search_score(10_000 - 1, 10_000, 9_000) == {"mate": 1}        # wins on the next ply
    assert search_score(10_000 - 3, 10_000, 9_000) == {"mate": 2}
    assert search_score(-(10_000 - 2), 10_000, 9_000) == {"mate": -1}     # is mated after its move


def test_a_uci_engines_last_info_score_is_its_moves_score():
    from agents.uci import UciAgent
    engine = UciAgent("tests/fixtures/fake_uci_illegal.py")       # says "info depth 1 score cp 0" first
    try:
        engine.choose_move(CS3243.protocol.view(CS3243.start(), "White"), "White", None)
        assert engine.move_score() == {"cp": 0}
    finally:
        engine.close()


@pytest.mark.parametrize("name", ["cs3243", "nthu", "congo"])
def test_a_states_fen_starts_the_same_state_again(name):
    variant = find_variant(name)
    session = Session(variant, "random", "random", seed=7)
    for _ in range(6):
        session.agent_move()
    fen = variant.fen(session.game.state)
    again = variant.start(**variant.game_options(fen=fen))
    assert variant.fen(again) == fen
    assert [variant.move_name(m) for m in variant.legal_moves(again)] == session.legal_names()
