"""The report: exact figures from records with known outcomes, the pass marks, the files it
writes, and an end-to-end run whose outcomes are known in advance."""
import json
import re
from pathlib import Path

import pytest

from harness.cli import main
from harness.grading.report import PASS_MARKS, build_report, entry_key, opponent_entry, render_markdown, render_text
from harness.runs.series import SeriesPlan, game_task, run_game

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"


def record(game, result, reason, ours, theirs, colour="white", printed=None, error=None):
    """A game record with our agent's per-move seconds `ours` (and the opponent's `theirs`)."""
    other = "black" if colour == "white" else "white"
    think = {colour: {"total": sum(ours), "max": max(ours), "moves": len(ours), "seconds": ours},
             other: {"total": sum(theirs), "max": max(theirs), "moves": len(theirs), "seconds": theirs}}
    return {"game": game, "seed": game, "result": result, "reason": reason,
            "plies": len(ours) + len(theirs), "moves": [], "think": think, "error": error,
            "printed": {colour: printed, other: None}, "mutated": {colour: 0, other: 0}}


KNOWN = [
    record(0, "white", "checkmate", [1.0, 3.0], [0.5]),
    record(1, "white", "king_capture", [2.0], [0.1]),
    record(2, "draw", "fifty_move_draw", [4.0, 4.0, 4.0], [0.1, 0.1]),
    record(3, "black", "crash", [0.5], [0.2], error="White: StudentCrash: ValueError: boom"),
]


def test_an_entry_adds_up_exactly():
    e = opponent_entry("greedy", "white", KNOWN)
    assert (e["games"], e["wins"], e["draws"], e["losses"]) == (4, 2, 1, 1)
    assert (e["win_rate"], e["not_lost_rate"]) == (0.5, 0.75)
    assert (e["pass_mark"], e["passed"], e["won_all"]) == (0.9, False, False)
    assert e["termination"] == {"checkmate": 1, "crash": 1, "fifty_move_draw": 1, "king_capture": 1}
    assert e["lost_by"] == {"crash": 1}
    assert e["move_seconds"] == {"mean": 2.642857, "median": 3.0, "max": 4.0}
    assert e["game_seconds_max"] == 12.0
    assert e["errors"] == ["White: StudentCrash: ValueError: boom"]


def test_the_agent_as_black_is_scored_from_its_side():
    games = [record(0, "black", "checkmate", [1.0], [9.0], colour="black"),
             record(1, "draw", "max_plies", [2.0], [9.0], colour="black")]
    e = opponent_entry("minimax", "black", games)
    assert (e["wins"], e["draws"], e["losses"], e["not_lost_rate"]) == (1, 1, 0, 1.0)
    assert (e["passed"], e["won_all"]) == (True, False)
    assert e["move_seconds"]["max"] == 2.0 and e["game_seconds_max"] == 2.0
    assert entry_key("minimax", "black") == "minimax@black" and entry_key("minimax", "white") == "minimax"


@pytest.mark.parametrize("opponent,mark", [("dummy", 1.0), ("random", 1.0), ("greedy", 0.9),
                                           ("smart", 0.9), ("minimax", 0.8)])
def test_course_pass_marks(opponent, mark):
    assert PASS_MARKS[opponent] == mark
    wins = round(mark * 10)
    games = [record(i, "white" if i < wins else "black", "checkmate", [0.1], [0.1]) for i in range(10)]
    assert opponent_entry(opponent, "white", games)["passed"] is True
    if wins:
        games[0] = record(0, "black", "checkmate", [0.1], [0.1])
        assert opponent_entry(opponent, "white", games)["passed"] is False


def test_draws_count_as_not_lost():
    games = [record(i, "draw" if i < 2 else "white", "fifty_move_draw", [0.1], [0.1]) for i in range(10)]
    e = opponent_entry("minimax", "white", games)
    assert (e["win_rate"], e["not_lost_rate"], e["passed"], e["won_all"]) == (0.8, 1.0, True, False)


