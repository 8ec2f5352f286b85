"""report.html in a real browser (Debian's chromium driven by Playwright): the summary's numbers,
a game clicked through to its last move against the referee's own boards, the arrow keys and
move list, no console errors, and the summary and plots with JavaScript off. A screenshot of
the page is saved in the test's tmp dir."""
import os

import pytest

from harness.grading.report_html import render_report_html
from harness.view.html import render_game_html
from harness.grading.report import table_rows
from tests.chromium import need_chromium
from tests.html_games import play, report_and_games

sync_api = need_chromium()


@pytest.fixture(scope="module")
def played():
    return report_and_games()


@pytest.fixture
def report_file(played, tmp_path):
    report, games, _ = played
    path = tmp_path / "report.html"
    path.write_text(render_report_html(report, games), encoding="utf-8")
    return path


class Page:
    """A page opened from a file, with everything the console said."""

    def __init__(self, browser, path, **context):
        self.context = browser.new_context(viewport={"width": 1200, "height": 900}, **context)
        self.page = self.context.new_page()
        self.problems = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(m.text))
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.goto(path.as_uri())

    def pieces(self):
        """The board's pieces: square name -> letter, upper case White."""
        found = self.page.eval_on_selector_all(
            "svg.board .piece", "els => els.map(e => [e.dataset.square, e.dataset.piece, e.dataset.colour])")
        return {square: letter if colour == "white" else letter.lower() for square, letter, colour in found}

    def ply(self):
        return int(self.page.get_attribute("svg.board", "data-ply"))

    def close(self):
        self.context.close()


def test_summary_numbers(browser, played, report_file):
    report, _, _ = played
    view = Page(browser, report_file)
    cells = view.page.eval_on_selector_all(
        "#summary tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))")
    assert [tuple(row) for row in cells] == table_rows(report)
    assert view.page.inner_text("#verdict").startswith("FAIL on the course's pass marks")
    bars = view.page.eval_on_selector_all(
        "#bars g.bar", "gs => gs.map(g => [g.dataset.key, +g.dataset.wins, +g.dataset.draws, +g.dataset.losses])")
    assert bars == [[key, e["wins"], e["draws"], e["losses"]] for key, e in report["opponents"].items()]
    results = view.page.eval_on_selector_all("#games tbody td.result", "tds => tds.map(td => td.textContent)")
    assert results == ["lost", "lost", "drawn", "drawn", "won"]
    assert view.problems == []
    view.close()


def test_a_game_clicked_through_matches_the_referee(browser, played, report_file, tmp_path):
    _, _, boards = played
    view = Page(browser, report_file)
    page = view.page
    # the viewer opens on the first game listed: a loss against greedy, game 0
    assert page.inner_text("#viewer .game-title") == "greedy, game 0: random (White) vs greedy (Black), seed 0"
    assert view.ply() == 0 and view.pieces() == boards[("greedy", 0)][0]
    # the longest game: a draw against dummy, the agent playing Black
    page.click("#games tbody tr:nth-child(3) button.view")
    assert page.inner_text("#viewer .game-title").startswith("dummy@black, game 0:")
    assert page.inner_text("#viewer .ending") == "Draw: too many plies without a capture (after 204 plies)."
    assert page.inner_text("#viewer .command") == "python -m harness replay dummy@black/results.jsonl --game 0"
    seen = boards[("dummy@black", 0)]
    page.click("#viewer button[data-go=last]")
    assert view.ply() == 204 and page.inner_text("#viewer .ply") == "ply 204 / 204"
    assert view.pieces() == seen[204]
    assert page.locator("svg.board .marks rect").count() == 2       # the last move's squares
    page.keyboard.press("ArrowLeft")
    assert view.ply() == 203 and view.pieces() == seen[203]
    page.keyboard.press("Home")
    assert view.ply() == 0 and view.pieces() == seen[0]
    page.keyboard.press("ArrowRight")
    page.click("#viewer button[data-go=next]")
    assert view.ply() == 2 and view.pieces() == seen[2]
    page.click("#viewer .moves button[data-ply='57']")
    assert view.ply() == 57 and view.pieces() == seen[57]
    assert page.get_attribute("#viewer .moves button.current", "data-ply") == "57"
    page.click("#viewer button[data-go=previous]")
    assert view.ply() == 56 and view.pieces() == seen[56]
    page.click("#viewer button[data-go=first]")
    page.click("#viewer button[data-go=previous]")          # stays at the start
    assert view.ply() == 0
    page.click("#viewer button[data-go=last]")
    page.locator("#viewer").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "viewer.png"))
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert view.problems == []
    view.close()


def test_every_game_ends_on_the_referees_last_board(browser, played, report_file):
    report, games, boards = played
    view = Page(browser, report_file)
    for row in range(1, len(games) + 1):
        view.page.click(f"#games tbody tr:nth-child({row}) button.view")
        label, number = view.page.inner_text("#viewer .game-title").split(", game ")
        assert label == view.page.inner_text(f"#games tbody tr:nth-child({row}) td:nth-child(2)")
        view.page.keyboard.press("End")
        seen = boards[(label, int(number.split(":")[0]))]
        assert view.ply() == len(seen) - 1 and view.pieces() == seen[-1]
    assert view.problems == []
    view.close()


def test_without_javascript_the_summary_and_plots_remain(browser, played, report_file):
    report, _, _ = played
    view = Page(browser, report_file, java_script_enabled=False)
    page = view.page
    assert len(page.locator("#summary tbody tr").all()) == len(report["opponents"])
    for figure in ("#bars", "#seconds-plot svg", "#lengths-plot svg"):
        box = page.locator(figure).bounding_box()
        assert box and box["width"] > 300 and box["height"] > 60
    assert not page.locator("#viewer").is_visible()
    assert page.locator("#games tbody tr").count() == 5
    assert not page.locator("button.view").first.is_visible()
    view.close()


