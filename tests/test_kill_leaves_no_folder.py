"""A grading or a series killed by SIGTERM leaves no folder of its programs in the temporary folder
(issue 56): Congo's `program-run-*` scratch folders and a series' `nthu-player-*` folders are made
under the run's parent folder (harness.isolation.exchange.run_folder), removed on SIGTERM. Each
test failed on the code before (the folders were made in the temporary folder itself)."""
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from harness.isolation import exchange
from tests.congo_classroom import make_congo_class

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLEEPER = "#!/bin/sh\nexec sleep 120\n"


def folders(where):
    return [os.path.join(top, name) for top, dirs, _ in os.walk(where) for name in dirs]


def kill_when(command, temporary, started):
    """Run `command` with TMPDIR `temporary`, SIGTERM it once `started(name)` holds for a folder
    name under it, and return the folders left there once it ended."""
    env = {**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": ROOT}
    env.pop(exchange.RUN_ENV, None)
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not any(started(os.path.basename(path)) for path in folders(temporary)):
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "nothing started"
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return folders(temporary)


@pytest.mark.timeout(180)
def test_a_congo_grading_killed_by_sigterm_leaves_no_program_run_folder(tmp_path):
    classroom = make_congo_class(str(tmp_path / "class"), ["py_hangs"])
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    left = kill_when([sys.executable, "-m", "harness", "grade", classroom, "--variant", "congo", "--out",
                      str(tmp_path / "out"), "--cases", "2", "--run-timeout", "60", "--jobs", "1", "--quiet"],
                     temporary, lambda name: name.startswith("program-run-"))
    assert left == []


@pytest.mark.timeout(180)
def test_a_series_of_program_agents_killed_by_sigterm_leaves_no_player_folder(tmp_path):
    player = tmp_path / "sleeper"
    player.write_text(SLEEPER)
    player.chmod(player.stat().st_mode | stat.S_IXUSR)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    left = kill_when([sys.executable, "-m", "harness", "series", "--variant", "nthu", "--white", f"nthu:{player}",
                      "--black", "random", "--games", "2", "--jobs", "1", "--move-timeout", "60",
                      "--out", str(tmp_path / "out"), "--progress", "none"],
                     temporary, lambda name: name.startswith("nthu-player-"))
    assert left == []
