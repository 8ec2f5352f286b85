"""Issue 49: what a TA hit grading a CS3243 class. A class of our own students (a copy of AB.py
twice, a file that prints during games only, a syntax error, a numpy import, a nested AB.py, a
second download named `AB (2).PY`, a zip and a note), graded once (1 game against dummy), then:
resumes with other settings refused, the printing rule in every output, one discovery rule
with the Gradescope bundle, --force stopped early, the students' reports, the points column,
the variants grade does not take, the tournament of a class, and the Makefile."""
import json
import os
import shutil
import subprocess
import zipfile

import pytest
from cli_run import run_cli

from harness.grading import grade as grading
from harness.commands.common import RESUME_HINT, runs_in
from harness.grading.gradescope import Settings
from harness.grading.gradescope.autograder import opponent_test
from harness.grading.grade import ClassGradeSettings, GradeError, find_submissions, grade_class
from harness.runs import series
from harness.runs.results import ResultsError
from harness.variants import find_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AB = os.path.join(ROOT, "AB.py")
CLEAN = os.path.join(ROOT, "tests", "fixtures", "hostile", "clean.py")
GAMES = dict(games=2, opponents=("dummy",), jobs=2, progress="none", say=lambda text: None)
# prints from its second move on (not on the start board, so the course's check accepts it), and
# without the words the check looks for
PRINTS_LATER = '''
import sys
_played = studentAgent
_calls = [0]


def studentAgent(gameboard):
    _calls[0] += 1
    if _calls[0] > 1:
        getattr(sys, "std" + "out").write("thinking\\n")
    return _played(gameboard)
'''


def snapshot(folder):
    out = {}
    for where, _, names in os.walk(folder):
        for name in names:
            if name != ".lock":
                with open(os.path.join(where, name), "rb") as handle:
                    out[os.path.relpath(os.path.join(where, name), folder)] = handle.read()
    return out


def make_ta_class(folder):
    os.makedirs(os.path.join(folder, "alice"))
    shutil.copy(AB, os.path.join(folder, "alice", "AB.py"))
    shutil.copy(AB, os.path.join(folder, "bob.py"))                       # the same file as alice's
    with open(os.path.join(folder, "carol.py"), "w") as handle:
        handle.write("import sys\n\n\ndef studentAgent(gameboard:\n    return None\n")
    os.makedirs(os.path.join(folder, "dave"))
    with open(AB) as source, open(os.path.join(folder, "dave", "AB.py"), "w") as handle:
        handle.write(source.read() + PRINTS_LATER)
    os.makedirs(os.path.join(folder, "erin"))
    with open(os.path.join(folder, "erin", "AB.py"), "w") as handle:
        handle.write("import numpy\n\n\ndef studentAgent(gameboard):\n    return numpy.zeros(2)\n")
    os.makedirs(os.path.join(folder, "frank", "src", "agent"))
    shutil.copy(CLEAN, os.path.join(folder, "frank", "src", "agent", "AB.py"))
    with open(os.path.join(folder, "frank", "README.txt"), "w") as handle:
        handle.write("my agent\n")
    os.makedirs(os.path.join(folder, "gina"))
    shutil.copy(CLEAN, os.path.join(folder, "gina", "AB (2).PY"))
    with zipfile.ZipFile(os.path.join(folder, "kate.zip"), "w") as bundle:
        bundle.writestr("AB.py", "def studentAgent(gameboard):\n    return None\n")
    with open(os.path.join(folder, "notes.txt"), "w") as handle:
        handle.write("grading notes\n")
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("ta")
    klass = make_ta_class(str(base / "class"))
    out = str(base / "out")
    said = []
    gradebook = grade_class(klass, out, ClassGradeSettings(**{**GAMES, "say": said.append}))
    return {"class": klass, "out": out, "gradebook": gradebook, "said": said,
            "rows": {row["student"]: row for row in gradebook["students"]}}


# ----------------------------------------------------------------------------- 1. resume


@pytest.mark.parametrize("change, setting", [
    (dict(opponents=("dummy", "random")), "it differs in opponents"),
    (dict(seed=7), "it differs in seed"),
    (dict(move_timeout=5.0), "it differs in move_timeout"),
    (dict(points=50.0), "it differs in points"),
    (dict(games=1), r"holds a grading of 2 games; --games may only grow on --resume \(given 1\)"),
])
def test_a_resume_with_other_settings_is_refused_and_nothing_is_rewritten(graded, change, setting):
    before = snapshot(graded["out"])
    with pytest.raises(ResultsError, match=setting):
        grade_class(graded["class"], graded["out"], ClassGradeSettings(resume=True, **{**GAMES, **change}))
    assert snapshot(graded["out"]) == before


