"""grade: a class folder (our AB.py, the template, simple agents, a broken file, a folder without a
file and the hostile files) graded to a gradebook, boxed; resumed without playing again; the
benign students graded the same with or without the hostile ones beside them."""
import csv
import json
import os
import socket

import pytest

from harness import cli
from harness.grading.grade import ClassGradeSettings, GradeError, find_submissions, grade_class
from tests.classroom import fully_boxed, make_class

GAMES = dict(games=1, opponents=("dummy",), jobs=2, progress="none", say=lambda text: None)
BENIGN = ("ab", "clean", "no_file", "pawn_pusher", "pawn_pusher_loose", "syntax_error", "template")


def results_files(out):
    found = {}
    for folder, _, names in os.walk(out):
        for name in names:
            if name == "results.jsonl":
                with open(os.path.join(folder, name), "rb") as handle:
                    found[os.path.join(folder, name)] = handle.read()
    return found


def snapshot(folder):
    """Every file under `folder` with its bytes."""
    out = {}
    for where, _, names in os.walk(folder):
        for name in names:
            with open(os.path.join(where, name), "rb") as handle:
                out[os.path.relpath(os.path.join(where, name), folder)] = handle.read()
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("grade")
    class_dir = make_class(str(base / "class"))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.2)
    if os.path.isdir(os.path.join(class_dir, "socket_opener")):
        with open(os.path.join(class_dir, "socket_opener", "port.txt"), "w") as handle:
            handle.write(str(listener.getsockname()[1]))
    out = str(base / "out")
    os.makedirs(out)
    with open(os.path.join(out, "canary.txt"), "w") as handle:
        handle.write("untouched\n")
    before = snapshot(class_dir)
    gradebook = grade_class(class_dir, out, ClassGradeSettings(**GAMES))
    try:
        listener.accept()
        connected = True
    except socket.timeout:
        connected = False
    listener.close()
    return {"class": class_dir, "out": out, "gradebook": gradebook, "before": before, "connected": connected,
            "rows": {row["student"]: row for row in gradebook["students"]}}


def test_submissions_are_found_by_folder_and_by_loose_file(graded):
    found = {s.student: (os.path.relpath(s.path, graded["class"]) if s.path else s.problem, s.share)
             for s in find_submissions(graded["class"])}
    assert found["ab"] == ("ab/AB.py", "folder")
    assert found["pawn_pusher_loose"] == ("pawn_pusher_loose.py", "file")
    assert found["no_file"] == ("There is no AB.py in the submission and no .py file that defines studentAgent "
                                "(it holds 1 file: notes.txt).", "folder")
    assert sorted(found) == sorted(graded["rows"])


def test_benign_students_are_graded_as_the_course_would(graded):
    rows = graded["rows"]
    assert {name: (rows[name]["check"], rows[name]["verdict"], rows[name]["opponents"]["dummy"]["wins"],
                   rows[name]["opponents"]["dummy"]["losses"], rows[name]["faults"])
            for name in BENIGN if name != "no_file"} == {
        "ab": ("accepted", "pass", 1, 0, {}),
        "clean": ("accepted", "fail", 0, 1, {}),
        "pawn_pusher": ("accepted", "fail", 0, 1, {"illegal_move": 1}),
        "pawn_pusher_loose": ("accepted", "fail", 0, 1, {"illegal_move": 1}),
        "syntax_error": ("rejected", "rejected", 0, 1, {"crash": 1}),
        "template": ("rejected", "rejected", 0, 1, {"illegal_move": 1}),
    }
    assert rows["no_file"]["verdict"] == "no file" and rows["no_file"]["opponents"] == {}
    assert rows["template"]["check_reasons"][0] == (        # named as the student knows it: no TA's folder
        "AB.py:2: contains the word 'print' (the course rejects print, raise, stdout, exception "
        "anywhere, comments included)")
    assert rows["syntax_error"]["first_error"] == ("White: at import: SyntaxError: '(' was never closed "
                                                   "(syntax_error.py, line 1)")
    assert len(rows["ab"]["sha256"]) == 64 and rows["ab"]["file"] == "ab/AB.py"


def test_hostile_files_lose_with_a_clear_reason(graded):
    rows, cls = graded["rows"], graded["class"]
    errors = {name: rows[name]["first_error"] for name in rows if rows[name]["faults"].get("crash")}
    assert errors["sibling_reader"] == (         # paths relative to the student's submission
        "White: at import: FileNotFoundError: [Errno 2] No such file or directory: "
        "'../clean/AB.py' (AB.py line 5)")
    assert errors["gradebook_writer"] == (
        "White: FileNotFoundError: [Errno 2] No such file or directory: "
        "'../../out/gradebook.csv' (AB.py line 19)")
    assert not any(cls in json.dumps(row) for row in rows.values())
    assert errors["socket_opener"] == "White: ConnectionRefusedError: [Errno 111] Connection refused (AB.py line 16)"
    assert errors["memory_hog"] == "White: MemoryError (AB.py line 10)"
    if fully_boxed():
        assert errors["fork_bomb"] == ("White: BlockingIOError: [Errno 11] Resource temporarily unavailable "
                                       "(AB.py line 12)")
    for name in ("sibling_reader", "gradebook_writer", "socket_opener", "memory_hog"):
        assert rows[name]["opponents"]["dummy"]["losses"] == 1


