"""grade --variant congo: a class of our own Congo programs (tests/fixtures/congo_class: Python, C++ and
an executable; right ones and mutated ones) judged part by part on hidden seeded cases, boxed: the
exact counts, a crash or a hang costing only its cases, a failed build, missing parts, the first
differences per part, resume, a changed student judged again."""
import csv
import json
import os
import shutil
import subprocess
import sys

import pytest

from harness.congo_tester import cases as casegen
from harness.grading.common import ClassError
from harness.grading.congo_class import PARTS, grade_congo_class
from tests.congo_classroom import make_congo_class

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASS = ["cpp_broken", "cpp_elephant", "cpp_right", "exe_moves", "py_crashes", "py_fast", "py_hangs", "py_loud",
         "py_no_drowning"]
CASES = 14                 # every kind of case twice
QUIET = dict(count=CASES, seed=5, run_timeout=20.0, case_timeout=3.0, jobs=2, say=lambda text: None)


def kinds(part, kind):
    options = {"eval1": "2021", "minimax": "2021"}
    return [c for c in casegen.make_cases(CASES, 5, options.get(part, "2022"), part) if c.kind == kind]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("congo")
    class_dir = make_congo_class(str(base / "class"), CLASS)
    with open(os.path.join(class_dir, "not_a_folder.txt"), "w") as handle:
        handle.write("x\n")
    out = str(base / "out")
    gradebook = grade_congo_class(class_dir, out, **QUIET)
    return class_dir, out, gradebook, {row["student"]: row for row in gradebook["students"]}


def part(row, name):
    return row["parts"][name]


def test_right_programs_pass_every_case_in_every_language(graded):
    rows = graded[3]
    for name, parts in (("py_fast", ("moves", "apply", "eval1", "minimax", "eval2")),
                        ("cpp_right", ("moves", "apply", "eval1")), ("exe_moves", ("moves",))):
        for p in PARTS:
            expected = {"passed": CASES, "cases": CASES, "build": "ok"} if p in parts else \
                {"passed": 0, "cases": CASES, "build": "missing"}
            assert part(rows[name], p) == expected, (name, p)
    assert rows["py_fast"]["score"] == round(100 * 5 / 7, 1)
    assert rows["cpp_right"]["score"] == round(100 * 3 / 7, 1)


def test_mutants_lose_exactly_the_cases_their_bug_touches(graded):
    rows = graded[3]
    # elephant valued 250: wrong wherever elephants are not balanced, right where a lion is missing
    elephant = part(rows["cpp_elephant"], "eval1")
    assert elephant["build"] == "ok" and 0 < elephant["passed"] < CASES
    # a crash on a missing black lion: only those cases fail, each run alone
    no_black = [c for c in kinds("eval1", "missing_lion") if "l" not in c.fen.split()[0]]
    assert part(rows["py_crashes"], "eval1")["passed"] == CASES - len(no_black)
    no_black2 = [c for c in kinds("eval2", "missing_lion") if "l" not in c.fen.split()[0]]
    assert no_black2 and part(rows["py_hangs"], "eval2")["passed"] == CASES - len(no_black2)
    # too much output on every run: every case lost
    assert part(rows["py_loud"], "moves") == {"passed": 0, "cases": CASES, "build": "ok"}
    drowned = part(rows["py_no_drowning"], "apply")["passed"]
    assert 0 < drowned < CASES and part(rows["py_no_drowning"], "moves")["passed"] == CASES


def test_a_failed_build_and_a_file_for_a_student(graded):
    rows = graded[3]
    assert part(rows["cpp_broken"], "moves") == {"passed": 0, "cases": CASES, "build": "failed"}
    assert part(rows["cpp_broken"], "eval1")["passed"] == CASES
    assert all(r["build"] == "missing" for r in rows["not_a_folder.txt"]["parts"].values())
    assert rows["not_a_folder.txt"]["score"] == 0.0


def test_reports_give_the_first_differences_as_congo_test_prints_them(graded):
    _, out, _, _ = graded
    with open(os.path.join(out, "students", "py_crashes", "report.md"), encoding="utf-8") as handle:
        text = handle.read()
    assert f"eval1: {CASES - 2}/{CASES} cases agree" in text or "cases agree" in text
    assert "exited with code 1: no black lion" in text
    with open(os.path.join(out, "students", "cpp_elephant", "report.json"), encoding="utf-8") as handle:
        details = json.load(handle)["details"]["eval1"]
    first = details["first_differences"][0]
    assert {"case", "fen", "expected", "got"} <= set(first) and first["expected"] != first["got"]
    with open(os.path.join(out, "students", "cpp_broken", "report.md"), encoding="utf-8") as handle:
        assert "moves: the build failed" in handle.read()


