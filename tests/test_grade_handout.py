"""Issue 58: a grade a TA can explain and hand out, in every course. NTHU and Congo rows say why
(faults per kind, the first error), clock-decided results are marked (near-limit moves, Congo
timeouts apart from wrong answers), one resume rule (a changed setting or class folder refused
in one line, nothing rewritten), options of another course refused, a class of another course
refused, hand-out report.html pages without the TA's paths, the class page OUT/index.html,
--only / --exclude leaving every other row byte-identical, and the smaller items."""
import csv
import json
import os
import shutil

import pytest
from cli_run import run_cli

from harness import similarity
from harness.grading import common, congo_class, nthu_class, reasons
from harness.grading.common import ClassError
from harness.grading.congo_class import grade_congo_class
from harness.grading.grade import ClassGradeSettings, grade_class, summary_lines
from harness.grading.nthu_class import grade_nthu_class
from harness.grading.report import check_line, grouped_problems, statistics_rows
from tests.test_grade_ta import snapshot
from tests.handout_classes import CONGO_SETTINGS, NTHU_SETTINGS, graded_congo, graded_nthu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AB = os.path.join(ROOT, "AB.py")
CS3243_GAMES = dict(games=1, opponents=("dummy",), jobs=2, progress="none", say=lambda text: None)


def csv_lines(out):
    with open(os.path.join(out, "gradebook.csv"), encoding="utf-8") as handle:
        return {line.split(",", 1)[0]: line for line in handle.read().splitlines()[1:]}


def json_rows(out):
    with open(os.path.join(out, "gradebook.json"), encoding="utf-8") as handle:
        return {row["student"]: json.dumps(row) for row in json.load(handle)["students"]}


@pytest.fixture(scope="module")
def nthu(tmp_path_factory):
    class_dir, out, gradebook = graded_nthu(str(tmp_path_factory.mktemp("nthu")))
    return class_dir, out, gradebook, {row["student"]: row for row in gradebook["students"]}


@pytest.fixture(scope="module")
def congo(tmp_path_factory):
    class_dir, out, gradebook = graded_congo(str(tmp_path_factory.mktemp("congo")))
    return class_dir, out, gradebook, {row["student"]: row for row in gradebook["students"]}


# ----------------------------------------------------------------------------- 1. reasons


def test_an_nthu_game_lost_by_a_fault_says_why_in_the_gradebook_and_on_the_console(nthu):
    _, out, gradebook, rows = nthu
    assert rows["segfaults"]["faults"] == {"no_move": 2}
    assert rows["segfaults"]["first_error"] == "wrote no complete move (exit status 139)"
    assert rows["silent"]["faults"] == {"no_move": 2}
    assert rows["greedy"]["faults"] == {} and rows["greedy"]["first_error"] is None
    with open(os.path.join(out, "gradebook.csv"), encoding="utf-8") as handle:
        table = {r["student"]: r for r in csv.DictReader(handle)}
    assert table["segfaults"]["faults"] == "no move 2"
    assert table["segfaults"]["first_error"] == "wrote no complete move (exit status 139)"
    lines = nthu_class.summary_lines(gradebook)
    assert lines[1] == nthu_class.LEGEND and "W won, D drawn, L lost" in lines[1]
    assert next(line for line in lines if line.startswith("segfaults")).endswith("LL  faults: no move 2")
    with open(os.path.join(out, "students", "segfaults", "report.md"), encoding="utf-8") as handle:
        assert "- games lost by a fault: no move 2; first: wrote no complete move (exit status 139)" in handle.read()


