"""What a TA hands out, OUT/students/NAME, names no folder of the TA's (issue 56): every file under
it (the per-opponent results.jsonl, series.json, summaries, the reports, state.json) is read as
bytes and must hold neither the class folder's absolute path nor OUT's. The series name each
student's file or binary by a shown name (harness.runs.series.SeriesPlan's `shown`); the real
path only starts the agent. On the code before, each test failed on results.jsonl and series.json."""
import json
import os

from harness.grading.grade import ClassGradeSettings, grade_class
from harness.grading.nthu_class import grade_nthu_class
from harness.runs.results import read_records
from tests.classroom import make_class
from tests.nthu_classroom import make_nthu_class


def holding(folder, *paths):
    """Files under `folder` whose bytes hold one of `paths`."""
    found = []
    for where, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(where, name)
            with open(path, "rb") as handle:
                data = handle.read()
            if any(str(p).encode() in data for p in paths):
                found.append(os.path.relpath(path, folder))
    return sorted(found)


def test_a_cs3243_class_s_student_folders_name_no_path_of_the_ta_s(tmp_path):
    class_dir = make_class(str(tmp_path / "class"), hostile=False, ab=False)
    out = str(tmp_path / "out")
    settings = dict(games=1, opponents=("dummy",), jobs=2, progress="none", say=lambda text: None)
    gradebook = grade_class(class_dir, out, ClassGradeSettings(**settings))
    assert holding(os.path.join(out, "students"), class_dir, out) == []
    records, _ = read_records(os.path.join(out, "students", "clean", "dummy", "results.jsonl"))
    assert records[0]["white"] == "clean/AB.py"
    series = json.loads(open(os.path.join(out, "students", "clean", "dummy", "series.json")).read())
    assert series["white"] == "clean/AB.py" and list(series["files"]) == ["clean/AB.py"]
    # a resume keeps every game (the shown names and their sha256 match), a changed file is played again
    said = []
    again = grade_class(class_dir, out, ClassGradeSettings(resume=True, **{**settings, "say": said.append}))
    assert "resumed " + out + ": 5 games kept" in said
    assert [r["points"] for r in again["students"]] == [r["points"] for r in gradebook["students"]]
    with open(os.path.join(class_dir, "clean", "AB.py"), "a") as handle:
        handle.write("\n# changed\n")
    said.clear()
    grade_class(class_dir, out, ClassGradeSettings(resume=True, **{**settings, "say": said.append}))
    assert "note: clean's file changed since the last run: its games are played again" in said
    assert holding(os.path.join(out, "students"), class_dir, out) == []


def test_an_nthu_class_s_student_folders_name_no_path_of_the_ta_s(tmp_path):
    class_dir = make_nthu_class(str(tmp_path / "class"), ["greedy", "no_compile"])
    out = str(tmp_path / "out")
    grade_nthu_class(class_dir, out, move_timeout=1.0, jobs=2, progress="none", say=lambda text: None,
                     build_timeout=60.0)
    assert holding(os.path.join(out, "students"), class_dir, out) == []
    records, _ = read_records(os.path.join(out, "students", "greedy", "games", "baseline1-white", "results.jsonl"))
    assert records[0]["white"] == "nthu:greedy/build/player_submission"
