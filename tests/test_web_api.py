"""The web app's JSON API (harness/web) through Starlette's test client: every answer of the issue
(201, 200, 400, 404, 409), the Host and Origin checks, agents only by offered names, a crashing
and a hanging agent file losing while the server goes on, the probe, undo, a game that plays
itself, and a results.jsonl with its analysis stepped through."""
import json
import re
import threading
import time

import pytest
from starlette.testclient import TestClient

from harness.isolation.box import BoxSettings
from harness.core.referee import play_game
from harness.core.game import Game
from harness.players import build
from harness.variants import find_variant
from harness.play.session import Probe
from harness.web.app import Offer, Settings, create_app
from harness.web.games import MAX_THINKING

HOSTILE = "tests/fixtures/hostile"
JSON = {"Content-Type": "application/json"}
CS3243_START = "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"


@pytest.fixture(scope="module")
def app():
    offer = Offer.build([f"{HOSTILE}/raises.py", f"{HOSTILE}/hang.py", "tests/fixtures/first_pawn_forward.py"])
    app = create_app(Settings(offer, move_timeout=1.0, box=BoxSettings()))
    yield app
    app.state.games.close()


@pytest.fixture
def client(app):
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        yield client


def post(client, path, body, **headers):
    return client.post(path, content=json.dumps(body), headers={**JSON, **headers})


