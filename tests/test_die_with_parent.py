"""Processes end with what started them: harness.core.interrupts.die_with_parent (the one watch of
a pool's worker and a sandboxed student) and harness.isolation.sandbox.kill_tree (a worker and
everything below it, at a pool's Ctrl-C)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# The parent starts a child that watches it, prints the child's pid, and then waits to be killed.
PARENT = r"""
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", '''
import sys, time
sys.path.insert(0, sys.argv[1])
from harness.core.interrupts import die_with_parent
die_with_parent(0.05, 7)
time.sleep(60)
''', sys.argv[1]])
print(child.pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:          # a zombie has ended: its parent is init's now
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_watched_child_ends_soon_after_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(REPO)], stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        time.sleep(0.3)
        assert alive(child)                              # the watch leaves a child with its parent alone
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child)
    finally:
        parent.kill()
        parent.wait()


# A process that starts a child that starts a grandchild, then prints the three pids.
TREE = r"""
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", '''
import subprocess, sys, time
grandchild = subprocess.Popen(["sleep", "60"])
print(grandchild.pid, flush=True)
time.sleep(60)
'''], stdout=subprocess.PIPE, text=True)
print(child.pid, child.stdout.readline().strip(), flush=True)
time.sleep(60)
"""


def test_kill_tree_kills_a_process_and_every_process_below_it():
    from harness.isolation.sandbox import kill_tree
    top = subprocess.Popen([sys.executable, "-c", TREE], stdout=subprocess.PIPE, text=True)
    try:
        child, grandchild = (int(pid) for pid in top.stdout.readline().split())
        assert alive(top.pid) and alive(child) and alive(grandchild)
        kill_tree(top.pid)
        top.wait(10)
        deadline = time.monotonic() + 10
        while (alive(child) or alive(grandchild)) and time.monotonic() < deadline:
            time.sleep(0.05)
        # killing only the top (Popen.kill, what the pool did) leaves the other two running
        assert top.returncode == -signal.SIGKILL and not alive(child) and not alive(grandchild)
    finally:
        top.kill()
        top.wait()