def test_gradebook_files(graded):
    _, out, gradebook, _ = graded
    with open(os.path.join(out, "gradebook.json"), encoding="utf-8") as handle:
        kept = json.load(handle)
    assert kept["students"] == gradebook["students"]
    assert set(kept["students"][0]) == {"student", "parts", "score", "faults", "first_error", "timeouts"}
    with open(os.path.join(out, "gradebook.csv"), encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    row = next(r for r in table if r["student"] == "cpp_right")
    assert row["moves_passed"] == str(CASES) and row["bestmove_build"] == "missing"


def test_resume_judges_nothing_again_and_a_changed_student_again(graded, tmp_path):
    class_dir, out, gradebook, rows = graded
    copy = str(tmp_path / "out")
    shutil.copytree(out, copy)
    stamps = {name: os.path.getmtime(os.path.join(copy, "students", name, "state.json")) for name in CLASS}
    again = grade_congo_class(class_dir, copy, resume=True, **QUIET)
    assert again["students"] == gradebook["students"]
    assert all(os.path.getmtime(os.path.join(copy, "students", n, "state.json")) == stamps[n] for n in CLASS)
    fixed = os.path.join(class_dir, "cpp_elephant", "congo.hpp")
    with open(fixed) as handle:
        text = handle.read()
    with open(fixed, "w") as handle:
        handle.write(text.replace("case 'E': return 250;", "case 'E': return 200;"))
    third = grade_congo_class(class_dir, copy, resume=True, **QUIET)
    new = {row["student"]: row for row in third["students"]}
    assert part(new["cpp_elephant"], "eval1")["passed"] == CASES
    changed = [n for n in CLASS if os.path.getmtime(os.path.join(copy, "students", n, "state.json")) != stamps[n]]
    assert changed == ["cpp_elephant"]


def test_a_finished_grading_needs_resume_or_force(graded):
    class_dir, out, _, _ = graded
    done = subprocess.run([sys.executable, "-m", "harness", "grade", class_dir, "--variant", "congo", "--out", out],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "already holds a gradebook" in done.stderr


def test_bad_input_is_one_line(tmp_path):
    with pytest.raises(ClassError, match="does not exist"):
        grade_congo_class(str(tmp_path / "none"), str(tmp_path / "out"), **QUIET)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ClassError, match="no student folders"):
        grade_congo_class(str(tmp_path / "empty"), str(tmp_path / "out"), **QUIET)


def test_the_search_parts_of_a_right_python_student(tmp_path):
    class_dir = make_congo_class(str(tmp_path / "class"), ["py_right"])
    for name in ("moves.py", "apply.py", "eval1.py", "eval2.py"):
        os.remove(os.path.join(class_dir, "py_right", name))
    book = grade_congo_class(class_dir, str(tmp_path / "out"), **{**QUIET, "count": 3, "run_timeout": 120.0})
    parts = book["students"][0]["parts"]
    assert {p: parts[p]["passed"] for p in ("minimax", "alphabeta", "bestmove")} == \
        {"minimax": 3, "alphabeta": 3, "bestmove": 3}


def test_ctrl_c_stops_the_judging_and_resume_keeps_the_parts_judged(tmp_path):
    import time
    from tests.ctrl_c import ctrl_c
    class_dir = make_congo_class(str(tmp_path / "class"), ["cpp_right", "py_right"])
    for name in ("moves.py", "apply.py", "eval1.py", "eval2.py", "minimax.py"):
        os.remove(os.path.join(class_dir, "py_right", name))
    out = str(tmp_path / "out")
    command = [sys.executable, "-m", "harness", "grade", class_dir, "--variant", "congo", "--out", out, "--cases", "3",
               "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    state = os.path.join(out, "students", "cpp_right", "state.json")

    def judged():
        try:
            with open(state) as handle:
                return len(json.load(handle)["parts"])
        except (OSError, ValueError):
            return 0
    deadline = time.monotonic() + 120
    while judged() < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    assert judged() == 3 and proc.poll() is None      # py_right's searches are still running
    stamp = os.path.getmtime(state)
    err = ctrl_c(proc, "grade --variant congo ")
    assert proc.returncode == 130 and "--resume" in err.strip().splitlines()[-1]
    done = subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert os.path.getmtime(state) == stamp
    with open(os.path.join(out, "gradebook.json")) as handle:
        rows = {row["student"]: row for row in json.load(handle)["students"]}
    assert {p: rows["py_right"]["parts"][p]["passed"] for p in ("alphabeta", "bestmove")} == \
        {"alphabeta": 3, "bestmove": 3}
    assert rows["cpp_right"]["parts"]["moves"]["passed"] == 3
