"""The web app in a real browser (Debian's chromium driven by Playwright) against `serve` run as a
process: a human's move clicked on the board and the agent's reply seen, undo, the probe marking
its move, a game between two agents watched to its end, and a results.jsonl with its analysis
opened and stepped through; no console errors. A screenshot is saved in the test's tmp dir."""
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness.core.game import Game
from harness.players import build
from harness.core.referee import play_game
from harness.variants import find_variant
from tests.chromium import need_chromium, serving, watched_page

REPO = Path(__file__).resolve().parent.parent
need_chromium()


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("data")) as address:
        yield address


@pytest.fixture
def page(browser):
    page = watched_page(browser, {"width": 1200, "height": 950})
    yield page
    page.context.close()


def piece(page, square):
    """(letter, colour) on a square of the board, or None."""
    found = page.query_selector(f'#board .piece[data-square="{square}"]')
    return None if found is None else (found.get_attribute("data-piece"), found.get_attribute("data-colour"))


def test_a_click_plays_a_move_and_the_agent_replies(page, url, tmp_path):
    page.goto(url + "?white=human&black=greedy&seed=1")
    page.wait_for_selector('#board .piece[data-square="b1"]')
    page.click('#board .square[data-square="b1"]')
    assert page.query_selector('#board circle.target[data-square="b2"]') is not None
    assert page.query_selector('#board circle.target[data-square="b3"]') is None
    page.click('#board .square[data-square="b2"]')
    reply = page.wait_for_selector('#moves button[data-ply="2"]')
    assert reply.inner_text() == "f6g4"
    assert page.inner_text('#moves button[data-ply="1"]') == "b1b2"
    assert (piece(page, "b2"), piece(page, "b1"), piece(page, "g4"), piece(page, "f6")) == (
        ("P", "white"), None, ("E", "black"), None)
    assert "White (human) to move" in page.inner_text("#status")
    page.select_option("#probe-agent", "minimax")
    page.click("#probe")
    page.wait_for_selector('#probe-answer[data-move]:not([data-move=""])')
    assert page.inner_text("#probe-answer").startswith("minimax would play ")
    move = page.get_attribute("#probe-answer", "data-move")
    assert sorted(e.get_attribute("data-square") for e in page.query_selector_all("#board .square.probe")) == sorted(
        [move[:2], move[2:]])
    page.screenshot(path=str(tmp_path / "serve.png"), full_page=True)
    page.click("#undo")
    page.wait_for_selector('#moves button[data-ply="1"]', state="detached")
    assert piece(page, "b1") == ("P", "white") and piece(page, "g4") is None
    corner = '#board .square[data-square="a6"] rect'
    top_left = (page.get_attribute(corner, "x"), page.get_attribute(corner, "y"))
    page.click("#flip")
    assert top_left == ("22", "0")
    assert (page.get_attribute(corner, "x"), page.get_attribute(corner, "y")) == ("358", "336")   # bottom right
    assert page.problems == []


def test_two_agents_are_watched_to_the_end(page, url):
    page.goto(url + "?variant=nthu&white=greedy&black=random&seed=4&pace=0")
    page.wait_for_selector("#status:has-text('after')", timeout=60000)
    variant = find_variant("nthu")
    record = play_game(build("greedy", variant="nthu"), build("random", variant="nthu"), 4, Game(variant))
    plies = len(page.query_selector_all("#moves button[data-ply]"))
    assert plies == record["plies"]
    assert page.inner_text(f'#moves button[data-ply="{plies}"]') == record["moves"][-1]
    assert page.problems == []