def test_a_congo_timeout_is_counted_apart_from_wrong_answers(congo):
    _, out, gradebook, rows = congo
    hangs = rows["py_hangs"]
    assert hangs["faults"] == {"timeout": 1} and hangs["timeouts"] == 1
    assert hangs["first_error"] == "eval2: timed out after 2 s"
    assert rows["py_no_drowning"]["faults"] == {"wrong_answer": 5} and rows["py_no_drowning"]["timeouts"] == 0
    lines = congo_class.summary_lines(gradebook)
    assert next(line for line in lines if line.startswith("py_hangs")).endswith("failed: timeout 1")
    assert lines[-1] == ("cases timed out (py_hangs), not counted as wrong answers: the results may depend on "
                         "this machine's load: rerun with --move-timeout 4 (and fewer --jobs) to check")
    with open(os.path.join(out, "students", "py_hangs", "report.md"), encoding="utf-8") as handle:
        assert "1 of these cases timed out: not wrong answers" in handle.read()
    with open(os.path.join(out, "gradebook.csv"), encoding="utf-8") as handle:
        table = {r["student"]: r for r in csv.DictReader(handle)}
    assert (table["py_hangs"]["faults"], table["py_hangs"]["timeouts"]) == ("timeout 1", "1")


def test_a_congo_answer_with_commas_says_it_is_a_format_error(congo):
    _, out, _, rows = congo
    assert rows["commas"]["parts"]["moves"]["passed"] < 5
    with open(os.path.join(out, "students", "commas", "report.json"), encoding="utf-8") as handle:
        first = json.load(handle)["details"]["moves"]["first_differences"][0]
    assert "," in first["got"] and first["note"] == congo_class.COMMA_NOTE
    with open(os.path.join(out, "students", "commas", "report.md"), encoding="utf-8") as handle:
        assert "are right but separated by commas: the course prints them separated by spaces" in handle.read()


# ----------------------------------------------------------------------------- 2. the clock


def test_moves_over_80_percent_of_the_limit_are_counted_and_flagged():
    record = {"result": "black", "reason": "timeout", "error": "White: wrote no complete move within 1 s",
              "think": {"white": {"seconds": [0.2, 0.81, 0.95, 0.5]}, "black": {"seconds": [0.9]}}}
    found = reasons.games_reasons([(record, "white")], 1.0)
    assert found == {"faults": {"timeout": 1}, "first_error": "wrote no complete move within 1 s",
                     "near_limit": 2, "slowest_move": 0.95}
    row = {"student": "amy", "build": "ok", "points": 0, "baselines": {"baseline1": {
        "white": "loss", "black": "win", "passed": False}}, "rules": [], "rank": None, "all_eight": False,
        "faults": {"timeout": 1}, "first_error": None, "near_limit": 2}
    lines = nthu_class.summary_lines({"students": [row], "settings": {"move_timeout": 1.0}})
    assert lines[2].endswith("LW  faults: timeout 1  near-limit moves: 2")
    assert lines[3] == ("moves over 80 % of the limit (amy): the results may depend on this machine's load: "
                        "rerun with --move-timeout 2 (and fewer --jobs) to check")


# ----------------------------------------------------------------------------- 3. one resume rule


def test_a_resume_with_a_changed_setting_or_class_folder_is_refused_and_nothing_is_rewritten(nthu, tmp_path):
    class_dir, out, _, _ = nthu
    before = snapshot(out)
    with pytest.raises(ClassError) as refused:
        grade_nthu_class(class_dir, out, **{**NTHU_SETTINGS, "move_timeout": 10.0}, resume=True)
    assert str(refused.value) == (f"{out} holds a grading made with --move-timeout 1, not 10: give the same "
                                  f"--move-timeout to resume it, --force to start over, or another --out")
    copy = str(tmp_path / "copy")
    shutil.copytree(class_dir, copy)
    with pytest.raises(ClassError) as refused:
        grade_nthu_class(copy, out, **NTHU_SETTINGS, resume=True)
    assert str(refused.value).startswith(f"{out} holds a grading made with the class folder "
                                         f"{os.path.realpath(class_dir)}, not {os.path.realpath(copy)}")
    assert snapshot(out) == before


