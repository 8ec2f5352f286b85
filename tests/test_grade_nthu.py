"""grade --variant nthu: a class of our own NTHU repositories (tests/fixtures/nthu_class: our small
C++ state, random / greedy / alpha-beta policies, broken ones) built in the box, laddered against the
baselines, ranked; the gradebook's exact entries; resume; a changed student graded again; bad input
in one line; nthu: and uci: programs boxed (no /proc/PID/environ of the grader)."""
import csv
import json
import os
import shutil
import subprocess
import sys

import pytest

from harness import players
from harness.isolation.box import bwrap
from harness.grading import build as building
from harness.grading.common import ClassError
from harness.grading.nthu_class import grade_nthu_class, parse_bonus
from tests.classroom import fully_boxed
from tests.nthu_classroom import make_nthu_class

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASS = ["alphabeta7", "greedy", "loud_makefile", "missing_files", "no_compile", "segfaults", "sigterm_ignorer",
         "silent", "stale_binary", "threads"]
QUIET = dict(move_timeout=1.0, jobs=2, progress="none", say=lambda text: None, build_timeout=60.0)
MARKER = "/tmp/stale-binary-ran"
SECRET = "grader-token-4b1d"


def results_bytes(out):
    found = {}
    for where, _, names in os.walk(out):
        for name in names:
            if name == "results.jsonl":
                with open(os.path.join(where, name), "rb") as handle:
                    found[os.path.relpath(os.path.join(where, name), out)] = handle.read()
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("nthu")
    names = CLASS + (["fork_bomb"] if fully_boxed() else [])
    class_dir = make_nthu_class(str(base / "class"), names)
    with open(os.path.join(class_dir, "a_file"), "w") as handle:
        handle.write("a student folder that is a file\n")
    if os.path.exists(MARKER):
        os.remove(MARKER)
    out = str(base / "out")
    gradebook = grade_nthu_class(class_dir, out, **QUIET)
    return class_dir, out, gradebook, {row["student"]: row for row in gradebook["students"]}


