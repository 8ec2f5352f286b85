"""Issue 60, the server's side: games kept in SQLite (`serve --data`) through a restart and a
crash mid-write, the games list, a stopped game saved, review in one click (background, its
progress, kept with the game), the agent's process started when the game is created (and started
again when it dies while the human thinks), and undo during the agent's think answered at once."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from starlette.testclient import TestClient

from harness.isolation.box import BoxSettings
from harness.isolation.sandbox import kill_tree
from harness.web.app import Offer, Settings, create_app
from harness.web.store import Store

REPO = Path(__file__).resolve().parent.parent
MOVER = "tests/fixtures/first_pawn_forward.py"
JSON = {"Content-Type": "application/json"}


def make_app(data, *files, **settings):
    offer = Offer.build([MOVER, *files])
    return create_app(Settings(offer, move_timeout=10.0, box=BoxSettings(), data=str(data), **settings))


def post(client, path, body=None):
    return client.post(path, content=json.dumps(body or {}), headers=JSON)


def until(client, path, done, seconds=60.0):
    deadline = time.monotonic() + seconds
    while True:
        state = client.get(path).json()
        if done(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def served(app):
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_games_outlive_the_server_and_are_listed_saved_and_played_on(tmp_path):
    app = make_app(tmp_path)
    try:
        with served(app) as client:
            going = post(client, "/api/games", {"white": "human", "black": MOVER, "seed": 3}).json()["id"]
            post(client, f"/api/games/{going}/moves", {"move": "d1d2"})
            until(client, f"/api/games/{going}", lambda s: len(s["moves"]) == 2)
            resigned = post(client, "/api/games", {"variant": "nthu", "white": "human", "black": "greedy"}).json()["id"]
            post(client, f"/api/games/{resigned}/moves", {"move": "a2a3"})
            until(client, f"/api/games/{resigned}", lambda s: len(s["moves"]) == 2)
            post(client, f"/api/games/{resigned}/resign")
            watched = post(client, "/api/games", {"variant": "nthu", "white": "greedy", "black": "random",
                                                  "seed": 4, "pace": 1}).json()["id"]
            until(client, f"/api/games/{watched}", lambda s: len(s["moves"]) >= 1)
            stopped = post(client, f"/api/games/{watched}/stop").json()
            saved = client.get(f"/api/games/{watched}/record")          # a stopped game can be saved
            assert saved.status_code == 200
            assert (saved.json()["moves"], saved.json()["result"], saved.json()["stopped"]) == (
                stopped["moves"], None, True)
            before = {g: client.get(f"/api/games/{g}").json() for g in (going, resigned, watched)}
    finally:
        app.state.games.close()
    assert (tmp_path / "games.sqlite3").is_file()
    app = make_app(tmp_path)                                           # the server started again
    try:
        with served(app) as client:
            listed = client.get("/api/games").json()["games"]
            assert [g["id"] for g in listed] == [watched, resigned, going]     # the latest changed first
            assert [(g["plies"], g["result"], g["reason"], g["stopped"]) for g in listed] == [
                (len(stopped["moves"]), None, None, True), (2, "black", "resignation", False), (2, None, None, False)]
            for game, old in before.items():
                new = client.get(f"/api/games/{game}").json()
                keys = ("variant", "white", "black", "seed", "moves", "seconds", "fens", "result", "reason",
                        "stopped", "ending", "legal")
                assert {k: new[k] for k in keys} == {k: old[k] for k in keys}
                assert new["version"] > old["version"]                 # a page open meanwhile takes it
            assert client.get(f"/api/games/{watched}/record").json()["moves"] == stopped["moves"]
            moved = post(client, f"/api/games/{going}/moves", {"move": "e1e2"})   # played on, a fresh agent
            assert moved.status_code == 200
            state = until(client, f"/api/games/{going}", lambda s: len(s["moves"]) == 4)
            assert state["moves"] == ["d1d2", "b5b4", "e1e2", "c5c4"] and state["error"] is None
            assert client.get("/api/games/9-nosuch").status_code == 404
    finally:
        app.state.games.close()


def test_a_game_whose_agent_is_not_offered_after_the_restart_is_shown_not_lost(tmp_path):
    app = make_app(tmp_path)
    try:
        with served(app) as client:
            game = post(client, "/api/games", {"white": MOVER, "black": "human"}).json()["id"]
            until(client, f"/api/games/{game}", lambda s: len(s["moves"]) == 1)
    finally:
        app.state.games.close()
    app = create_app(Settings(Offer.build([]), data=str(tmp_path)))       # started without --agent
    try:
        with served(app) as client:
            state = client.get(f"/api/games/{game}").json()
            assert (state["moves"], state["result"], state["human_to_move"], state["can_undo"]) == (
                ["b1b2"], None, False, False)
            assert state["notice"] == (f"{MOVER} is not offered by this server now (start it with --agent {MOVER} "
                                       f"to play this game on): the game is shown as it was left")
            refused = post(client, f"/api/games/{game}/moves", {"move": "b5b4"})
            assert (refused.status_code, refused.json()["error"]) == (409, state["notice"])
    finally:
        app.state.games.close()


WRITER = """
import sys, time
from harness.web.store import Store
store = Store(sys.argv[1])
ids = [store.create({"n": 0, "moves": []}) for _ in range(3)]
print(" ".join(ids), flush=True)
n = 0
while True:
    n += 1
    for game in ids:
        store.save(game, {"n": n, "moves": ["a2a3"] * n})
    store.flush()