def until(client, game_id, done, seconds=30.0):
    """The game's state once done(state) (the agents play in the background)."""
    deadline = time.monotonic() + seconds
    while True:
        state = client.get(f"/api/games/{game_id}").json()
        if done(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_the_agents_offered_are_the_builtins_and_the_files_given(client):
    answer = client.get("/api/agents?variant=cs3243")
    assert answer.status_code == 200
    assert [a["name"] for a in answer.json()["agents"]] == [
        "dummy", "random", "greedy", "smart", "minimax", f"{HOSTILE}/raises.py", f"{HOSTILE}/hang.py",
        "tests/fixtures/first_pawn_forward.py"]
    nthu = [a["name"] for a in client.get("/api/agents?variant=nthu").json()["agents"]]
    assert nthu == ["baseline1", "baseline2", "baseline3", "baseline4", "random", "greedy", "ab", "mcts", "nnue",
                    "ab-nodes", "nnue-nodes"]
    bad = client.get("/api/agents?variant=chess")
    assert (bad.status_code, bad.json()) == (400, {"error": 'unknown variant "chess": use one of cs3243, nthu, congo, gardner'})


def test_a_human_game_move_reply_and_every_refusal(client):
    created = post(client, "/api/games", {"variant": "cs3243", "white": "human", "black": "greedy", "seed": 1})
    assert created.status_code == 201
    state = created.json()
    game = state["id"]
    assert {k: state[k] for k in ("variant", "to_move", "moves", "result", "reason")} == {
        "variant": "cs3243", "to_move": "white", "moves": [], "result": None, "reason": None}
    assert state["fen"] == "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"
    assert state["legal"] == ["a0b2", "e0f2", "e0d2", "f0g2", "f0e2", "a1b2", "b1b2", "c1c2", "d1d2", "e1e2",
                              "f1f2", "g1f2"]
    bad = post(client, f"/api/games/{game}/moves", {"move": "a3a4"})
    assert (bad.status_code, bad.json()) == (400, {"error": "'a3a4' is not a move here: there is no piece on a3"})
    assert post(client, f"/api/games/{game}/moves", {"move": 12}).status_code == 400
    moved = post(client, f"/api/games/{game}/moves", {"move": "b1b2"})
    assert moved.status_code == 200 and moved.json()["moves"][0] == "b1b2"
    state = until(client, game, lambda s: len(s["moves"]) == 2)
    assert state["moves"] == ["b1b2", "f6g4"] and state["to_move"] == "white" and state["human_to_move"]
    assert len(state["positions"]) == 3
    undone = post(client, f"/api/games/{game}/undo", {})
    assert (undone.status_code, undone.json()["taken"], undone.json()["moves"]) == (200, 2, [])
    nothing = post(client, f"/api/games/{game}/undo", {})
    assert (nothing.status_code, nothing.json()) == (409, {"error": "there is no move of yours to take back"})
    resigned = post(client, f"/api/games/{game}/resign", {})
    assert (resigned.json()["result"], resigned.json()["reason"]) == ("black", "resignation")
    late = post(client, f"/api/games/{game}/moves", {"move": "b1b2"})
    assert (late.status_code, late.json()) == (409, {"error": "the game is over (resignation)"})
    record = client.get(f"/api/games/{game}/record").json()
    assert (record["game"], record["white"], record["black"], record["result"], record["reason"]) == (
        0, "human", "greedy", "black", "resignation")
    missing = post(client, "/api/games/nosuch/moves", {"move": "b1b2"})
    assert (missing.status_code, missing.json()["error"]) == (
        404, "no game 'nosuch': this server has not kept a game of that name")
    assert client.get("/api/games/nosuch").status_code == 404


def test_a_move_on_an_agents_turn_is_409_and_a_game_without_humans_plays_itself(client):
    state = post(client, "/api/games", {"variant": "nthu", "white": "greedy", "black": "random", "seed": 3}).json()
    answer = post(client, f"/api/games/{state['id']}/moves", {"move": "a2a3"})
    assert answer.status_code == 409
    assert answer.json()["error"] in ("it is White's turn, and greedy plays White", "it is Black's turn, and random plays Black",
                                      f"the game is over ({until(client, state['id'], lambda s: s['result'])['reason']})")
    final = until(client, state["id"], lambda s: s["result"])
    # the same game as the referee plays it
    variant = find_variant("nthu")
    expected = play_game(build("greedy", variant=variant.name), build("random", variant=variant.name), 3, Game(variant))
    assert (final["moves"], final["result"], final["reason"]) == (expected["moves"], expected["result"], expected["reason"])


def test_a_boxed_agent_file_answers_move_after_move(client):
    """The file's process outlives each reply: the game's thread that started it waits for the
    human instead of ending (a boxed process dies with the thread that started it)."""
    game = post(client, "/api/games", {"white": "human", "black": "tests/fixtures/first_pawn_forward.py"}).json()["id"]
    for ply, move in ((2, "d1d2"), (4, "e1e2"), (6, "f1f2")):
        assert post(client, f"/api/games/{game}/moves", {"move": move}).status_code == 200
        state = until(client, game, lambda s: len(s["moves"]) == ply or s["result"])
        assert (state["result"], state["error"], len(state["moves"])) == (None, None, ply)
    assert state["moves"][1::2] == ["b5b4", "c5c4", "d5d4"]     # its first pawn in the dict, each time


@pytest.mark.parametrize("fixture,reason,error", [
    ("raises.py", "crash", "Black: ValueError: boom (raises.py line 5)"),
    ("hang.py", "timeout", "Black: no answer within 1 s"),
])
def test_an_agent_file_that_crashes_or_hangs_loses_and_the_server_goes_on(client, fixture, reason, error):
    state = post(client, "/api/games", {"white": "human", "black": f"{HOSTILE}/{fixture}"}).json()
    post(client, f"/api/games/{state['id']}/moves", {"move": "d1d2"})
    final = until(client, state["id"], lambda s: s["result"])
    assert (final["result"], final["reason"], final["error"]) == ("white", reason, error)
    assert client.get("/api/agents").status_code == 200


def test_a_fault_on_a_position_taken_back_does_not_follow_the_agent_into_the_next():
    """The human's Knight move makes the file hang; the human takes it back while it thinks and
    plays a pawn instead: the timed-out process is replaced, so the file answers the new position
    (it used to lose at once, by the stale "no answer within 1 s")."""
    fixture = "tests/fixtures/hangs_once_a_knight_moved.py"
    app = create_app(Settings(Offer.build([fixture]), move_timeout=1.0, box=BoxSettings()))
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            game = post(client, "/api/games", {"white": "human", "black": fixture}).json()["id"]
            assert post(client, f"/api/games/{game}/moves", {"move": "a0b2"}).status_code == 200
            until(client, game, lambda s: s["thinking"] == "Black")
            undone = post(client, f"/api/games/{game}/undo", {})
            assert (undone.status_code, undone.json()["taken"], undone.json()["moves"]) == (200, 1, [])
            assert post(client, f"/api/games/{game}/moves", {"move": "b1b2"}).status_code == 200
            state = until(client, game, lambda s: len(s["moves"]) == 2 or s["result"])
            assert (state["result"], state["error"], state["moves"][0], len(state["moves"])) == (None, None, "b1b2", 2)
    finally:
        app.state.games.close()


@pytest.mark.parametrize("body,status,error", [
    ({"white": "human", "black": "nosuch"}, 400,
     "unknown agent 'nosuch' for cs3243: the server offers dummy, random, greedy, smart, minimax, "
     f"{HOSTILE}/raises.py, {HOSTILE}/hang.py, tests/fixtures/first_pawn_forward.py"),
    ({"white": "human", "black": "AB.py"}, 400, None),            # a path is never opened unless offered
    ({"white": "human", "black": "/etc/passwd"}, 400, None),
    ({"white": "human", "black": f"{HOSTILE}/raises.py", "variant": "nthu"}, 400, None),
    ({"white": "human"}, 400, None),
    ({"white": "human", "black": "greedy", "seed": -1}, 400, "'seed' must be a whole number >= 0"),
    ({"white": "human", "black": "greedy", "seed": True}, 400, "'seed' must be a whole number >= 0"),
    ({"white": "human", "black": "greedy", "variant": "chess"}, 400,
     'unknown variant "chess": use one of cs3243, nthu, congo, gardner'),
    ({"white": "human", "black": "greedy", "variant": "congo", "fen": "3l3/7 w 1"}, 400,
     "the FEN cannot be read: '3l3/7 w 1': 2 ranks in the board, expected 7"),
    ({"white": "human", "black": "greedy", "pace": 60}, 400, "'pace' must be a number of seconds from 0 to 5"),
])
def test_bad_new_games_are_400_with_the_reason(client, body, status, error):
    answer = post(client, "/api/games", body)
    assert answer.status_code == status
    if error is not None:
        assert answer.json() == {"error": error}
    else:
        assert answer.json()["error"].startswith("unknown agent")


def test_a_body_that_is_not_json_is_refused(client):
    assert client.post("/api/games", content="white=human").status_code == 415
    not_json = client.post("/api/games", content="{", headers=JSON)
    assert (not_json.status_code, not_json.json()) == (400, {"error": "the request body is not JSON"})
    assert post(client, "/api/games", ["human"]).json() == {"error": "the request body must be a JSON object"}


def test_a_game_starts_from_a_fen_or_a_config_files_text(client):
    fen = post(client, "/api/games", {"variant": "congo", "white": "human", "black": "random",
                                      "fen": "3l3/7/7/7/7/P6/3L3 w 1"}).json()
    assert fen["fen"] == "3l3/7/7/7/7/P6/3L3 w 1" and "d1d7" in fen["legal"]
    won = post(client, f"/api/games/{fen['id']}/moves", {"move": "D1-D7"}).json()
    assert (won["result"], won["reason"]) == ("white", "lion_capture")
    black = post(client, "/api/games", {"white": "greedy", "black": "human", "seed": 1,
                                        "fen": "nbqka1r/fpppppf/6e/7/1P5/F1PPPPF/NBQKAER b - - 2 7"}).json()
    assert (black["to_move"], black["human_to_move"], black["fen"]) == (
        "black", True, "nbqka1r/fpppppf/6e/7/1P5/F1PPPPF/NBQKAER b - - 2 7")
    moved = post(client, f"/api/games/{black['id']}/moves", {"move": "g4g3"}).json()
    assert moved["fen"] == "nbqka1r/fpppppf/7/6e/1P5/F1PPPPF/NBQKAER w - - 3 8"
    with open("config.txt", encoding="utf-8") as handle:
        config = handle.read()
    started = post(client, "/api/games", {"white": "human", "black": "greedy", "config": config}).json()
    assert started["fen"] == "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"
    broken = post(client, "/api/games", {"white": "human", "black": "greedy", "config": "Rows:7\nCols:9\n",
                                         "config_name": "../../etc/mine.txt"})
    assert (broken.status_code, broken.json()) == (400, {"error": "mine.txt:2: Cols is 9, expected 7"})


def test_the_probe_answers_for_a_game_a_past_ply_and_a_fen(client):
    state = post(client, "/api/games", {"white": "human", "black": "greedy", "seed": 1}).json()
    found = post(client, "/api/best", {"game": state["id"], "agent": "minimax"})
    assert found.status_code == 200
    assert (found.json()["move"], found.json()["score"]) == ("g1f2", {"cp": -150})
    assert found.json()["seconds"] >= 0
    pawn = post(client, "/api/best", {"game": state["id"], "ply": 0, "agent": "tests/fixtures/first_pawn_forward.py"})
    assert pawn.json()["move"] == "b1b2" and "score" not in pawn.json()
    nthu = post(client, "/api/best", {"variant": "nthu", "fen": "kqbnr/ppppp/5/5/PPPPP/RNBQK w 0", "agent": "ab"}).json()
    nthu_variant = find_variant("nthu")
    assert nthu["move"] in [nthu_variant.move_name(m) for m in nthu_variant.legal_moves(nthu_variant.start())]
    assert set(nthu["score"]) == {"cp"}           # the search's own score (a pawn = 100)
    by_fen = post(client, "/api/best", {"variant": "cs3243", "fen": state["fen"], "agent": "minimax"}).json()
    assert (by_fen["move"], by_fen["score"]) == ("g1f2", {"cp": -150})      # the same position, by its FEN
    crash = post(client, "/api/best", {"game": state["id"], "agent": f"{HOSTILE}/raises.py"}).json()
    assert (crash["move"], crash["error"]) == (None, "ValueError: boom (raises.py line 5)")
    assert post(client, "/api/best", {"game": state["id"], "agent": "nosuch"}).status_code == 400
    assert post(client, "/api/best", {"game": "nosuch", "agent": "greedy"}).status_code == 404
    over = post(client, "/api/best", {"variant": "congo", "fen": "3l3/7/7/7/7/7/3L3 w 1", "agent": "greedy"})
    assert (over.status_code, over.json()) == (409, {"error": "the game is over here (lions_only)"})


def test_probes_wait_their_turn_like_the_games_agents(client, monkeypatch):
    """Eight probes asked at once: at most MAX_THINKING agents think together (each probe would
    otherwise start its own agent process), and every probe is answered."""
    import harness.web.app as web_app
    lock, inside = threading.Lock(), [0]
    most = []

    def slow_probe(variant, state, spec, *rest, **options):
        with lock:
            inside[0] += 1
            most.append(inside[0])
        time.sleep(0.6)
        with lock:
            inside[0] -= 1
        return Probe(spec, "b1b2", 0.6)

    monkeypatch.setattr(web_app, "probe", slow_probe)
    answers = []
    asking = [threading.Thread(target=lambda: answers.append(post(client, "/api/best", {
        "variant": "cs3243", "fen": CS3243_START, "agent": "greedy"}).json())) for _ in range(8)]
    for thread in asking:
        thread.start()
    for thread in asking:
        thread.join(30)
    assert answers == [{"agent": "greedy", "move": "b1b2", "seconds": 0.6}] * 8
    assert max(most) == MAX_THINKING == 4


def test_the_host_header_must_be_the_servers_own_name(app):
    for host in ("evil.example", "127.0.0.1.evil.example"):
        with TestClient(app, base_url=f"http://{host}:8000") as stranger:
            answer = stranger.get("/api/agents")
            assert (answer.status_code, answer.text) == (400, "Invalid host header")
    with TestClient(app, base_url="http://localhost:8000") as local:
        assert local.get("/api/agents").status_code == 200


def test_a_post_from_another_sites_page_is_refused(client):
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9999"):
        answer = post(client, "/api/games", {"white": "human", "black": "greedy"}, Origin=origin)
        assert (answer.status_code, answer.json()) == (403, {"error": "requests from another site's page are refused"})
    same = post(client, "/api/games", {"white": "human", "black": "greedy"}, Origin="http://127.0.0.1:8000")
    assert same.status_code == 201


def test_the_page_and_its_files_are_served_by_the_app_and_nothing_else(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'none'" in page.headers["content-security-policy"]
    assert 'src="/static/play.js"' in page.text
    assert not re.search(r'(src|href)="(https?:)?//', page.text)          # nothing from another server
    script = client.get("/static/play.js")
    assert script.status_code == 200 and re.findall(r"https?://[^\"]*", script.text) == []
    shared = client.get("/static/board.js")          # the board script report.html inlines
    assert shared.status_code == 200 and re.findall(r"https?://[^\"]*", shared.text) == ["http://www.w3.org/2000/svg"]
    assert 'src="/static/board.js"' in page.text
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/app.py").status_code == 404


def test_a_results_file_and_its_analysis_are_stepped_through(client):
    variant = find_variant("cs3243")
    records = [{"game": i, **play_game(build("greedy"), build("random"), i, Game(variant))} for i in range(2)]
    results = "".join(json.dumps(r) + "\n" for r in records) + "{half a line\n"
    moves = records[1]["moves"]
    analysis = json.dumps({"game": 1, "variant": "cs3243", "analyser": "test", "plies": [
        {"ply": 1, "colour": "white", "move": moves[0], "best": moves[0], "cp_before": 0, "mate_before": None,
         "cp_after": 30, "mate_after": None, "win_before": 50.0, "win_after": 52.76, "accuracy": 100.0,
         "judgement": None},
        {"ply": 2, "colour": "black", "move": moves[1], "best": "a5a4", "cp_before": 30, "mate_before": None,
         "cp_after": 400, "mate_after": None, "win_before": 52.76, "win_after": 80.1, "accuracy": 20.0,
         "judgement": "blunder"}],
        "accuracy": {"white": 100.0, "black": 20.0}, "turning_point": {"white": None, "black": 2}}) + "\n"
    listed = post(client, "/api/records", {"results": results, "analysis": analysis}).json()
    assert [(g["game"], g["white"], g["black"], g["analysed"]) for g in listed["games"]] == [
        (0, "greedy", "random", False), (1, "greedy", "random", True)]
    assert listed["notes"] == ["results.jsonl line 3: not a game record, skipped"]
    game = post(client, "/api/records/game", {"results": results, "analysis": analysis, "game": 1}).json()
    assert game["moves"] == moves and len(game["positions"]) == len(game["fens"]) == len(moves) + 1
    assert game["fens"][0] == "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"
    # the review as the report's viewer shows it (harness.view.html's review_data)
    review = game["review"]
    assert review["judgements"][:3] == [None, "blunder", None] and review["wins"][:3] == [50.0, 52.76, 80.1]
    assert review["texts"][2] == (f"ply 2, Black {moves[1]}?? (best a5a4): +0.30 -> +4.00, Black's win 47.2 % -> "
                                  f"19.9 %, accuracy 20.0, blunder")
    assert review["summary"].startswith("accuracy White 100.0 %, Black 20.0 %; ")
    missing = post(client, "/api/records/game", {"results": results, "game": 7})
    assert (missing.status_code, missing.json()) == (400, {"error": "the file has no game 7"})
    empty = post(client, "/api/records", {"results": "nothing\n"})
    assert (empty.status_code, empty.json()) == (400, {"error": "results.jsonl line 1: not a game record, skipped"})


# ----------------------------------------------------------------------------- issue 51: bounds, stop, events


def small_app(**limits):
    offer = Offer.build(["tests/fixtures/first_pawn_forward.py"])
    return create_app(Settings(offer, move_timeout=5.0, box=BoxSettings(), **limits))


def test_a_game_of_two_agents_is_stopped_and_its_agents_end():
    app = small_app()
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            game = post(client, "/api/games", {"white": "greedy", "black": "tests/fixtures/first_pawn_forward.py",
                                               "pace": 1}).json()
            until(client, game["id"], lambda s: len(s["moves"]) >= 2)
            assert post(client, f"/api/games/{game['id']}/resign", {}).status_code == 409   # no human to resign
            stopped = post(client, f"/api/games/{game['id']}/stop", {})
            assert stopped.status_code == 200
            state = stopped.json()
            assert state["stopped"] and state["result"] is None and not state["thinking"]
            assert state["ending"] == f"Stopped after {len(state['moves'])} plies: nobody plays on."
            time.sleep(1.5)                                  # longer than the pace: nobody plays on
            web = app.state.games.get(game["id"])
            assert client.get(f"/api/games/{game['id']}").json()["moves"] == state["moves"]
            assert not web.thread.is_alive()
            assert all(agent.proc is None for agent in web.session.agents.values() if hasattr(agent, "proc"))
            again = post(client, f"/api/games/{game['id']}/stop", {})
            assert (again.status_code, again.json()) == (409, {"error": "the game has been stopped already"})
    finally:
        app.state.games.close()


def test_live_games_are_never_pushed_out_and_a_full_server_says_why():
    app = small_app(max_games=2)
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            first = post(client, "/api/games", {"white": "human", "black": "greedy"}).json()
            second = post(client, "/api/games", {"white": "human", "black": "greedy"}).json()
            full = post(client, "/api/games", {"white": "human", "black": "greedy"})
            assert full.status_code == 503
            assert full.json() == {"error": "the server holds 2 games that are still going on (its limit): finish, "
                                            "resign or stop one, or wait; a game left alone 10 minutes expires"}
            assert client.get(f"/api/games/{first['id']}").status_code == 200       # nobody pushed out
            post(client, f"/api/games/{first['id']}/resign", {})                    # a finished game makes room
            third = post(client, "/api/games", {"white": "human", "black": "greedy"})
            assert third.status_code == 201
            assert app.state.games.held(first["id"]) is None                       # let go of, but kept:
            assert client.get(f"/api/games/{first['id']}").json()["reason"] == "resignation"
            assert client.get(f"/api/games/{second['id']}").status_code == 200
    finally:
        app.state.games.close()


def test_an_idle_game_expires_its_agent_process_ends_and_the_game_comes_back_from_the_store():
    app = small_app(idle=0.5)
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            game = post(client, "/api/games", {"white": "tests/fixtures/first_pawn_forward.py", "black": "human"}).json()
            until(client, game["id"], lambda s: len(s["moves"]) == 1)
            web = app.state.games.held(game["id"])
            agent = web.session.agents["White"]
            assert agent.proc is not None and agent.proc.poll() is None        # its process waits
            deadline = time.monotonic() + 10
            while app.state.games.held(game["id"]) is not None and time.monotonic() < deadline:
                time.sleep(0.1)
            assert app.state.games.held(game["id"]) is None
            assert agent.proc is None                                           # closed: its process ended
            back = client.get(f"/api/games/{game['id']}")                       # asked again: from the store
            assert back.status_code == 200
            assert (back.json()["moves"], back.json()["human_to_move"]) == (["b1b2"], True)
            assert app.state.games.held(game["id"]) is not web
            moved = post(client, f"/api/games/{game['id']}/moves", {"move": "b5b4"})
            assert moved.status_code == 200
            state = until(client, game["id"], lambda s: len(s["moves"]) == 3)
            assert state["moves"] == ["b1b2", "b5b4", "c1c2"]                   # a fresh agent plays on
    finally:
        app.state.games.close()


def test_waiting_requests_are_bounded():
    import harness.web.app as web_app
    app = small_app(max_waiting=2)
    release = threading.Event()
    original = web_app.probe

    def held_probe(variant, state, spec, *rest, **options):
        release.wait(10)
        return Probe(spec, "b1b2", 0.0)
    web_app.probe = held_probe
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            answers = []
            asking = [threading.Thread(target=lambda: answers.append(post(client, "/api/best", {
                "variant": "cs3243", "fen": CS3243_START, "agent": "greedy"}))) for _ in range(2)]
            for thread in asking:
                thread.start()
            time.sleep(0.5)
            busy = post(client, "/api/best", {"variant": "cs3243", "fen": CS3243_START, "agent": "greedy"})
            assert (busy.status_code, busy.json()) == (503, {"error": "the server is busy: 2 requests are waiting "
                                                                      "for an agent or a file already; ask again "
                                                                      "in a moment"})
            release.set()
            for thread in asking:
                thread.join(10)
            assert [a.status_code for a in answers] == [200, 200]
            again = post(client, "/api/best", {"variant": "cs3243", "fen": CS3243_START, "agent": "greedy"})
            assert again.status_code == 200
    finally:
        web_app.probe = original
        app.state.games.close()


@pytest.mark.parametrize("body", ["[" * 100000 + "]" * 100000, '{"white": ' + "[" * 50000 + "]" * 50000 + "}"])
def test_deeply_nested_json_is_a_400_in_one_line(client, body):
    answer = client.post("/api/games", content=body, headers=JSON)
    assert (answer.status_code, answer.json()) == (400, {"error": "the request body is JSON nested too deeply"})


def test_moves_reach_the_page_as_server_sent_events(client):
    game = post(client, "/api/games", {"variant": "nthu", "white": "greedy", "black": "random", "seed": 4,
                                       "pace": 0.05}).json()
    seen = []
    with client.stream("GET", f"/api/games/{game['id']}/events") as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        for line in events.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
    variant = find_variant("nthu")
    record = play_game(build("greedy", variant="nthu"), build("random", variant="nthu"), 4, Game(variant))
    assert seen[-1]["moves"] == record["moves"] and seen[-1]["result"] == record["result"]
    counts = [len(s["moves"]) for s in seen]
    assert counts == sorted(counts) and len(set(counts)) > 3     # the plies came one by one, not at the end
    assert seen[-1]["ending"].startswith(("White wins: ", "Black wins: ", "Draw: "))
    gone = client.get("/api/games/nosuch/events")
    assert gone.status_code == 404


def test_a_games_page_has_its_own_address(client):
    game = post(client, "/api/games", {"white": "human", "black": "greedy"}).json()
    page = client.get(f"/game/{game['id']}")
    assert page.status_code == 200 and 'src="/static/play.js"' in page.text
    assert client.get("/static/board.js").status_code == 200


def test_check_and_the_river_are_in_the_data(client):
    variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
    assert variants["congo"]["board"]["river"] == [[3, c] for c in range(7)]
    assert "river" not in variants["cs3243"]["board"]
    assert variants["congo"]["start_position"] == "g1ele1z/ppppppp/7/7/7/PPPPPPP/G1ELE1Z"
    game = post(client, "/api/games", {"white": "human", "black": "greedy",
                                       "fen": "3k3/7/7/7/7/7/3KR2 w - - 0 1"}).json()
    moved = post(client, f"/api/games/{game['id']}/moves", {"move": "e0e6"}).json()
    assert moved["checks"][:2] == [None, [0, 3]]               # Black's King on d6, attacked by the Rook


@pytest.mark.parametrize("state, words", [
    ({"result": "black", "reason": "no_moves", "moves": ["a2a3"] * 24, "to_move": "white", "variant": "nthu"},
     "Black wins: White has no legal move (after 24 plies)."),
    ({"result": "black", "reason": "out_of_valid_moves", "moves": ["b1b2"], "to_move": "white"},
     "Black wins: White has no legal move: every move walks into an attack (after 1 ply)."),
    ({"result": "white", "reason": "king_capture", "moves": [], "to_move": "black"},
     "White wins: it captured Black's King (after 0 plies)."),
    ({"result": "draw", "reason": "no_moves_draw", "moves": ["x"] * 3, "to_move": "black"},
     "Draw: Black has no move at all (after 3 plies)."),
    ({"result": "white", "reason": "timeout", "moves": ["x"] * 5, "black": "AB.py", "to_move": "black"},
     "White wins: Black (AB.py) did not answer in time (after 5 plies)."),
    ({"result": None, "reason": None, "moves": ["x"] * 2, "stopped": True}, "Stopped after 2 plies: nobody plays on."),
    ({"result": None, "reason": None, "moves": []}, None),
])
def test_endings_in_plain_words(state, words):
    from harness.view.words import ending_words
    assert ending_words(state, find_variant(state.get("variant", "cs3243"))) == words


def test_no_agent_starts_once_a_session_is_shut():
    """The race of issue 51: a game pushed out while its thread starts the agent left a boxed
    process behind; once shut, a session starts no agent (and one started meanwhile is closed)."""
    from harness.play.session import Refused, Session
    variant = find_variant("cs3243")
    session = Session(variant, "tests/fixtures/first_pawn_forward.py", "human", 0, None, 5.0, BoxSettings())
    session.shut()
    with pytest.raises(Refused, match="the game has been closed"):
        session.agent("White")
    assert session.agents == {}


def test_an_agent_started_while_its_session_is_shut_is_closed(monkeypatch):
    from harness.isolation import sandbox
    from harness.play.session import Refused, Session
    variant = find_variant("cs3243")
    session = Session(variant, "tests/fixtures/first_pawn_forward.py", "human", 0, None, 5.0, BoxSettings())
    original, started = sandbox.SandboxAgent.start_game, []

    def start_then_shut(agent, colour, seed=0):
        original(agent, colour, seed)
        started.append((agent, agent.proc))
        session.shut()                      # another thread closes the game meanwhile

    monkeypatch.setattr(sandbox.SandboxAgent, "start_game", start_then_shut)
    with pytest.raises(Refused, match="the game has been closed"):
        session.agent("White")
    (agent, proc), = started
    assert proc.poll() is not None and agent.proc is None      # its process has ended