def test_a_results_file_with_its_analysis_is_stepped_through(page, url, tmp_path):
    variant = find_variant("cs3243")
    record = {"game": 5, **play_game(build("greedy"), build("random"), 5, Game(variant))}
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(record) + "\n")
    moves = record["moves"]
    analysis = tmp_path / "analysis.jsonl"
    analysis.write_text(json.dumps({"game": 5, "variant": "cs3243", "analyser": "test", "plies": [
        {"ply": 2, "colour": "black", "move": moves[1], "best": "a5a4", "cp_before": 30, "mate_before": None,
         "cp_after": 400, "mate_after": None, "win_before": 52.76, "win_after": 80.1, "accuracy": 20.0,
         "judgement": "blunder"}],
        "accuracy": {"white": 100.0, "black": 20.0}, "turning_point": {"white": None, "black": 2}}) + "\n")
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    page.set_input_files("#analysis-file", str(analysis))
    page.set_input_files("#results-file", str(results))
    page.wait_for_selector('#moves button[data-ply="1"]')
    assert page.inner_text("#title").startswith("game 5: greedy (White) vs random (Black), seed 5")
    assert page.get_attribute('#moves button[data-ply="2"]', "data-judgement") == "blunder"
    page.click('#moves button[data-ply="2"]')
    assert f"ply 2, Black {moves[1]}?? (best a5a4): +0.30 -> +4.00" in page.inner_text("#evaluation")
    # after ply 2, its mover's best move is marked (issue 60: not the next mover's)
    assert sorted(e.get_attribute("data-square") for e in page.query_selector_all("#board .square.best")) == [
        "a4", "a5"]
    assert page.get_attribute("#board", "data-ply") == "2"
    page.click('#moves button[data-ply="1"]')          # ply 1 was its mover's best: nothing marked
    assert page.query_selector_all("#board .square.best") == []
    page.keyboard.press("End")
    assert page.get_attribute("#board", "data-ply") == str(len(moves))
    assert page.problems == []


def test_the_form_starts_a_game_and_shows_a_bad_fen_in_one_line(page, url):
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "congo")
    page.wait_for_selector('#white option[value="ab"]', state="attached")
    page.select_option("#white", "greedy")
    page.select_option("#black", "human")
    page.fill("#fen", "3l3/7 w 1")
    page.click("#start")
    page.wait_for_selector("#setup-error:not([hidden])")
    assert page.inner_text("#setup-error") == "the FEN cannot be read: '3l3/7 w 1': 2 ranks in the board, expected 7"
    page.fill("#fen", "")
    page.click("#start")
    page.wait_for_selector("#status:has-text('Black (human) to move')")
    assert page.is_hidden("#setup-error")
    assert len(page.query_selector_all("#moves button[data-ply]")) == 1          # greedy has moved
    assert piece(page, "a7") == ("G", "black")
    # the browser itself logs the refused request; nothing else went wrong
    assert page.problems == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]


def test_a_pawn_clicked_to_the_far_rank_offers_the_pieces(page, url):
    """Gardner: four moves go from b4 to b5 (b4b5q, r, b, n); the board marks b5 once and a click
    there offers the four pieces (issue 60: it always queened); the queen is chosen here."""
    fen = "r3k/1P3/5/5/R3K w - - 0 1"
    page.goto(url + "?variant=gardner&white=human&black=random&seed=2&fen=" + fen.replace(" ", "%20"))
    page.wait_for_selector('#board .piece[data-square="b4"]')
    page.click('#board .square[data-square="b4"]')
    assert page.query_selector('#board circle.target[data-square="b5"]') is not None
    assert page.query_selector('#board circle.target[data-square="a5"]') is not None
    page.click('#board .square[data-square="b5"]')
    page.click('#promotion button[data-piece="q"]')
    page.wait_for_selector('#moves button[data-ply="1"]')
    assert page.inner_text('#moves button[data-ply="1"]') == "b4b5q"
    assert piece(page, "b5") == ("Q", "white")
    assert page.problems == []


# ----------------------------------------------------------------------------- issue 51


