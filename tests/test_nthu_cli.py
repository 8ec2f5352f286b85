"""NTHU through the command line: perft, play with nthu:PATH, export-nthu, the course's grading
in report, and one-line errors."""
import json

from harness.cli import main
from harness.variants.nthu.grading import course_grading, grading_lines, pair_passes


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_with_variant_nthu_prints_the_course_counts(capsys):
    code, out, _ = run(capsys, "perft", "4", "--variant", "nthu")
    assert code == 0
    assert out.splitlines()[0] == "depth nodes seconds"
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [["1", "7"], ["2", "49"], ["3", "452"], ["4", "4212"]]


def test_perft_from_a_fen(capsys):
    code, out, _ = run(capsys, "perft", "1", "--variant", "nthu", "--fen", "k4/5/5/2N2/5/4K b 0")
    assert (code, out.splitlines()[1].split()[:2]) == (0, ["1", "3"])       # the black king's a6b6, a6a5, a6b5


def test_a_missing_program_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "play", "--variant", "nthu", "--white", f"nthu:{tmp_path}/p", "--black", "ab")
    assert (code, err) == (2, f"error: program '{tmp_path}/p' does not exist\n")


def test_a_program_spec_outside_nthu_is_one_line(capsys):
    code, _, err = run(capsys, "play", "--white", "nthu:x", "--black", "random")
    assert code == 2 and err.count("\n") == 1


def test_nthu_has_no_fifty_option(capsys):
    code, _, err = run(capsys, "play", "--variant", "nthu", "--white", "ab", "--black", "ab", "--fifty", "3")
    assert (code, err) == (2, "error: nthu has no --fifty option (the course's step limit is 50 plies)\n")


def test_a_bad_state_file_names_file_and_line(capsys, tmp_path):
    path = tmp_path / "state"
    path.write_text("0\n1 2 3\n")
    code, _, err = run(capsys, "play", "--variant", "nthu", "--white", "ab", "--black", "ab", "--config", str(path))
    assert (code, err) == (2, f"error: {path}:2: White's row 0 must be 5 integers, not '1 2 3'\n")


def test_export_nthu_writes_the_program_and_play_runs_it(capsys, tmp_path):
    out = tmp_path / "player"
    code, text, _ = run(capsys, "export-nthu", "ab", "--out", str(out), "--seconds", "0.2")
    assert code == 0 and out.exists()
    code, text, _ = run(capsys, "play", "--variant", "nthu", "--white", f"nthu:{out}", "--black", "baseline1")
    assert code == 0
    assert "White (nthu:" in text.splitlines()[-1]


def test_export_nthu_of_an_agent_it_cannot_write_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "export-nthu", "baseline2", "--out", str(tmp_path / "p"))
    assert (code, err) == (2, "error: cannot export 'baseline2': export-nthu writes one of ab, mcts, nnue\n")


def test_series_records_the_program_depths(capsys, tmp_path):
    out = tmp_path / "player"
    run(capsys, "export-nthu", "ab", "--out", str(out), "--seconds", "0.2")
    code, _, _ = run(capsys, "series", "--variant", "nthu", "--white", f"nthu:{out}", "--black", "baseline1",
                     "--games", "1", "--jobs", "1", "--quiet", "--out", str(tmp_path / "s"))
    record = json.loads((tmp_path / "s" / "results.jsonl").read_text().splitlines()[0])
    assert code == 0 and record["variant"] == "nthu"
    assert len(record["depths"]["white"]) == (record["plies"] + 1) // 2
    assert min(record["depths"]["white"]) >= 1


def test_report_defaults_to_the_course_grading(capsys, tmp_path):
    code, out, _ = run(capsys, "report", "greedy", "--variant", "nthu", "--jobs", "1", "--quiet",
                       "--out", str(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0
    assert [row["opponent"] for row in report["course"]["baselines"]] == [
        "baseline1", "baseline2", "baseline3", "baseline4"]
    assert all(row["pairs"] == 1 for row in report["course"]["baselines"])
    assert "Course grading (NTHU)" in out


# -- the pass rule ------------------------------------------------------------------------------

def record(game, result):
    return {"game": game, "result": result}


def test_pass_rule_two_wins_or_a_win_and_a_draw():
    assert pair_passes(["win", "win"]) and pair_passes(["draw", "win"]) and pair_passes(["win", "draw"])
    assert not pair_passes(["draw", "draw"]) and not pair_passes(["win", "loss"])


def test_grading_all_eight_won_earns_the_bonus():
    games = {f"baseline{i}": {"white": [record(0, "white")], "black": [record(0, "black")]} for i in range(1, 5)}
    course = course_grading(games)
    assert (course["passed"], course["bonus"]) == (True, True)


def test_grading_a_draw_passes_but_loses_the_bonus_and_a_loss_fails():
    games = {f"baseline{i}": {"white": [record(0, "white")], "black": [record(0, "black")]} for i in range(1, 5)}
    games["baseline3"]["black"] = [record(0, "draw")]
    course = course_grading(games)
    assert (course["passed"], course["bonus"]) == (True, False)
    games["baseline4"]["white"] = [record(0, "black")]
    course = course_grading(games)
    assert [row["passed"] for row in course["baselines"]] == [True, True, True, False]
    assert course["passed"] is False
    assert grading_lines(course)[4] == "  baseline4  as White/Black: LW   pairs passed 0/1: FAIL"


def test_a_program_that_is_a_folder_says_so(capsys, tmp_path):
    code, _, err = run(capsys, "play", "--variant", "nthu", "--white", f"nthu:{tmp_path}", "--black", "ab")
    assert (code, err) == (2, f"error: program '{tmp_path}' is a folder: give the program file in it\n")
