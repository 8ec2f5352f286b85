"""The board as the human sees it (issue 60), in Chromium at 1280x800 and on a 390x844 phone,
against `serve` run as a process: the board faces the human (Black at the bottom when the human
plays Black; Flip still works), a promotion chooser where the rules allow several pieces, check
shown on the king and in the status, `x` for captures in the move list, the material balance, the
probe's score in White's view, New game / Rematch beside the board, and no page scrolling sideways
on the phone (the start page, a game, the analysis board, a replay --html page)."""
import json

import pytest

from harness.core.game import Game
from harness.core.referee import play_game
from harness.players import build
from harness.variants import find_variant
from harness.view.html import render_game_html
from tests.chromium import need_chromium, serving, watched_page

need_chromium()

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("data")) as address:       # its own games store, not the user's
        yield address


def open_page(browser, size):
    return watched_page(browser, size, phone=size == PHONE)


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1280x800", "390x844"])
def page(browser, request):
    page = open_page(browser, request.param)
    yield page
    page.context.close()


def fen_query(fen):
    return "&fen=" + fen.replace(" ", "%20")


def piece_y(page, square):
    return float(page.get_attribute(f'#board .piece[data-square="{square}"]', "transform").split()[1].rstrip(")"))


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_board_faces_the_human_playing_black_and_flip_still_works(page, url):
    page.goto(url + "?variant=gardner&white=greedy&black=human&seed=3")
    page.wait_for_selector("#status:has-text('Black (human) to move')")
    # Black's king (e5 at the start) is drawn below White's (a1... e1 at the start: White's king on e1)
    assert piece_y(page, "e5") > piece_y(page, "b1")
    page.click("#flip")
    assert piece_y(page, "e5") < piece_y(page, "b1")
    page.click("#flip")
    assert piece_y(page, "e5") > piece_y(page, "b1")
    page.goto(url + "?variant=gardner&white=human&black=greedy&seed=3")   # playing White: White at the bottom
    page.wait_for_selector("#status:has-text('White (human) to move')")
    assert piece_y(page, "e5") < piece_y(page, "b1")
    assert no_sideways_scroll(page)
    assert page.problems == []


def test_the_promotion_chooser_records_a_rook(page, url):
    page.goto(url + "?variant=gardner&white=human&black=random&seed=2" + fen_query("r3k/1P3/5/5/R3K w - - 0 1"))
    page.wait_for_selector('#board .piece[data-square="b4"]')
    page.click('#board .square[data-square="b4"]')
    page.click('#board .square[data-square="b5"]')
    page.wait_for_selector("#promotion:not([hidden])")
    offered = page.eval_on_selector_all("#promotion button.promote", "bs => bs.map(b => [b.dataset.piece, b.textContent])")
    assert offered == [["q", "Queen"], ["r", "Rook"], ["b", "Bishop"], ["n", "Knight"]]
    assert page.query_selector('#moves button[data-ply="1"]') is None           # nothing played yet
    box = page.locator("#promotion").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    page.click('#promotion button[data-piece="r"]')
    page.wait_for_selector('#moves button[data-ply="1"]')
    assert page.get_attribute('#moves button[data-ply="1"]', "data-move") == "b4b5r"
    assert page.get_attribute('#board .piece[data-square="b5"]', "data-piece") == "R"
    assert page.is_hidden("#promotion")
    assert page.problems == []


def test_no_chooser_where_the_rules_allow_one_piece(page, url):
    # NTHU: a pawn becomes a queen, the only piece its rules allow
    page.goto(url + "?variant=nthu&white=human&black=random&seed=2" + fen_query("4k/1P3/5/5/5/K4 w 0"))
    page.wait_for_selector('#board .piece[data-square="b5"]')
    page.click('#board .square[data-square="b5"]')
    page.click('#board .square[data-square="b6"]')
    page.wait_for_selector('#moves button[data-ply="1"]')
    assert page.is_hidden("#promotion")
    assert page.get_attribute('#board .piece[data-square="b6"]', "data-piece") == "Q"
    assert page.problems == []


def test_check_glows_and_the_status_says_it(page, url):
    page.goto(url + "?variant=gardner&white=human&black=greedy" + fen_query("4k/5/5/5/K3r w - - 0 1"))
    page.wait_for_selector("#status:has-text('White (human) to move')")
    assert page.inner_text("#status").startswith("Check! White (human) to move")
    assert page.get_attribute("#board .checks circle.check", "data-square") == "a1"
    assert page.get_attribute("#board .checks circle.check", "fill") == "url(#check-glow)"
    assert page.query_selector("#board .checks rect.check-square") is not None
    assert page.query_selector("#board radialGradient#check-glow") is not None
    page.click('#board .square[data-square="a1"]')
    page.click('#board .square[data-square="a2"]')
    page.wait_for_selector('#moves button[data-ply="2"]')
    checked = page.query_selector("#board .checks circle.check") is not None    # greedy's reply may check
    assert ("Check!" in page.inner_text("#status")) == checked
    assert page.problems == []


