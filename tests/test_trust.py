"""What a student and a TA found when they tried the toolkit (issue "Trustworthy grading"): one
test per finding, each failing without its fix."""
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import run_cli
from ctrl_c import ctrl_c

from harness.core.agent import Agent
from harness.core.referee import play_game
from harness.grading.report import build_report, opponent_entry, render_markdown
from harness.runs.results import RESULTS_FILE
from harness.variants import find_variant
from harness.variants.cs3243.game import Game, course_move

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"


def harness(*argv, **kwargs):
    return subprocess.run([sys.executable, "-m", "harness", *map(str, argv)], cwd=REPO,
                          capture_output=True, text=True, **kwargs)


# 1. the course's 30 s is per game ------------------------------------------------------------

class Sleeper(Agent):
    """In process: the first legal move, after `seconds` of thinking."""
    name = "sleeper"

    def __init__(self, seconds):
        self.seconds = seconds

    def choose_move(self, view, colour, rng):
        time.sleep(self.seconds)
        variant = find_variant("cs3243")
        move = variant.legal_moves(variant.start(gameboard=view, to_move=colour))[0]
        return course_move(variant.rules, move)


def test_thinking_summed_over_the_game_loses_by_game_time():
    white, black = Sleeper(0.06), Sleeper(0.0)
    record = play_game(white, black, 1, Game(), game_time=0.2)
    assert (record["result"], record["reason"]) == ("black", "game_time")
    seconds = record["think"]["white"]["seconds"]
    # it lost on the move that took its total past 0.2 s, not before (3 or 4 moves of >= 0.06 s)
    assert sum(seconds[:-1]) <= 0.2 < sum(seconds) and len(seconds) in (3, 4)
    assert record["error"] == "White: its thinking over the game passed 0.2 s"


def test_a_file_is_stopped_when_its_game_time_runs_out(tmp_path):
    """Each move takes 0.3 s, far under the 30 s per move; the game allows 1 s in all: the fourth
    move is cut off when the clock runs out, not after 30 s."""
    out = tmp_path / "s"
    done = harness("series", "--white", HOSTILE / "thinks_long.py", "--black", "dummy", "--games", "1",
                   "--game-time", "1", "--out", out, "--quiet")
    assert done.returncode == 0, done.stderr
    record = json.loads((out / RESULTS_FILE).read_text())
    assert (record["result"], record["reason"]) == ("black", "game_time")
    assert record["think"]["white"]["moves"] == 4
    assert 0.9 < record["think"]["white"]["total"] < 1.5
    assert record["error"] == "White: its thinking over the game passed 1 s"


def test_report_plays_with_the_courses_30_s_per_game_by_default(tmp_path, capsys):
    code, _, _ = run_cli(["report", "dummy", "--opponents", "random", "--games", "1", "--out", str(tmp_path),
                          "--quiet"], capsys)
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0 and report["settings"]["game_time"] == 30.0


# 3. the verdict when no opponent has a pass mark; the check at the top ------------------------

def test_no_pass_mark_means_no_verdict(capsys):
    entry = opponent_entry("uci:/usr/games/fairy-stockfish", "white",
                           [{"game": 0, "seed": 0, "result": "black", "reason": "checkmate", "plies": 9,
                             "think": {"white": {"seconds": [0.1], "total": 0.1}, "black": {"seconds": [0.1], "total": 0.1}}}])
    report = build_report("AB.py", {"games": 1, "seed": 0, "move_timeout": 30.0}, {"uci": entry})
    assert report["passed"] is None
    assert "Course pass marks (not-lost rate): n/a" in render_markdown(report)


def test_the_report_starts_with_the_check_of_the_judged_file(tmp_path, capsys):
    code, out, _ = run_cli(["report", str(HOSTILE / "prints.py"), "--opponents", "dummy", "--games", "1",
                            "--out", str(tmp_path), "--quiet"], capsys)
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0 and report["check"]["accepted"] is False and report["passed"] is False
    assert any("contains the word 'print'" in p for p in report["check"]["problems"])
    md = (tmp_path / "report.md").read_text().splitlines()
    assert md[2].startswith(f"Course check of {HOSTILE / 'prints.py'}: REJECTED: ")
    assert out.splitlines()[1].startswith("Course check of")


# 4. an agent that cannot be started is an error before the first game -------------------------

@pytest.mark.parametrize("spec,message", [
    ("uci:/nonexistent/engine", "error: agent 'uci:/nonexistent/engine' cannot be started: cannot start engine "
                                "'/nonexistent/engine': No such file or directory"),
    (f"uci:{HOSTILE}", f"error: agent 'uci:{HOSTILE}' cannot be started: cannot start engine '{HOSTILE}': it is a "
                       f"folder: give the engine's program file in it"),
    (str(HOSTILE / "no_agent.py"), f"error: agent file '{HOSTILE / 'no_agent.py'}' does not define "
                                   f"studentAgent(gameboard)"),
])
def test_an_agent_that_cannot_start_stops_the_run_before_any_game(tmp_path, spec, message, capsys):
    code, out, err = run_cli(["series", "--white", spec, "--black", "dummy", "--games", "2",
                              "--out", str(tmp_path / "s"), "--quiet"], capsys)
    assert (code, out, err) == (2, "", message + "\n")
    assert not (tmp_path / "s" / RESULTS_FILE).exists()