def test_a_resume_counts_the_games_kept_from_the_series_not_from_its_words(tmp_path, monkeypatch):
    """The grader's "resumed OUT: N games kept" is the series' count (RunResult.kept), whatever
    the series' own "resuming ..." line says: reworded here, the count stays and no such line
    reaches the console."""
    klass = tmp_path / "class"
    klass.mkdir()
    for name in ("solo.py", "duo.py", "trio.py"):
        shutil.copy(CLEAN, klass / name)
    out = str(tmp_path / "out")
    grade_class(str(klass), out, ClassGradeSettings(**{**GAMES, "games": 1}))
    original = series.open_run

    def reworded(out, settings, resume, fresh, say, *rest, **options):
        return original(out, settings, resume, fresh, lambda text: say(text.replace("resuming", "continuing")
                                                                       .replace("games kept", "kept")),
                        *rest, **options)
    monkeypatch.setattr(series, "open_run", reworded)
    said = []
    book = grade_class(str(klass), out, ClassGradeSettings(**{**GAMES, "resume": True, "say": said.append}))
    assert [line for line in said if not line.startswith("done: ")] == [
        "checking 3 files", f"resumed {out}: 3 games kept"]
    assert [row["opponents"]["dummy"]["games"] for row in book["students"]] == [2, 2, 2]


def test_the_grade_command_refuses_a_changed_resume_in_one_line(graded, capsys):
    code, out, err = run_cli(["grade", graded["class"], "--out", graded["out"], "--games", "2", "--opponents", "dummy",
                              "--resume", "--quiet", "--seed", "3"], capsys)
    assert (code, out, err) == (2, "", f"error: {graded['out']} holds another grading (it differs in seed); "
                                       f"choose another --out\n")


def test_series_report_tournament_and_compare_refuse_a_changed_resume(tmp_path, capsys):
    """Every command that resumes: a smaller --games or another setting is one line, exit 2."""
    series = str(tmp_path / "series")
    assert run_cli(["series", "--white", "random", "--black", "dummy", "--games", "2", "--out", series,
                    "--quiet"], capsys)[0] == 0
    assert run_cli(["series", "--white", "random", "--black", "dummy", "--games", "1", "--out", series,
                    "--quiet", "--resume"], capsys)[1:] == (
        "", f"error: {series} holds a series of 2 games; --games may only grow on --resume (given 1): give --games 2 "
            f"or more, or choose another --out\n")
    report = str(tmp_path / "report")
    assert run_cli(["report", "random", "--opponents", "dummy,random", "--games", "1", "--out", report,
                    "--quiet"], capsys)[0] == 0
    assert run_cli(["report", "random", "--opponents", "dummy", "--games", "1", "--out", report, "--quiet",
                    "--resume"], capsys)[1:] == (
        "", f"error: {report} holds another report (it differs in opponents); choose another --out\n")
    tour = str(tmp_path / "tour")
    assert run_cli(["tournament", "random", "dummy", "--games", "1", "--out", tour, "--quiet"], capsys)[0] == 0
    assert run_cli(["tournament", "random", "dummy", "greedy", "--games", "1", "--out", tour, "--quiet",
                    "--resume"], capsys)[1:] == (
        "", f"error: {tour} holds another tournament (it differs in players); choose another --out\n")
    compare = str(tmp_path / "compare")     # one series: open_run refuses (its SPRT may change, docs/compare.md)
    assert run_cli(["compare", "random", "dummy", "--games", "4", "--out", compare, "--quiet"], capsys)[0] == 0
    assert run_cli(["compare", "random", "dummy", "--games", "2", "--out", compare, "--quiet", "--resume"],
                   capsys)[1:] == (
        "", f"error: {compare} holds a series of 4 games; --games may only grow on --resume (given 2): give --games 4 "
            f"or more, or choose another --out\n")
    # the same settings, more games: resumed
    assert run_cli(["report", "random", "--opponents", "dummy,random", "--games", "2", "--out", report, "--quiet",
                    "--resume"], capsys)[0] == 0


# ----------------------------------------------------------------------------- 2. printing


