"""A UCI engine process (Fairy-Stockfish or anything that speaks UCI and knows the variant):
started, shaken hands with, asked to search a position, stopped. Used by the ``uci:`` agent
(agents/uci.py) and by the game review's analyser (harness/analysis/uci.py).

Handshake: ``uci`` (wait for ``uciok``), ``setoption name VariantPath value <cs3243.ini>``,
``setoption name UCI_Variant value cs3243``, any further ``setoption`` lines, ``ucinewgame``,
``isready`` (wait for ``readyok``). The engine must confirm the variant with an ``info string
variant cs3243 ...`` line, as Fairy-Stockfish does; otherwise `UciError` says so. A search is
``position fen FEN`` and a ``go ...`` line; the answer is the ``bestmove`` line and the ``info``
lines before it.

Failures: the engine cannot be started, exits, or closes its output -> `UciError` (one line,
with the last lines it wrote to stderr); no ``uciok``/``readyok``/``bestmove`` within the
deadline -> `AgentTimeout` (the process, started in its own session, is killed with its
children); a line longer than LINE_LIMIT, or more than ANSWER_LIMIT bytes of lines while one answer
is awaited -> `UciError` (what the engine prints is hostile input: read in capped lines, at most
QUEUE_LINES waiting, so an engine printing for ever blocks on its own pipe, never fills the
grader's memory). The engine starts with `harness.isolation.untrusted_env`'s environment, nothing of the
grader's (an engine may be a student's program).
"""
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from typing import Iterable, List, Optional, Tuple

from ..core.agent import AgentTimeout
from .exchange import run_parent
from .untrusted_env import untrusted_env

HANDSHAKE_TIMEOUT = 10.0     # seconds for uciok / readyok
LINE_LIMIT = 1 << 16         # characters of one line the engine prints
ANSWER_LIMIT = 16 << 20      # characters of lines read while one answer is awaited
QUEUE_LINES = 10000          # lines read ahead of the grader; then the engine waits on its pipe
TOO_LONG = "\0too long"      # the reader's mark for a line over LINE_LIMIT (told apart by identity)
ENGINE_DIRECTORIES = ("/usr/games", "/usr/local/games")   # Debian installs fairy-stockfish here


class UciError(Exception):
    """The engine process failed: it could not start, exited, or broke the protocol."""


def find_engine(name: str) -> Optional[str]:
    """The path of engine `name`: on PATH, or in the directories Debian installs games to."""
    found = shutil.which(name)
    if found:
        return found
    for directory in ENGINE_DIRECTORIES:
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def parse_score(lines: List[str]):
    """(cp, mate) from the side to move's view in the last info line with a score; (None, None)
    when there is none."""
    for line in reversed(lines):
        words = line.split()
        if "score" in words:
            at = words.index("score")
            try:
                kind, value = words[at + 1], int(words[at + 2])
            except (IndexError, ValueError):
                continue
            if kind == "cp":
                return value, None
            if kind == "mate":
                return None, value
    return None, None


# an `info` line with a score and a pv: its multipv number (absent: 1), the score's kind and value, the pv
_INFO = re.compile(r"info .*?(?:\bmultipv (\d+) .*?)?\bscore (cp|mate) (-?\d+)\b.*? pv (.+)")


def parse_lines(infos: List[str]) -> List[dict]:
    """The engine's lines (MultiPV) from a search's info lines, best first: per line {"move":
    engine move, "cp": centipawns or None, "mate": moves to mate (negative: being mated) or None,
    "pv": [engine moves]}, each as the last complete (exact, not a bound) info line reported it."""
    found: dict = {}
    for text in infos:
        info = _INFO.match(text)
        if info and "bound" not in text:
            kind, value, pv = info.group(2), int(info.group(3)), info.group(4).split()
            found[int(info.group(1) or 1)] = {"move": pv[0], "cp": value if kind == "cp" else None,
                                              "mate": value if kind == "mate" else None, "pv": pv}
    return [found[k] for k in sorted(found)]