def test_report_structure_text_and_notes():
    entries = {"greedy": opponent_entry("greedy", "white", KNOWN),
               "dummy": opponent_entry("dummy", "white", [record(0, "white", "king_capture", [0.2], [0.1],
                                                                   printed="hi")])}
    settings = {"games": 4, "seed": 0, "fifty": 50, "max_plies": 1000, "move_timeout": 30.0, "config": None}
    report = build_report("AB.py", settings, entries)
    assert set(report) >= {"agent", "opponents", "settings", "passed", "won_all", "notes"}
    assert (report["agent"], report["passed"], report["won_all"]) == ("AB.py", False, False)
    assert ("AB.py printed during 1 game (dummy 1/1): the course's autograder rejects files that print, so those "
            "games count as lost for the course's verdict.") in report["notes"]
    assert any("lost 1 games against greedy by crash" in n for n in report["notes"])
    text = render_text(report)
    rows = {line.split()[0]: re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
            if line.startswith(("greedy", "dummy"))}
    assert rows["greedy"] == ["greedy", "white", "4", "2", "1", "1", "50.0", "75.0", "90.0", "FAIL", "no",
                              "2.643", "3.000", "4.000", "12.00 / 30",
                              "checkmate 1, crash 1, fifty_move_draw 1, king_capture 1"]
    # won as played, but printed in: lost for the course (issue 49's printing rule)
    assert rows["dummy"][:11] == ["dummy", "white", "1", "1", "0", "0", "100.0", "100.0", "100.0", "FAIL", "yes"]
    assert entries["dummy"]["course_not_lost"] == 0 and entries["greedy"]["course_not_lost"] == 3
    md = render_markdown(report)
    assert "| greedy | white | 4 | 2 | 1 | 1 | 50.0 | 75.0 | 90.0 | FAIL | no | 2.643 | 3.000 | 4.000 | 12.00 / 30 |" in md


