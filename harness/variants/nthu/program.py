"""`nthu:PATH`: any program that speaks the course's file protocol, as an agent.

Each move, as the course's runner does: write `state` (byte for byte as the runner writes it) in
the agent's own working folder, run ``PATH state action`` there with a wall-clock limit
(the course's 10 s, process start included; the referee's --move-timeout replaces it through
`set_deadline`), send SIGTERM at the limit and SIGKILL if the program is still there `grace`
seconds later, read `action` as the runner does (the last complete group of four integers; the
count of groups is the depth, kept in `depths`), then delete it. Exit status is never checked.

Faults, scored as the course scores them (the player loses):
- no complete group: AgentTimeout when the program was stopped at the limit, AgentCrash otherwise
  (the message gives the exit status and the last lines it printed, stdout and stderr together:
  a traceback's place and error, whatever it printed before);
- a group that is not one of the mover's moves: the group is returned as text ("5 2 9 9"), which
  the variant does not read as a move, so the referee records an illegal move;
- a program stopped at the limit keeps a valid move it had already written.
- `action` left as a link, FIFO, device, folder, hard link or a file over ACTION_LIMIT bytes (or
  `state`'s name taken by something that cannot be removed): AgentCrash with that reason.
A file that is not executable but ends in .py is run with this Python. The program's whole
environment is `environment(workdir)`, given by the caller (harness.players: the box's clean
environment, `harness.isolation.untrusted_env`, its working folder as HOME and TMPDIR), nothing of
the grader's: this module describes how the course runs a program (its command, files and
protocol); how an untrusted process is started is isolation's, below which variants sit.

`workspace(prefix)`, given by the caller (harness.players: `harness.isolation.exchange.Folder`), is
the agent's working folder, made fresh for each game: what the program leaves there is hostile
input, so `state` is handed over and `action` read back through it (never by path: a link the
program planted is neither written through nor followed), and what the program prints goes to
the workspace's capture, outside the folder.

`contain(argv, workdir, limit, grace)`, given by the caller (harness.players: the box), turns the
command into a boxed one, (argv, env): the program then runs in the box with its working folder
the one it may write in, and the limit is kept inside the box (SIGTERM, then SIGKILL); this
agent's own clock (limit + grace + SLACK) stays the last resort.
"""
import os
import signal
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from harness.core.agent import Agent, AgentCrash, AgentError, AgentTimeout

from . import move_from_course
from .files import read_action, state_text

PREFIX = "nthu:"
Environment = Callable[[str], Dict[str, str]]    # working folder -> the program's whole environment
Workspace = Callable[[str], Any]     # prefix -> a fresh working folder (harness.isolation.exchange.Folder)
COURSE_TIMEOUT = 10.0
GRACE = 1.0
SLACK = 2.0             # seconds past limit + grace before a contained program is killed from outside
OUTPUT_LIMIT = 20000
FAULT_LINES = 3         # lines of the end of what a crashed program printed, in its fault message
FAULT_BYTES = 4000
ACTION_LIMIT = 1 << 20  # bytes of `action` read; a larger file is the program's fault


