"""A student file as an Agent that runs in its own process, so nothing it does can stop the referee.

One worker process (`harness/isolation/sandbox_worker.py`) per side per game: it imports the file once, so
module-level state lasts the whole game, as in the course. The two talk JSON lines over a pair of
dedicated pipes; the worker's fd 1 and 2 go to a capture file, so what the student prints never
reaches the referee's output and is kept for the record (`printed_output()`).

Faults become the exceptions the referee already scores: no answer within `move_timeout`
seconds -> AgentTimeout (the process is killed); an exception, `sys.exit`, `os._exit`, a signal or
an import failure -> StudentCrash with the text; an answer that is not two squares -> an object
whose repr is the student's answer, which the referee rejects as an illegal move. A failure at
import is raised on the side's first move. If the student changed the board it was given, the
same change is made to the copy the referee handed in, so the referee notices it as it would
for an in-process agent (its own board is never touched).
"""
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from typing import Any, Optional

from ..core.agent import Agent, AgentCrash, AgentError, AgentTimeout
from .box import BoxSettings, bwrap, mounts, outside
from .box import command as box_command
from .exchange import read_printed
from .student import mirror_gameboard
from .untrusted_env import untrusted_env
from ..core.variant import BLACK

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sandbox_worker.py")
DEFAULT_MOVE_TIMEOUT = 30.0
OUTPUT_LIMIT = 4096          # bytes of printed output kept per side and game
REPLY_LIMIT = 1 << 20        # bytes of one message from the worker; a longer line is the file's fault


CHANNEL = "wrote to the harness's channel, so its answer could not be read"


class StudentCrash(AgentCrash):
    """The student's process failed: it raised, exited, died, or could not be imported."""


class _Died(Exception):
    pass