def test_report_end_to_end_with_known_outcomes(tmp_path, capsys):
    """clean.py and dummy never use chance, so every game of a pairing is the same game: the one
    the referee plays for seed 0."""
    out = tmp_path / "rep"
    clean = str(HOSTILE / "clean.py")
    assert main(["report", clean, "--games", "3", "--opponents", "dummy", "--colour", "both",
                 "--jobs", "2", "--out", str(out), "--quiet"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert set(report["opponents"]) == {"dummy", "dummy@black"}
    for key, colour in (("dummy", "white"), ("dummy@black", "black")):
        white, black = (clean, "dummy") if colour == "white" else ("dummy", clean)
        plan = SeriesPlan(out=str(tmp_path / "x"), white=white, black=black, games=1)
        _, expected = run_game(game_task(plan, 0, 0))
        e = report["opponents"][key]
        won = expected["result"] == colour
        drawn = expected["result"] == "draw"
        assert (e["games"], e["wins"], e["draws"], e["losses"]) == (3, 3 * won, 3 * drawn, 3 * (not won and not drawn))
        assert e["termination"] == {expected["reason"]: 3}
        assert e["pass_mark"] == 1.0 and e["passed"] == (won or drawn)
        records = [json.loads(line) for line in (out / key / "results.jsonl").read_text().splitlines()]
        assert all(r["moves"] == expected["moves"] for r in records)
    md = (out / "report.md").read_text()
    assert md.startswith(f"# Report: {clean}") and "| dummy | black | 3 |" in md
    printed = capsys.readouterr().out
    assert f"Report for {clean}" in printed and "written:" in printed


def test_report_counts_a_crashing_agent_and_resumes(tmp_path, capsys):
    out = tmp_path / "rep"
    args = ["report", str(HOSTILE / "raises.py"), "--games", "2", "--opponents", "dummy,random",
            "--out", str(out), "--quiet", "--jobs", "2"]
    assert main(args) == 0
    first = json.loads((out / "report.json").read_text())
    for name in ("dummy", "random"):
        e = first["opponents"][name]
        assert (e["games"], e["wins"], e["losses"], e["termination"], e["passed"]) == (
            2, 0, 2, {"crash": 2}, False)
    assert "FAIL" in capsys.readouterr().out
    assert main(args + ["--resume"]) == 0              # nothing left to play: same report
    assert json.loads((out / "report.json").read_text())["opponents"] == first["opponents"]


def test_an_entry_carries_the_statistics_of_13_wins_3_draws_8_losses():
    """Hand-computed (see tests/test_stats.py): score 14.5/24, Elo 73.5 +/- 140.7, LOS 86.2 %,
    Wilson 95 % of 13/24 and of 16/24."""
    records = ([record(i, "white", "checkmate", [0.1], [0.1]) for i in range(13)]
               + [record(13 + i, "draw", "fifty_move_draw", [0.1], [0.1]) for i in range(3)]
               + [record(16 + i, "black", "checkmate", [0.1], [0.1]) for i in range(8)])
    e = opponent_entry("minimax", "white", records, "r/results.jsonl")
    assert (e["score"], e["elo"], e["elo_margin"], e["los"]) == (0.6042, 73.5, 140.7, 0.8624)
    assert (e["win_wilson95"], e["not_lost_wilson95"]) == ([0.3507, 0.7211], [0.4671, 0.8203])
    assert [g["game"] for g in e["not_won"]] == list(range(13, 24))
    assert e["not_won"][0]["replay"] == "python -m harness replay r/results.jsonl --game 13"
    md = render_markdown(build_report("AB.py", {"games": 24, "seed": 0, "move_timeout": 30.0}, {"minimax": e}))
    assert ("| minimax | white | won 13/24 (95 % CI 35.1-72.1 %) | not lost 16/24 (95 % CI 46.7-82.0 %) "
            "| 80.0 | 0.604 | 73.5 +/- 140.7 | 86.2 |") in md


def test_keep_previous_moves_the_last_report_aside_and_starts_afresh(tmp_path, capsys):
    """make report's loop (issue 27): the same report again gives a fresh one, and the previous
    one is kept whole under OUT/previous/WHEN/ with its replay commands pointing there."""
    out = tmp_path / "reports"
    args = ["report", "dummy", "--opponents", "greedy,random", "--games", "1", "--jobs", "1", "--out", str(out),
            "--progress", "none"]
    assert main(args) == 0
    first = {name: (out / name).read_bytes() for name in ("greedy/results.jsonl", "random/results.jsonl")}
    assert main(args) == 2                                          # without it: refused, as before
    assert "already holds 1 games; add --resume" in capsys.readouterr().err
    assert main(args + ["--keep-previous"]) == 0
    err = capsys.readouterr().err
    (kept,) = (out / "previous").iterdir()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d", kept.name)
    assert f"note: the previous report is kept in {kept}\n" in err
    assert sorted(p.name for p in kept.iterdir()) == ["greedy", "random", "report.html", "report.json", "report.md",
                                                      "run.json"]
    assert {name: (kept / name).read_bytes() for name in first} == first          # the old games, whole
    md = (kept / "report.md").read_text()
    assert f"replay {kept}/greedy/results.jsonl --game 0" in md and f"{out}/greedy/" not in md
    assert f"replay {out}/greedy/results.jsonl --game 0" in (out / "report.md").read_text()
    assert len((out / "greedy" / "results.jsonl").read_text().splitlines()) == 1          # a fresh run
    assert main(args + ["--keep-previous"]) == 0                   # and again: two kept, side by side
    assert len(list((out / "previous").iterdir())) == 2


def test_keep_previous_takes_an_unfinished_run_along_and_respects_a_busy_folder(tmp_path, capsys):
    import os
    import subprocess
    import sys
    out = tmp_path / "reports"
    assert main(["series", "--white", "dummy", "--black", "smart", "--games", "1", "--out", str(out / "smart"),
                 "--quiet"]) == 0             # as a report killed before its report.json
    args = ["report", "dummy", "--opponents", "smart", "--games", "1", "--out", str(out), "--quiet", "--keep-previous"]
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from harness.runs.results import hold_folder\n"
                               "with hold_folder(sys.argv[1]):\n    print('held', flush=True); time.sleep(60)",
                               str(out / "smart")], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        assert main(args) == 2
        assert capsys.readouterr().err == (f"error: {out / 'smart'} is in use by another run, process {holder.pid}; "
                                           f"wait for it to end or choose another --out\n")
        assert not (out / "previous").exists() and (out / "smart" / "results.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    assert main(args) == 0
    (kept,) = (out / "previous").iterdir()
    assert sorted(os.listdir(kept)) == ["smart"] and (kept / "smart" / "results.jsonl").exists()


def test_keep_previous_is_not_resume_or_force(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["report", "dummy", "--keep-previous", "--resume"])
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("python -m harness report: error: argument --resume: not allowed with "
                                       "argument --keep-previous\n")