def test_the_grade_command_refuses_a_changed_congo_resume_in_one_line(congo, capsys):
    class_dir, out, _, _ = congo
    before = snapshot(out)
    code, _, err = run_cli(["grade", class_dir, "--variant", "congo", "--out", out, "--resume", "--cases", "10",
                            "--run-timeout", "6", "--move-timeout", "2", "--seed", "1"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "made with --seed 0, not 1" in err
    assert snapshot(out) == before


@pytest.mark.parametrize("option, variant, words", [
    (["--games", "3"], "nthu", "--games does not apply to a nthu class"),
    (["--opponents", "random"], "nthu", "--opponents does not apply to a nthu class"),
    (["--partial"], "nthu", "--partial does not apply to a nthu class"),
    (["--points", "10"], "congo", "--points does not apply to a congo class"),
    (["--cases", "5"], "nthu", "--cases does not apply to a nthu class"),
    (["--ranking-bonus", "3,2"], "congo", "--ranking-bonus does not apply to a congo class"),
    (["--build-timeout", "5"], "cs3243", "--build-timeout does not apply to a cs3243 class"),
])
def test_options_of_another_course_are_refused_in_one_line(tmp_path, capsys, option, variant, words):
    os.makedirs(tmp_path / "class" / "amy")
    code, _, err = run_cli(["grade", str(tmp_path / "class"), "--variant", variant, "--out", str(tmp_path / "out"),
                            *option], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err
    assert not os.path.exists(tmp_path / "out")


def test_a_class_of_another_course_is_one_line(nthu, tmp_path, capsys):
    class_dir = nthu[0]
    code, _, err = run_cli(["grade", class_dir, "--variant", "congo", "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"nobody in {class_dir} has a Congo program" in err and "another course's class" in err
    assert not os.path.exists(tmp_path / "out" / "gradebook.json")


# ----------------------------------------------------------------------------- 4. hand-out pages


def test_the_nthu_report_html_has_the_breakdown_reasons_and_games_and_no_ta_path(nthu):
    class_dir, out, _, _ = nthu
    folder = os.path.join(out, "students", "segfaults")
    with open(os.path.join(folder, "report.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "<title>segfaults: 0 points (NTHU MiniChess)</title>" in page
    assert "baselines passed: 0 of 4 (0 points)" in page
    assert "games lost by a fault: no move 2; the first: wrote no complete move (exit status 139)" in page
    assert "baseline1 not passed (as White loss, as Black loss)" in page
    assert page.count('<button type="button" class="view"') == 2
    assert "python -m harness replay games/baseline1-white/results.jsonl --game 0 --variant nthu" in page
    for name in ("report.html", "report.md", "report.json"):
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            text = handle.read()
        for ta_path in (os.path.realpath(out), os.path.abspath(out), os.path.realpath(class_dir), "/tmp/"):
            assert ta_path not in text, (name, ta_path)


def test_the_congo_report_html_shows_the_parts_and_failing_cases(congo):
    _, out, _, _ = congo
    with open(os.path.join(out, "students", "py_hangs", "report.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "<title>py_hangs: score 12.9 (Congo)</title>" in page
    assert ('<tr data-part="eval2"><td>eval2</td><td class="number">9</td><td class="number">10</td><td>ok</td>'
            '<td class="number">0</td><td class="number">1</td><td class="number">0</td></tr>') in page
    assert "timed out after 2 s" in page and "1 case timed out: not wrong answers" in page
    assert "/tmp/" not in page


def test_the_cs3243_rejection_is_listed_once_per_rule_and_no_infinite_elo():
    problems = [f"AB.py:{n}: contains the word 'print' (the course rejects print anywhere)" for n in (3, 9, 14)]
    problems.append("AB.py:20: imports 'numpy', which the course does not allow")
    assert grouped_problems(problems) == [
        "AB.py lines 3, 9, 14: contains the word 'print' (the course rejects print anywhere)",
        "AB.py:20: imports 'numpy', which the course does not allow"]
    line = check_line({"agent": "AB.py", "check": {"accepted": False, "problems": problems}})
    assert line.count("contains the word") == 1
    entry = {"opponent": "dummy", "colour": "white", "wins": 2, "draws": 0, "losses": 0, "games": 2,
             "win_wilson95": [0.34, 1.0], "not_lost_wilson95": [0.34, 1.0], "pass_mark": 0.9, "score": 1.0,
             "elo": float("inf"), "elo_margin": float("inf"), "los": 1.0}
    assert statistics_rows({"opponents": {"dummy": entry}})[0][6] == "too few games"


# ----------------------------------------------------------------------------- 5. the class page


def test_the_class_page_has_a_row_per_student_with_flags_and_links(nthu, congo):
    for out, rows in ((nthu[1], nthu[3]), (congo[1], congo[3])):
        with open(os.path.join(out, "index.html"), encoding="utf-8") as handle:
            page = handle.read()
        for name in rows:
            assert f'<tr data-student="{name}">' in page
            assert f'<a href="students/{name}/report.html">report</a>' in page
        assert "http://" not in page and "https://" not in page and "<script src" not in page
    with open(os.path.join(nthu[1], "index.html"), encoding="utf-8") as handle:
        assert '<span class="flag">faults: no move 2</span>' in handle.read()
    with open(os.path.join(congo[1], "index.html"), encoding="utf-8") as handle:
        assert '<span class="flag">timeouts: 1</span>' in handle.read()


# ----------------------------------------------------------------------------- 6. --only, --exclude


def test_only_regrades_one_student_and_every_other_row_is_byte_identical(nthu, tmp_path):
    class_dir, out, _, _ = nthu
    shutil.copytree(out, out + "-only")
    out = out + "-only"
    with open(os.path.join(out, "grading.json"), encoding="utf-8") as handle:
        assert json.load(handle)["class"] == os.path.realpath(class_dir)
    before_csv, before_json = csv_lines(out), json_rows(out)
    marker = os.path.join(out, "students", "greedy", "marker")
    open(marker, "w").close()
    kept = snapshot(os.path.join(out, "students", "silent"))
    grade_nthu_class(class_dir, out, **NTHU_SETTINGS, only=["greedy"])
    assert not os.path.exists(marker)               # greedy built and played again
    after_csv, after_json = csv_lines(out), json_rows(out)
    assert list(after_csv) == list(before_csv)
    for name in ("segfaults", "silent"):
        assert after_csv[name] == before_csv[name] and after_json[name] == before_json[name]
    assert snapshot(os.path.join(out, "students", "silent")) == kept
    grade_nthu_class(class_dir, out, **NTHU_SETTINGS, resume=True, exclude=["silent"])
    assert list(csv_lines(out)) == ["greedy", "segfaults"]
    assert csv_lines(out)["segfaults"] == before_csv["segfaults"]
    assert not os.path.exists(os.path.join(out, "students", "silent"))
    with pytest.raises(ClassError, match="--only: no student nobody in"):
        grade_nthu_class(class_dir, out, **NTHU_SETTINGS, only=["nobody"])


def test_only_in_a_congo_class_keeps_the_other_rows(congo, tmp_path):
    class_dir, out, _, _ = congo
    copy = out + "-only"
    shutil.copytree(out, copy)
    before_csv, before_json = csv_lines(copy), json_rows(copy)
    grade_congo_class(class_dir, copy, **CONGO_SETTINGS, only=["commas"])
    after_csv, after_json = csv_lines(copy), json_rows(copy)
    assert list(after_csv) == list(before_csv)
    for name in ("py_hangs", "py_no_drowning"):
        assert after_csv[name] == before_csv[name] and after_json[name] == before_json[name]


# ----------------------------------------------------------------------------- CS3243


@pytest.fixture(scope="module")
def cs3243(tmp_path_factory):
    base = tmp_path_factory.mktemp("cs3243")
    class_dir = str(base / "class")
    os.makedirs(os.path.join(class_dir, "alice"))
    shutil.copy(AB, os.path.join(class_dir, "alice", "AB.py"))
    shutil.copy(AB, os.path.join(class_dir, "bob.py"))
    with open(os.path.join(class_dir, "carol.py"), "w") as handle:
        handle.write("def studentAgent(gameboard:\n    return None\n")
    out = str(base / "out")
    return class_dir, out, grade_class(class_dir, out, ClassGradeSettings(**CS3243_GAMES))


def test_cs3243_console_names_the_first_check_reason_and_the_report_the_student(cs3243):
    _, out, gradebook = cs3243
    line = next(line for line in summary_lines(gradebook) if line.startswith("carol"))
    assert line.split()[1] == "rejected"
    assert "(carol.py:1: syntax error: '(' was never closed)" in line
    with open(os.path.join(out, "students", "alice", "report.html"), encoding="utf-8") as handle:
        assert "<title>Report: alice (AB.py)</title>" in handle.read()
    with open(os.path.join(out, "students", "alice", "report.md"), encoding="utf-8") as handle:
        assert handle.readline() == "# Report: alice (AB.py)\n"
    with open(os.path.join(out, "index.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert '<tr data-student="carol">' in page and '<span class="flag">rules: rejected</span>' in page


def test_cs3243_only_and_exclude_leave_the_other_rows_byte_identical(cs3243):
    class_dir, out, _ = cs3243
    copy = out + "-only"
    shutil.copytree(out, copy)
    before_csv, before_json = csv_lines(copy), json_rows(copy)
    grade_class(class_dir, copy, ClassGradeSettings(**CS3243_GAMES, only=("alice",)))
    after_csv, after_json = csv_lines(copy), json_rows(copy)
    assert list(after_csv) == ["alice", "bob", "carol"]
    for name in ("bob", "carol"):
        assert after_csv[name] == before_csv[name] and after_json[name] == before_json[name]
    grade_class(class_dir, copy, ClassGradeSettings(**CS3243_GAMES, resume=True, exclude=("carol",)))
    assert list(csv_lines(copy)) == ["alice", "bob"] and csv_lines(copy)["bob"] == before_csv["bob"]
    assert not os.path.exists(os.path.join(copy, "students", "carol"))


def test_no_time_left_is_guessed_from_the_first_quick_units(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(common.time, "monotonic", lambda: now[0])
    clock = common.Clock(100, "cases")
    now[0] += 10
    clock.add(20)
    assert str(clock) == "20/100 cases"
    clock.add(20)
    assert str(clock) == "40/100 cases, about 15 s left"


def test_similarity_lists_no_pair_that_shares_only_template_code_and_names_the_class(tmp_path):
    with open(AB, encoding="utf-8") as handle:
        template = handle.read()
    os.makedirs(tmp_path / "template")
    (tmp_path / "template" / "AB.py").write_text(template)
    for number, name in enumerate(("amy", "ben", "cat")):
        os.makedirs(tmp_path / "class" / name)
        own = "\n".join(f"def helper_{name}_{i}(x):\n    return x * {7 * i + number} + {13 * i + 3 * number} - "
                        f"len(str(x)) // {2 + (i + number) % 7}\n" for i in range(30))
        (tmp_path / "class" / name / "AB.py").write_text(template + "\n" + own)
    outcome = similarity.run(str(tmp_path / "class"), str(tmp_path / "out"), templates=[str(tmp_path / "template")],
                             default_refs=False, say=lambda text: None)
    assert [p for p in outcome.data["pairs"] if p["shared_tokens"] == 0] == []
    with open(outcome.paths["html"], encoding="utf-8") as handle:
        assert f"The class <code>{tmp_path / 'class'}</code>, compared " in handle.read()


def test_grade_help_describes_every_course_and_each_course_s_memory(capsys):
    code, out, _ = run_cli(["grade", "--help"], capsys)
    text = " ".join(out.split())
    assert code == 0
    assert "NTHU repositories built and played up the baseline ladder (--variant nthu)" in text
    assert "Congo programs judged part by part (--variant congo)" in text
    assert "default: the course's, cs3243 2048, nthu 4096, congo 2048" in text
    assert "default 2048)" not in text


def test_cs3243_resume_from_a_copied_class_folder_names_the_class_folder(cs3243, tmp_path):
    class_dir, out, _ = cs3243
    copy = str(tmp_path / "copy")
    shutil.copytree(class_dir, copy)
    before = snapshot(out)
    with pytest.raises(ClassError) as refused:
        grade_class(copy, out, ClassGradeSettings(**CS3243_GAMES, resume=True))
    assert str(refused.value).startswith(f"{out} holds a grading made with the class folder "
                                         f"{os.path.realpath(class_dir)}, not {os.path.realpath(copy)}")
    assert "differs in white" not in str(refused.value)
    assert snapshot(out) == before
