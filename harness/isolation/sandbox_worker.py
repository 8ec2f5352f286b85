"""Child side of the sandbox: runs one student file in its own process for one game.

Started by `harness.isolation.sandbox` as ``python -S -u sandbox_worker.py REQ_FD REP_FD MODE PATH COLOUR
SEED``. Requests arrive as JSON lines on REQ_FD and answers leave as JSON lines on REP_FD, so
whatever the student prints (to fd 1/2, which the parent points at a capture file) can never
reach the referee's terminal or corrupt the protocol. The student's module stays loaded between
moves, so its module-level state lives for the whole game, as in the course.

MODE ``agent`` plays through `harness.isolation.student.StudentAgent` (which mirrors the board for Black);
MODE ``raw`` calls the file's `studentAgent(board)` directly, the way the course does (used by
`check`). The worker never writes anything to fd 1 or 2 itself.
"""
import os
import sys

# Run as a script, sys.path[0] is harness/isolation/, whose module names (config, game, ...) could shadow
# what a student imports: put the project root there instead.
_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or ".") == _HERE:
    sys.path.pop(0)
sys.path.insert(0, os.path.dirname(os.path.dirname(_HERE)))

import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

from harness.core.interrupts import die_with_parent  # noqa: E402

PARENT_POLL_SECONDS = 0.25
MEMORY_LIMIT = 2 << 30       # bytes of address space: a runaway file fails alone (MemoryError)
BOX_ENV = "MINICHESS_BOX"    # harness.isolation.box's limits, as JSON


def _send(fd: int, message: dict) -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()          # the student's output lands in the capture file first
        except BaseException:
            pass
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def _where(tb, path: str) -> dict:
    """The student's own line where the failure happened (the last frame in its file)."""
    line = None
    target = os.path.abspath(path)
    for frame, lineno in traceback.walk_tb(tb):
        if os.path.abspath(frame.f_code.co_filename) == target:
            line = lineno
    return {"line": line}


def _failure(exc: BaseException, path: str, when: str) -> dict:
    """A failure message; SystemExit is an exit, anything else an error, both with the text."""
    prefix = f"{when}: " if when else ""
    if isinstance(exc, SystemExit):
        return {"ok": False, "kind": "exit", "type": "SystemExit",
                "error": f"{prefix}called sys.exit({_safe_repr(exc.code, 500)})",
                **_where(exc.__traceback__, path)}
    text = str(exc)
    if len(text) > 500:
        text = text[:500] + "..."
    detail = f": {text}" if text else ""
    return {"ok": False, "kind": "error", "type": type(exc).__name__,
            "error": f"{prefix}{type(exc).__name__}{detail}",
            **_where(exc.__traceback__, path)}


def _shape(answer):
    """(exact, move): exact is the course's own form (a tuple of two (str, int) tuples); move is the
    answer as plain lists when it has that shape with lists allowed, else None."""
    def square_ok(sq, kinds):
        return (type(sq) in kinds and len(sq) == 2 and type(sq[0]) is str and type(sq[1]) is int)
    exact = type(answer) is tuple and len(answer) == 2 and all(square_ok(s, (tuple,)) for s in answer)
    loose = (type(answer) in (tuple, list) and len(answer) == 2
             and all(square_ok(s, (tuple, list)) for s in answer))
    return exact, ([[s[0], s[1]] for s in answer] if loose else None)


def _board_items(board):
    """The board as JSON-able rows, or None when the student left something unrepresentable."""
    try:
        rows = [[sq[0], sq[1], value[0], value[1]] for sq, value in board.items()]
        json.dumps(rows)
        return rows
    except BaseException:
        return None


def _safe_repr(value, limit: int = 200) -> str:
    try:
        text = repr(value)
    except BaseException as exc:
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class _Watched:
    """Wraps studentAgent to notice when it changes the board it was given."""

    def __init__(self, function):
        self.function = function
        self.mutated = None        # None, or the board rows as the student left them

    def __call__(self, board, *args, **kwargs):
        before = list(board.items())
        try:
            return self.function(board, *args, **kwargs)
        finally:
            try:
                changed = list(board.items()) != before
            except BaseException:
                changed = True
            if changed:
                self.mutated = {"rows": _board_items(board)}


def _load(mode: str, path: str):
    """A callable (board, colour, rng) -> answer, and the watcher on the student's function."""
    if mode == "agent":
        from harness.isolation.student import StudentAgent
        agent = StudentAgent(path, ctrl_c_stops=False)      # this process's parent stops it
        watched = _Watched(getattr(agent, "function", None))
        if callable(watched.function):
            agent.function = watched        # see the board the student itself is handed
        return agent.choose_move, watched
    from harness.isolation.student import load_student_module
    module = load_student_module(path)

    def call(board):
        function = getattr(module, "studentAgent", None)   # looked up per call, as the course does
        if not callable(function):
            raise LookupError(f"'{os.path.basename(path)}' has no module-level studentAgent function")
        return function(board)
    watched = _Watched(call)
    return (lambda board, colour, rng: watched(board)), watched


def _apply_limits(box: dict) -> None:
    """Resource limits before the student's file is imported (harness.isolation.box says which): address
    space always; with the box also CPU seconds, file size, and (run as root) a user id of the
    box's own with a process limit, since root ignores that limit."""
    try:
        import resource
    except ImportError:
        return
    for name, key, default in (("RLIMIT_AS", "as", MEMORY_LIMIT), ("RLIMIT_CPU", "cpu", None),
                               ("RLIMIT_FSIZE", "fsize", None)):
        value = box.get(key, default)
        if value is not None:
            try:
                resource.setrlimit(getattr(resource, name), (value, value))
            except (ValueError, OSError):
                pass
    if box.get("uid") is not None and os.geteuid() == 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (box["nproc"], box["nproc"]))
        os.setgroups([])
        os.setgid(box["uid"])
        os.setuid(box["uid"])


def main(argv) -> int:
    req_fd, rep_fd = int(argv[1]), int(argv[2])
    mode, path, colour, seed = argv[3], argv[4], argv[5], argv[6]
    die_with_parent(PARENT_POLL_SECONDS, 3)      # a hung student must not outlive a killed referee
    _apply_limits(json.loads(os.environ.get(BOX_ENV) or "{}"))
    sys.argv = [path]
    random.seed(f"{seed}:{colour}")           # a student's own `random` replays with the game
    rng = random.Random(f"{seed}:{colour}")   # the same generator the referee gives built-ins
    try:
        choose, watched = _load(mode, path)
    except KeyboardInterrupt:
        os._exit(130)
    except BaseException as exc:
        _send(rep_fd, {"ready": False, **_failure(exc, path, "at import")})
        return 0
    _send(rep_fd, {"ready": True})
    requests = os.fdopen(req_fd, "rb")
    for line in requests:
        request = json.loads(line)
        board = {(c, r): (piece, side) for c, r, piece, side in request["board"]}
        watched.mutated = None
        started = time.perf_counter()
        try:
            answer = choose(board, request.get("colour", colour), rng)
        except KeyboardInterrupt:
            os._exit(130)
        except BaseException as exc:
            _send(rep_fd, _failure(exc, path, ""))
            if isinstance(exc, SystemExit):
                return 0
            continue
        seconds = time.perf_counter() - started
        exact, move = _shape(answer)
        _send(rep_fd, {"ok": True, "move": move, "exact": exact, "repr": _safe_repr(answer),
                       "mutated": watched.mutated, "seconds": seconds})
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv)
    except KeyboardInterrupt:
        code = 130
    os._exit(code)   # skip interpreter teardown: nothing of the student's may run after this
