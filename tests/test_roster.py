"""The one roster reader (`grade --roster`): columns found by their names or chosen, Google Forms'
Timestamp and ISO times, duplicates and bad rows refused in one line naming the file and line;
the LMS export (gradebook-lms.csv, the `id` column) for a CS3243 class."""
import csv
import datetime
import json
import os

import pytest

from harness import cli
from harness.grading.roster import RosterError, parse_time, read_roster
from tests.classroom import FIXTURES

PLUS8 = datetime.timezone(datetime.timedelta(hours=8))


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_columns_are_found_by_their_names(tmp_path):
    form = write(tmp_path / "form.csv",
                 "Timestamp,Email Address,Student Name,GitHub Repository URL\n"
                 "2026/06/20 11:59:00 PM GMT+8,a@u.edu,Chen Wei,https://github.com/cw/minichess\n"
                 "2026/06/21 1:05:00 AM GMT+8,b@u.edu,li-na,git@github.com:ln/mc.git\n")
    roster = read_roster(form)
    assert roster.columns == {"student": "Student Name", "repo": "GitHub Repository URL", "id": "Email Address",
                              "timestamp": "Timestamp"}
    assert [(e.student, e.name, e.id, e.line) for e in roster.entries] == [
        ("Chen_Wei", "Chen Wei", "a@u.edu", 2), ("li-na", "li-na", "b@u.edu", 3)]
    assert roster.entries[0].submitted == datetime.datetime(2026, 6, 20, 23, 59, tzinfo=PLUS8)
    assert roster.entries[1].repo == "git@github.com:ln/mc.git"
    assert roster.describe() == (f"roster {form}: 2 students; columns read: student = 'Student Name', "
                                 f"repo = 'GitHub Repository URL', id = 'Email Address', timestamp = 'Timestamp'")


def test_chosen_columns_and_an_lms_roster_without_repositories(tmp_path):
    form = write(tmp_path / "form.csv", "Name,Matric,Link,Mail\nann,A001,u1,ann@x\nbob,A002,u2,bob@x\n")
    roster = read_roster(form, "name,link,matric")
    assert roster.columns == {"student": "Name", "repo": "Link", "id": "Matric", "timestamp": None}
    assert [(e.student, e.repo, e.id) for e in roster.entries] == [("ann", "u1", "A001"), ("bob", "u2", "A002")]
    lms = read_roster(write(tmp_path / "lms.csv", "Student ID,Full name\nA0123,ann\n"))
    assert lms.columns["repo"] is None and lms.entries[0].student == "A0123" and lms.entries[0].id == "A0123"
    with pytest.raises(RosterError, match=r"form.csv:1: no column 'nope' \(--roster-columns\)"):
        read_roster(form, "nope,link")


def test_times_as_forms_and_tas_write_them():
    assert parse_time("2026/06/20 11:59:00 PM GMT+8") == datetime.datetime(2026, 6, 20, 23, 59, tzinfo=PLUS8)
    assert parse_time("2026/06/20 12:30:00 AM GMT+8") == datetime.datetime(2026, 6, 20, 0, 30, tzinfo=PLUS8)
    assert parse_time("2026-06-20T15:59:00Z") == datetime.datetime(2026, 6, 20, 15, 59, tzinfo=datetime.timezone.utc)
    assert parse_time("2026-06-20 23:59 +08:00") == datetime.datetime(2026, 6, 20, 23, 59, tzinfo=PLUS8)
    assert parse_time("6/20/2026 23:59:00", PLUS8) == datetime.datetime(2026, 6, 20, 23, 59, tzinfo=PLUS8)
    with pytest.raises(ValueError, match="not a date and time"):
        parse_time("yesterday")


@pytest.mark.parametrize("text, message", [
    ("Name,Repo\nann,u1\nAnn ,u2\nann,u3\n", "form.csv:4: student 'ann' again (first on line 2)"),
    ("Name,Repo\nann,u1\n,u2\n", "form.csv:3: no student in column 'Name'"),
    ("Timestamp,Name,Repo\nsoon,ann,u1\n", "form.csv:2: column 'Timestamp': 'soon' is not a date and time"),
    ("Colour,Size\nred,2\n", "form.csv:1: no student column"),
    ("Name,Repo\n", "form.csv: no student rows under the header"),
])
def test_bad_rosters_are_one_line_naming_the_line(tmp_path, text, message):
    path = write(tmp_path / "form.csv", text)
    with pytest.raises(RosterError) as caught:
        read_roster(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_cs3243_class_gets_ids_and_the_lms_export(tmp_path, capsys):
    klass = tmp_path / "class"
    os.makedirs(klass / "pawn_pusher")
    with open(os.path.join(FIXTURES, "class", "pawn_pusher", "AB.py")) as handle:
        (klass / "pawn_pusher" / "AB.py").write_text(handle.read())
    (klass / "broken.py").write_text("def studentAgent(:\n")
    roster = write(tmp_path / "roster.csv", "Student,Email\npawn_pusher,pp@u.edu\nbroken,=HYPERLINK(1)\nghost,g@u\n")
    out = tmp_path / "out"
    code = cli.main(["grade", str(klass), "--out", str(out), "--games", "1", "--opponents", "dummy", "--jobs", "2",
                     "--progress", "none", "--roster", roster])
    assert code == 0
    printed = capsys.readouterr()
    assert "note: in the roster, not graded: ghost" in printed.err
    book = json.loads((out / "gradebook.json").read_text())
    assert {r["student"]: r["id"] for r in book["students"]} == {"broken": "=HYPERLINK(1)", "pawn_pusher": "pp@u.edu"}
    with open(out / "gradebook.csv") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0])[:2] == ["student", "id"] and table[0]["id"] == "'=HYPERLINK(1)"
    with open(out / "gradebook-lms.csv") as handle:
        lms = list(csv.reader(handle))
    points = {r["student"]: r["points"] for r in book["students"]}
    assert lms[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Minichess cs3243"]
    assert lms[1:] == [["broken", "", "'=HYPERLINK(1)", "", "", str(points["broken"])],
                       ["pawn_pusher", "", "", "pp@u.edu", "", str(points["pawn_pusher"])]]
