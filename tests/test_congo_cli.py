"""Congo through the harness's command line: `python -m harness congo PROGRAM`, and perft, play,
series and replay with `--variant congo` (the generic referee, the Congo built-in agents)."""
import json

import pytest
from cli_run import run_cli



def test_congo_programs_run_under_the_harness(capsys, monkeypatch):
    code, out, err = run_cli(["congo", "alphabeta"], capsys,
                             "1\n1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12\n", monkeypatch)
    assert (code, out, err) == (0, "1020\n", "")


def test_congo_program_errors_name_the_harness_command(capsys, monkeypatch):
    code, out, err = run_cli(["congo", "eval1", "--edition", "2021"], capsys, "1\n3l3/7/7 w 1\n", monkeypatch)
    assert (code, out) == (1, "")
    assert err == "python -m harness congo eval1: error: case 1 (line 2): bad FEN: 3 ranks in the board, expected 7\n"


def test_congo_without_a_program_is_one_line(capsys):
    code, out, err = run_cli(["congo"], capsys)
    assert (code, out, err) == (2, "", "python -m harness congo: error: the following arguments are required: PROGRAM\n")


def test_perft_of_the_congo_start(capsys):
    code, out, _ = run_cli(["perft", "3", "--variant", "congo"], capsys)
    assert code == 0
    assert [line.split()[:2] for line in out.splitlines()] == [["depth", "nodes"], ["1", "27"], ["2", "729"],
                                                               ["3", "19579"]]


def test_perft_from_a_fen(capsys):
    code, out, _ = run_cli(["perft", "2", "--variant", "congo", "--fen", "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12"],
                           capsys)
    assert [line.split()[1] for line in out.splitlines()[1:]] == ["31", "494"]


@pytest.mark.parametrize("argv,message", [
    (["perft", "2", "--variant", "congo", "--fen", "3l3/7/7/7/7/7/3L3 w"],
     "error: --fen '3l3/7/7/7/7/7/3L3 w': missing move number after the side to move"),
    (["perft", "2", "--variant", "congo", "--fen", "3l3/7/7/7/7/7/7 w 1"],
     "error: --fen '3l3/7/7/7/7/7/7 w 1': White has 0 lions; a game needs exactly one per side"),
    (["perft", "2", "--variant", "congo", "--config", "config.txt"],
     "error: congo starts from --fen, not a config file"),
    (["play", "--variant", "congo", "--white", "random", "--black", "random", "--fifty", "9"],
     "error: congo has no --fifty option (its games end at --max-plies)"),
    (["play", "--variant", "congo", "--white", "smart", "--black", "random"],
     "error: unknown agent 'smart': use one of random, greedy, minimax, alphabeta, ab"),
    (["play", "--variant", "congo", "--white", "AB.py", "--black", "random"],
     "error: agent 'AB.py': congo does not run .py files; use one of random, greedy, minimax, alphabeta, ab"),
])
def test_congo_command_line_errors_are_one_line(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert (code, err) == (2, message + "\n")


def test_play_a_congo_game_and_replay_it(capsys, tmp_path):
    saved = tmp_path / "game.jsonl"
    code, out, _ = run_cli(["play", "--variant", "congo", "--white", "greedy", "--black", "random", "--seed", "1",
                            "--out", str(saved)], capsys)
    assert code == 0
    assert "Black (random) wins by lion_capture after 40 plies." in out
    record = json.loads(saved.read_text())
    assert (record["fen"], record["edition"], record["max_plies"]) == (
        "g1ele1z/ppppppp/7/7/7/PPPPPPP/G1ELE1Z w 1", "2022", 300)
    code, out, _ = run_cli(["replay", str(saved), "--game", "0"], capsys)
    assert code == 0 and out.splitlines()[-1] == "result: Black wins (lion_capture)"
    assert "ply 40: Black c5e3" in out


def test_play_from_a_fen_to_the_ply_limit(capsys):
    code, out, _ = run_cli(["play", "--variant", "congo", "--white", "random", "--black", "random",
                            "--fen", "3l3/1p5/7/7/7/5P1/3L3 w 1", "--max-plies", "2"], capsys)
    assert code == 0 and "Draw by max_plies after 2 plies." in out


def test_series_of_congo_games(capsys, tmp_path):
    code, out, _ = run_cli(["series", "--variant", "congo", "--white", "greedy", "--black", "random", "--games", "2",
                            "--jobs", "1", "--quiet", "--out", str(tmp_path / "s")], capsys)
    assert code == 0
    records = [json.loads(line) for line in (tmp_path / "s" / "results.jsonl").read_text().splitlines()]
    assert [r["variant"] for r in records] == ["congo", "congo"]
    assert all(r["reason"] in ("lion_capture", "lions_only", "no_moves_draw", "max_plies") for r in records)


def test_report_plays_congos_opponents_without_cs3243s_pass_marks_or_game_clock(capsys, tmp_path):
    out = tmp_path / "r"
    code, _, _ = run_cli(["report", "greedy", "--variant", "congo", "--games", "1", "--jobs", "1", "--quiet",
                          "--out", str(out)], capsys)
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    entries = report["opponents"]
    assert sorted(entries) == ["alphabeta", "greedy", "minimax", "random"]
    assert {(e["pass_mark"], e["passed"], e["game_seconds_limit"]) for e in entries.values()} == {(None, None, None)}