def test_the_one_game_page(browser, tmp_path):
    record, seen = play("dummy", "black", 1)
    record["game"] = 1
    path = tmp_path / "game.html"
    path.write_text(render_game_html(record, results_path="r/results.jsonl"), encoding="utf-8")
    view = Page(browser, path)
    assert view.pieces() == seen[0]
    view.page.keyboard.press("End")
    assert view.ply() == record["plies"] and view.pieces() == seen[-1]
    assert view.page.inner_text("#viewer .ending") == f"Black wins: it captured White's King (after {record['plies']} plies)."
    assert view.page.inner_text("#viewer .command") == "python -m harness replay r/results.jsonl --game 1"
    assert view.problems == []
    view.close()


@pytest.mark.skipif(not os.path.exists("/usr/games/fairy-stockfish"), reason="fairy-stockfish not installed")
def test_the_game_review_graph_marks_and_arrow(browser, played, tmp_path):
    """The first game listed (a loss against greedy) reviewed by Fairy-Stockfish: the eval graph,
    the judged moves in the move list, a click on the graph, and the best move's arrow."""
    from harness.analysis.analysers import make_analyser
    from harness.analysis.review import review_game
    from harness.variants import find_variant
    report, games, _ = played
    record = next(r for key, r in games if key == "greedy" and r["game"] == 0)     # shown first
    analyser = make_analyser(None, "cs3243", 1000)
    try:
        entry = review_game(record, find_variant("cs3243"), analyser)
    finally:
        analyser.close()
    path = tmp_path / "report.html"
    path.write_text(render_report_html(report, games, analyses={"greedy": {record["game"]: entry}}), encoding="utf-8")
    view = Page(browser, path)
    page = view.page
    assert page.inner_text("#viewer .game-title").startswith("greedy, game 0:")
    graph = page.locator("#viewer svg.eval-graph")
    assert graph.is_visible()
    judged = {p["ply"]: p["judgement"] for p in entry["plies"] if p["judgement"]}
    assert judged            # random's play is judged somewhere
    marks = page.eval_on_selector_all("#viewer .moves button[data-judgement]",
                                      "els => els.map(e => [+e.dataset.ply, e.dataset.judgement, e.dataset.move, "
                                      "e.textContent.replace(/^(.*?)x(.*?)$/, (m, a, b) => a + b)])")
    glyphs = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    # each judged move: its name (a capture reads "d4xb2", issue 60) and its glyph
    assert marks == [[k, j, record["moves"][k - 1], record["moves"][k - 1] + glyphs[j]] for k, j in sorted(judged.items())]
    assert page.locator("#viewer svg.eval-graph circle").count() == len(judged)
    # a click in the middle of the graph goes to the middle ply
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    middle = round(record["plies"] / 2)
    assert abs(view.ply() - middle) <= 1
    assert page.get_attribute("#viewer svg.eval-graph", "data-ply") == str(view.ply())
    # the arrow after a move: its mover's best move in the position before it, the move the text
    # names (issue 60: it showed the other side's best)
    page.keyboard.press("Home")
    assert page.locator("svg.board .arrows g.best-move").count() == 0
    assert page.inner_text("#viewer .review-line").startswith("start: White's win ")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#viewer .review-line").startswith(f"ply 1, White {record['moves'][0]}")
    arrow = page.eval_on_selector("svg.board .arrows g.best-move", "g => g.dataset.from + g.dataset.to")
    assert arrow == entry["plies"][0]["best"]
    page.locator("#viewer").screenshot(path=str(tmp_path / "review.png"))


def test_a_long_results_path_stays_in_its_column_at_1200_px(browser, played, tmp_path):
    """Tournament pages and --out outside the project give long replay commands: the command
    breaks inside the side column, and the piece legend wraps under the board, overlapping nothing."""
    report, games, _ = played
    long = ("/home/student/courses/cs3243/assignment-2/reports/of/a/long/folder/name/tournament/pairs/"
            "uci__usr_games_fairy-stockfish_nodes_1000-vs-AB.py/results.jsonl")
    path = tmp_path / "report.html"
    path.write_text(render_report_html(report, games, results_paths={key: long for key in report["opponents"]}),
                    encoding="utf-8")
    view = Page(browser, path)
    boxes = view.page.evaluate("""() => {
        const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        const one = s => box(document.querySelector(s));
        return {legend: one('.legend'), spans: Array.from(document.querySelectorAll('.legend span'), box),
                board: one('.board-box'), side: one('.side'), command: one('.command-line'),
                code: one('.command-line code'), width: document.documentElement.scrollWidth}; }""")
    assert view.page.inner_text("#viewer .command").endswith(f"{long} --game 0")

    def inside(inner, outer):
        return (outer[0] - 0.5 <= inner[0] and inner[2] <= outer[2] + 0.5 and outer[1] - 0.5 <= inner[1]
                and inner[3] <= outer[3] + 0.5)

    def apart(a, b):
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert all(inside(span, boxes["legend"]) for span in boxes["spans"])
    assert inside(boxes["legend"], boxes["board"]) and inside(boxes["code"], boxes["side"])
    assert all(apart(span, boxes["command"]) for span in boxes["spans"])
    assert boxes["width"] <= 1200                     # nothing sticks out of the window
    assert view.problems == []
    view.close()