def test_a_file_that_prints_during_games_fails_them_in_every_output(graded):
    dave = graded["rows"]["dave"]
    assert (dave["check"], dave["opponents"]["dummy"]["wins"], dave["printed_games"]) == ("accepted", 2, 2)
    assert (dave["verdict"], dave["points"]) == ("fail", 0.0)            # won as played, lost for the course
    assert dave["notes"] == ["printed during 2 games: counted as lost, the course rejects files that print"]
    line = next(line for line in grading.summary_lines(graded["gradebook"]) if line.startswith("dave "))
    assert line.split()[1:3] == ["fail", "0/100"] and line.endswith("(printed during 2 games: counted as lost, the "
                                                                    "course rejects files that print)")
    with open(os.path.join(graded["out"], "gradebook.csv")) as handle:
        assert "printed during 2 games" in next(row for row in handle if row.startswith("dave,"))
    with open(os.path.join(graded["out"], "students", "dave", "report.md")) as handle:
        md = handle.read()
    assert "AB.py printed during 2 games (dummy 2/2): the course's autograder rejects files that print" in md
    assert "Course verdict: FAIL. Points: 0 of 100 (dummy 0/100)." in md


def test_the_gradescope_test_of_a_printing_file_says_so_and_scores_0(tmp_path):
    results = str(tmp_path / "results.jsonl")
    games = []
    for i in range(2):
        game = {"game": i, "seed": i, "result": "white", "reason": "king_capture", "plies": 3, "moves": ["d1d2"] * 3,
                "error": None, "printed": {"white": "hi\n" if i == 1 else None, "black": None},
                "think": {"white": {"total": 0.2, "max": 0.1, "moves": 2, "seconds": [0.1, 0.1]},
                          "black": {"total": 0, "max": 0, "moves": 0, "seconds": []}}}
        games.append((game, "white", results))
    settings = Settings.for_variant(find_variant("cs3243"), opponents=["dummy"])
    test = opponent_test("dummy", games, 1.0, 100, settings, {})
    assert (test["score"], test["status"]) == (0.0, "failed")
    assert test["output"].splitlines()[:4] == [
        "2 games as White: won 2, drawn 0, lost 0.",
        "Your file printed during 1 game: the course's autograder rejects files that print, so those games count "
        "as lost (1 of 2 counted not lost).",
        "Not lost 1/2 (95 % CI 9.5-90.5 %); the course's pass mark is 100 % not lost: not met.",
        "Points: 0 of 100: the pass mark is not met."]


# ----------------------------------------------------------------------------- 3. discovery


def test_grade_and_the_bundle_find_the_same_file_and_every_other_entry_is_named(graded):
    from harness.grading.submission import find_submission
    found = {s.student: s for s in find_submissions(graded["class"])}
    assert {name: os.path.relpath(s.path, graded["class"]) for name, s in found.items() if s.path} == {
        "alice": "alice/AB.py", "bob": "bob.py", "carol": "carol.py", "dave": "dave/AB.py", "erin": "erin/AB.py",
        "frank": "frank/src/agent/AB.py", "gina": "gina/AB (2).PY"}
    for name in ("alice", "dave", "erin", "frank", "gina"):         # the bundle's rule is grade's
        chosen, _ = find_submission(os.path.join(graded["class"], name))
        assert os.path.join(graded["class"], name, chosen) == found[name].path
    assert graded["gradebook"]["not_graded"] == [
        {"entry": "kate.zip", "reason": "a zip file: grade does not open archives; unzip it into a folder kate/ to "
                                        "grade it as that student's submission"},
        {"entry": "notes.txt", "reason": "not a .py file or a folder"}]
    assert "not graded: kate.zip: a zip file: grade does not open archives; unzip it into a folder kate/ to grade " \
           "it as that student's submission" in graded["said"]
    assert grading.summary_lines(graded["gradebook"])[-1] == "not graded: notes.txt: not a .py file or a folder"
    assert (graded["rows"]["frank"]["check"], graded["rows"]["gina"]["check"]) == ("accepted", "accepted")


# ----------------------------------------------------------------------------- 4. --force stopped


def test_force_stopped_before_the_games_leaves_no_stale_gradebook(tmp_path, monkeypatch):
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(CLEAN, klass / "solo.py")
    out = str(tmp_path / "out")
    grade_class(str(klass), out, ClassGradeSettings(**{**GAMES, "games": 1}))
    assert os.path.exists(os.path.join(out, "gradebook.json"))

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(grading, "_check_all", stopped)
    with pytest.raises(KeyboardInterrupt):
        grade_class(str(klass), out, ClassGradeSettings(force=True, **{**GAMES, "games": 1}))
    assert not os.path.exists(os.path.join(out, "gradebook.json"))
    assert not os.path.exists(os.path.join(out, "gradebook.csv"))


