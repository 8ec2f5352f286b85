"""Issue 60 in chromium (Playwright) against `serve --data DIR` run as a process: a finished game
reviewed in one click (its progress on the page, then the analysis board on it, again after a
reload), the games list on the start page (desktop and phone, no sideways scroll), and a game's
address after the server was started again."""

import pytest

from tests.chromium import need_chromium, start_serve, stop_serve, watched_page

need_chromium()


def start(data):
    return start_serve(data, "--analyser", "ab,nodes=300")


def stop(proc):
    assert stop_serve(proc) == (0, "")


@pytest.fixture
def page(browser):
    page = watched_page(browser, {"width": 1200, "height": 950})
    yield page
    page.context.close()


def test_one_click_review_the_games_list_and_a_restart(page, browser, tmp_path):
    proc, url = start(tmp_path)
    try:
        page.goto(url + "?variant=nthu&white=human&black=greedy&seed=1")
        page.wait_for_url("**/game/*")
        game = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#status:has-text('White (human) to move')")
        assert page.is_disabled("#review-game")                      # the game goes on
        page.click('#board .square[data-square="a2"]')
        page.click('#board .square[data-square="a3"]')
        page.wait_for_selector('#moves button[data-ply="2"]')
        page.wait_for_selector("#status:has-text('White (human) to move')")
        moves = [b.inner_text() for b in page.query_selector_all("#moves button[data-ply]")]
        page.click("#resign")
        page.wait_for_selector("#status:has-text('resigned')")
        page.click("#review-game")                                   # one click
        page.wait_for_selector("#title:has-text('review of game')", timeout=60000)
        assert page.inner_text("#title").startswith(f"review of game {game}: human (White) vs greedy (Black)")
        assert page.locator("#eval-graph").is_visible() and page.locator("#eval-bar").is_visible()
        assert page.inner_text("#review-summary").endswith("(ab,nodes=300, second look x10, margin 3)")
        assert [b.inner_text().split()[0] for b in page.query_selector_all("#moves button[data-ply]")] == moves
        assert page.is_hidden("#review-progress")
        page.reload()                                                # the analysis is kept with the game
        page.wait_for_selector("#title:has-text('review of game')")
        assert page.locator("#eval-graph").is_visible()
        page.goto(url)                                               # the start page lists it
        page.wait_for_selector(f'#games-list a[data-game="{game}"]')
        assert page.inner_text(f'#games-list a[data-game="{game}"]') == (
            "nthu: human vs greedy, black by resignation, 2 plies, reviewed")
        assert page.problems == []
    finally:
        stop(proc)
    proc, url = start(tmp_path)                                      # the server started again
    try:
        page.goto(url + "?variant=nthu&white=human&black=greedy&seed=2")
        page.wait_for_url("**/game/*")
        going = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#status:has-text('White (human) to move')")
        page.click('#board .square[data-square="b2"]')
        page.click('#board .square[data-square="b3"]')
        page.wait_for_selector('#moves button[data-ply="2"]')
        page.wait_for_selector("#status:has-text('White (human) to move')")
    finally:
        stop(proc)
    proc, url = start(tmp_path)
    try:
        page.goto(url + "game/" + going)                             # the address shows the game (another port)
        page.wait_for_selector('#moves button[data-ply="2"]')
        assert page.inner_text('#moves button[data-ply="1"]').startswith("b2b3")
        page.wait_for_selector("#status:has-text('White (human) to move')")
        page.click('#board .square[data-square="c2"]')                # and it is played on
        page.click('#board .square[data-square="c3"]')
        page.wait_for_selector('#moves button[data-ply="4"]')
        page.goto(url + "game/" + game)
        page.wait_for_selector("#title:has-text('review of game')")
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        phone.goto(url)
        phone.wait_for_selector("#games-list a", state="attached")
        assert len(phone.query_selector_all("#games-list a")) == 2
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.context.close()
        page.goto(url + "game/9-nosuch")                             # an unknown address: the form still works
        page.wait_for_selector("#error:not([hidden])")
        page.wait_for_selector('#white option[value="human"]', state="attached")
        page.click("#start")
        page.wait_for_function("() => /\\/game\\/[0-9]+-[0-9a-f]+$/.test(location.pathname)")
        page.wait_for_selector("#status:has-text('to move')")
        assert page.is_hidden("#setup-error")
    finally:
        stop(proc)
