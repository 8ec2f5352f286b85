"""A terminal's Ctrl-C for tests: SIGINT to a run's whole process group (started with
start_new_session=True), then its stderr once it ends; the test fails when it is still running
10 s later (killed then, so nothing is left behind). start_thinking starts such a run and waits
until a student file (CATCHES_EVERYTHING, AB.py's guard in small) is thinking."""
import os
import signal
import subprocess
import time

import pytest


def ctrl_c(proc: subprocess.Popen, what: str = "") -> str:
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{what}still running 10 s after Ctrl-C")
    assert time.monotonic() - sent < 10
    return err


# writes the file named by $THINKING once it thinks, then sleeps and swallows whatever interrupts
# it (a bare `except:`, as AB.py's guard) and answers: White's first Pawn steps forward
CATCHES_EVERYTHING = '''import os, time
def studentAgent(gameboard):
    open(os.environ["THINKING"], "w").close()
    try:                            # AB.py's guard: whatever happens, answer
        time.sleep(30)
    except:
        pass
    for (col, row), (piece, colour) in gameboard.items():
        if piece == "Pawn" and colour == "White":
            return ((col, row), (col, row + 1))
'''


def start_thinking(argv: list, thinking) -> subprocess.Popen:
    """argv in its own process group (stdout and stderr piped, text), THINKING=thinking in its
    environment; returned once the file `thinking` exists (the test fails after 60 s)."""
    proc = subprocess.Popen(argv, env={**os.environ, "THINKING": str(thinking)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(thinking) and time.monotonic() < deadline:
        time.sleep(0.05)
    if not os.path.exists(thinking):
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{argv[1]} did not start thinking within 60 s")
    return proc