def test_every_student_has_a_row_with_the_issue_s_fields(graded):
    _, out, gradebook, rows = graded
    assert sorted(rows) == sorted(CLASS + ["a_file"] + (["fork_bomb"] if fully_boxed() else []))
    for row in gradebook["students"]:
        assert {"student", "build", "rules", "baselines", "points", "all_eight", "rank"} <= set(row)
    with open(os.path.join(out, "gradebook.json"), encoding="utf-8") as handle:
        assert json.load(handle)["students"] == json.loads(json.dumps(gradebook["students"]))
    with open(os.path.join(out, "gradebook.csv"), encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert [r["student"] for r in table] == [r["student"] for r in gradebook["students"]]
    assert next(r for r in table if r["student"] == "greedy")["baseline1_passed"] == "yes"


def test_the_ladder_as_the_course_counts_it(graded):
    rows = graded[3]
    strong = rows["alphabeta7"]
    assert strong["build"] == "ok" and strong["all_eight"] is True and strong["points"] == 5
    assert strong["baselines"] == {b: {"white": "win", "black": "win", "passed": True}
                                   for b in ("baseline1", "baseline2", "baseline3", "baseline4")}
    greedy = rows["greedy"]
    # greedy beats the random baseline with both colours, then loses both games to baseline2: the
    # ladder stops there, baselines 3 and 4 are absent, 1 point
    assert greedy["baselines"] == {"baseline1": {"white": "win", "black": "win", "passed": True},
                                   "baseline2": {"white": "loss", "black": "loss", "passed": False}}
    assert greedy["points"] == 1 and greedy["all_eight"] is False and greedy["rank"] is None


def test_programs_that_crash_or_never_answer_lose_their_games(graded):
    rows = graded[3]
    for name in ("segfaults", "silent"):
        assert rows[name]["build"] == "ok"
        assert rows[name]["baselines"] == {"baseline1": {"white": "loss", "black": "loss", "passed": False}}
        assert rows[name]["points"] == 0


def test_a_program_ignoring_sigterm_is_killed_and_its_last_move_counts(graded):
    _, out, _, rows = graded
    # it writes the greedy move, then spins with SIGTERM ignored: killed each move, and plays as greedy
    assert rows["sigterm_ignorer"]["baselines"] == rows["greedy"]["baselines"]
    with open(os.path.join(out, "students", "sigterm_ignorer", "games", "baseline1-white", "results.jsonl")) as f:
        record = json.loads(f.readline())
    assert record["result"] == "white" and record["plies"] > 2


def test_failed_and_missing_builds_score_nothing_and_say_why(graded):
    rows = graded[3]
    assert rows["no_compile"]["build"] == "failed" and rows["no_compile"]["points"] == 0
    assert rows["no_compile"]["baselines"] == {}
    assert any("src/policy/submission.cpp:10" in line and "error" in line for line in rows["no_compile"]["build_errors"])
    assert rows["loud_makefile"]["build"] == "failed"
    assert rows["loud_makefile"]["build_errors"][0] == f"make submission printed more than {building.OUTPUT_CAP} bytes"
    assert rows["missing_files"]["build"] == "missing"
    assert rows["missing_files"]["build_errors"] == [
        "no src/player/submission.cpp, src/policy/submission.cpp in the repository"]
    assert rows["a_file"]["build"] == "missing" and rows["a_file"]["build_errors"][0].endswith(
        "a_file is a file, not a student's folder")
    if fully_boxed():
        assert rows["fork_bomb"]["build"] == "failed" and rows["fork_bomb"]["points"] == 0


def test_a_committed_binary_is_never_run(graded):
    _, out, _, rows = graded
    assert not os.path.exists(MARKER)
    assert rows["stale_binary"]["build"] == "ok"
    assert rows["stale_binary"]["baselines"] == rows["greedy"]["baselines"]
    with open(os.path.join(out, "students", "stale_binary", "repo", "build", "player_submission"), "rb") as handle:
        assert handle.read(4) == b"\x7fELF"


def test_rules_problems_are_listed_from_the_compiled_files_only(graded):
    rows = graded[3]
    assert rows["threads"]["rules"] == ["src/policy/submission.cpp:4: <thread>: multi-threading",
                                        "src/policy/submission.cpp:35: threads"]
    # the template's main.cpp calls system() but is not compiled: no problem for anyone else
    assert all(rows[name]["rules"] == [] for name in ("alphabeta7", "greedy", "stale_binary"))
    assert rows["threads"]["points"] == 5        # default: listed, not scored


def test_the_ranking_among_the_all_eight_students(graded):
    _, out, _, rows = graded
    ranked = {name: row for name, row in rows.items() if row["rank"] is not None}
    assert sorted(ranked) == ["alphabeta7", "threads"]     # the two who won all 8 games
    assert sorted(row["rank"] for row in ranked.values()) == [1, 2]
    for row in ranked.values():
        rating = row["rating"]
        assert rating["low"] < rating["elo"] < rating["high"] and rating["games"] == 2
    with open(os.path.join(out, "ranking", "ranking.json")) as handle:
        assert [r["student"] for r in json.load(handle)["ranking"]] == sorted(ranked, key=lambda n: ranked[n]["rank"])


def test_the_report_gives_each_game_s_replay_command(graded):
    _, out, _, _ = graded
    with open(os.path.join(out, "students", "greedy", "report.md"), encoding="utf-8") as handle:
        text = handle.read()
    command = next(line for line in text.splitlines() if "baseline2 as black" in line).split("`")[1]
    assert command == "python -m harness replay games/baseline2-black/results.jsonl --game 0 --variant nthu"
    # run in the student's folder, as the report says (no path of the TA's in it)
    done = subprocess.run([sys.executable, *command.split()[1:]], cwd=os.path.join(out, "students", "greedy"),
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0 and "baseline2" in done.stdout


def test_resume_plays_nothing_again_and_a_changed_student_is_graded_again(graded, tmp_path):
    class_dir, out, gradebook, rows = graded
    copy_out = str(tmp_path / "out")
    shutil.copytree(out, copy_out)
    before = results_bytes(copy_out)
    again = grade_nthu_class(class_dir, copy_out, resume=True, **QUIET)
    assert results_bytes(copy_out) == before
    assert again["students"] == gradebook["students"]
    # greedy's policy becomes the random mover's: rebuilt, laddered again, and only it
    shutil.copy(os.path.join(ROOT, "tests", "fixtures", "nthu_class", "students", "random_mover", "src", "policy",
                             "submission.cpp"), os.path.join(class_dir, "greedy", "src", "policy", "submission.cpp"))
    try:
        third = grade_nthu_class(class_dir, copy_out, resume=True, **QUIET)
    finally:
        shutil.copy(os.path.join(ROOT, "tests", "fixtures", "nthu_class", "students", "greedy", "src", "policy",
                                 "submission.cpp"), os.path.join(class_dir, "greedy", "src", "policy", "submission.cpp"))
    after = results_bytes(copy_out)
    changed = sorted(k for k in after if after[k] != before.get(k))
    assert changed and all(k.startswith("students/greedy/") for k in changed)
    new = {row["student"]: row for row in third["students"]}
    assert new["greedy"]["baselines"]["baseline1"] != rows["greedy"]["baselines"]["baseline1"] or \
        new["greedy"]["points"] != rows["greedy"]["points"]
    assert {k: v for k, v in new.items() if k != "greedy"} == {k: v for k, v in rows.items() if k != "greedy"}


def test_a_finished_grading_is_not_overwritten_without_resume(graded):
    class_dir, out, _, _ = graded
    done = subprocess.run([sys.executable, "-m", "harness", "grade", class_dir, "--variant", "nthu", "--out", out],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: {out} already holds a gradebook; add --resume to continue that grading, --force to start over, "
        f"or choose another --out"]


def test_bad_class_folders_are_one_line(tmp_path):
    with pytest.raises(ClassError, match="does not exist"):
        grade_nthu_class(str(tmp_path / "nowhere"), str(tmp_path / "out"), **QUIET)
    (tmp_path / "file").write_text("x")
    done = subprocess.run([sys.executable, "-m", "harness", "grade", str(tmp_path / "file"), "--variant", "nthu",
                           "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "is not a folder" in done.stderr


def test_ranking_bonus_parsing():
    assert parse_bonus("3,2,1") == [3.0, 2.0, 1.0] and parse_bonus(None) == []
    with pytest.raises(ClassError, match="--ranking-bonus 'x'"):
        parse_bonus("x")


SPY = r'''#!/usr/bin/env python3
import os, sys
found = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if b"%s" in handle.read():
                    found.append(pid)
        except OSError:
            pass
print("FOUND" if found else "CLEAN")
%s
'''


@pytest.fixture
def grader_process():
    """A process of the grader's started with the token in its environment (/proc/PID/environ
    shows a process's environment as it was started)."""
    proc = subprocess.Popen(["sleep", "60"], env={**os.environ, "CODEPOST_API_KEY": SECRET})
    yield proc
    proc.kill()
    proc.wait()


@pytest.mark.skipif(bwrap()[0] is None, reason="bubblewrap is not working here")
@pytest.mark.parametrize("boxed", [True, False])
def test_an_nthu_program_cannot_read_the_graders_environment(tmp_path, monkeypatch, boxed, grader_process):
    """The grader's token is in its environment; /proc/PID/environ shows it to any process of the
    user outside the box. Boxed (the default), the program sees only the box's own processes."""
    program = tmp_path / "spy.py"
    program.write_text(SPY % (SECRET, 'open(sys.argv[2], "w").write("4 0 3 0\\n")'))
    program.chmod(0o755)
    # tmp_path is 0700: run as root, the box's user id of its own runs a copy of the program
    monkeypatch.setenv("CODEPOST_API_KEY", SECRET)
    if not boxed:
        monkeypatch.setenv("MINICHESS_NO_PROGRAM_BOX", "1")
    from harness.variants import find_variant
    variant = find_variant("nthu")
    agent = players.make(f"nthu:{program}", "nthu", 5.0)
    try:
        agent.start_game("white", 0)
        state = variant.start()
        view = variant.protocol_class(variant).view(state, "white")
        move = agent.choose_move(view, "white", None)
        assert variant.move_name(move) == "a2a3"
        assert agent.printed_output().split() == (["CLEAN"] if boxed else ["FOUND"])
    finally:
        agent.close()


@pytest.mark.skipif(bwrap()[0] is None, reason="bubblewrap is not working here")
@pytest.mark.parametrize("boxed", [True, False])
def test_a_uci_engine_cannot_read_the_graders_environment(tmp_path, monkeypatch, boxed, grader_process):
    engine = tmp_path / "engine.py"
    engine.write_text(SPY.replace('print("FOUND" if found else "CLEAN")', 'name = "FOUND" if found else "CLEAN"') % (
        SECRET, '''
for line in sys.stdin:
    line = line.strip()
    if line == "uci":
        print(f"id name {name}"); print("uciok", flush=True)
    elif line == "isready":
        print("info string variant cs3243"); print("readyok", flush=True)
    elif line == "quit":
        break
'''))
    tmp_path.chmod(0o755)
    monkeypatch.setenv("CODEPOST_API_KEY", SECRET)
    if not boxed:
        monkeypatch.setenv("MINICHESS_NO_PROGRAM_BOX", "1")
    agent = players.make(f"uci:{engine}", "cs3243")
    try:
        agent.engine.start()
        assert agent.engine.identity == ("CLEAN" if boxed else "FOUND")
    finally:
        agent.close()
    from harness.analysis.uci import UciAnalyser      # the game review's --analyser uci:PATH
    from harness.variants import find_variant
    analyser = UciAnalyser(str(engine), find_variant("cs3243"))
    try:
        analyser.engine.start()
        assert analyser.engine.identity == ("CLEAN" if boxed else "FOUND")
    finally:
        analyser.engine.close()


def test_ctrl_c_stops_the_grading_and_resume_finishes_it(tmp_path):
    from tests.ctrl_c import ctrl_c
    import time
    class_dir = make_nthu_class(str(tmp_path / "class"), ["greedy", "sigterm_ignorer"])
    out = str(tmp_path / "out")
    command = [sys.executable, "-m", "harness", "grade", class_dir, "--variant", "nthu", "--out", out,
               "--move-timeout", "1", "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    games = os.path.join(out, "students", "sigterm_ignorer", "games")
    while not os.path.isdir(games) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    time.sleep(1.5)                 # the ignorer is in the middle of a move
    err = ctrl_c(proc, "grade --variant nthu ")
    assert proc.returncode == 130
    assert "--resume" in err.strip().splitlines()[-1]
    assert not os.path.exists(os.path.join(out, "gradebook.json"))
    done = subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(os.path.join(out, "gradebook.json")) as handle:
        rows = {row["student"]: row for row in json.load(handle)["students"]}
    assert rows["sigterm_ignorer"]["baselines"] == rows["greedy"]["baselines"]
    assert rows["greedy"]["points"] == 1


def test_ranks_follow_the_ratings_and_ties_go_by_score_then_name():
    from harness.grading.nthu_class import ranks
    from harness.stats.ratings import fit_ratings
    # c beats a and b with both colours; a and b split their pair
    fit = fit_ratings(["a", "b", "c"], {("a", "b"): (1.0, 2), ("a", "c"): (0.0, 2), ("b", "c"): (0.0, 2)})
    ranked = ranks(fit["ratings"], {"a": "ann", "b": "bob", "c": "cy"})
    assert [ranked[n]["rank"] for n in ("cy", "ann", "bob")] == [1, 2, 3]
    assert ranked["ann"]["elo"] == ranked["bob"]["elo"] < ranked["cy"]["elo"]
    assert ranked["cy"]["low"] < ranked["cy"]["elo"] < ranked["cy"]["high"]
