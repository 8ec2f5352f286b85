"""report.html without a browser: the figures it is built from, the positions it embeds
(checked against the referee's own boards), the order of the games and a self-contained page."""
import json
import re

import pytest

from harness.cli import main
from harness.grading.report_html import bar_rows, ordered_games, render_report_html, write_report_html
from harness.view.html import move_seconds_by_ply, render_game_html, replay_command
from harness.view.board import encode_grid, positions
from harness.stats import wilson
from harness.variants import find_variant
from harness.grading.report import table_rows, write_report
from harness.runs.results import append_record
from tests.html_games import play, report_and_games
from tests.test_report import record as made_record


@pytest.fixture(scope="module")
def played():
    return report_and_games()


def embedded_games(page):
    raw = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(raw)


# ----------------------------------------------------------------------------- figures


def test_bars_add_up_to_the_games():
    report = {"opponents": {"greedy": {"games": 4, "wins": 2, "draws": 1, "losses": 1,
                                       "pass_mark": 0.9, "passed": False}}}
    (row,) = bar_rows(report)
    assert (row["win_share"], row["draw_share"], row["loss_share"]) == (50.0, 25.0, 25.0)
    assert row["win_interval"] == wilson(2, 4) and row["not_lost_interval"] == wilson(3, 4)


def test_seconds_are_placed_at_the_agents_plies():
    by_ply = move_seconds_by_ply([([1.0, 3.0], "white", "white"), ([2.0, 4.0], "black", "white"),
                                  ([5.0], "black", "black"), ([6.0, 7.0], "white", "black")])
    assert by_ply == {1: [1.0, 5.0], 2: [2.0, 6.0], 3: [3.0], 4: [4.0, 7.0]}


def test_lost_and_drawn_games_come_first():
    games = [("x", {"result": "white"}), ("x", {"result": "draw"}), ("y", {"result": "white"}),
             ("x", {"result": "black"}), ("y", {"result": "draw"})]
    ordered = ordered_games(games, {"x": "white", "y": "black"})
    assert ordered == [games[2], games[3], games[1], games[4], games[0]]


# ----------------------------------------------------------------------------- positions


def test_the_start_position_reads_as_its_fen():
    variant = find_variant("cs3243")
    grids, first, problem = positions({"moves": []}, variant)
    assert [encode_grid(g) for g in grids] == ["nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER"]
    assert (first, problem) == ("white", None)
    assert variant.square_names() == (list("abcdefg"), ["6", "5", "4", "3", "2", "1", "0"])


def test_every_position_is_the_referees():
    record, boards = play("dummy", "black", 1)
    grids, first, problem = positions(record, find_variant("cs3243"))
    assert problem is None and first == "white"
    assert len(grids) == record["plies"] + 1 == len(boards)
    columns, rows = find_variant("cs3243").square_names()
    for grid, board in zip(grids, boards):
        seen = {columns[c] + rows[r]: (cell[0] if cell[1] == "White" else cell[0].lower())
                for r, cells in enumerate(grid) for c, cell in enumerate(cells) if cell}
        assert seen == board


def test_a_position_with_black_to_move():
    record = {"start_fen": "3k3/7/7/7/7/7/3K3 b - - 0 1", "moves": ["d6d5"]}
    grids, first, problem = positions(record, find_variant("cs3243"))
    assert first == "black" and problem is None
    assert [encode_grid(g) for g in grids] == ["3k3/7/7/7/7/7/3K3", "7/3k3/7/7/7/7/3K3"]


def test_a_record_that_stops_making_sense():
    grids, _, problem = positions({"moves": ["c1c2", "c1c2", "c5c4"]}, find_variant("cs3243"))
    assert len(grids) == 2
    assert problem == "ply 2 ('c1c2') cannot be played here: the record is inconsistent"


# ----------------------------------------------------------------------------- pages


def test_the_report_page(played):
    report, games, _ = played
    page = render_report_html(report, games)
    assert page.startswith("<!DOCTYPE html>")
    for row in table_rows(report):
        assert "".join(f"<td>{cell}</td>" for cell in row) in re.sub(r'<td class="[^"]*"', "<td", page)
    data = embedded_games(page)
    assert len(data) == len(games) == 5
    assert [g["outcome"] for g in data] == ["loss", "loss", "draw", "draw", "win"]
    for g in data:
        assert len(g["positions"]) == g["plies"] + 1 == len(g["moves"]) + 1
        assert g["command"] == replay_command(f"{g['label']}/results.jsonl", g["game"])
    assert data[0]["ending"] == "Black wins: it captured White's King (after 10 plies)."     # the variant's words
    for key, e in report["opponents"].items():     # the whiskers are report.json's intervals
        for name, field in (("ci-win", "win_wilson95"), ("ci-notlost", "not_lost_wilson95")):
            low, high = e[field]
            assert f'class="ci {name}" data-low="{low:.4f}" data-high="{high:.4f}"' in page
    assert page.count('<figure id="seconds-plot" class="plot"><svg') == 1
    assert page.count('<figure id="lengths-plot" class="plot"><svg') == 1


def test_the_page_needs_nothing_beside_it(played):
    report, games, _ = played
    page = render_report_html(report, games)
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert set(re.findall(r"url\((.)", page)) <= {"#"}
    # every reference is to something inside the page
    assert set(re.findall(r'\b(?:xlink:)?href="(.)', page)) <= {"#"}
    # web addresses appear only as XML namespace names, which are never fetched
    addresses = set(re.findall(r'https?://[^"\s)]+', page))
    assert all(re.fullmatch(r"http://(www\.w3\.org|purl\.org|creativecommons\.org)/\S*", a) for a in addresses)


