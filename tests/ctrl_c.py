"""A terminal's Ctrl-C for tests: SIGINT to a run's whole process group (started with
start_new_session=True), then its stderr once it ends; the test fails when it is still running
10 s later (killed then, so nothing is left behind)."""
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
