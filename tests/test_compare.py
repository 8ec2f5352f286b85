"""compare: game pairs, the SPRT stopping the run where it decides (checked against a recount of
results.jsonl in the order the games were recorded), resume, fixed games, usage errors, and
run_plans's on_game stop (the games in flight are stopped, nothing of them written)."""
import json
import re
import time
from pathlib import Path

import pytest

from cli_run import run_cli
from harness import stats
from harness.compare.text import pentanomial_lines
from harness.runs.results import outcome
from harness.runs.series import RunOptions, SeriesPlan, run_plans

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def compare(capsys, *argv):
    return run_cli(["compare", *argv, "--quiet"], capsys)


def recorded(out):
    """The records of OUT/results.jsonl in the order they were written."""
    return [json.loads(line) for line in (Path(out) / "results.jsonl").read_text().splitlines()]


def recount(records, elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05, model="normalized"):
    """NEW's pairs as they finished, written here from the records alone: after each finished pair,
    (games, pentanomial, LLR); and the W/D/L of the finished pairs."""
    seen, counts, wdl, steps = {}, [0] * 5, {"win": 0, "draw": 0, "loss": 0}, []
    for r in records:
        new_colour = "white" if r["game"] % 2 == 0 else "black"
        assert r["white" if r["game"] % 2 == 0 else "black"] == r[new_colour]
        result = outcome(r, new_colour)
        pair = r["game"] // 2
        if pair not in seen:
            seen[pair] = result
            continue
        other = seen.pop(pair)
        counts[int(2 * (POINTS[result] + POINTS[other]))] += 1
        wdl[result] += 1
        wdl[other] += 1
        steps.append((2 * sum(counts), list(counts), stats.sprt_llr(counts, elo0, elo1, model)))
    return steps, wdl, seen