def test_nothing_outside_the_box_was_touched(graded):
    assert not graded["connected"]                               # the socket reached nobody
    assert snapshot(graded["class"]) == graded["before"]         # no file read-and-changed, none left
    with open(os.path.join(graded["out"], "canary.txt")) as handle:
        assert handle.read() == "untouched\n"
    for path, data in results_files(graded["out"]).items():      # every line a game record
        assert all(json.loads(line)["game"] == 0 for line in data.splitlines()), path


def test_gradebook_files(graded):
    out, book = graded["out"], graded["gradebook"]
    with open(os.path.join(out, "gradebook.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["student"] for r in rows] == [s["student"] for s in book["students"]]
    ab = rows[[r["student"] for r in rows].index("ab")]
    assert {k: ab[k] for k in ("check", "dummy_wins", "dummy_draws", "dummy_losses", "dummy_pass", "verdict",
                               "faults")} == {"check": "accepted", "dummy_wins": "1", "dummy_draws": "0",
                                              "dummy_losses": "0", "dummy_pass": "yes", "verdict": "pass",
                                              "faults": ""}
    with open(os.path.join(out, "gradebook.json")) as handle:
        assert json.load(handle)["students"] == book["students"]
    assert book["isolation"].startswith("bubblewrap" if fully_boxed() else ("bubblewrap", "weaker"))
    report = os.path.join(out, "students", "ab")
    assert sorted(f for f in os.listdir(report) if not os.path.isdir(os.path.join(report, f))) == [
        "check.json", "report.html", "report.json", "report.md"]
    with open(os.path.join(report, "report.json")) as handle:
        assert json.load(handle)["opponents"]["dummy"]["wins"] == 1


def test_resume_plays_nothing_again_and_rebuilds_the_same_gradebook(graded):
    before = results_files(graded["out"])
    said = []
    again = grade_class(graded["class"], graded["out"], ClassGradeSettings(resume=True, **{**GAMES, "say": said.append}))
    assert results_files(graded["out"]) == before
    played = len(graded["rows"]) - 1                  # one game each, no_file has none
    done = [line for line in said if line.startswith("done: ")]
    assert done[-1] == f"done: template ({played}/{played} students)" and len(done) == played
    assert [line for line in said if line not in done] == [
        f"checking {played} files", f"resumed {graded['out']}: {played} games kept"]
    assert again["students"] == graded["gradebook"]["students"]


def test_other_students_grades_do_not_depend_on_the_hostile_ones(graded, tmp_path):
    alone = grade_class(make_class(str(tmp_path / "class"), hostile=False), str(tmp_path / "out"),
                        ClassGradeSettings(**GAMES))
    keep = ("check", "check_reasons", "opponents", "verdict", "faults", "sha256", "printed_games")

    def view(row):
        return {k: (row[k] if k != "check_reasons" else [r.split("/class/")[-1] for r in row[k]]) for k in keep}
    assert {r["student"]: view(r) for r in alone["students"]} == {
        name: view(graded["rows"][name]) for name in BENIGN}


def test_bad_class_folders_are_one_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    for argv, message in (
            (["grade", str(tmp_path / "nope"), "--out", str(tmp_path / "o")],
             f"error: class folder '{tmp_path / 'nope'}' does not exist"),
            (["grade", str(tmp_path / "empty"), "--out", str(tmp_path / "o")],
             f"error: no submissions in {tmp_path / 'empty'}: expected sub-folders with AB.py or .py files"),
            (["grade", str(tmp_path / "empty"), "--out", str(tmp_path / "empty" / "o")],
             f"error: --out {tmp_path / 'empty' / 'o'} is inside the class folder {tmp_path / 'empty'}; "
             f"choose a folder outside it")):
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == message + "\n"


def test_a_student_twice_is_refused(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "AB.py").write_text("def studentAgent(b):\n    return None\n")
    (tmp_path / "alice.py").write_text("def studentAgent(b):\n    return None\n")
    with pytest.raises(GradeError, match="two submissions in .* are both student 'alice'"):
        find_submissions(str(tmp_path))


def test_the_grade_command_end_to_end(tmp_path, capsys):
    """Through the command line as a TA types it (the per-variant defaults filled in by the CLI)."""
    klass = make_class(str(tmp_path / "class"), hostile=False, ab=False)
    out = tmp_path / "out"
    code = cli.main(["grade", klass, "--out", str(out), "--games", "1", "--opponents", "dummy", "--jobs", "2",
                     "--progress", "none", "--quiet"])
    text = capsys.readouterr().out
    assert code == 0
    rows = {r["student"]: r for r in json.loads((out / "gradebook.json").read_text())["students"]}
    assert set(rows) == {"clean", "no_file", "pawn_pusher", "pawn_pusher_loose", "syntax_error", "template"}
    assert rows["clean"]["opponents"]["dummy"]["games"] == 1 and rows["clean"]["check"] == "accepted"
    assert rows["syntax_error"]["check"] == "rejected" and rows["no_file"]["verdict"] == "no file"
    assert text.splitlines()[0].startswith("6 students: ")
    assert f"written: {out / 'gradebook.csv'}" in text
