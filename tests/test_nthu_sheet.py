"""The NTHU sheet from the form's roster (issue 59): local repositories with commits at chosen
dates (GIT_COMMITTER_DATE), a roster of file:// URLs with a form Timestamp; the graded commit, on
time / late x0.6 / 0, later commits ignored and counted, the version-control point with and
without the template's commits, the advanced bonus given and refused, who committed the shared
code first, the TA's decisions, the sum; a hostile repository configuration never read."""
import csv
import datetime
import json
import os
import shutil
import subprocess
import sys

import pytest

from harness.grading import nthu_sheet, repos
from harness.grading.roster import read_roster
from tests.nthu_classroom import FIXTURE, TEMPLATE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEADLINE = "2026-06-20 23:59 +08:00"
STUDENT_FILES = os.path.join(FIXTURE, "students")


def commit(repo, when, message, files=None):
    """Commit `files` ({path: source path or text}) in `repo` dated `when` (ISO, +08:00)."""
    for rel, what in (files or {}).items():
        target = os.path.join(repo, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isfile(what):
            shutil.copy(what, target)
        else:
            with open(target, "w") as handle:
                handle.write(what)
    env = {**os.environ, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull}
    quiet = dict(cwd=repo, env=env, check=True, capture_output=True)
    subprocess.run(["git", "add", "-A"], **quiet)
    subprocess.run(["git", "-c", "user.name=s", "-c", "user.email=s@x", "commit", "-q", "--allow-empty", "-m",
                    message], **quiet)


def policy(name):
    return os.path.join(STUDENT_FILES, name, "src", "policy", "submission.cpp")


def make_template(folder):
    shutil.copytree(TEMPLATE, folder)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=folder, check=True)
    commit(folder, "2026-06-01T12:00:00+08:00", "the course's template")
    return folder


def from_template(template, folder):
    subprocess.run(["git", "clone", "-q", template, folder], check=True, capture_output=True)
    return folder