def test_compare_stops_where_the_sprt_first_decides(tmp_path, capsys):
    out = tmp_path / "c"
    code, text, err = compare(capsys, "smart", "greedy", "--elo1", "50", "--max-games", "200", "--jobs", "2",
                              "--out", str(out))
    assert code == 0, err
    records = recorded(out)
    steps, wdl, unfinished = recount(records, elo1=50)
    low, high = stats.sprt_bounds(0.05, 0.05)
    # inside the bounds after every pair but the last; the last crossed the upper one; nothing after
    assert all(low < llr < high for *_, llr in steps[:-1]) and steps[-1][2] >= high
    games, counts, llr = steps[-1]
    assert games < 200 and len(records) == games + len(unfinished)
    assert all(len([r for r in records if r["game"] // 2 == pair]) == 1 for pair in unfinished)
    # every pair: one opening, colours reversed
    for pair in {r["game"] // 2 for r in records} - set(unfinished):
        first, second = sorted((r for r in records if r["game"] // 2 == pair), key=lambda r: r["game"])
        assert first["opening"] == second["opening"] and len(first["opening"]) == 4
        assert (first["white"], first["black"], second["white"], second["black"]) == ("smart", "greedy", "greedy", "smart")
    summary = json.loads((out / "compare.json").read_text())
    elo, margin = stats.pentanomial_elo(counts)
    nelo, nelo_margin = stats.pentanomial_nelo(counts)
    assert summary["sprt"] == {"elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05, "model": "normalized",
                               "llr": round(llr, 4), "bounds": [-2.9444, 2.9444], "pentanomial": counts,
                               "result": "H1"}
    assert (summary["new"], summary["old"], summary["games"], summary["pairs"]) == ("smart", "greedy", games, games // 2)
    assert (summary["elo"], summary["elo_margin"]) == (round(elo, 2), round(margin, 2))
    assert (summary["nelo"], summary["nelo_margin"], summary["los"]) == (
        round(nelo, 2), round(nelo_margin, 2), round(stats.pentanomial_los(counts), 4))
    assert [h["llr"] for h in summary["history"]] == [round(s[2], 4) for s in steps]
    assert text.splitlines()[:9] == [
        "-" * 50, "Results of smart vs greedy:",
        *pentanomial_lines(counts, wdl["win"], wdl["loss"], wdl["draw"]),
        f"LLR: {llr:.2f} (-2.94, 2.94) [0.00, 50.00]", "-" * 50,
        "SPRT ([0.00, 50.00]) completed - H1 was accepted"]
    page = (out / "report.html").read_text()
    assert 'id="llr-plot"' in page and 'id="elo-plot"' in page and 'id="nelo-plot"' in page
    assert f"H1 accepted after {games} games: smart is stronger than greedy" in page
    assert page.count('<tr data-index=') == len(records)
    assert not re.search(r"<script[^>]*\bsrc=|<link\b|<img\b", page)      # self-contained


def test_a_weaker_new_agent_is_rejected(tmp_path, capsys):
    out = tmp_path / "c"
    code, text, err = compare(capsys, "greedy", "smart", "--elo1", "50", "--model", "logistic", "--jobs", "2",
                              "--out", str(out))
    assert code == 0, err
    steps, _, _ = recount(recorded(out), elo1=50, model="logistic")
    assert steps[-1][2] <= stats.sprt_bounds(0.05, 0.05)[0]
    assert text.splitlines()[-2] == "SPRT ([0.00, 50.00]) completed - H0 was accepted"
    assert json.loads((out / "compare.json").read_text())["sprt"]["result"] == "H0"


def test_an_interrupted_comparison_resumes_to_the_same_decision(tmp_path, capsys):
    common = ["smart", "greedy", "--elo1", "100", "--jobs", "1"]
    code, whole_text, _ = compare(capsys, *common, "--out", str(tmp_path / "whole"))
    assert code == 0
    split = str(tmp_path / "split")
    code, text, _ = compare(capsys, *common, "--out", split, "--max-games", "6")
    assert code == 0 and text.splitlines()[-2] == "SPRT ([0.00, 100.00]) completed - no decision after 6 games"
    code, text, _ = compare(capsys, *common, "--out", split, "--resume")
    assert code == 0 and text.splitlines()[:-1] == whole_text.splitlines()[:-1]
    essence = [(r["game"], r["result"], r["moves"]) for r in recorded(split)]
    assert essence == [(r["game"], r["result"], r["moves"]) for r in recorded(tmp_path / "whole")]
    whole = json.loads((tmp_path / "whole" / "compare.json").read_text())
    assert json.loads(Path(split, "compare.json").read_text()) == whole
    # decided already: a further --resume plays nothing and says the same
    code, again, _ = compare(capsys, *common, "--out", split, "--resume")
    assert code == 0 and again.splitlines()[:-2] == whole_text.splitlines()[:-1]
    games = len(recorded(tmp_path / "whole"))
    assert again.splitlines()[-2] == (f"note: the test decided on the {games} games kept in {split}/results.jsonl: "
                                      f"no game was played")
    assert len(recorded(split)) == games
    # the same games read with wider bounds: the test stops earlier in them, and says the rest is not counted
    code, wider, _ = compare(capsys, *common, "--out", split, "--resume", "--elo1", "300")
    steps, _, _ = recount(recorded(split), elo1=300)
    stop = next(i for i, step in enumerate(steps) if step[2] >= stats.sprt_bounds(0.05, 0.05)[1])
    assert code == 0 and f"Games: {steps[stop][0]}, " in wider and "H1 was accepted" in wider
    assert f"note: {games - steps[stop][0]} games in {split}/results.jsonl were recorded after the test decided" in wider


def test_fixed_games_play_them_all_without_a_test(tmp_path, capsys):
    out = tmp_path / "c"
    code, text, err = compare(capsys, "greedy", "random", "--games", "6", "--jobs", "2", "--out", str(out))
    assert code == 0, err
    records = recorded(out)
    assert sorted(r["game"] for r in records) == list(range(6))
    steps, wdl, _ = recount(records)
    lines = text.splitlines()
    assert lines[2:6] == pentanomial_lines(steps[-1][1], wdl["win"], wdl["loss"], wdl["draw"])
    assert lines[6] == "-" * 50 and not any(line.startswith(("LLR", "SPRT")) for line in lines)
    summary = json.loads((out / "compare.json").read_text())
    assert summary["sprt"] is None and summary["games"] == 6 and summary["pentanomial"] == steps[-1][1]
    assert "No test: 6 games played" in (out / "report.html").read_text()


@pytest.mark.parametrize("argv, message", [
    (["--elo0", "10", "--elo1", "10"], "error: SPRT: elo0 (10) must be below elo1 (10)"),
    (["--alpha", "0"], "error: SPRT: alpha (0) must be between 0 and 1"),
    (["--elo0", "-2000"], "error: SPRT: elo0 (-2000) must be between -1000 and 1000"),
    (["--beta", "1.5"], "error: SPRT: beta (1.5) must be between 0 and 1"),
    (["--alpha", "0.5", "--beta", "0.5"], "error: SPRT: alpha + beta (1) must be below 1"),
    (["--games", "5"], "error: --games 5: games come in pairs (one opening, colours reversed); give an even number"),
    (["--max-games", "7"], "error: --max-games 7: games come in pairs"),
    (["--elo1", "inf"], "argument --elo1: 'inf' is not a finite number"),
    (["--alpha", "x"], "argument --alpha: 'x' is not a number"),
    (["--games", "4", "--max-games", "8"], "argument --max-games: not allowed with argument --games"),
    (["--model", "bayesian"], "argument --model: invalid choice: 'bayesian'"),
])
def test_usage_errors_are_one_line_and_play_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "c"
    code, text, err = compare(capsys, "smart", "greedy", "--out", str(out), *argv)
    assert code == 2 and text == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


def test_an_unknown_agent_is_one_line(tmp_path, capsys):
    code, _, err = compare(capsys, str(tmp_path / "missing.py"), "greedy", "--out", str(tmp_path / "c"))
    assert code == 2 and err.strip() == f"error: agent file '{tmp_path / 'missing.py'}' does not exist"


def test_on_game_stops_the_games_in_flight(tmp_path):
    """A true answer from on_game stops the run: the games still playing (a file that thinks 0.05 s
    a move, 30 games' worth of work) are stopped and nothing of them is written."""
    quick = SeriesPlan(out=str(tmp_path / "quick"), white="dummy", black="random", games=1)
    slow = SeriesPlan(out=str(tmp_path / "slow"), white=str(HOSTILE / "slow.py"), black="dummy", games=30)
    told = []

    def on_game(plan, record):
        told.append((plan.out, record["game"]))
        return plan is quick
    started = time.monotonic()
    quick_records, slow_records = run_plans([quick, slow], RunOptions(jobs=2, progress=False, on_game=on_game)).records
    assert [r["game"] for r in quick_records] == [0] and told[-1] == (quick.out, 0)
    assert len(slow_records) == len(told) - 1 < 30
    assert len(recorded(slow.out)) == len(slow_records)
    assert time.monotonic() - started < 60      # the slow plan's 30 games were not waited for
    assert json.loads(Path(slow.out, "report.json").read_text())["games"] == len(slow_records)


def test_on_game_hears_the_kept_games_first_and_can_stop_before_any_game(tmp_path):
    plan = SeriesPlan(out=str(tmp_path / "s"), white="dummy", black="random", games=4)
    run_plans([plan], RunOptions(jobs=2, progress=False))
    order = [r["game"] for r in recorded(plan.out)]
    told = []
    records = run_plans([plan], RunOptions(resume=True, progress=False, on_game=lambda plan, record: told.append(
        record["game"]) or len(told) == 2)).records[0]
    assert told == order[:2] and [r["game"] for r in records] == [0, 1, 2, 3]
    told.clear()
    longer = SeriesPlan(out=plan.out, white="dummy", black="random", games=6)
    records = run_plans([longer], RunOptions(jobs=1, resume=True, progress=False,
                                             on_game=lambda plan, record: told.append(record["game"]))).records[0]
    assert told == order + [4, 5] and [r["game"] for r in records] == list(range(6))
    assert [r["game"] for r in recorded(plan.out)] == order + [4, 5]


def test_the_page_in_a_browser(tmp_path, capsys, browser):
    """report.html in chromium: no console errors, a game opens in the viewer from its row and
    ends on the record's last position; the lines and plots are there with JavaScript off."""
    out = tmp_path / "c"
    assert compare(capsys, "greedy", "random", "--games", "4", "--jobs", "2", "--out", str(out))[0] == 0
    plies = {r["game"]: r["plies"] for r in recorded(out)}
    page = browser.new_page()
    problems = []
    page.on("console", lambda m: m.type in ("error", "warning") and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto((out / "report.html").as_uri())
    page.click("#games tbody tr:nth-child(4) button.view")
    assert page.inner_text("#viewer .game-title").startswith("pair 1, game 3: random (White) vs greedy (Black)")
    page.keyboard.press("End")
    assert page.get_attribute("svg.board", "data-ply") == str(plies[3])
    assert problems == []
    quiet = browser.new_page(java_script_enabled=False)
    quiet.goto((out / "report.html").as_uri())
    assert quiet.inner_text("#lines").splitlines()[1] == "Results of greedy vs random:"
    assert quiet.locator("#elo-plot svg").count() == 1 and quiet.locator("#llr-plot").count() == 0
    page.close()
    quiet.close()