# ----------------------------------------------------------------------------- 5. students' reports


def test_student_reports_name_no_ta_folder_offer_what_a_student_can_run_and_the_course_verdict(graded):
    for student in ("alice", "bob", "carol", "dave", "frank"):
        folder = os.path.join(graded["out"], "students", student)
        for name in ("report.md", "report.json", "report.html", "check.json"):
            with open(os.path.join(folder, name)) as handle:
                text = handle.read()
            assert graded["class"] not in text and graded["out"] not in text, (student, name)
            assert "Our target" not in text and "harness replay" not in text, (student, name)
    with open(os.path.join(graded["out"], "students", "carol", "report.md")) as handle:
        carol = handle.read()
    assert "Course check of carol.py: REJECTED: carol.py:4: syntax error: '(' was never closed" in carol
    assert "Course verdict: REJECTED by the course's check (scored 0). Points: 0 of 100 (dummy 0/100)." in carol
    assert "- Check your file as the course does: python -m harness check carol.py." in carol
    assert "| dummy | white | 0 | 0 | loss | crash | 0 | `dummy/results.jsonl` |" in carol
    with open(os.path.join(graded["out"], "students", "frank", "report.json")) as handle:
        frank = json.load(handle)
    assert frank["agent"] == "src/agent/AB.py" and frank["you_can"][1].endswith("python -m harness check AB.py")
    assert graded["rows"]["carol"]["check_reasons"] == ["carol.py:4: syntax error: '(' was never closed"]


# ----------------------------------------------------------------------------- 6. points


def test_points_follow_the_bundles_rule_and_identical_files_are_flagged(graded):
    rows = graded["rows"]
    assert {name: (row["verdict"], row["points"]) for name, row in rows.items()} == {
        "alice": ("pass", 100.0), "bob": ("pass", 100.0), "carol": ("rejected", 0.0), "dave": ("fail", 0.0),
        "erin": ("rejected", 0.0), "frank": ("fail", 0.0), "gina": ("fail", 0.0)}
    assert rows["alice"]["same_file_as"] == ["bob"] and rows["bob"]["same_file_as"] == ["alice"]
    assert "the same file (sha256) as alice" in rows["bob"]["notes"]
    with open(os.path.join(graded["out"], "gradebook.csv")) as handle:
        header = handle.readline().strip().split(",")
    assert header[5:10] == ["dummy_wins", "dummy_draws", "dummy_losses", "dummy_pass", "dummy_points"]
    assert "points" in header and "same_file_as" in header
    # --partial: points x the not-lost rate, as the bundle's --partial (3 of 4 not lost: 75 of 100)
    entry = {"pass_mark": 1.0, "course_not_lost": 3, "games": 4}
    report = {"opponents": {"dummy": entry}}
    assert grading.course_points(report, {"accepted": True}, 100.0, True, ["dummy"])["total"] == 75.0
    assert grading.course_points(report, {"accepted": True}, 100.0, False, ["dummy"])["total"] == 0.0
    assert grading.course_points(report, {"accepted": False}, 100.0, True, ["dummy"])["total"] == 0.0


# ----------------------------------------------------------------------------- 8. smaller


def test_numpy_reason_first_and_no_seconds_for_a_file_that_never_moved(graded):
    erin = graded["rows"]["erin"]
    assert erin["check_reasons"][0].startswith("AB.py:1: imports 'numpy', which the course does not allow")
    assert erin["check_reasons"][1].startswith("AB.py:1: cannot be imported: ")
    assert graded["rows"]["carol"]["max_game_seconds"] is None
    assert 0 < graded["rows"]["alice"]["max_game_seconds"] < 30


def test_grade_out_inside_the_repository_is_refused(tmp_path, capsys):
    (tmp_path / "class").mkdir()
    shutil.copy(CLEAN, tmp_path / "class" / "solo.py")
    code, out, err = run_cli(["grade", str(tmp_path / "class"), "--out", ROOT, "--games", "1"], capsys)
    assert (code, out) == (2, "")
    assert err == (f"error: --out {ROOT} is inside the toolkit's repository ({os.path.realpath(ROOT)}): the "
                   f"gradebook and the students' reports would sit among its files; choose a folder outside it, or "
                   f"one under reports/ (git ignores it)\n")
    with pytest.raises(GradeError):
        grading.inside_repository(os.path.join(ROOT, "docs", "grades"))
    grading.inside_repository(os.path.join(ROOT, "reports", "grades"))       # git ignores reports/