class UciEngine:
    """One engine process; `start` runs it and shakes hands, `close` stops it (safe twice)."""

    def __init__(self, path: str, variant: str, variant_path: Optional[str] = None,
                 options: Iterable[Tuple[str, str]] = (), contain=None):
        """`variant` is the name the engine knows the game by (`Variant.uci_variant`), loaded from
        the file `variant_path` (`Variant.uci_variant_file`; None: the engine knows it built in)."""
        self.path = path
        self.contain = contain                # (argv, workdir) -> (argv, env): the engine boxed
        self.workdir: Optional[str] = None    # its working folder in the box
        self.variant_path = os.path.abspath(variant_path) if variant_path is not None else None
        self.variant = variant
        self.options = list(options)          # (name, value) sent after the variant
        self.proc: Optional[subprocess.Popen] = None
        self.identity = ""                    # the engine's `id name` line's text
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: deque = deque(maxlen=5)
        self._stderr_reader: Optional[threading.Thread] = None

    def command(self) -> List[str]:
        """A PATH ending in .py is run with this Python (the tests' fake engines)."""
        return [sys.executable, self.path] if self.path.endswith(".py") else [self.path]

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        command, env = self.command(), untrusted_env(tempfile.gettempdir())
        if self.contain is not None:
            if "/" not in command[0]:
                command[0] = shutil.which(command[0], path=env["PATH"]) or command[0]
            if self.workdir is None:
                self.workdir = tempfile.mkdtemp(prefix="uci-engine-", dir=run_parent())
            if not os.path.isfile(command[0]):
                why = "it is a folder: give the engine's program file in it" if os.path.isdir(command[0]) else \
                    "No such file or directory"
                raise UciError(f"cannot start engine '{self.path}': {why}")
            command, env = self.contain(command, self.workdir)
        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, env=env, start_new_session=True)
        except OSError as exc:
            why = "it is a folder: give the engine's program file in it" if os.path.isdir(self.path) else \
                exc.strerror or exc
            raise UciError(f"cannot start engine '{self.path}': {why}") from None
        self._lines = queue.Queue(maxsize=QUEUE_LINES)
        self._stderr = deque(maxlen=5)
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._lines, self.proc), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain, args=(self.proc.stderr, self._stderr),
                                               daemon=True)
        self._stderr_reader.start()
        self.send("uci")
        said: List[str] = []
        self.expect(lambda line: line == "uciok", "uciok", HANDSHAKE_TIMEOUT, said)
        self.identity = next((line[len("id name "):] for line in said if line.startswith("id name ")), "")
        if self.variant_path is not None:
            self.send(f"setoption name VariantPath value {self.variant_path}")
        self.send(f"setoption name UCI_Variant value {self.variant}")
        for name, value in self.options:
            self.send(f"setoption name {name} value {value}")
        self.send("ucinewgame")
        self.send("isready")
        seen: List[str] = []
        self.expect(lambda line: line == "readyok", "readyok", HANDSHAKE_TIMEOUT, seen)
        announced = [line.split()[3] for line in seen if re.match(r"info string variant \S+", line)]
        if self.variant not in announced:
            detail = "; ".join(line for line in seen if not line.startswith("option"))[:300]
            where = f" from {self.variant_path}" if self.variant_path is not None else ""
            raise UciError(f"engine '{self.path}' did not load variant {self.variant}{where}"
                           + (f" (it said: {detail})" if detail else ""))

    @staticmethod
    def _pump(stream, lines, proc) -> None:
        """The engine's lines into `lines` (at most LINE_LIMIT characters each: a longer one is
        TOO_LONG and ends the reading), None at the end; waits while QUEUE_LINES are unread, and
        gives up when the engine is gone meanwhile."""
        def put(item) -> bool:
            while True:
                try:
                    lines.put(item, timeout=0.5)
                    return True
                except queue.Full:
                    if proc.poll() is not None:
                        return False
        try:
            while True:
                line = stream.readline(LINE_LIMIT + 1)
                if not line:
                    break
                if len(line) > LINE_LIMIT and not line.endswith("\n"):
                    put(TOO_LONG)
                    return
                if not put(line.strip()):
                    return
        except (OSError, ValueError):
            pass
        put(None)   # end of output

    @staticmethod
    def _drain(stream, tail) -> None:
        try:
            while True:
                line = stream.readline(LINE_LIMIT + 1)
                if not line:
                    return
                if line.strip():
                    tail.append(line.strip()[:300])
        except (OSError, ValueError):
            pass

    def died(self, what: str) -> UciError:
        """The error for an engine that stopped answering: its exit code and last stderr lines."""
        code = self.proc.poll() if self.proc else None
        if code is None and self.proc is not None:
            try:
                code = self.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        status = "closed its output" if code is None else f"exited with code {code}"
        if code is not None and self._stderr_reader is not None:
            self._stderr_reader.join(timeout=0.5)   # let its last words arrive
        stderr = f"; stderr: {' | '.join(self._stderr)}" if self._stderr else ""
        return UciError(f"engine '{self.path}' {status} {what}{stderr}")

    def send(self, text: str) -> None:
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self.died(f"before '{text}' could be sent") from None

    def expect(self, done, what: str, timeout: float, seen: Optional[list] = None) -> str:
        """Read lines until done(line); UciError on end of output, AgentTimeout past `timeout`."""
        deadline = time.monotonic() + timeout
        read = 0
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                self.kill()
                raise AgentTimeout(f"engine '{self.path}' sent no {what} within {timeout:g} s") from None
            if line is None:
                raise self.died(f"while waiting for {what}")
            read += len(line) + 1
            if line is TOO_LONG or read > ANSWER_LIMIT:
                self.kill()
                too_much = f"a line longer than {LINE_LIMIT}" if line is TOO_LONG else f"more than {ANSWER_LIMIT}"
                raise UciError(f"engine '{self.path}' printed {too_much} characters while waiting for {what}")
            if seen is not None:
                seen.append(line)
            if done(line):
                return line

    def search(self, fen: str, go: str, timeout: float) -> Tuple[str, List[str]]:
        """(the bestmove line, the info lines before it) for `fen` under the `go` command."""
        if self.proc is None:
            self.start()
        elif self.proc.poll() is not None:
            raise self.died("between searches")
        self.send(f"position fen {fen}")
        self.send(go)
        seen: List[str] = []
        line = self.expect(lambda text: text.startswith("bestmove"), "bestmove", timeout, seen)
        return line, [text for text in seen if text.startswith("info ")]

    def analyse(self, fen: str, go: str, lines: int, timeout: float) -> List[dict]:
        """The `lines` best moves in `fen` (MultiPV, `parse_lines`), searched under `go` from a
        cleared hash (ucinewgame), so a position's answer does not depend on the ones before."""
        if self.proc is None:
            self.start()
        self.send(f"setoption name MultiPV value {lines}")
        self.send("ucinewgame")
        _, infos = self.search(fen, go, timeout)
        return parse_lines(infos)

    def new_game(self, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """Forget everything searched so far (``ucinewgame``; the hash table is cleared)."""
        self.send("ucinewgame")
        self.send("isready")
        self.expect(lambda line: line == "readyok", "readyok", timeout)

    def kill(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # the engine's own session: it and its children
        except (OSError, AttributeError):
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not within a second; safe to call twice."""
        proc, self.proc = self.proc, None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.proc = proc
                self.kill()
                self.proc = None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