def test_captures_read_x_and_the_material_is_beside_the_board(page, url):
    page.goto(url + "?white=human&black=greedy" + fen_query("3k3/7/7/4p2/7/7/3KR2 w - - 0 1"))
    page.wait_for_selector("#status:has-text('White (human) to move')")
    # cs3243's values: a Rook 500, a Pawn 100 (the King left out); in pawns
    assert page.inner_text("#material") == "Material: White +4 (White up R; Black up P)"
    page.click('#board .square[data-square="e0"]')
    page.click('#board .square[data-square="e3"]')
    page.wait_for_selector('#moves button[data-ply="2"]')
    assert page.inner_text('#moves button[data-ply="1"]') == "e0xe3"
    assert page.get_attribute('#moves button[data-ply="1"]', "data-move") == "e0e3"
    assert page.get_attribute('#moves button[data-ply="1"]', "data-capture") == "true"
    reply = page.get_attribute('#moves button[data-ply="2"]', "data-move")
    assert page.inner_text('#moves button[data-ply="2"]') == reply                  # no capture left to make
    assert page.inner_text("#material") == "Material: White +5 (White up R)"
    page.click('#moves button[data-ply="1"]')
    assert page.inner_text("#material") == "Material: White +5 (White up R)"
    page.click('[data-go="first"]')
    assert page.inner_text("#material").startswith("Material: White +4")
    assert page.problems == []


def test_new_game_and_rematch_sit_beside_the_board(page, url):
    page.goto(url + "?variant=nthu&white=human&black=greedy&seed=5")
    page.wait_for_selector("#status:has-text('White (human) to move')")
    board, button = page.locator("#board").bounding_box(), page.locator("#new-game").bounding_box()
    assert button["y"] < board["y"] + board["height"] + 150          # right under the board, not at the page's end
    assert button["y"] + button["height"] <= page.viewport_size["height"] or page.viewport_size == PHONE
    assert page.locator("#new-game").bounding_box()["y"] < page.locator("#setup").bounding_box()["y"] or \
        page.viewport_size == DESKTOP
    assert page.is_disabled("#rematch")
    page.click("#resign")
    page.wait_for_selector("#status:has-text('resigned')")
    first = page.url
    page.click("#rematch")                                          # the colours swapped
    page.wait_for_function(f"() => location.href !== {first!r}")
    page.wait_for_selector("#title:has-text('White: greedy vs Black: human')")
    page.wait_for_selector("#status:has-text('Black (human) to move')")
    second = page.url
    page.click("#new-game")                                         # the form's settings
    page.wait_for_function(f"() => location.href !== {second!r}")
    page.wait_for_selector("#title:has-text('White: human')")
    assert page.problems == []


def test_the_probe_score_is_whites_view(page, url):
    # Black to move with a queen against a bare king: the probe's score (the mover's, from the
    # agent) is shown from White's view: negative, or Black mating
    page.goto(url + "?variant=nthu&white=greedy&black=human" + fen_query("k4/5/5/q4/5/4K b 0"))
    page.wait_for_selector("#status:has-text('Black (human) to move')")
    page.select_option("#probe-agent", "ab")
    page.click("#probe")
    page.wait_for_selector('#probe-answer[data-move]:not([data-move=""])', timeout=30000)
    text = page.inner_text("#probe-answer")
    assert ", score -" in text and "(White's view)" in text or ", Black mates in " in text, text
    assert "White's" in page.inner_text(".probe .sign-note")
    assert page.problems == []


def recorded_game(tmp_path):
    variant = find_variant("cs3243")
    record = {"game": 3, **play_game(build("greedy"), build("random"), 3, Game(variant))}
    # a student's file against Fairy-Stockfish: the game list's line is long (issue 60: 508 px)
    record.update(white="students/a-student-with-a-long-name/agent_submission_final.py",
                  black="uci:/usr/games/fairy-stockfish,nodes=100000")
    (tmp_path / "results.jsonl").write_text(json.dumps(record) + "\n")
    return record


def test_no_page_scrolls_sideways_on_the_phone(browser, url, tmp_path):
    page = open_page(browser, PHONE)
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    assert no_sideways_scroll(page), "the start page"
    page.goto(url + "?white=human&black=greedy")
    page.wait_for_selector("#status:has-text('to move')")
    assert no_sideways_scroll(page), "a game"
    record = recorded_game(tmp_path)
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    page.set_input_files("#results-file", str(tmp_path / "results.jsonl"))
    page.wait_for_selector('#moves button[data-ply="1"]')
    page.wait_for_selector("#record-game:not([hidden])")
    assert no_sideways_scroll(page), "the analysis board"
    assert page.locator("#record-game").bounding_box()["width"] <= 390
    html = tmp_path / "game.html"
    html.write_text(render_game_html(record, results_path=str(tmp_path / "results.jsonl")), encoding="utf-8")
    page.goto(html.as_uri())
    page.wait_for_selector("#viewer .piece")
    assert no_sideways_scroll(page), "a replay --html page"
    assert page.problems == []
    page.context.close()