"""


def test_a_crash_mid_write_leaves_every_game_whole(tmp_path):
    """kill -9 while the writer writes snapshots as fast as it can: each game is one of its
    snapshots, whole, and the database passes SQLite's integrity check."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], cwd=REPO, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    ids = proc.stdout.readline().split()
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert len(ids) == 3
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    store = Store(str(tmp_path))
    try:
        kept = [store.load(game)["snapshot"] for game in ids]
    finally:
        store.close()
    assert all(s["moves"] == ["a2a3"] * s["n"] for s in kept)
    assert min(s["n"] for s in kept) >= 1


def test_review_in_one_click_runs_in_the_background_and_is_kept_with_the_game(tmp_path):
    app = make_app(tmp_path, analyser="ab,nodes=300")
    try:
        with served(app) as client:
            game = post(client, "/api/games", {"variant": "nthu", "white": "human", "black": "greedy"}).json()["id"]
            early = post(client, f"/api/games/{game}/review")
            assert (early.status_code, early.json()) == (409, {"error": "the game goes on: finish or stop it first, "
                                                                        "then review it"})
            for move in ("a2a3", "b2b3"):
                post(client, f"/api/games/{game}/moves", {"move": move})
                until(client, f"/api/games/{game}", lambda s: s["human_to_move"] or s["result"])
            post(client, f"/api/games/{game}/resign")
            asked = post(client, f"/api/games/{game}/review")
            assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
            seen = []
            progress = until(client, f"/api/games/{game}/review",
                             lambda s: seen.append(s) or s["status"] in ("done", "failed"))
            assert progress["status"] == "done", progress
            assert progress["analyser"] == "ab,nodes=300, second look x10, margin 3"        # the server's --analyser
            assert progress["total"] == 5 and progress["done"] >= 5      # 4 plies: 5 positions, then second looks
            assert client.get(f"/api/games/{game}").json()["analysed"] is True
            board = client.get(f"/api/games/{game}/analysis").json()
            moves = client.get(f"/api/games/{game}").json()["moves"]
            assert board["moves"] == moves and board["id"] == game and len(board["fens"]) == 5
            assert len(board["review"]["wins"]) == 5 and board["review"]["summary"].startswith("accuracy White ")
            again = post(client, f"/api/games/{game}/review")                # done: not run twice
            assert (again.status_code, again.json()["status"]) == (200, "done")
    finally:
        app.state.reviews.close()
        app.state.games.close()
    app = make_app(tmp_path)                                              # kept with the game
    try:
        with served(app) as client:
            assert client.get(f"/api/games/{game}/review").json()["status"] == "done"
            assert client.get(f"/api/games/{game}/analysis").json()["review"]["wins"] == board["review"]["wins"]
            assert [g["analysed"] for g in client.get("/api/games").json()["games"]] == [True]
    finally:
        app.state.games.close()


