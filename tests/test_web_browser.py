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

from harness.game import Game
from harness.players import build
from harness.referee import play_game
from harness.variants import find_variant
from tests.chromium import need_chromium

REPO = Path(__file__).resolve().parent.parent
need_chromium()


@pytest.fixture(scope="module")
def url():
    proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--port", "0"], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline()
    try:
        assert line.startswith("serving on "), line + proc.stderr.read()
        yield line.split()[2]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 950})
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: m.type in ("error", "warning") and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    yield page
    context.close()


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
    page.click('#moves button[data-ply="1"]')          # the position before ply 2: the best move marked
    assert sorted(e.get_attribute("data-square") for e in page.query_selector_all("#board .square.best")) == [
        "a4", "a5"]
    assert page.get_attribute("#board", "data-ply") == "1"
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
