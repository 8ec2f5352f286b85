"""`gradescope`: the bundle is built by the command, unpacked as Gradescope unpacks it, and its
run_autograder run over a temporary root (with this interpreter, not setup.sh: no network) on a
good file, a file the course rejects, a crashing file, another file name, an empty submission
and two candidates; every results.json is checked against Gradescope's format."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from cli_run import run_cli
from gradescope_schema import problems

from harness.grading.gradescope import PYTHON_ENV, ROOT_ENV, SETTINGS_FILE, Settings, SettingsError
from harness.grading.gradescope.autograder import (CHECK_TEST, ERROR_TEST, find_submission, numbered_moves,
                                                   opponent_test, turning_point)
from harness.grading.gradescope.bundle import toolkit_files
from harness.isolation.uci_engine import find_engine
from harness.variants import find_variant

REPO = Path(__file__).resolve().parent.parent
AB = REPO / "AB.py"
CRASHES = "def studentAgent(gameboard):\n    return 1 // 0\n"
ENGINE = find_engine("fairy-stockfish")      # the review of games not won needs it


def build(tmp_path_factory, capsys, *options):
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    code, printed, err = run_cli(["gradescope", "--out", str(out), "--games", "1", *options], capsys)
    assert code == 0, err
    return out, printed


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """Two bundles: against dummy and random (the good file), and against dummy alone."""
    out = {}
    for key, opponents in (("two", "dummy,random"), ("one", "dummy")):
        path = tmp_path_factory.mktemp(key) / "autograder.zip"
        from harness.cli import main
        assert main(["gradescope", "--out", str(path), "--games", "1", "--opponents", opponents]) == 0
        out[key] = path
    return out


def unpack(bundle, root: Path, submission: dict) -> Path:
    """ROOT as Gradescope lays it out: source/ (the zip, modes kept as unzip keeps them),
    run_autograder copied beside it, submission/ with the student's files."""
    source = root / "source"
    with zipfile.ZipFile(bundle) as archive:
        for info in archive.infolist():
            archive.extract(info, source)
            os.chmod(source / info.filename, (info.external_attr >> 16) & 0o777)
    shutil.copy2(source / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    for name, content in submission.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(content)
    return root


def run_autograder(root: Path, python: str = sys.executable) -> dict:
    env = {"PATH": os.environ["PATH"], ROOT_ENV: str(root), PYTHON_ENV: python}
    done = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert problems(results) == []
    return results


def names_and_scores(results):
    return [(t["name"], t["score"], t["max_score"], t.get("status")) for t in results["tests"]]


# ----------------------------------------------------------------------------- the bundle


def test_the_bundle_holds_what_gradescope_runs_and_the_toolkit(bundles):
    with zipfile.ZipFile(bundles["two"]) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        settings = json.loads(archive.read(SETTINGS_FILE))
        requirements = archive.read("requirements.txt").decode()
    modes = {name: (info.external_attr >> 16) & 0o777 for name, info in infos.items()}
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755
    assert modes["harness/grading/gradescope/autograder.py"] == modes["agents/minimax.py"] == 0o644
    assert sorted(infos) == sorted(["setup.sh", "run_autograder", SETTINGS_FILE] + toolkit_files())
    assert not [name for name in infos if "__pycache__" in name or name.endswith(".pyc")]
    assert requirements == (REPO / "requirements.txt").read_text()
    assert settings == {"variant": "cs3243", "games": 1, "opponents": ["dummy", "random"], "colour": "white",
                        "game_time": 30.0, "move_timeout": 30.0, "points": 100.0, "partial": False,
                        "visibility": "visible", "seed": 0, "memory_mb": 2048, "jobs": 1, "review": True}


def test_the_same_settings_give_the_same_bytes_and_the_command_says_what_it_wrote(tmp_path_factory, capsys):
    first, printed = build(tmp_path_factory, capsys, "--opponents", "dummy,random,greedy", "--partial")
    second, _ = build(tmp_path_factory, capsys, "--opponents", "dummy,random,greedy", "--partial")
    assert first.read_bytes() == second.read_bytes()
    lines = printed.splitlines()
    assert lines[0].startswith(f"written: {first} (") and len(lines) == 3
    assert lines[1] == ("each submission: the course's check, then 1 game against each of dummy (33.33 points), "
                        "random (33.33 points), greedy (33.34 points), as White, 30 s of thinking per game; "
                        "partial points (points x not-lost rate)")


@pytest.mark.parametrize("argv, error", [
    (["--variant", "nthu"], "error: gradescope grades cs3243 submissions (a .py file with studentAgent); "
                            "nthu is not supported"),
    (["--opponents", "dummy,stockfish"], "error: unknown agent 'stockfish': use one of dummy, random, greedy, "
                                         "smart, minimax, a path to a .py file or uci:PATH"),
    (["--opponents", "AB.py"], "error: opponent 'AB.py': the autograder plays submissions against built-in opponents"),
])
def test_bad_options_are_one_line(tmp_path, capsys, argv, error):
    code, out, err = run_cli(["gradescope", "--out", str(tmp_path / "a.zip"), *argv], capsys)
    assert (code, out, err.strip()) == (2, "", error)
    assert not (tmp_path / "a.zip").exists()


def test_out_makes_its_folder_takes_a_folder_refuses_other_names_and_writes_0644(tmp_path, capsys):
    """Issue 49: a missing parent folder is made, an existing folder gets FOLDER/autograder.zip, a
    name not ending in .zip is refused in one line (nothing written), and the zip is 0644 (the TA
    uploads it; mkstemp made it 0600)."""
    code, out, _ = run_cli(["gradescope", "--out", str(tmp_path / "no" / "a.zip")], capsys)
    assert code == 0 and out.startswith(f"written: {tmp_path / 'no' / 'a.zip'} (")
    assert stat.S_IMODE(os.stat(tmp_path / "no" / "a.zip").st_mode) == 0o644
    (tmp_path / "folder").mkdir()
    code, out, _ = run_cli(["gradescope", "--out", str(tmp_path / "folder")], capsys)
    assert code == 0 and out.startswith(f"written: {tmp_path / 'folder' / 'autograder.zip'} (")
    assert zipfile.is_zipfile(tmp_path / "folder" / "autograder.zip")
    code, out, err = run_cli(["gradescope", "--out", str(tmp_path / "x.tar.gz")], capsys)
    assert (code, out, err) == (2, "", f"error: --out {tmp_path / 'x.tar.gz'}: the autograder is a zip file; give "
                                       f"a name ending in .zip (or a folder, for FOLDER/autograder.zip)\n")
    assert not (tmp_path / "x.tar.gz").exists()


def test_a_folder_that_takes_no_file_is_one_line_naming_the_zip(capsys):
    # /proc exists but takes no new file (even for root): the temporary zip cannot be made there,
    # and the error names the zip asked for, not the temporary one
    code, out, err = run_cli(["gradescope", "--out", "/proc/autograder.zip"], capsys)
    assert (code, out, err.strip()) == (2, "", "error: cannot write /proc/autograder.zip: No such file or directory")

# ----------------------------------------------------------------------------- run_autograder


def test_a_good_file_scores_every_point(bundles, tmp_path):
    results = run_autograder(unpack(bundles["two"], tmp_path, {"AB.py": AB.read_text()}))
    assert results["score"] == 100.0
    assert names_and_scores(results) == [(CHECK_TEST, 0, 0, "passed"), ("dummy", 50.0, 50.0, "passed"),
                                         ("random", 50.0, 50.0, "passed")]
    assert results["output"].splitlines()[0] == "Graded AB.py."
    assert results["output"].splitlines()[-1] == "Score: 100 of 100 (dummy 50/50, random 50/50)."
    dummy = results["tests"][1]["output"].splitlines()
    assert dummy[:3] == ["1 game as White: won 1, drawn 0, lost 0.",
                         "Not lost 1/1 (95 % CI 20.6-100 %); the course's pass mark is 100 % not lost: met.",
                         "Points: 50 of 50: the pass mark is met."]
    assert dummy[3].startswith("Thinking: median ") and dummy[3].endswith("(the course allows 30 s per game).")
    assert [entry["name"] for entry in results["leaderboard"]] == ["Score %", "Median s/move"]
    assert results["leaderboard"][0]["value"] == 100.0 and results["leaderboard"][1]["order"] == "asc"
    assert results["visibility"] == "visible" and results["output_format"] == "text"
    assert (tmp_path / "work" / "submission" / "AB.py").read_text() == AB.read_text()


def test_a_file_the_course_rejects_scores_0_and_the_output_says_why(bundles, tmp_path):
    text = AB.read_text() + "# print the board while debugging\n"
    line = text.count("\n")
    results = run_autograder(unpack(bundles["one"], tmp_path, {"AB.py": text}))
    assert results["score"] == 0
    assert names_and_scores(results) == [(CHECK_TEST, 0, 0, "failed"), ("dummy", 0.0, 100.0, "failed")]
    assert results["tests"][0]["output"].splitlines() == [
        "AB.py: rejected: the course scores this file 0. Every problem, one per line:",
        f"AB.py:{line}: contains the word 'print' (the course rejects print, raise, stdout, exception anywhere, "
        f"comments included)"]
    assert results["tests"][1]["output"] == ("Not played: the course's check rejects the file, so it scores 0 "
                                             "(see the first test).")
    assert results["output"].splitlines() == ["Graded AB.py.", "Course check: REJECTED: the course scores this file 0.",
                                              "Score: 0 of 100."]
    # on the leaderboard at 0 (issue 49: a rejected file had no entry), and no game played
    assert results["leaderboard"] == [{"name": "Score %", "value": 0.0}]
    assert not (tmp_path / "work" / "games").exists()


def test_a_crashing_file_is_rejected_with_the_error(bundles, tmp_path):
    results = run_autograder(unpack(bundles["two"], tmp_path, {"AB.py": CRASHES}))
    assert results["score"] == 0
    assert names_and_scores(results) == [(CHECK_TEST, 0, 0, "failed"), ("dummy", 0.0, 50.0, "failed"),
                                         ("random", 0.0, 50.0, "failed")]
    assert results["tests"][0]["output"].splitlines()[1] == (
        "AB.py:2: studentAgent fails on the start board: ZeroDivisionError: integer division or modulo by zero "
        "(AB.py line 2)")


def test_a_file_that_fails_in_its_games_loses_them_with_the_error_and_moves(bundles, tmp_path):
    later = ("calls = []\ndef studentAgent(gameboard):\n    calls.append(1)\n"
             "    return (('d', 1), ('d', 2)) if len(calls) == 1 else 1 // 0\n")   # the check's one call passes
    results = run_autograder(unpack(bundles["two"], tmp_path, {"AB.py": later}))
    assert results["score"] == 0 and names_and_scores(results)[0] == (CHECK_TEST, 0, 0, "passed")
    for test in results["tests"][1:]:
        lines = test["output"].splitlines()
        assert lines[2] == "Points: 0 of 50: the pass mark is not met."
        if ENGINE:          # the game was reviewed: White's one move, d1d2, lost nothing worth judging
            assert lines[-1] == "  turning point: none (no move of White's judged)"
            lines = lines[:-1]
        assert lines[-4:-1] == ["Games not won (1):", "- game 0 (seed 0): lost by crash after 2 plies.",
                                "  White: ZeroDivisionError: integer division or modulo by zero (AB.py line 4)"]
        assert lines[-1].startswith("  moves: 1. d1d2 ") and len(lines[-1].split()) == 4
    assert results["leaderboard"][0] == {"name": "Score %", "value": 0.0}


def test_another_file_name_is_graded_and_said(bundles, tmp_path):
    results = run_autograder(unpack(bundles["one"], tmp_path, {"agent/my_agent.py": AB.read_text(),
                                                               "agent/helpers.py": "X = 1\n", "notes.txt": "hi"}))
    assert results["output"].splitlines()[0] == ("There is no AB.py in the submission: graded agent/my_agent.py, "
                                                 "the one .py file that defines studentAgent.")
    assert results["score"] == 100.0
    assert results["tests"][0]["output"] == "agent/my_agent.py: accepted."


@pytest.mark.parametrize("files, said", [
    ({}, "There is no AB.py in the submission and no .py file that defines studentAgent (it is empty)."),
    ({"notes.txt": "x", "util.py": "X = 1\n"},
     "There is no AB.py in the submission and no .py file that defines studentAgent (it holds 2 files: "
     "notes.txt, util.py)."),
    ({"a.py": "def studentAgent(board):\n    return None\n", "b.py": "studentAgent = len\n"},
     "There is no AB.py in the submission and 2 .py files define studentAgent (a.py, b.py): name the one to "
     "grade AB.py."),
])
def test_no_file_or_several_candidates_score_0_and_say_what_was_found(bundles, tmp_path, files, said):
    results = run_autograder(unpack(bundles["two"], tmp_path, files))
    assert results["score"] == 0 and results["output"].splitlines()[0] == said
    assert names_and_scores(results) == [(CHECK_TEST, 0, 0, "failed"), ("dummy", 0.0, 50.0, "failed"),
                                         ("random", 0.0, 50.0, "failed")]
    assert results["tests"][0]["output"] == said
    assert results["tests"][1]["output"] == "Not played: there is no file to play."
    assert results["leaderboard"] == [{"name": "Score %", "value": 0.0}]


def test_an_error_of_the_autograder_is_a_test_with_score_0(bundles, tmp_path):
    root = unpack(bundles["two"], tmp_path, {"AB.py": AB.read_text()})
    (root / "source" / SETTINGS_FILE).write_text('{"games": 1}')
    results = run_autograder(root)
    assert results["score"] == 0 and len(results["tests"]) == 1
    test = results["tests"][0]
    assert (test["name"], test["score"], test["status"], test["visibility"]) == (ERROR_TEST, 0.0, "failed", "visible")
    assert test["output"].startswith(f"The autograder could not grade this submission: SettingsError: "
                                     f"{root / 'source' / SETTINGS_FILE}: missing settings colour, game_time, ")


def test_run_autograder_writes_results_when_its_python_cannot_run(bundles, tmp_path):
    root = unpack(bundles["one"], tmp_path, {"AB.py": AB.read_text()})
    results = run_autograder(root, python=str(tmp_path / "no-python"))
    assert results["score"] == 0 and [t["name"] for t in results["tests"]] == [ERROR_TEST]
    assert results["output"].startswith("The autograder could not grade this submission: the autograder's program "
                                        "stopped (exit status 127) before writing the results.")


# ----------------------------------------------------------------------------- the parts


def test_points_are_split_evenly_and_add_up():
    variant = find_variant("cs3243")
    assert Settings.for_variant(variant).opponent_points() == {
        "dummy": 20.0, "random": 20.0, "greedy": 20.0, "smart": 20.0, "minimax": 20.0}
    three = Settings.for_variant(variant, opponents=["a", "b", "c"], points=10).opponent_points()
    assert three == {"a": 3.33, "b": 3.33, "c": 3.34}
    with pytest.raises(SettingsError, match="visibility must be one of visible, after_due_date"):
        Settings.for_variant(variant, visibility="later")


def record(game, result, moves, seconds=(0.1,), error=None):
    return {"game": game, "seed": game, "result": result, "reason": "king_capture" if result != "draw" else "max_plies",
            "plies": len(moves), "moves": moves, "error": error,
            "think": {"white": {"total": sum(seconds), "max": max(seconds), "moves": len(seconds),
                                "seconds": list(seconds)},
                      "black": {"total": 0, "max": 0, "moves": 0, "seconds": []}}}


REVIEW = {"game": 3, "turning_point": {"white": 3, "black": None},
          "plies": [{"ply": 3, "colour": "white", "move": "c0f3", "best": "e0d1", "win_before": 45.2,
                     "win_after": 3.1, "judgement": "blunder"}]}


def test_an_opponents_test_all_or_nothing_or_partial_with_games_not_won(tmp_path):
    results = str(tmp_path / "results.jsonl")
    games = [(record(i, "white", ["d1d2"]), "white", results) for i in range(3)]
    games.append((record(3, "black", ["d1d2", "d5d4", "c0f3", "e6e5"], (0.1, 0.3)), "white", results))
    variant = find_variant("cs3243")
    strict = Settings.for_variant(variant, opponents=["greedy"], points=20)
    test = opponent_test("greedy", games, 0.9, 20, strict, {results: {3: REVIEW}})
    assert (test["score"], test["status"]) == (0.0, "failed")
    lines = test["output"].splitlines()
    assert lines[:3] == ["4 games as White: won 3, drawn 0, lost 1.",
                         "Not lost 3/4 (95 % CI 30.1-95.4 %); the course's pass mark is 90 % not lost: not met.",
                         "Points: 0 of 20: the pass mark is not met."]
    assert lines[3] == "Thinking: median 0.100 s per move; longest game 0.4 s (the course allows 30 s per game)."
    assert lines[5:] == ["Games not won (1):", "- game 3 (seed 3): lost by king_capture after 4 plies.",
                         "  moves: 1. d1d2 d5d4 2. c0f3 e6e5",
                         "  turning point: ply 3, White c0f3?? (best e0d1), win 45 % -> 3 %"]
    partial = Settings.for_variant(variant, opponents=["greedy"], points=20, partial=True)
    test = opponent_test("greedy", games, 0.9, 20, partial, {})
    assert (test["score"], test["output"].splitlines()[2]) == (15.0, "Points: 15 of 20: points x not-lost rate.")
    assert "turning point" not in test["output"]


def test_a_turning_point_needs_a_review_of_the_game():
    game = record(3, "black", ["d1d2", "d5d4", "c0f3", "e6e5"])
    assert turning_point({}, "r.jsonl", game, "white") is None
    assert turning_point({"r.jsonl": {4: REVIEW}}, "r.jsonl", game, "white") is None
    assert turning_point({"r.jsonl": {3: REVIEW}}, "r.jsonl", game, "white") == (
        "turning point: ply 3, White c0f3?? (best e0d1), win 45 % -> 3 %")
    assert turning_point({"r.jsonl": {3: REVIEW}}, "r.jsonl", game, "black") == (
        "turning point: none (no move of Black's judged)")


def test_moves_are_numbered_and_long_games_cut():
    assert numbered_moves(["a", "b", "c"]) == "1. a b 2. c"
    assert numbered_moves(["m"] * 5, limit=2) == "1. m m ... (3 more plies)"


def test_find_submission_prefers_ab_py_anywhere(tmp_path):
    (tmp_path / "sub" / "__pycache__").mkdir(parents=True)
    (tmp_path / "sub" / "AB.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("def studentAgent(b):\n    return b\n")
    (tmp_path / "sub" / "__pycache__" / "AB.py").write_text("")
    assert find_submission(str(tmp_path)) == ("sub/AB.py", "Graded sub/AB.py.")
    assert find_submission(str(tmp_path / "missing"))[0] is None


def test_the_run_autograder_script_is_sh_and_exits_0(bundles, tmp_path):
    with zipfile.ZipFile(bundles["one"]) as archive:
        script = archive.read("run_autograder").decode()
        setup = archive.read("setup.sh").decode()
    assert script.startswith("#!/bin/sh\n") and script.rstrip().endswith("exit 0")
    assert setup.startswith("#!/usr/bin/env bash\n") and "apt-get install" in setup
    assert "python3 -m venv venv" in setup and "-r requirements.txt" in setup
    assert subprocess.run(["sh", "-n", "-c", script]).returncode == 0
    assert subprocess.run(["bash", "-n", "-c", setup]).returncode == 0


def test_with_both_colours_a_test_counts_both_and_names_the_colour_of_a_game_not_won(tmp_path):
    results = str(tmp_path / "results.jsonl")
    black_win = record(1, "black", ["d1d2", "d5d4"])
    black_win["think"]["black"] = black_win["think"].pop("white")
    black_win["think"]["white"] = {"total": 0, "max": 0, "moves": 0, "seconds": []}
    games = [(record(0, "draw", ["d1d2"]), "white", results), (black_win, "black", results)]
    settings = Settings.for_variant(find_variant("cs3243"), opponents=["dummy"], colour="both")
    test = opponent_test("dummy", games, 1.0, 100, settings, {})
    lines = test["output"].splitlines()
    assert lines[:3] == ["2 games, half with each colour: won 1, drawn 1, lost 0.",
                         "Not lost 2/2 (95 % CI 34.2-100 %); the course's pass mark is 100 % not lost: met.",
                         "Points: 100 of 100: the pass mark is met."]
    assert lines[5:7] == ["Games not won (1):", "- game 0 (seed 0, as White): drawn by max_plies after 1 plies."]


def test_a_sigterm_mid_game_still_writes_results(bundles, tmp_path):
    """A Gradescope timeout stops the Python part: it writes its results.json, stopped, at once."""
    slow = ("calls = []\ndef studentAgent(board):\n    calls.append(1)\n"
            "    while len(calls) > 1:\n        pass\n    return (('d', 1), ('d', 2))\n")
    root = unpack(bundles["one"], tmp_path, {"AB.py": slow})     # the check's one call is quick
    env = {"PATH": os.environ["PATH"]}
    proc = subprocess.Popen([sys.executable, "-m", "harness.grading.gradescope.autograder", str(root)], cwd=root / "source",
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (root / "work" / "games" / "dummy" / "series.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)                      # into its second move, which never ends
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        proc.kill()
    results = json.loads((root / "results" / "results.json").read_text())
    assert problems(results) == [] and [t["name"] for t in results["tests"]] == [ERROR_TEST]
    assert results["output"].startswith("The autograder could not grade this submission: the grading was stopped "
                                        "before it ended.")