def test_a_game_has_an_address_that_reload_back_and_a_shared_link_show_again(page, url, browser):
    page.goto(url + "?white=human&black=greedy&seed=1")
    page.wait_for_url("**/game/*")
    first = page.url
    page.click('#board .square[data-square="b1"]')
    page.click('#board .square[data-square="b2"]')
    page.wait_for_selector('#moves button[data-ply="2"]')
    page.reload()
    page.wait_for_selector('#moves button[data-ply="2"]')
    assert page.url == first
    assert [b.inner_text() for b in page.query_selector_all("#moves button[data-ply]")] == ["b1b2", "f6g4"]
    assert piece(page, "g4") == ("E", "black") and "White (human) to move" in page.inner_text("#status")
    page.select_option("#white", "random")                # a second game, from the form
    page.select_option("#black", "human")
    page.click("#start")
    page.wait_for_function(f"() => location.href !== {first!r}")
    second = page.url
    page.wait_for_selector('#moves button[data-ply="1"]')
    page.go_back()
    page.wait_for_url(first)
    page.wait_for_selector('#moves button[data-ply="2"]')
    assert page.inner_text('#moves button[data-ply="2"]') == "f6g4"
    assert page.inner_text("#title").startswith("White: human vs Black: greedy")
    page.go_forward()
    page.wait_for_url(second)
    page.wait_for_selector("#title:has-text('White: random')")
    other = browser.new_context(viewport={"width": 1200, "height": 950}).new_page()   # the link shared
    other.goto(first)
    other.wait_for_selector('#moves button[data-ply="2"]')
    assert other.inner_text('#moves button[data-ply="1"]') == "b1b2"
    other.context.close()
    page.goto(url + "game/nosuch")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "no game 'nosuch': this server has not kept a game of that name"
    assert page.problems == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]


def test_a_watched_game_of_two_agents_is_stopped(page, url):
    page.goto(url + "?variant=nthu&white=greedy&black=random&seed=4&pace=1")
    page.wait_for_selector('#moves button[data-ply="1"]', timeout=20000)
    assert page.is_disabled("#resign") and page.is_disabled("#undo") and not page.is_disabled("#stop")
    page.click("#stop")
    page.wait_for_selector("#status:has-text('Stopped after')")
    plies = len(page.query_selector_all("#moves button[data-ply]"))
    assert page.inner_text("#status") == f"Stopped after {plies} pl{'y' if plies == 1 else 'ies'}: nobody plays on."
    assert page.is_disabled("#stop")
    assert not page.is_disabled("#save") and not page.is_disabled("#review-game")    # issue 60: kept, saved, reviewed
    page.wait_for_timeout(2500)                            # longer than two paces: nobody played on
    assert len(page.query_selector_all("#moves button[data-ply]")) == plies
    assert page.problems == []


def test_new_game_stops_the_watched_one(page, url):
    page.goto(url + "?variant=nthu&white=greedy&black=random&seed=4&pace=1")
    page.wait_for_selector('#moves button[data-ply="1"]', timeout=20000)
    watched = page.url.rsplit("/", 1)[1]
    page.click("#start")
    page.wait_for_function(f"() => !location.href.endsWith({watched!r})")
    state = page.evaluate(f"() => fetch('/api/games/{watched}').then(r => r.json())")
    assert state["stopped"] is True