def make_forms(base):
    """The template and five students' repositories, and the form's CSV."""
    template = make_template(os.path.join(base, "template"))
    alice = from_template(template, os.path.join(base, "alice"))
    commit(alice, "2026-06-10T12:00:00+08:00", "notes", {"NOTES.md": "my plan\n"})
    commit(alice, "2026-06-12T12:00:00+08:00", "alpha-beta", {"src/policy/submission.cpp": policy("alphabeta7")})
    commit(alice, "2026-06-15T12:00:00+08:00", "notes", {"NOTES.md": "my plan, done\n"})
    commit(alice, "2026-06-22T12:00:00+08:00", "after the grace: broken",
           {"src/policy/submission.cpp": policy("no_compile")})
    carol = from_template(template, os.path.join(base, "carol"))
    commit(carol, "2026-06-18T12:00:00+08:00", "greedy", {"src/policy/submission.cpp": policy("greedy")})
    # alice's alpha-beta, copied beside carol's own policy (not compiled: the ladder stays short)
    commit(carol, "2026-06-19T12:00:00+08:00", "copied", {"src/policy/alphabeta.cpp": policy("alphabeta7")})
    commit(carol, "2026-06-21T00:30:00+08:00", "late, within the grace", {"NOTES.md": "late\n"})
    dave = from_template(template, os.path.join(base, "dave"))
    commit(dave, "2026-06-11T12:00:00+08:00", "greedy", {"src/policy/submission.cpp": policy("greedy")})
    commit(dave, "2026-06-14T12:00:00+08:00", "notes", {"NOTES.md": "greedy\n"})
    form = os.path.join(base, "form.csv")
    with open(form, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Timestamp", "Email Address", "Student Name", "GitHub repository URL"])
        writer.writerow(["2026/06/20 10:00:00 PM GMT+8", "alice@uni.edu", "alice", "file://" + alice])
        writer.writerow(["2026/06/20 11:00:00 PM GMT+8", "carol@uni.edu", "carol", "file://" + carol])
        writer.writerow(["2026/06/21 2:59:00 AM GMT+8", "dave@uni.edu", "dave", "file://" + dave])
        writer.writerow(["2026/06/20 9:00:00 PM GMT+8", "erin@uni.edu", "erin", ""])
        writer.writerow(["2026/06/20 9:00:00 PM GMT+8", "frank@uni.edu", "frank", "file://" + base + "/nowhere"])
    return template, form


def settings(form, template=None, **more):
    deadline = nthu_sheet.parse_deadline(DEADLINE)
    return nthu_sheet.SheetSettings(deadline=deadline, roster=read_roster(form, zone=deadline.tzinfo),
                                    template=template, **more)


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    base = str(tmp_path_factory.mktemp("forms"))
    template, form = make_forms(base)
    return base, template, form


def fetched(forms, out, **more):
    base, template, form = forms
    sheet = nthu_sheet.Sheet(settings(form, **more), say=lambda text: None)
    students = {s.name: s for s in sheet.students(str(out), lambda text: None)}
    return sheet, students


def test_the_graded_commit_and_the_later_commits(forms, tmp_path):
    sheet, students = fetched(forms, tmp_path / "out")
    alice = sheet.info["alice"]
    # the last commit before deadline + grace: 06-15's, not 06-22's (counted, not graded)
    assert alice["commit_date"] == "2026-06-15T12:00:00+08:00" and alice["later_commits"] == 1
    with open(os.path.join(students["alice"].path, "src", "policy", "submission.cpp")) as handle, \
            open(policy("alphabeta7")) as original:
        assert handle.read() == original.read()
    assert sheet.info["carol"]["commit_date"] == "2026-06-21T00:30:00+08:00"
    assert sheet.info["carol"]["later_commits"] == 0
    assert students["erin"].problem == "no repository URL (roster line 5)"
    assert students["frank"].problem.startswith(f"cannot clone file://{forms[0]}/nowhere")
    # policy deadline: carol's commit at 00:30 is after the deadline: her 06-19 commit is graded
    sheet, _ = fetched(forms, tmp_path / "out2", late_policy="deadline")
    assert sheet.info["carol"]["commit_date"] == "2026-06-19T12:00:00+08:00"
    assert sheet.info["carol"]["later_commits"] == 1


def test_a_class_folder_s_git_repositories_get_the_deadline(forms, tmp_path):
    klass = tmp_path / "class"
    shutil.copytree(os.path.join(forms[0], "alice"), klass / "alice")
    shutil.copytree(TEMPLATE, klass / "plain")
    deadline = nthu_sheet.parse_deadline(DEADLINE)
    sheet = nthu_sheet.Sheet(nthu_sheet.SheetSettings(deadline=deadline, class_dir=str(klass)), say=lambda t: None)
    students = {s.name: s for s in sheet.students(str(tmp_path / "out"), lambda text: None)}
    assert sheet.info["alice"]["commit_date"] == "2026-06-15T12:00:00+08:00"
    assert sheet.info["alice"]["later_commits"] == 1
    assert sheet.info["plain"]["note"] == "not a git repository: graded as it is, no deadline applied"
    assert students["plain"].problem is None and os.path.isfile(os.path.join(students["plain"].path, "Makefile"))
    # the class folder's own checkout (the broken 06-22 policy) is not what is graded
    with open(os.path.join(students["alice"].path, "src", "policy", "submission.cpp")) as handle, \
            open(policy("alphabeta7")) as original:
        assert handle.read() == original.read()


def test_version_control_with_and_without_the_templates_commits(forms, tmp_path):
    without, _ = fetched(forms, tmp_path / "a")
    assert {n: without.info[n]["vcs_commits"] for n in ("alice", "carol", "dave")} == {"alice": 4, "carol": 4,
                                                                                        "dave": 3}
    with_template, _ = fetched(forms, tmp_path / "b", template=forms[1])
    assert {n: with_template.info[n]["vcs_commits"] for n in ("alice", "carol", "dave")} == {"alice": 3, "carol": 3,
                                                                                             "dave": 2}


def test_resume_fetches_only_what_changed(forms, tmp_path):
    base = forms[0]
    work = str(tmp_path / "dave")
    shutil.copytree(os.path.join(base, "dave"), work)
    url = "file://" + work
    fetch = repos.FetchSettings()
    folder = str(tmp_path / "out" / "dave")
    assert repos.fetch(url, folder, fetch, False) == "cloned"
    assert repos.fetch(url, folder, fetch, True) == "unchanged"
    commit(work, "2026-06-16T12:00:00+08:00", "more")
    assert repos.fetch(url, folder, fetch, True) == "fetched"
    assert len(repos.head_commits(folder)) == 4


def test_a_hostile_repository_configuration_is_never_read(tmp_path):
    """A class folder's repository with an fsmonitor, a hook and a pager that would write a marker:
    fetched and read, nothing of it runs."""
    marker = tmp_path / "ran"
    repo = str(tmp_path / "evil")
    os.makedirs(repo)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    commit(repo, "2026-06-10T12:00:00+08:00", "one", {"a.cpp": "int main() { return 0; }\n"})
    evil = f"!touch {marker}"
    for key, value in (("core.fsmonitor", f"touch {marker}"), ("core.pager", f"touch {marker}"),
                       ("alias.log", evil), ("core.hooksPath", str(tmp_path / "hooks"))):
        subprocess.run(["git", "config", key, value], cwd=repo, check=True)
    os.makedirs(tmp_path / "hooks")
    for hook in ("post-checkout", "pre-commit", "reference-transaction"):
        (tmp_path / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (tmp_path / "hooks" / hook).chmod(0o755)
    folder = str(tmp_path / "out" / "evil")
    repos.fetch(repos.url_of(repo), folder, repos.FetchSettings(), False)
    repos.extract(folder, repos.head_commits(folder)[0][0], repos.FetchSettings())
    assert repos.history(folder, "HEAD")[0][1] == int(datetime.datetime(2026, 6, 10, 4).replace(
        tzinfo=datetime.timezone.utc).timestamp())
    with open(os.path.join(folder, ".git", "config")) as handle:
        assert "fsmonitor" not in handle.read()
    assert not marker.exists()
    with pytest.raises(repos.RepoError, match="only https, ssh, git and file"):
        repos.url_of("ext::sh -c touch% /tmp/x")


def test_the_tas_tables_are_checked_before_anything_is_built(tmp_path):
    bonus = tmp_path / "bonus.csv"
    bonus.write_text("student,algorithm\nalice,MCTS\nbob,GPT\n")
    sheet = nthu_sheet.Sheet(nthu_sheet.SheetSettings(advanced=str(bonus)), say=lambda t: None)
    with pytest.raises(nthu_sheet.ClassError, match=r"--advanced .*bonus.csv:3: algorithm 'GPT': MCTS or NNUE"):
        sheet.read_tables(["alice", "bob"])
    decisions = tmp_path / "decisions.csv"
    decisions.write_text("plagiarizer,plagiarized\nalice,bob\nbob,carl\n")
    sheet = nthu_sheet.Sheet(nthu_sheet.SheetSettings(plagiarism=str(decisions)), say=lambda t: None)
    with pytest.raises(nthu_sheet.ClassError, match=r"decisions.csv:3: 'bob' is both a plagiarizer and plagiarized"):
        sheet.read_tables(["alice", "bob", "carl"])


def test_the_late_rule():
    s = nthu_sheet.SheetSettings(deadline=nthu_sheet.parse_deadline(DEADLINE))
    deadline = s.deadline.timestamp()
    assert nthu_sheet.late_rule(int(deadline) - 60, None, s) == (1.0, [])
    factor, reasons = nthu_sheet.late_rule(int(deadline) + 3600, None, s)
    assert factor == 0.6 and reasons == ["graded commit 1.0 h after the deadline (x0.6)"]
    factor, reasons = nthu_sheet.late_rule(int(deadline) - 60, s.deadline + datetime.timedelta(hours=3), s)
    assert factor == 0.0 and reasons == ["submitted 3.0 h late (the form's Timestamp; after the 2.0 h grace: 0)"]
    factor, _ = nthu_sheet.late_rule(int(deadline) - 60, s.deadline + datetime.timedelta(hours=1.5), s)
    assert factor == 0.6
    s.late_policy = "deadline"
    assert nthu_sheet.late_rule(int(deadline) + 3600, s.deadline + datetime.timedelta(hours=3), s) == (1.0, [])
    assert nthu_sheet.parse_grace("90m") == datetime.timedelta(minutes=90)


# ----------------------------------------------------------------------------- the whole sheet


@pytest.fixture(scope="module")
def sheet_run(forms, tmp_path_factory):
    base, template, form = forms
    out = str(tmp_path_factory.mktemp("sheet") / "out")
    advanced = os.path.join(base, "bonus.csv")
    with open(advanced, "w") as handle:
        handle.write("student,algorithm\nalice,NNUE\ndave,MCTS\n")
    decisions = os.path.join(base, "decisions.csv")
    with open(decisions, "w") as handle:
        handle.write("plagiarizer,plagiarized\ncarol,alice\n")
    command = [sys.executable, "-m", "harness", "grade", "--variant", "nthu", "--roster", form, "--deadline", DEADLINE,
               "--out", out, "--template", template, "--advanced", advanced, "--plagiarism", decisions,
               "--ranking-bonus", "2,1", "--similar", "--move-timeout", "3", "--jobs", "2", "--progress", "none"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(os.path.join(out, "gradebook.json")) as handle:
        book = json.load(handle)
    return out, done, {row["student"]: row for row in book["students"]}


@pytest.mark.timeout(900)        # the class is built and laddered once, in this test's setup
def test_the_sheet_sums_every_rule(sheet_run):
    out, done, rows = sheet_run
    assert "columns read: student = 'Student Name', repo = 'GitHub repository URL', id = 'Email Address', " \
           "timestamp = 'Timestamp'" in done.stderr
    alice = rows["alice"]
    assert alice["points_breakdown"] == {"baselines": 5, "vcs": 1, "ranking": 2, "advanced": 2, "late_factor": 1.0,
                                         "plagiarism_factor": 0.5}
    assert alice["points"] == 5 and alice["late"] is False and alice["later_commits"] == 1
    assert alice["vcs"] == {"commits": 3, "bonus": 1, "needed": 3}
    assert alice["advanced"] == {"algorithm": "NNUE", "bonus": 2, "reason": None}
    assert alice["plagiarism"] == {"role": "plagiarized", "other": "carol"}
    carol = rows["carol"]
    assert carol["points_breakdown"] == {"baselines": 1, "vcs": 1, "ranking": 0, "advanced": 0, "late_factor": 0.6,
                                         "plagiarism_factor": 0.0}
    assert carol["points"] == 0 and carol["late"] is True
    assert carol["plagiarism"] == {"role": "plagiarizer", "other": "alice"}
    dave = rows["dave"]
    assert dave["advanced"] == {"algorithm": "MCTS", "bonus": 0, "reason": "baselines 1-3 not all passed: no bonus"}
    assert dave["points_breakdown"]["baselines"] == 1 and dave["late_factor"] == 0.0 and dave["points"] == 0
    assert dave["late_reasons"] == ["submitted 3.0 h late (the form's Timestamp; after the 2.0 h grace: 0)"]
    assert rows["erin"]["points"] == 0 and rows["erin"]["build_errors"] == ["no repository URL (roster line 5)"]
    assert rows["frank"]["points"] == 0 and rows["frank"]["repository_problem"].startswith("cannot clone")
    assert alice["id"] == "alice@uni.edu"
    with open(os.path.join(out, "gradebook.csv")) as handle:
        table = {r["student"]: r for r in csv.DictReader(handle)}
    assert table["carol"]["late_factor"] == "0.6" and table["carol"]["plagiarism"] == "plagiarizer (alice)"
    assert table["alice"]["commit"] == alice["commit"] and table["alice"]["points"] == "5"
    with open(os.path.join(out, "students", "alice", "report.md")) as handle:
        report = handle.read()
    assert "- points = (5 + 1 + 2 + 2) x 1 x 0.5 = 5" in report
    assert f"graded commit: {alice['commit']}" in report and "can be forged" in report


@pytest.mark.timeout(900)
def test_who_committed_the_shared_code_first(sheet_run):
    out, _, rows = sheet_run
    text = "earlier: alice 2026-06-12, later: carol 2026-06-19"
    assert [c["text"] for c in rows["carol"]["similarity_chronology"]][0].endswith(f"with alice ({text})")
    assert rows["alice"]["similarity_chronology"][0]["earlier"] == "alice"
    with open(os.path.join(out, "similarity", "similarity.html")) as handle:
        assert text in handle.read()
    with open(os.path.join(out, "gradebook-lms.csv")) as handle:
        lms = list(csv.DictReader(handle))
    assert list(lms[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Minichess nthu", "similarity"]
    alice = next(r for r in lms if r["Student"] == "alice")
    assert alice["SIS Login ID"] == "alice@uni.edu" and alice["Minichess nthu"] == "5"
    assert text in alice["similarity"]