class ProgramAgent(Agent):
    def __init__(self, path: str, environment: Environment, workspace: Workspace, timeout: float = COURSE_TIMEOUT,
                 grace: float = GRACE, contain: Optional[Callable[..., Tuple[List[str], dict]]] = None):
        if os.path.isdir(path):
            raise AgentError(f"program '{path}' is a folder: give the program file in it")
        if not os.path.isfile(path):
            raise AgentError(f"program '{path}' does not exist")
        self.path = os.path.abspath(path)
        self.name = f"{PREFIX}{path}"
        self.timeout = timeout
        self.grace = grace
        self.contain = contain
        self.environment = environment
        self.workspace = workspace
        self.folder: Any = None               # the game's working folder (workspace)
        self.depths: List[int] = []           # complete groups written, per move
        self.timed_out: List[bool] = []       # stopped at the limit, per move
        self.workdir: Optional[str] = None
        self.output: List[str] = []

    def verify(self):
        if not os.access(self.path, os.X_OK) and not self.path.endswith(".py"):
            raise AgentError(f"program '{self.path}' is not executable (chmod +x, or a .py file)")

    def command(self) -> List[str]:
        if not os.access(self.path, os.X_OK) and self.path.endswith(".py"):
            return [sys.executable, self.path, "state", "action"]
        return [self.path, "state", "action"]

    def start_game(self, colour, seed):
        self.close()
        self.folder = self.workspace("nthu-player-")
        self.workdir = self.folder.path
        self.depths, self.timed_out, self.output = [], [], []

    def set_deadline(self, seconds):
        if seconds:
            self.timeout = seconds

    def _run(self):
        """Run the program once; (timed out, exit status or None, what it printed (its first
        OUTPUT_LIMIT bytes), the end of what it printed)."""
        with self.folder.capture() as out:
            finished = self._run_into(out)
            return (*finished, self.folder.printed(out, OUTPUT_LIMIT), self.folder.printed_end(out, FAULT_BYTES))

    def _run_into(self, out):
        command, env, wait = self.command(), self.environment(self.workdir), self.timeout
        if self.contain is not None:
            command, env = self.contain(command, self.workdir, self.timeout, self.grace)
            wait = self.timeout + self.grace + SLACK
        started = time.monotonic()
        try:
            proc = subprocess.Popen(command, cwd=self.workdir, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=subprocess.STDOUT,
                                    env=env, start_new_session=True)
        except OSError as e:
            raise AgentCrash(f"cannot start {self.path}: {e.strerror or e}",
                             e.__class__.__name__) from None
        try:
            status = proc.wait(timeout=wait)
            return time.monotonic() - started >= self.timeout, status
        except subprocess.TimeoutExpired:
            self._signal(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=self.grace)
            except subprocess.TimeoutExpired:
                self._signal(proc, signal.SIGKILL)
                proc.wait()
            return True, None
        finally:
            if proc.poll() is None:         # an exception of ours: never leave it running
                self._signal(proc, signal.SIGKILL)
                proc.wait()

    @staticmethod
    def _signal(proc, sig):
        try:
            os.killpg(proc.pid, sig)            # its own session: the program and its children
        except (ProcessLookupError, PermissionError):
            pass

    def search_depths(self) -> List[int]:
        return self.depths

    def choose_move(self, view, colour, rng):
        if self.workdir is None:
            self.start_game(colour, 0)
        folder = self.folder
        try:
            folder.remove("action")
            folder.hand_over("state", state_text(view.board, view.side).encode("ascii"))
        except folder.Error as exc:
            raise AgentCrash(f"its folder could not be prepared: {exc}", "ExchangeError") from None
        timed_out, status, printed, end = self._run()
        if printed and sum(len(t) for t in self.output) < OUTPUT_LIMIT:
            self.output.append(printed)
        try:
            data = folder.read_back("action", ACTION_LIMIT)
            folder.remove("action")
        except folder.Error as exc:
            raise AgentCrash(f"the program's {exc}", "ExchangeError") from None
        text = (data or b"").decode("latin-1")
        group, depth = read_action(text)
        self.depths.append(depth)
        self.timed_out.append(timed_out)
        if group is None:
            tail = last_lines(end)
            tail = f": {tail}" if tail else ""
            if timed_out:
                raise AgentTimeout(f"wrote no complete move within {self.timeout:g} s")
            raise AgentCrash(f"wrote no complete move (exit status {status}){tail}")
        move = move_from_course(group)
        legal = {(m[0], m[1]) for m in _legal(view)}
        if move is None or (move.from_square, move.to_square) not in legal:
            return " ".join(str(v) for v in group)
        return move

    def printed_output(self):
        return "".join(self.output) or None

    def close(self):
        if self.folder is not None:
            self.folder.close()
            self.folder = self.workdir = None


def last_lines(text: str, count: int = FAULT_LINES) -> str:
    """The last `count` non-empty lines of `text`, each stripped and cut to 200 characters,
    joined with " | " (a Python traceback: its last frame's place, its line, the error; the
    lines of ^ and ~ marking the failing part are left out)."""
    lines = [line.strip()[:200] for line in text.splitlines() if line.strip(" \t^~")]
    return " | ".join(lines[-count:])


def _legal(view):
    from . import core
    return core.moves(view.board, view.side)


def program_agent(path: str, environment: Environment, workspace: Workspace, timeout: Optional[float] = None,
                  contain=None) -> ProgramAgent:
    """The agent of the program at `path` (the `program_factory`; the course's 10 s a move when
    `timeout` is None), started with `environment` in a `workspace` folder (and in the box when
    `contain` is given); AgentError (one line) when PATH is not a file."""
    return ProgramAgent(path, environment, workspace, timeout=timeout or COURSE_TIMEOUT, contain=contain)