def test_the_congo_river_the_start_position_and_the_phone_layout(browser, url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url + "?variant=congo")
    page.wait_for_selector('#board .piece[data-square="d1"]')          # the start position, before any game
    assert page.get_attribute('#board .piece[data-square="d1"]', "data-piece") == "L"
    congo = find_variant("congo")
    assert page.input_value("#fen-shown") == congo.fen(congo.start())
    river = page.eval_on_selector_all("#board rect.river", "rs => rs.map(r => r.parentNode.dataset.square)")
    assert river == ["a4", "b4", "c4", "d4", "e4", "f4", "g4"]
    assert page.eval_on_selector_all("#board .square.river", "gs => gs.length") == 7
    page.goto(url + "?variant=congo&white=human&black=greedy")
    page.wait_for_selector("#status:has-text('to move')")
    for selector in ("#board", "#status"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, (selector, box)
    assert page.locator("#board").bounding_box()["width"] >= 300
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert problems == []
    context.close()


def test_check_a_capture_ring_and_the_buttons_that_work(page, url):
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    for button in ("#undo", "#resign", "#stop", "#save"):
        assert page.is_disabled(button)
    page.goto(url + "?white=human&black=greedy&fen=" + "3k3/7/7/4p2/7/7/3K2r w - - 0 1".replace(" ", "%20"))
    page.wait_for_selector("#status:has-text('White (human) to move')")
    assert page.get_attribute("#board .checks circle.check", "data-square") == "d0"   # the Rook on g0 attacks
    assert not page.is_disabled("#resign") and page.is_disabled("#undo") and page.is_disabled("#stop")
    page.goto(url + "?white=human&black=greedy&fen=" + "3k3/7/7/4p2/7/7/3KR2 w - - 0 1".replace(" ", "%20"))
    page.wait_for_selector("#status:has-text('White (human) to move')")
    assert page.query_selector("#board .checks circle") is None
    page.click('#board .square[data-square="e0"]')
    rings = page.eval_on_selector_all("#board circle.target.capture", "cs => cs.map(c => c.dataset.square)")
    dots = page.eval_on_selector_all("#board circle.target:not(.capture)", "cs => cs.map(c => c.dataset.square)")
    assert rings == ["e3"] and sorted(dots) == ["e1", "e2", "f0", "g0"]
    assert piece(page, "e3") == ("P", "black")                  # the ring leaves the piece's letter in view
    page.click('#board .square[data-square="e3"]')
    page.wait_for_selector('#moves button[data-ply="2"]')
    assert not page.is_disabled("#undo")
    page.click("#resign")
    page.wait_for_selector("#status:has-text('resigned')")
    assert page.inner_text("#status") == "Black wins: White resigned (after 2 plies)."
    assert page.is_disabled("#resign") and page.is_disabled("#undo") and not page.is_disabled("#save")
    assert page.problems == []


def review_files(tmp_path):
    """A recorded game (random against random, seed 1: 85 plies, more than the move list shows at
    once) and a review of every ply of it."""
    variant = find_variant("cs3243")
    record = {"game": 5, **play_game(build("random"), build("random"), 1, Game(variant))}
    moves = record["moves"]
    plies, cp = [], 30
    for k, move in enumerate(moves, start=1):
        after = cp + (300 if k == 2 else 20 * (-1) ** k)
        win = lambda c: round(100 / (1 + 10 ** (-c / 400)), 2)
        plies.append({"ply": k, "colour": "white" if k % 2 else "black", "move": move,
                      "best": "a5a4" if k == 2 else move, "cp_before": cp, "mate_before": None, "cp_after": after,
                      "mate_after": None, "win_before": win(cp), "win_after": win(after), "accuracy": 90.0,
                      "judgement": "blunder" if k == 2 else None})
        cp = after
    entry = {"game": 5, "variant": "cs3243", "analyser": "test", "plies": plies,
             "accuracy": {"white": 90.0, "black": 80.0}, "turning_point": {"white": None, "black": 2}}
    (tmp_path / "results.jsonl").write_text(json.dumps(record) + "\n")
    (tmp_path / "analysis.jsonl").write_text(json.dumps(entry) + "\n")
    return record, entry


def test_the_analysis_board(page, url, tmp_path):
    record, entry = review_files(tmp_path)
    plies = len(record["moves"])
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    page.set_input_files("#analysis-file", str(tmp_path / "analysis.jsonl"))
    page.set_input_files("#results-file", str(tmp_path / "results.jsonl"))
    page.wait_for_selector('#moves button[data-ply="1"]')
    graph = page.locator("#eval-graph")
    assert graph.is_visible() and page.locator("#eval-bar").is_visible()
    assert page.locator("#eval-graph circle").count() == 1                  # the one judged move
    assert page.get_attribute("#eval-graph line.turning-point", "data-ply") == "2"
    assert page.get_attribute('#moves button[data-ply="2"]', "class").split() == ["turning-point"]
    assert page.get_attribute('#moves button[data-ply="2"]', "data-eval") == "+3.10"
    assert page.get_attribute('#moves button[data-ply="1"]', "data-eval") == "+0.10"
    box = graph.bounding_box()                                              # the graph jumps
    graph.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    assert abs(int(page.get_attribute("#board", "data-ply")) - round(plies / 2)) <= 1
    assert page.get_attribute("#eval-graph", "data-ply") == page.get_attribute("#board", "data-ply")
    page.keyboard.press("ArrowUp")                                          # up: the first position
    assert page.get_attribute("#board", "data-ply") == "0"
    assert page.get_attribute("#eval-bar", "data-win") == f"{entry['plies'][0]['win_before']:.1f}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")                                       # after ply 2: its mover's best move
    arrow = page.eval_on_selector("#board .arrows g.best-move", "g => g.dataset.from + g.dataset.to")
    assert arrow == "a5a4"
    page.keyboard.press("ArrowLeft")
    assert page.input_value("#fen-shown") == page.evaluate(
        "() => fetch('/api/records/game', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
        "body: JSON.stringify({results: %s, game: 5})}).then(r => r.json()).then(g => g.fens[1])"
        % json.dumps((tmp_path / "results.jsonl").read_text()))
    page.keyboard.press("ArrowDown")                                        # down: the last position
    assert page.get_attribute("#board", "data-ply") == str(plies)
    corner = '#board .square[data-square="a6"] rect'
    before = page.get_attribute(corner, "y")
    page.keyboard.press("f")                                                # f flips
    assert (before, page.get_attribute(corner, "y")) == ("0", "336")
    page.keyboard.press("f")
    page.keyboard.press("Home")
    assert plies == 85 and page.evaluate("() => { const m = document.getElementById('moves'); "
                                         "return m.scrollHeight > 2 * m.clientHeight; }")
    seen = []                                                               # the list follows the move
    for _ in range(plies):
        page.keyboard.press("ArrowRight")
        seen.append(page.evaluate("""() => { const list = document.getElementById('moves').getBoundingClientRect();
            const b = document.querySelector('#moves button.current').getBoundingClientRect();
            return b.top >= list.top - 1 && b.bottom <= list.bottom + 1; }"""))
    assert seen == [True] * plies
    page.keyboard.press("Home")
    page.select_option("#probe-agent", "greedy")
    page.check("#probe-live")                                               # the live probe line
    page.wait_for_selector('#probe-answer[data-move]:not([data-move=""])')
    assert page.inner_text("#probe-answer").startswith("greedy would play ")
    page.click('[data-go="next"]')                                         # (the focus is on the box)
    assert page.get_attribute("#board", "data-ply") == "1"
    page.wait_for_selector('#probe-answer[data-move]:not([data-move=""])')
    probed = page.get_attribute("#probe-answer", "data-move")
    assert page.eval_on_selector("#board .arrows g.probe-move", "g => g.dataset.from + g.dataset.to") == probed
    page.uncheck("#probe-live")
    fen = page.input_value("#fen-shown")                        # play from here: Black to move
    page.select_option("#play-agent", "greedy")
    page.click("#play-here")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#status:has-text('Black (human) to move')")
    assert page.inner_text("#title").startswith("White: greedy vs Black: human")
    assert page.input_value("#fen-shown") == fen
    assert page.problems == []


