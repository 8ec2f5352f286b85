"""report.html without a browser: the figures it is built from, the positions it embeds
(checked against the referee's own boards), the order of the games and a self-contained page."""
import json
import re

import pytest

from harness.html_report import (CS3243Pictures, bar_rows, encode_grid, move_seconds_by_ply,
                                 ordered_games, positions, render_game_html, render_report_html,
                                 replay_command, wilson, write_report_html)
from harness.report import table_rows, write_report
from harness.results import append_record
from tests.html_games import play, report_and_games
from tests.test_report import record as made_record


@pytest.fixture(scope="module")
def played():
    return report_and_games()


def embedded_games(page):
    raw = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(raw)


# ----------------------------------------------------------------------------- figures


@pytest.mark.parametrize("k,n,low,high", [
    (8, 10, 0.4902, 0.9433),     # textbook values of the Wilson interval at 95 %
    (10, 10, 0.7225, 1.0),
    (0, 10, 0.0, 0.2775),
    (1, 2, 0.0945, 0.9055),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval(k, n, low, high):
    assert wilson(k, n) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_of_no_games():
    assert wilson(0, 0) is None


def test_the_formula_as_given():
    # centre (p + z^2/2n)/(1 + z^2/n), half-width z*sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n)
    z, k, n = 1.96, 3, 7
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    assert wilson(k, n) == (centre - half, centre + half)


def test_bars_add_up_to_the_games():
    report = {"opponents": {"greedy": {"games": 4, "wins": 2, "draws": 1, "losses": 1,
                                       "pass_mark": 0.9, "passed": False}}}
    (row,) = bar_rows(report)
    assert (row["win_share"], row["draw_share"], row["loss_share"]) == (50.0, 25.0, 25.0)
    assert row["win_interval"] == wilson(2, 4) and row["not_lost_interval"] == wilson(3, 4)


def test_seconds_are_placed_at_the_agents_plies():
    white = made_record(0, "white", "checkmate", [1.0, 3.0], [0.5])
    black = made_record(1, "black", "checkmate", [2.0, 4.0], [0.5, 0.5], colour="black")
    by_ply = move_seconds_by_ply([("a", white), ("b", black)], {"a": "white", "b": "black"})
    assert by_ply == {1: [1.0], 2: [2.0], 3: [3.0], 4: [4.0]}


def test_lost_and_drawn_games_come_first():
    games = [("x", {"result": "white"}), ("x", {"result": "draw"}), ("y", {"result": "white"}),
             ("x", {"result": "black"}), ("y", {"result": "draw"})]
    ordered = ordered_games(games, {"x": "white", "y": "black"})
    assert ordered == [games[2], games[3], games[1], games[4], games[0]]


# ----------------------------------------------------------------------------- positions


def test_the_start_position_reads_as_its_fen():
    variant = CS3243Pictures()
    grids, first, problem = positions({"moves": []}, variant)
    assert [encode_grid(g) for g in grids] == ["nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER"]
    assert (first, problem) == ("white", None)
    assert variant.square_names() == (list("abcdefg"), ["6", "5", "4", "3", "2", "1", "0"])


def test_every_position_is_the_referees():
    record, boards = play("dummy", "black", 1)
    grids, first, problem = positions(record, CS3243Pictures())
    assert problem is None and first == "white"
    assert len(grids) == record["plies"] + 1 == len(boards)
    columns, rows = CS3243Pictures().square_names()
    for grid, board in zip(grids, boards):
        seen = {columns[c] + rows[r]: (cell[0] if cell[1] == "White" else cell[0].lower())
                for r, cells in enumerate(grid) for c, cell in enumerate(cells) if cell}
        assert seen == board


def test_a_position_with_black_to_move():
    record = {"start_fen": "3k3/7/7/7/7/7/3K3 b - - 0 1", "moves": ["d6d5"]}
    grids, first, problem = positions(record, CS3243Pictures())
    assert first == "black" and problem is None
    assert [encode_grid(g) for g in grids] == ["3k3/7/7/7/7/7/3K3", "7/3k3/7/7/7/7/3K3"]


def test_a_record_that_stops_making_sense():
    grids, _, problem = positions({"moves": ["c1c2", "c1c2", "c5c4"]}, CS3243Pictures())
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
    assert data[0]["ending"] == "Black (greedy) wins by king_capture after 10 plies."
    for key, e in report["opponents"].items():
        low, high = wilson(e["wins"] + e["draws"], e["games"])
        assert f'class="ci ci-notlost" data-low="{low:.4f}" data-high="{high:.4f}"' in page
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
    from harness.report import opponent_entry
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
    assert data["command"] == "python -m harness replay out/results.jsonl 7"
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
    assert data[0]["command"] == f"python -m harness replay {tmp_path}/greedy/results.jsonl 0"