def test_the_agents_process_starts_when_the_game_is_created_and_answers_the_first_move(tmp_path):
    """Its start-up is timed apart (the state's `startup`), before the human's first move; the
    process that answers the first move is that one (no start counted in the first reply)."""
    app = make_app(tmp_path)
    try:
        with served(app) as client:
            game = post(client, "/api/games", {"white": "human", "black": MOVER}).json()["id"]
            state = until(client, f"/api/games/{game}", lambda s: "black" in s["startup"])
            assert state["moves"] == [] and state["startup"]["black"] > 0
            agent = app.state.games.held(game).session.agents["Black"]
            pid = agent.proc.pid
            assert agent.proc.poll() is None                           # started, waiting for its first turn
            post(client, f"/api/games/{game}/moves", {"move": "d1d2"})
            state = until(client, f"/api/games/{game}", lambda s: len(s["moves"]) == 2)
            assert state["moves"][1] == "b5b4" and agent.proc.pid == pid
            assert app.state.games.held(game).session.agents["Black"] is agent
            assert client.get(f"/api/games/{game}").json()["startup"] == state["startup"]   # started once
    finally:
        app.state.games.close()


def test_an_agent_that_dies_while_the_human_thinks_is_started_again_with_a_notice(tmp_path):
    app = make_app(tmp_path)
    try:
        with served(app) as client:
            game = post(client, "/api/games", {"white": "human", "black": MOVER}).json()["id"]
            until(client, f"/api/games/{game}", lambda s: "black" in s["startup"])
            agent = app.state.games.held(game).session.agents["Black"]
            kill_tree(agent.proc.pid)
            state = until(client, f"/api/games/{game}", lambda s: s["notice"], seconds=30)
            assert state["notice"].startswith(f"Black's agent ({MOVER}) had stopped while it waited (the process "
                                              f"was killed by signal SIGKILL): it was started again in ")
            assert state["notice"].endswith(" s, with its module-level state afresh")
            fresh = app.state.games.held(game).session.agents["Black"]
            assert fresh is not agent and fresh.proc.poll() is None
            post(client, f"/api/games/{game}/moves", {"move": "d1d2"})
            state = until(client, f"/api/games/{game}", lambda s: len(s["moves"]) == 2)
            assert (state["moves"], state["error"], state["notice"]) == (["d1d2", "b5b4"], None, None)
    finally:
        app.state.games.close()


SLOW = "import time\n\n\ndef studentAgent(gameboard):\n    time.sleep(8)\n    return ((\"a\", 5), (\"a\", 4))\n"


def test_undo_during_the_agents_think_is_answered_at_once_and_its_reply_dropped(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW)
    tmp_path.chmod(0o755)                   # the boxed worker runs as a user of its own
    app = make_app(tmp_path / "data", str(slow))
    try:
        with served(app) as client:
            game = post(client, "/api/games", {"white": "human", "black": str(slow)}).json()["id"]
            post(client, f"/api/games/{game}/moves", {"move": "d1d2"})
            thinking = until(client, f"/api/games/{game}", lambda s: s["thinking"] == "Black")
            undone = post(client, f"/api/games/{game}/undo").json()
            assert (undone["moves"], undone["thinking"], undone["human_to_move"], undone["taken"]) == (
                [], None, True, 1)
            assert undone["version"] > thinking["version"]
            later = until(client, f"/api/games/{game}", lambda s: "black" in s["startup"] and s["starting"] is None
                          and s["version"] > undone["version"])
            assert (later["moves"], later["thinking"], later["human_to_move"]) == ([], None, True)
            assert app.state.games.held(game).session.agents["Black"].proc.poll() is None   # a fresh one waits
    finally:
        app.state.games.close()


def test_serves_bad_data_folder_and_analyser_are_one_line(tmp_path, capsys):
    from cli_run import run_cli
    taken = tmp_path / "a-file"
    taken.write_text("")
    assert run_cli(["serve", "--port", "0", "--data", str(taken)], capsys) == (
        2, "", f"error: --data {taken}: cannot make the folder: File exists\n")
    assert run_cli(["serve", "--analyser", "nosuch"], capsys) == (
        2, "", "error: --analyser: unknown analyser 'nosuch': use uci:PATH[,nodes=N] (cs3243, gardner) or "
               "ab[,nodes=N] (nthu, congo)\n")
