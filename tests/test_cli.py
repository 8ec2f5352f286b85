"""The command line: one-line errors (exit 2, no traceback) for every bad flag, agent or file;
play's move-by-move output; series' summary."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli


REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"
BUILTINS = "use one of dummy, random, greedy, smart, minimax, a path to a .py file or uci:PATH"


SERIES = ["series", "--white", "random", "--black", "dummy", "--games", "2"]


@pytest.mark.parametrize("argv,message", [
    (["series", "--white", "nosuch", "--black", "dummy", "--games", "2"],
     f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["series", "--white", "missing.py", "--black", "dummy", "--games", "2"],
     "error: agent file 'missing.py' does not exist"),
    (["series", "--white", "tests/fixtures", "--black", "dummy", "--games", "2"],
     "error: agent 'tests/fixtures' is not a .py file"),
    (["play", "--white", "dummy", "--black", "nosuch"], f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["report", "dummy", "--opponents", "random,nosuch"], f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["report", "dummy", "--opponents", "random,random"],
     "python -m harness report: error: argument --opponents: an opponent is named twice in 'random,random'"),
    (["report", "dummy", "--colour", "red"],
     "python -m harness report: error: argument --colour: invalid choice: 'red' (choose from 'white', 'black', 'both')"),
    (SERIES[:-1] + ["0"], "python -m harness series: error: argument --games: '0' must be at least 1"),
    (SERIES[:-1] + ["x"], "python -m harness series: error: argument --games: 'x' is not a whole number"),
    (SERIES + ["--jobs", "0"], "python -m harness series: error: argument --jobs: '0' must be at least 1"),
    (SERIES + ["--move-timeout", "-1"],
     "python -m harness series: error: argument --move-timeout: '-1' must be a positive number of seconds"),
    (SERIES + ["--move-timeout", "nan"],
     "python -m harness series: error: argument --move-timeout: 'nan' must be a positive number of seconds"),
    (SERIES + ["--fifty", "0"], "python -m harness series: error: argument --fifty: '0' must be at least 1"),
    (SERIES + ["--seed", "x"], "python -m harness series: error: argument --seed: 'x' is not a whole number"),
    (SERIES + ["--bogus"], "python -m harness: error: unrecognized arguments: --bogus"),
    (SERIES[:-2], "python -m harness series: error: the following arguments are required: --games"),
    (["nosuch"], "python -m harness: error: argument COMMAND: invalid choice: 'nosuch' "
                 "(choose from 'perft', 'play', 'series', 'report', 'check', 'export-nthu', 'replay', 'congo', "
                 "'grade', 'tournament', 'puzzles')"),
    (SERIES + ["--config", "nope.txt"], "error: nope.txt:0: cannot read file (No such file or directory)"),
    (["check", "nope.py"], "error: file 'nope.py' does not exist"),
])
def test_bad_input_is_one_line(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert (code, out, err) == (2, "", message + "\n")


def test_a_malformed_config_names_its_line(tmp_path, capsys):
    config = tmp_path / "bad.txt"
    config.write_text("Rows:7\nCols:9\n")
    code, out, err = run_cli(SERIES + ["--config", str(config)], capsys)
    assert (code, out, err) == (2, "", f"error: {config}:2: Cols is 9, expected 7\n")


def test_the_default_agent_must_exist(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["report"], capsys)
    assert (code, err) == (2, "error: agent file 'AB.py' does not exist\n")


def test_an_out_dir_that_is_a_file(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run_cli(SERIES + ["--out", str(blocker), "--quiet"], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_an_out_dir_holding_another_series(tmp_path, capsys):
    out = str(tmp_path / "s")
    assert run_cli(SERIES + ["--out", out, "--quiet", "--jobs", "1"], capsys)[0] == 0
    code, _, err = run_cli(SERIES + ["--out", out, "--quiet", "--seed", "3", "--resume"], capsys)
    assert (code, err) == (2, f"error: {out} holds another series (it differs in seed); choose another --out\n")


def test_the_module_entry_point_gives_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "harness", "play", "--white", "nosuch", "--black", "dummy"],
                            cwd=REPO, capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", f"error: unknown agent 'nosuch': {BUILTINS}\n")


def test_play_shows_the_game_move_by_move(capsys):
    code, out, err = run_cli(["play", "--white", "random", "--black", "dummy", "--seed", "4"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("White: random   Black: dummy   seed 4")
    # row 6 (Black's back rank) at the top, as replay and FEN show it
    assert lines[1:4] == ["    a  b  c  d  e  f  g", " 6  n  b  q  k  a  e  r ", " 5  f  p  p  p  p  p  f "]
    assert lines[7:9] == [" 1  F  P  P  P  P  P  F ", " 0  N  B  Q  K  A  E  R "]
    moves = [line for line in lines if re.match(r"^ *\d+\. (White|Black) [a-g][0-6][a-g][0-6]  \(", line)]
    final = lines[-1]
    match = re.match(r"^(White \(random\) wins|Black \(dummy\) wins|Draw) by (\w+) after (\d+) plies\.$", final)
    assert match and int(match.group(3)) == len(moves)
    assert moves[0].startswith("  1. White ") and moves[1].startswith("  2. Black ")


def test_play_with_files_that_misbehave(capsys):
    code, out, _ = run_cli(["play", "--white", str(HOSTILE / "prints.py"), "--black", "dummy"], capsys)
    assert code == 0
    before, _, after = out.partition("White printed (the course rejects files that print):")
    assert "hello from import" not in before and after.startswith("\n    hello from import")
    code, out, _ = run_cli(["play", "--white", str(HOSTILE / "raises.py"), "--black", "dummy"], capsys)
    assert "Black (dummy) wins by crash after 0 plies." in out
    assert "Error: White: ValueError: boom (raises.py line 5)" in out


def test_series_prints_a_summary_and_writes_results(tmp_path, capsys):
    out_dir = tmp_path / "s"
    code, out, err = run_cli(SERIES[:-1] + ["4", "--out", str(out_dir), "--quiet", "--jobs", "2"], capsys)
    assert code == 0
    records = [json.loads(line) for line in (out_dir / "results.jsonl").read_text().splitlines()]
    score = {k: sum(r["result"] == k for r in records) for k in ("white", "draw", "black")}
    assert out.splitlines()[0] == (f"random (White) vs dummy (Black): 4 games: White won {score['white']}, "
                                   f"{score['draw']} drawn, Black won {score['black']}")
    assert out.splitlines()[-1] == (f"results: {out_dir / 'results.jsonl'}; summary: {out_dir / 'report.json'}; "
                                    f"pictures: {out_dir / 'report.html'}")


def test_series_prints_the_score_and_elo_lines(tmp_path, capsys):
    """The two lines after the summary, from White's view, agree with the recorded games."""
    out_dir = tmp_path / "s"
    code, out, _ = run_cli(["series", "--white", "greedy", "--black", "dummy", "--games", "3", "--out",
                            str(out_dir), "--quiet", "--jobs", "1"], capsys)
    assert code == 0
    records = [json.loads(line) for line in (out_dir / "results.jsonl").read_text().splitlines()]
    w = sum(r["result"] == "white" for r in records)
    b = sum(r["result"] == "black" for r in records)
    d = 3 - w - b
    lines = out.splitlines()
    from harness import stats
    assert lines[1] == f"Score of greedy vs dummy: {w} - {b} - {d}  [{(w + d / 2) / 3:.3f}] 3"
    assert lines[2] == stats.elo_line(w, b, d) and lines[2].startswith("Elo difference: ")
    summary = json.loads((out_dir / "report.json").read_text())
    assert summary["settings"]["variant"] == "cs3243"
    assert summary["white"]["win_wilson95"] == [round(x, 4) for x in stats.wilson(w, 3)]
    assert set(summary["white"]) >= {"score", "elo", "elo_margin", "los", "win_wilson95", "not_lost_wilson95"}


