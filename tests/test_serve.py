"""`serve` as a person runs it: a process on a free port that prints its address, answers the API,
and stops cleanly on Ctrl-C; its mistakes are one line and exit 2."""
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from cli_run import run_cli

from harness.web.server import host_names, is_loopback

REPO = Path(__file__).resolve().parent.parent


def start(*options):
    proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", *options], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline()
    return proc, line


def request(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=20) as answer:
        return answer.status, json.loads(answer.read())


def test_serve_answers_on_a_free_port_and_stops_on_ctrl_c():
    proc, line = start("--port", "0", "--agent", "tests/fixtures/first_pawn_forward.py")
    try:
        assert line.startswith("serving on http://127.0.0.1:") and line.rstrip().endswith("(Ctrl-C stops it)")
        url = line.split()[2]
        status, agents = request(url + "api/agents?variant=cs3243")
        assert status == 200 and agents["agents"][-1]["name"] == "tests/fixtures/first_pawn_forward.py"
        status, game = request(url + "api/games", {"white": "tests/fixtures/first_pawn_forward.py", "black": "human"})
        assert status == 201
        deadline = time.monotonic() + 20
        while not game["moves"] and time.monotonic() < deadline:
            time.sleep(0.05)
            _, game = request(url + f"api/games/{game['id']}")
        assert game["moves"] == ["b1b2"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert (proc.returncode, out, err) == (0, "stopped.\n", "")


def test_a_port_in_use_is_one_line():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        proc = subprocess.run([sys.executable, "-m", "harness", "serve", "--port", str(port)], cwd=REPO,
                              capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_bad_options_are_one_line(capsys):
    assert run_cli(["serve", "--agent", "missing.py"], capsys) == (2, "", "error: agent file 'missing.py' does not exist\n")
    assert run_cli(["serve", "--port", "70000"], capsys) == (2, "", "error: --port 70000: a port is at most 65535\n")
    assert run_cli(["serve", "--agent", "nosuch"], capsys) == (
        2, "", "error: unknown agent 'nosuch': give a .py file, uci:PATH, nthu:PATH or a built-in name\n")


def test_the_names_the_server_answers_to():
    assert [is_loopback(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "localhost", "0.0.0.0", "192.168.1.5")] == [
        True, True, True, True, False, False]
    assert host_names("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
    assert host_names("192.168.1.5") == ["127.0.0.1", "192.168.1.5", "::1", "localhost"]
    assert socket.gethostname().lower() in host_names("0.0.0.0")


def test_ctrl_c_stops_at_once_while_an_agent_is_still_thinking():
    """A probe of a file that never answers is in flight (its move time is 30 s): Ctrl-C still
    stops the server within seconds, the waiting request is answered 503, nothing is printed."""
    proc, line = start("--port", "0", "--agent", "tests/fixtures/hostile/hang.py")
    url = line.split()[2]
    answers = []

    def ask():
        try:
            request(url + "api/best", {"variant": "congo", "fen": "3l3/7/7/7/7/P6/3L3 w 1", "agent": "greedy"})
            status, game = request(url + "api/games", {"white": "human", "black": "human"})
            probing.set()
            request(url + "api/best", {"game": game["id"], "agent": "tests/fixtures/hostile/hang.py"})
        except urllib.error.HTTPError as exc:
            answers.append((exc.code, json.loads(exc.read())))

    probing = threading.Event()
    asking = threading.Thread(target=ask)
    asking.start()
    assert probing.wait(60)
    time.sleep(1.5)                 # the probe of the hanging file is in flight
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    asking.join(20)
    assert time.monotonic() - sent < 5
    assert (proc.returncode, out, err) == (0, "stopped.\n", "")
    assert answers == [(503, {"error": "the server is stopping"})]