class RawAnswer:
    """An answer that is not two squares, carried as the student's own repr for the record."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _square_ok(square) -> bool:
    return (type(square) is list and len(square) == 2 and type(square[0]) is str
            and type(square[1]) is int)


def well_formed(message, expect: str) -> bool:
    """Is `message` one the worker sends (harness/isolation/sandbox_worker.py)? `expect` is its key:
    "ready" ({"ready": bool, ...}) or "ok" ({"ok": bool, "move": None or two squares,
    "mutated": None or {"rows": None or [[c, r, piece, side], ...]}, ...}). A file can write to
    the channel's descriptor itself; whatever it writes must not reach the referee as an answer
    it cannot read."""
    if type(message) is not dict or type(message.get(expect)) is not bool:
        return False
    if not message[expect]:
        return (type(message.get("error", "")) is str
                and (message.get("line") is None or type(message["line"]) is int))
    if expect == "ready":
        return True
    move, mutated = message.get("move"), message.get("mutated")
    if move is not None and not (type(move) is list and len(move) == 2 and all(map(_square_ok, move))):
        return False
    if mutated is not None:
        rows = mutated.get("rows") if type(mutated) is dict else ()
        if rows is not None and not (type(rows) is list
                                     and all(type(row) is list and len(row) == 4 for row in rows)):
            return False
    return type(message.get("repr", "")) is str


def describe_exit(code: Optional[int]) -> str:
    if code is None:
        return "closed its pipe"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def read_output(fd: int, limit: int = OUTPUT_LIMIT, offset: int = 0) -> Optional[str]:
    """What the worker printed from `offset` on (None when nothing), cut to `limit` bytes."""
    return read_printed(fd, limit, offset)


_STARTED: "weakref.WeakSet[subprocess.Popen]" = weakref.WeakSet()   # every worker process started here
_STARTED_LOCK = threading.Lock()


def kill_tree(pid: int) -> None:
    """Kill a process and every process below it. Each is stopped (SIGSTOP) before its children
    are read (/proc/PID/task/*/children), so none starts another meanwhile, and the tree is
    frozen from the top down before anything is killed. This closes the gap that bubblewrap's
    --die-with-parent leaves: bubblewrap asks to die with its parent only once it runs, so a
    parent killed while it starts one (a pool's worker at Ctrl-C, a server's thread) left it
    behind, holding the game's pipes."""
    frozen, todo = [], [pid]
    while todo:
        current = todo.pop()
        try:
            os.kill(current, signal.SIGSTOP)
        except OSError:
            continue
        frozen.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo.extend(int(child) for child in handle.read().split())
        except OSError:
            pass
    for current in frozen:
        try:
            os.kill(current, signal.SIGKILL)
        except OSError:
            pass


def kill_worker(proc: subprocess.Popen) -> None:
    """Kill a sandbox worker and what it started (bubblewrap runs the box as a child of its own,
    the box's process 1): `kill_tree`, then the Popen knows it is gone."""
    if proc.poll() is not None:
        return
    kill_tree(proc.pid)
    proc.kill()


def kill_started() -> int:
    """Kill every worker process this process started that still runs (a server stopping: a
    thread cut off while starting one cannot close it); how many were killed."""
    with _STARTED_LOCK:
        procs = list(_STARTED)
    killed = 0
    for proc in procs:
        if proc.poll() is None:
            kill_worker(proc)
            killed += 1
    return killed


class SandboxAgent(Agent):
    """A student file in a worker process; `mode='raw'` calls studentAgent without mirroring."""

    def __init__(self, path: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT, mode: str = "agent",
                 name: Optional[str] = None, box: Optional[BoxSettings] = None):
        self.path = path
        self.box = box if box is not None and box.enabled else None   # see harness.isolation.box
        self.name = name or path
        self.move_timeout = float(move_timeout)
        self.deadline: Optional[float] = None      # seconds left on the game clock, if any
        self.mode = mode
        self.proc: Optional[subprocess.Popen] = None
        self.colour: Optional[str] = None
        self.failure: Optional[BaseException] = None
        self.failure_line: Optional[int] = None   # the student's line where it failed, if known
        self.last_reply: dict = {}                 # the worker's last answer message (for check)
        self.import_output_bytes = 0     # printed while the file was imported
        self._capture = None
        self._requests = -1
        self._replies = -1
        self._buffer = b""
        self._output: Optional[str] = None

    # -- process ------------------------------------------------------------------------------

    def start_game(self, colour: str, seed: Any = 0) -> None:
        """Start the worker and wait (at most move_timeout) for the file to be imported.
        Never raises for the student's faults: they are kept and raised on the first move."""
        self.close()
        self.colour, self.failure, self._buffer, self._output = colour, None, b"", None
        self.failure_line, self.last_reply = None, {}
        self._capture = tempfile.TemporaryFile()
        req_r, self._requests = os.pipe()
        self._replies, rep_w = os.pipe()
        argv = [sys.executable, "-S", "-u", WORKER, str(req_r), str(rep_w), self.mode,
                os.path.abspath(self.path), colour, str(seed)]
        if self.box is not None:
            argv, env = box_command(self.box, argv, self.path)
        else:
            env = untrusted_env(tempfile.gettempdir())
        try:
            with _STARTED_LOCK:
                self.proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=self._capture, stderr=self._capture,
                    pass_fds=(req_r, rep_w), close_fds=True, env=env)
                _STARTED.add(self.proc)
        finally:
            os.close(req_r)
            os.close(rep_w)
        try:
            ready = self._receive(time.monotonic() + self.move_timeout, expect="ready")
        except AgentTimeout:
            self._kill()
            self.failure = AgentTimeout(f"import did not finish within {self.move_timeout:g} s")
            return
        except _Died:
            self.failure = StudentCrash(f"the process {describe_exit(self._exit_code())} during import")
            return
        except StudentCrash as exc:
            self._kill()
            self.failure = exc
            return
        self.import_output_bytes = os.fstat(self._capture.fileno()).st_size
        if not ready.get("ready"):
            self.failure = StudentCrash(self._failure_text(ready), ready.get("type"), ready.get("line"))
            self._kill()

    def _exit_code(self) -> Optional[int]:
        try:
            code = self.proc.wait(timeout=2)
            if self.box is not None and code is not None and code > 128:
                return 128 - code      # bwrap passes a signal on as 128 + its number
            return code
        except subprocess.TimeoutExpired:
            self._kill()
            return None

    def ended(self) -> Optional[str]:
        proc = self.proc
        if proc is None or self.failure is not None or proc.poll() is None:
            return None
        code = proc.returncode
        if self.box is not None and code is not None and code > 128:
            code = 128 - code          # bwrap passes a signal on as 128 + its number
        return f"the process {describe_exit(code)}"

    def abort(self) -> None:
        proc = self.proc
        if proc is not None:
            kill_worker(proc)      # the asking thread waits for it and closes the pipes

    def _kill(self) -> None:
        if self.proc is not None:
            kill_worker(self.proc)
            self.proc.wait()

    def _receive(self, deadline: float, game_clock: bool = False, expect: str = "ok") -> dict:
        """The next message from the worker (`expect`: "ready" after the import, "ok" after a
        move); AgentTimeout past the deadline, _Died on EOF, StudentCrash when the line is not
        such a message (the file wrote to the channel itself)."""
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if game_clock:
                    raise AgentTimeout("its thinking time for the game ran out", game_clock=True)
                raise AgentTimeout(f"no answer within {self.move_timeout:g} s")
            ready, _, _ = select.select([self._replies], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._replies, 65536)
            if not chunk:
                raise _Died()
            self._buffer += chunk
            if b"\n" not in self._buffer and len(self._buffer) > REPLY_LIMIT:
                raise StudentCrash(f"{CHANNEL}: more than {REPLY_LIMIT} bytes without a line end")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not well_formed(message, expect):
            raise StudentCrash(f"{CHANNEL}: {line[:100]!r}")
        if self.box is not None and bwrap()[0] is not None:
            # the box showed the file at STUDENT_MOUNT: its messages name the host's path again
            message = outside(message, mounts(self.box, self.path))
        return message

    def _failure_text(self, message: dict) -> str:
        self.failure_line = message.get("line")
        where = f" ({os.path.basename(self.path)} line {message['line']})" if message.get("line") else ""
        return f"{message.get('error', 'failed')}{where}"

    # -- Agent --------------------------------------------------------------------------------

    def verify(self) -> None:
        """A file that cannot be a player at all (unreadable, not Python, no studentAgent) is an
        error before the first game; anything it does when run is scored in its games."""
        import ast
        try:
            with open(self.path, "rb") as handle:
                tree = ast.parse(handle.read().decode("utf-8-sig"))
        except OSError as exc:
            raise AgentError(f"agent file '{self.path}' cannot be read: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, SyntaxError, ValueError) as exc:
            where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            raise AgentError(f"agent file '{self.path}' is not valid Python{where}") from None
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "studentAgent":
                return
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
                targets = (node.targets if isinstance(node, ast.Assign) else
                           [node.target] if isinstance(node, ast.AnnAssign) else [])
                names = [a.asname or a.name for a in getattr(node, "names", [])]
                if any(isinstance(t, ast.Name) and t.id == "studentAgent" for t in targets) or "studentAgent" in names:
                    return
        raise AgentError(f"agent file '{self.path}' does not define studentAgent(gameboard)")

    def set_deadline(self, seconds: float) -> None:
        """The referee's game clock: the next move may take at most this long (and at most
        move_timeout)."""
        self.deadline = max(0.0, seconds)

    def choose_move(self, gameboard, colour, rng):
        if self.proc is None:
            self.start_game(colour, rng.getrandbits(32))
        if self.failure is not None:
            raise self.failure
        request = {"board": [[c, r, piece, side] for (c, r), (piece, side) in gameboard.items()],
                   "colour": colour}
        try:
            data = (json.dumps(request) + "\n").encode()
            while data:
                data = data[os.write(self._requests, data):]
            limit = self.move_timeout if self.deadline is None else min(self.move_timeout, self.deadline)
            reply = self._receive(time.monotonic() + limit, game_clock=limit < self.move_timeout)
        except AgentTimeout as exc:
            self._kill()
            self.failure = exc
            raise
        except (_Died, BrokenPipeError):
            self.failure = StudentCrash(f"the process {describe_exit(self._exit_code())} during its move")
            raise self.failure from None
        except StudentCrash as exc:
            self._kill()
            self.failure = exc
            raise
        self.last_reply = reply
        if not reply.get("ok"):
            self.failure = StudentCrash(self._failure_text(reply), reply.get("type"), reply.get("line"))
            self._kill()
            raise self.failure
        if reply.get("mutated"):
            self._reflect_mutation(gameboard, reply["mutated"].get("rows"), colour)
        move = reply.get("move")
        if move is None:
            return RawAnswer(reply.get("repr", "?"))
        return (tuple(move[0]), tuple(move[1]))

    def _reflect_mutation(self, gameboard, rows, colour) -> None:
        """Make the student's change to the board it was given on the referee's disposable copy."""
        gameboard.clear()
        try:
            changed = {(c, r): (piece, side) for c, r, piece, side in rows or []}
        except TypeError:      # a key the student made of lists (JSON has no tuples)
            changed, rows = {}, None
        if self.mode == "agent" and colour == BLACK:
            changed = mirror_gameboard(changed)
        gameboard.update(changed)
        if not rows:
            gameboard[("?", -1)] = ("unrepresentable", "?")

    def printed_output(self, offset: int = 0) -> Optional[str]:
        """What the student printed this game from byte `offset` on (cut to OUTPUT_LIMIT
        bytes), or None."""
        if self._capture is not None:
            self._output = read_output(self._capture.fileno(), offset=offset)
        return self._output

    def close(self) -> None:
        if self.proc is not None:
            self._kill()
            self.printed_output()
        for fd in (self._requests, self._replies):
            if fd >= 0:
                os.close(fd)
        self._requests = self._replies = -1
        if self._capture is not None:
            self._capture.close()
            self._capture = None
        self.proc = None