def test_an_unknown_variant_is_one_line_listing_the_known_ones(capsys):
    for argv in (["perft", "1", "--variant", "chess"], SERIES + ["--variant", "chess"]):
        code, out, err = run_cli(argv, capsys)
        assert (code, out) == (2, "")
        assert err.startswith("error: unknown variant 'chess': use one of cs3243") and err.count("\n") == 1


def test_perft_through_the_variant(capsys):
    code, out, _ = run_cli(["perft", "3", "--variant", "cs3243"], capsys)
    lines = [line.split()[:2] for line in out.splitlines()]
    assert code == 0 and lines == [["depth", "nodes"], ["1", "12"], ["2", "144"], ["3", "2532"]]


def test_replay_and_resume_refuse_a_series_of_another_variant(tmp_path, capsys):
    out_dir = tmp_path / "s"
    assert run_cli(SERIES + ["--out", str(out_dir), "--quiet", "--jobs", "1"], capsys)[0] == 0
    results = out_dir / "results.jsonl"
    code, out, err = run_cli(["replay", str(results), "0", "--variant", "nthu"], capsys)
    assert (code, err) == (2, "error: the record is a game of cs3243, not nthu\n")
    lines = results.read_text().splitlines()
    other = [json.dumps({**json.loads(line), "variant": "congo"}) for line in lines]
    results.write_text("\n".join(other) + "\n")
    code, _, err = run_cli(SERIES + ["--out", str(out_dir), "--quiet", "--resume"], capsys)
    assert code == 2 and "holds game 0 of another series" in err
