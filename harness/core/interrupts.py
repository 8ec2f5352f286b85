"""Ctrl-C that cannot be lost: remembered as well as raised, while a block runs.

Two places lose a KeyboardInterrupt. Python drops an exception raised where it cannot propagate
(os.fork's after-fork hooks, a __del__): a Ctrl-C landing while a pool forks its workers was lost
that way (harness.runs.series checks the flag while it waits). And a student's file run in this
process may catch it: AB.py's guard is a bare `except:` around its search, so that it always
answers; Ctrl-C then only cut one search short and the run went on (harness.isolation.student raises it
again once the student has answered).

Only the main thread can set a signal handler; elsewhere, and where SIGINT is ignored (a pool's
workers leave Ctrl-C to their parent), the block runs as it is and nothing is remembered.
"""
import os
import signal
import sys
import threading
import time


class CtrlC:
    """`with CtrlC() as ctrl_c:` ... a Ctrl-C in the block raises KeyboardInterrupt as usual
    and sets `ctrl_c.seen`; the previous handler is back when the block ends. CtrlC(False) leaves
    SIGINT alone (`seen` stays False)."""

    def __init__(self, active: bool = True):
        self.active = active
        self.seen = False
        self.previous = None

    def __enter__(self):
        if (self.active and threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame):
        self.seen = True
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
        return False


def exit_code(main, *args) -> int:
    """main(*args)'s exit code (None counts as 0); a Ctrl-C that reaches here prints one line,
    `interrupted`, instead of Python's traceback, and gives 130 (128 + SIGINT), as a shell does.
    For scripts whose main has nothing to say on an interrupted run (the benches); a command
    that has (what is recorded, how to resume) catches KeyboardInterrupt itself."""
    try:
        code = main(*args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        return 130
    return 0 if code is None else code


def die_with_parent(poll_seconds: float, exit_code: int) -> threading.Thread:
    """Exit this process (os._exit(exit_code)) as soon as its parent is gone, checked every
    `poll_seconds` by a daemon thread: a pool's worker or a sandboxed student must not outlive a
    killed referee. Returns the watching thread."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent:
                os._exit(exit_code)

    thread = threading.Thread(target=watch, name="die-with-parent", daemon=True)
    thread.start()
    return thread