def test_the_page_is_the_same_every_time(played):
    report, games, _ = played
    assert render_report_html(report, games) == render_report_html(report, games)


def test_text_from_records_is_escaped():
    record = made_record(0, "black", "crash", [0.1], [0.1], error="White: <script>alert(1)</script>")
    record["white"] = "<b>me</b>.py"
    report = {"agent": "<b>me</b>.py", "settings": {"games": 1, "seed": 0, "fifty": 50, "max_plies": 1000,
                                                      "move_timeout": 10.0, "config": None},
              "passed": False, "won_all": False, "notes": ["<i>note</i>"], "opponents": {}}
    from harness.grading.report import opponent_entry
    report["opponents"]["greedy"] = opponent_entry("greedy", "white", [record])
    page = render_report_html(report, [("greedy", record)])
    assert "<b>me</b>" not in page and "<i>note</i>" not in page and "<script>alert" not in page
    assert "&lt;b&gt;me&lt;/b&gt;.py" in page
    assert embedded_games(page)[0]["error"] == "White: <script>alert(1)</script>"


def test_the_one_game_page():
    record, _ = play("greedy", "white", 0)
    record["game"] = 7
    page = render_game_html(record, results_path="out/results.jsonl")
    (data,) = embedded_games(page)
    assert data["command"] == "python -m harness replay out/results.jsonl --game 7"
    assert "<title>Game 7: random (White) vs greedy (Black)</title>" in page
    assert 'id="summary"' not in page and '<svg class="board"' in page


def test_write_report_html_reads_the_series_directories(played, tmp_path):
    report, games, _ = played
    for key in report["opponents"]:
        (tmp_path / key).mkdir()
        with open(tmp_path / key / "results.jsonl", "w") as handle:
            for label, record in games:
                if label == key:
                    append_record(handle, record)
    write_report(str(tmp_path), report)
    path = write_report_html(str(tmp_path), report)
    assert path == str(tmp_path / "report.html")
    data = embedded_games((tmp_path / "report.html").read_text())
    assert len(data) == 5
    assert data[0]["command"] == f"python -m harness replay {tmp_path}/greedy/results.jsonl --game 0"


# ----------------------------------------------------------------------------- commands


def test_report_writes_report_html(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "random", "--games", "2", "--opponents", "greedy,dummy", "--colour", "both",
                 "--jobs", "1", "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"written: {out / 'report.json'}, {out / 'report.md'}, {out / 'report.html'}")
    page = (out / "report.html").read_text()
    report = json.loads((out / "report.json").read_text())
    assert "<title>Report: random</title>" in page and 'id="verdict"' in page
    data = embedded_games(page)
    assert len(data) == 8
    ranks = {"loss": 0, "draw": 1, "win": 2}
    assert [ranks[g["outcome"]] for g in data] == sorted(ranks[g["outcome"]] for g in data)
    losses = sum(e["losses"] for e in report["opponents"].values())
    assert sum(g["outcome"] == "loss" for g in data) == losses
    first = data[0]
    assert first["command"] == f"python -m harness replay {out / first['label']}/results.jsonl --game {first['game']}"


def test_series_writes_report_html_from_whites_side(tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["series", "--white", "dummy", "--black", "greedy", "--games", "2", "--out", str(out),
                 "--quiet", "--jobs", "1"]) == 0
    page = (out / "report.html").read_text()
    assert "<title>Series: dummy (White) vs greedy (Black)</title>" in page
    assert 'id="verdict"' not in page and "<footer>Written by the harness (<code>python -m harness series</code>)" in page
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    data = embedded_games(page)
    assert sorted(g["game"] for g in data) == [0, 1]
    assert {g["outcome"] for g in data} == {"loss"} == {"loss" for r in records if r["result"] == "black"}
    assert data[0]["command"] == f"python -m harness replay {out / 'results.jsonl'} --game {data[0]['game']}"


def test_replay_html_writes_one_game(tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["series", "--white", "random", "--black", "dummy", "--games", "2", "--out", str(out),
                 "--quiet", "--jobs", "1"]) == 0
    capsys.readouterr()
    page_path = tmp_path / "game.html"
    assert main(["replay", str(out), "--game", "1", "--html", str(page_path)]) == 0
    assert capsys.readouterr().out == f"written: {page_path}\n"
    (data,) = embedded_games(page_path.read_text())
    record = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()][1]
    assert (data["game"], data["moves"], len(data["positions"])) == (1, record["moves"], record["plies"] + 1)
    assert data["command"] == f"python -m harness replay {out / 'results.jsonl'} --game 1"
    assert main(["replay", str(out / "results.jsonl"), "1", "--html", str(tmp_path / "no" / "g.html")]) == 2
    assert capsys.readouterr().err.startswith(f"error: cannot write '{tmp_path / 'no' / 'g.html'}'")


def test_the_verdict_says_pass_fail_or_n_a(played):
    report, games, _ = played
    for passed, shown in ((True, "<strong>PASS</strong>"), (False, "<strong>FAIL</strong>"),
                          (None, "<strong>n/a</strong> on the course's pass marks (not-lost rate): no opponent here has one.")):
        page = render_report_html({**report, "passed": passed}, games)
        assert shown in page