def test_a_tournament_of_a_class_folder_names_students_and_notes_faults(tmp_path, capsys):
    klass = tmp_path / "class"
    (klass / "frank" / "src").mkdir(parents=True)
    shutil.copy(CLEAN, klass / "frank" / "src" / "AB.py")
    with open(CLEAN) as source:
        (klass / "dave.py").write_text(source.read() + PRINTS_LATER)
    (klass / "nobody").mkdir()
    out = tmp_path / "tour"
    code, text, err = run_cli(["tournament", str(klass), "--games", "1", "--out", str(out), "--progress", "none"],
                              capsys)
    assert code == 0
    assert err.splitlines() == ["not in the tournament: nobody: There is no AB.py in the submission and no .py file "
                                "that defines studentAgent (it is empty)."]
    report = json.loads((out / "report.json").read_text())
    assert report["players"] == ["dave", "frank"]
    assert sorted(os.listdir(out / "pairs")) == ["dave-vs-frank"]
    assert report["faults"] == {"dave": {"printed": 2, "illegal_move": 0}}
    md = (out / "report.md").read_text().splitlines()
    crosstable = md[md.index("| # | player | 1 | 2 | total | faults |") + 2:][:2]
    assert sorted(line.split(" | ", 2)[1] for line in crosstable) == ["dave", "frank"]
    assert {line.split(" | ")[1]: line.split(" | ")[-1] for line in crosstable} == {
        "dave": "printed during 2 games |", "frank": "- |"}
    assert "note: dave printed during 2 games (the course's autograder rejects files that print)" in text


# ----------------------------------------------------------------------------- 9. variants


def test_grade_refuses_a_variant_whose_course_has_no_class_grading(tmp_path, capsys):
    """nthu and congo are graded by harness/grading (tests/test_grade_nthu.py, test_grade_congo.py);
    gardner's course has none: one line, nothing written."""
    (tmp_path / "class").mkdir()
    code, out, err = run_cli(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "o"), "--variant", "gardner"],
                             capsys)
    assert (code, out, err) == (2, "", "error: grade grades classes of cs3243, nthu, congo; gardner has no class "
                                       "grading\n")
    assert not (tmp_path / "o").exists()


# ----------------------------------------------------------------------------- 7. make report


def make_dry(*args):
    """make -n in the repository with its environment in a folder that does not exist (a fresh clone);
    as a top-level make even under `make test` (no make[1] directory lines)."""
    venv = "/nonexistent-venv-for-make-n"
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    return subprocess.run(["make", "--no-print-directory", "-n", f"VENV={venv}", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True).stdout.replace(venv, ".venv")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_report_installs_the_runtime_only_and_resumes_with_resume_1():
    report = make_dry("report")
    assert "pip install --quiet --disable-pip-version-check -r requirements.txt" in report
    assert "requirements-dev.txt" not in report
    assert report.rstrip().endswith('--games 50 --colour white --keep-previous')
    resumed = make_dry("report", "RESUME=1")
    assert resumed.rstrip().endswith('--games 50 --colour white --resume')
    assert "MINICHESS_RESUME_HINT='make report RESUME=1 AGENT=\"AB.py\" GAMES=50 COLOUR=white'" in resumed
    test = make_dry("test")
    assert test.index("-r requirements.txt") < test.index("-r requirements-dev.txt") < test.index("pytest")


def test_the_ctrl_c_hint_names_the_make_command_under_make(monkeypatch):
    from harness.commands.common import RESUME_HINT_ENV
    monkeypatch.setenv(RESUME_HINT_ENV, "make report RESUME=1 AGENT=\"AB.py\" GAMES=50 COLOUR=white")
    runs_in("reports")
    assert RESUME_HINT == ["the games finished so far are kept in reports; run make report RESUME=1 "
                           "AGENT=\"AB.py\" GAMES=50 COLOUR=white to play the rest"]
    monkeypatch.delenv(RESUME_HINT_ENV)
    runs_in("reports")
    assert RESUME_HINT == ["the games finished so far are kept in reports; run the same command with --resume "
                           "to play the rest"]