# 5. Ctrl-C ends a run promptly, keeps the finished games, and --resume completes the set --------

@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs process groups")
def test_ctrl_c_ends_a_report_within_seconds_every_time(tmp_path):
    out = tmp_path / "r"
    command = [sys.executable, "-m", "harness", "report", str(HOSTILE / "slow.py"), "--opponents",
               "dummy,random", "--games", "6", "--jobs", "2", "--out", str(out), "--progress", "none"]
    for attempt in range(10):
        proc = subprocess.Popen(command + (["--resume"] if attempt else []), cwd=REPO, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        # once the run holds its folder (past Python's start-up, however busy the machine), then a moment later
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            lock = out / ".lock"
            if lock.exists() and lock.read_text().strip() == str(proc.pid):
                break
            time.sleep(0.02)
        time.sleep(0.1 * attempt)
        err = ctrl_c(proc, f"attempt {attempt}: ")
        if proc.returncode == 0:
            break                                   # it finished before the signal landed
        assert proc.returncode == 130, err
        assert "interrupted: the games finished so far are kept in" in err and "--resume" in err
        for name in ("dummy", "random"):
            path = out / name / RESULTS_FILE
            if path.exists():
                assert all(json.loads(line) for line in path.read_text().splitlines())
    finished = harness(*command[3:], "--resume")
    assert finished.returncode == 0, finished.stderr
    for name in ("dummy", "random"):
        records = [json.loads(line) for line in (out / name / RESULTS_FILE).read_text().splitlines()]
        assert sorted(r["game"] for r in records) == list(range(6))


# 6. a run into a directory holding games refuses unless --resume or --force --------------------

def test_a_report_refuses_to_overwrite_games_without_resume_or_force(tmp_path, capsys):
    argv = ["report", "dummy", "--opponents", "random", "--games", "2", "--out", str(tmp_path), "--quiet"]
    assert run_cli(argv, capsys)[0] == 0
    before = (tmp_path / "random" / RESULTS_FILE).read_text()
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "already holds 2 games" in err and "--resume" in err and "--force" in err
    assert (tmp_path / "random" / RESULTS_FILE).read_text() == before
    code, _, err = run_cli(argv + ["--resume"], capsys)
    assert code == 0 and f"resuming {tmp_path / 'random'}: 2 games kept, 0 to play" in err
    assert run_cli(argv + ["--force"], capsys)[0] == 0


# 7. a damaged line in the middle of results.jsonl is named ------------------------------------

def test_resume_and_replay_name_a_damaged_line(tmp_path, capsys):
    out = tmp_path / "s"
    argv = ["series", "--white", "random", "--black", "dummy", "--games", "3", "--out", str(out), "--quiet",
            "--jobs", "1"]
    assert run_cli(argv, capsys)[0] == 0
    path = out / RESULTS_FILE
    lines = path.read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == [0, 1, 2]      # one job: in order
    lines[1] = lines[1][:30]                                               # game 1's record damaged
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(["replay", str(path), "--game", "0"], capsys)
    assert code == 0 and f"warning: {path}:2: not a JSON record" in err
    code, _, err = run_cli(["replay", str(path), "--game", "1"], capsys)
    assert code == 2 and err.startswith(f"error: {path}:2: not a JSON record")
    assert "game 1 may have been on that line" in err
    code, _, err = run_cli(argv + ["--resume"], capsys)
    assert code == 0
    assert (f"note: {path}:2: a damaged record in the middle of the file: dropped; its game will be played again"
            in err)
    assert sorted(json.loads(line)["game"] for line in path.read_text().splitlines()) == [0, 1, 2]


# 8. progress is visible when the output is not a terminal ------------------------------------

def test_progress_lines_when_not_on_a_terminal(tmp_path):
    done = harness("series", "--white", "random", "--black", "dummy", "--games", "3", "--jobs", "1",
                   "--out", tmp_path / "s")
    assert done.returncode == 0, done.stderr
    assert "random vs dummy: 3/3 games, W" in done.stderr     # a plain line, no bar's control codes
    assert "\r" not in done.stderr


# 9. the games not won, with a replay command that works when pasted ---------------------------

def test_report_lists_every_game_not_won_with_a_replay_command_that_works(tmp_path, capsys):
    out = tmp_path / "out dir"                      # a space: the command must quote it
    code, _, _ = run_cli(["report", str(HOSTILE / "raises.py"), "--opponents", "dummy,random", "--games", "2",
                          "--out", str(out), "--quiet"], capsys)
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    lost = report["opponents"]["dummy"]["not_won"]
    assert [(g["game"], g["seed"], g["reason"], g["plies"]) for g in lost] == [(0, 0, "crash", 0), (1, 1, "crash", 0)]
    md = (out / "report.md").read_text()
    assert "## Games not won" in md
    command = lost[1]["replay"]
    assert f"| dummy | white | 1 | 1 | loss | crash | 0 | `{command}` |" in md
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "harness"]
    done = subprocess.run([sys.executable] + argv[1:], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "game 1: " in done.stdout and "crash" in done.stdout
    import hashlib
    assert report["sha256"] == hashlib.sha256((HOSTILE / "raises.py").read_bytes()).hexdigest()
    assert report["date"][:4].isdigit() and report["version"] and report["settings"]["games"] == 2


# 10. random openings, repeated with colours reversed ----------------------------------------

def test_openings_pair_games_from_one_position_with_colours_reversed(tmp_path, capsys):
    out = tmp_path / "s"
    code, text, _ = run_cli(["series", "--white", "greedy", "--black", "random", "--games", "4",
                             "--openings", "3", "--out", str(out), "--quiet", "--jobs", "1"], capsys)
    assert code == 0
    records = sorted((json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines()),
                     key=lambda r: r["game"])
    assert [(r["white"], r["black"]) for r in records] == [("greedy", "random"), ("random", "greedy")] * 2
    assert records[0]["opening"] == records[1]["opening"] != records[2]["opening"] == records[3]["opening"]
    assert all(len(r["opening"]) == 3 for r in records)
    # the game starts after the opening: the FEN is the position the opening reached
    v = find_variant("cs3243")
    state = v.start()
    for name in records[0]["opening"]:
        state = v.apply(state, v.parse_move(name))
    from harness.variants.cs3243.fen import position_fen
    assert records[0]["start_fen"] == position_fen(state)
    assert "lines below are greedy's results" in text
    assert run_cli(["replay", str(out), "--game", "1"], capsys)[0] == 0


# smaller things a newcomer hit ---------------------------------------------------------------

def test_no_command_prints_the_usage(capsys):
    code, out, _ = run_cli([], capsys)
    assert code == 2 and out.startswith("usage: python -m harness") and "report" in out


def test_help_lists_the_uci_agent_form(capsys):
    code, out, _ = run_cli(["play", "--help"], capsys)
    assert code == 0 and "uci:PATH" in out


def test_an_empty_opponent_name_is_an_error(capsys):
    code, _, err = run_cli(["report", "dummy", "--opponents", "dummy,,random"], capsys)
    assert code == 2 and "an empty opponent name in 'dummy,,random'" in err


def test_make_check_takes_a_file_name_with_spaces(tmp_path):
    if not (REPO / ".venv" / "bin" / "python").exists():
        pytest.skip("make check needs the project's .venv")
    spaced = tmp_path / "my agent.py"
    spaced.write_bytes((HOSTILE / "clean.py").read_bytes())
    done = subprocess.run(["make", "-s", "check", f"AGENT={spaced}"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK, the course's autograder checks pass" in done.stdout


def test_an_out_dir_that_cannot_be_made_is_one_line(capsys):
    code, out, err = run_cli(["series", "--white", "random", "--black", "dummy", "--games", "1",
                              "--out", "/proc/x/y", "--quiet"], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and "/proc/x/y" in err


def test_check_on_a_folder_says_to_pass_a_file(tmp_path, capsys):
    code, _, err = run_cli(["check", str(tmp_path)], capsys)
    assert (code, err) == (2, f"error: '{tmp_path}' is a folder: pass the .py file to check, "
                              f"e.g. {tmp_path / 'AB.py'}\n")


def test_play_saves_a_record_that_replay_reads_and_both_draw_row_6_on_top(tmp_path, capsys):
    saved = tmp_path / "game.jsonl"
    code, out, _ = run_cli(["play", "--white", "random", "--black", "dummy", "--seed", "2", "--out", str(saved)],
                           capsys)
    assert code == 0 and f"saved: {saved}" in out
    assert out.splitlines()[2].startswith(" 6 ")
    code, text, _ = run_cli(["replay", str(saved), "--game", "0"], capsys)
    boards = [line for line in text.splitlines() if line.startswith("  6 |")]
    assert code == 0 and boards and text.index("  6 |") < text.index("  0 |")


def test_pyproject_gives_a_minichess_command_equal_to_python_m_harness():
    text = (REPO / "pyproject.toml").read_text()
    assert 'minichess = "harness.cli:entry"' in text
    from harness.cli import entry
    with pytest.raises(SystemExit) as info:
        sys.argv = ["minichess", "perft", "1"]
        entry()
    assert info.value.code == 0