def test_an_open_page_keeps_its_game_and_a_closed_one_lets_it_expire(browser, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--port", "0", "--idle-minutes", "0.02",
                             "--data", str(tmp_path)],
                            cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = proc.stdout.readline().split()[2]
    try:
        context = browser.new_context(viewport={"width": 1200, "height": 950})
        kept = context.new_page()
        kept.goto(base + "?white=human&black=greedy&seed=1")
        kept.wait_for_url("**/game/*")
        kept.wait_for_selector("#status:has-text('White (human) to move')")
        left = context.new_page()
        left.goto(base + "?white=human&black=greedy&seed=2")
        left.wait_for_url("**/game/*")
        left.wait_for_selector("#status:has-text('White (human) to move')")
        address, game = left.url, left.url.rsplit("/", 1)[1]
        left.close()                                   # its event stream ends: nobody looks at it
        kept.wait_for_timeout(4000)                    # more than three times the 1.2 s limit
        kept.click('#board .square[data-square="b1"]')    # the open page's game is still there
        kept.click('#board .square[data-square="b2"]')
        kept.wait_for_selector('#moves button[data-ply="2"]')
        again = context.new_page()                     # expired: its agents stopped, the game kept (issue 60)
        again.goto(address)
        again.wait_for_selector("#status:has-text('White (human) to move')")
        assert again.url.endswith(game) and again.is_hidden("#error")
        assert again.query_selector('#moves button[data-ply="1"]') is None
        context.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
