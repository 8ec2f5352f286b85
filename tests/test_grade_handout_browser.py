"""Issue 58's hand-out pages in a real browser (Debian's chromium driven by Playwright): an NTHU
student's report.html (the verdict box, the reasons, a game opened in the board viewer and played
to its end), a Congo student's (the parts and the failing cases) and the class page sorted by a
click, with no console error, opened from disk. Screenshots are saved in the test's tmp dir."""
import os
import pathlib

import pytest

from tests.chromium import need_chromium
from tests.handout_classes import graded_congo, graded_nthu

sync_api = need_chromium()


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    nthu = graded_nthu(str(tmp_path_factory.mktemp("nthu")))
    congo = graded_congo(str(tmp_path_factory.mktemp("congo")))
    return nthu[1], congo[1]


class Page:
    def __init__(self, browser, path):
        self.context = browser.new_context(viewport={"width": 1200, "height": 900}, offline=True)
        self.page = self.context.new_page()
        self.problems = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(m.text))
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.goto(pathlib.Path(path).as_uri())

    def close(self):
        self.context.close()


def test_the_nthu_report_opens_a_lost_game_in_the_viewer(browser, classes, tmp_path):
    view = Page(browser, os.path.join(classes[0], "students", "segfaults", "report.html"))
    page = view.page
    assert page.inner_text("#verdict strong") == "0 points"
    assert "baselines passed: 0 of 4 (0 points)" in page.inner_text("#verdict")
    assert "games lost by a fault: no move 2" in page.inner_text("#reasons")
    page.click("#games tbody tr:nth-child(2) button.view")
    assert page.is_visible("#viewer")
    assert page.inner_text("#viewer .game-title").startswith("baseline1 as black, game 0:")
    assert page.inner_text("#viewer .command") == ("python -m harness replay games/baseline1-black/results.jsonl "
                                                    "--game 0 --variant nthu")
    page.click("#viewer button[data-go=last]")
    plies = int(page.get_attribute("svg.board", "data-ply"))
    assert page.inner_text("#viewer .ply") == f"ply {plies} / {plies}"
    assert page.eval_on_selector_all("svg.board .piece", "els => els.length") > 0
    page.screenshot(path=str(tmp_path / "nthu.png"), full_page=True)
    assert view.problems == []
    view.close()


def test_the_congo_report_shows_the_parts_and_the_case_that_timed_out(browser, classes, tmp_path):
    view = Page(browser, os.path.join(classes[1], "students", "py_hangs", "report.html"))
    page = view.page
    cells = page.eval_on_selector_all('#parts tr[data-part="eval2"] td', "cells => cells.map(c => c.textContent)")
    assert cells == ["eval2", "9", "10", "ok", "0", "1", "0"]
    assert "timed out after 2 s" in page.inner_text("table.failing")
    page.screenshot(path=str(tmp_path / "congo.png"), full_page=True)
    assert view.problems == []
    view.close()


def test_the_class_page_sorts_by_points_and_links_each_report(browser, classes):
    view = Page(browser, os.path.join(classes[0], "index.html"))
    page = view.page

    def students():
        return page.eval_on_selector_all("#class tbody tr", "rows => rows.map(r => r.dataset.student)")

    assert students() == ["greedy", "segfaults", "silent"]
    page.click("#class th:nth-child(2)")
    assert students()[-1] == "greedy"
    page.click("#class th:nth-child(2)")
    assert students()[0] == "greedy"
    page.click('#class tr[data-student="silent"] a')
    assert page.url.endswith("/students/silent/report.html")
    assert page.title() == "silent: 0 points (NTHU MiniChess)"
    assert view.problems == []
    view.close()
