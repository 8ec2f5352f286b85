"""A UCI engine (Fairy-Stockfish or anything that speaks UCI and knows the variant) as an agent.

Spec: ``uci:PATH[,nodes=N][,movetime=MS][,timeout=S]``, e.g.
``uci:/usr/games/fairy-stockfish,nodes=1000``. PATH is an executable (looked up on PATH when it
has no slash); a PATH ending in ``.py`` is run with this Python (used by the tests' fake
engines). With no limit given the engine searches ``nodes=1000``; with both, whichever comes
first. ``timeout`` is the most seconds the agent waits for one answer (default: 30 s for a
node limit, ``2 * movetime + 5 s`` for a time limit).

Protocol. The engine process is started on the first move of a game and stopped by close(),
which the game's runner calls when the game is over: one engine process per game (an agent
reused for another game after close() starts a new process). At start:
``uci`` (wait for ``uciok``), ``setoption name VariantPath value <harness/cs3243.ini>``,
``setoption name UCI_Variant value cs3243``, ``ucinewgame``, ``isready`` (wait for
``readyok``). The engine must confirm the variant with an ``info string variant cs3243 ...``
line, as Fairy-Stockfish does; otherwise the agent fails with a message saying so. Then for
each move: ``position fen <FEN of the given gameboard, the agent's colour to move>`` and
``go nodes N`` / ``go movetime MS``; the answer is the ``bestmove`` line's move, converted to
the course's ((col, row), (col, row)).

Each move is sent as a fresh position, without history (stateless: robust to any game start
and to boards the agent did not see before). The gameboard carries no move counters, so the
FEN's halfmove clock is 0 and its move number 1: the engine does not know how close the
50-ply rule is. The referee still applies that rule, so this only affects the engine's play
near the limit.

Failures, as the referee scores them: the engine cannot be started, exits, or closes its
output -> ``UciError`` (a crash); no ``uciok``/``readyok``/``bestmove`` within the deadline ->
``AgentTimeout`` (a timeout; the process is killed); ``bestmove (none)`` (the engine sees no
move) -> None, and any other answer that is not two squares of the board -> the engine's text,
both of which the referee rejects as an ``illegal_move``, as it does a well-formed move that
is not legal.
"""
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from typing import List, Optional

from harness.variants.cs3243.fen import VARIANT_FILE, VARIANT_NAME, engine_to_course, to_fen
from harness.variants.cs3243.rules import RULES

from harness.agent import Agent, AgentError, AgentTimeout

DEFAULT_NODES = 1000
HANDSHAKE_TIMEOUT = 10.0     # seconds for uciok / readyok
NODES_TIMEOUT = 30.0         # seconds per move under a node limit


class UciError(Exception):
    """The engine process failed: it could not start, exited, or broke the protocol."""


class UciAgent(Agent):
    def __init__(self, path: str, nodes: Optional[int] = None, movetime: Optional[int] = None,
                 variant_path: str = VARIANT_FILE, timeout: Optional[float] = None,
                 variant: str = VARIANT_NAME, rules=RULES):
        if nodes is None and movetime is None:
            nodes = DEFAULT_NODES
        for label, value in (("nodes", nodes), ("movetime", movetime)):
            if value is not None and (type(value) is not int or value < 1):
                raise AgentError(f"uci {label} must be a whole number >= 1, not {value!r}")
        if timeout is None:
            timeout = NODES_TIMEOUT if movetime is None else 2 * movetime / 1000 + 5
        self.path = path
        self.nodes = nodes
        self.movetime = movetime
        self.variant_path = os.path.abspath(variant_path)
        self.variant = variant
        self.timeout = float(timeout)
        self.rules = rules
        limits = [f"nodes={nodes}" if nodes is not None else "",
                  f"movetime={movetime}" if movetime is not None else ""]
        self.name = f"uci:{os.path.basename(path)}({','.join(x for x in limits if x)})"
        self.proc: Optional[subprocess.Popen] = None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: deque = deque(maxlen=5)
        self._stderr_reader: Optional[threading.Thread] = None
        self.last_answer: Optional[str] = None   # the last bestmove line, for diagnostics

    # -- process ---------------------------------------------------------------------------

    def command(self) -> List[str]:
        return [sys.executable, self.path] if self.path.endswith(".py") else [self.path]

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, start_new_session=True)
        except OSError as exc:
            raise UciError(f"cannot start engine '{self.path}': {exc.strerror or exc}") from None
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=5)
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._lines), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain, args=(self.proc.stderr, self._stderr),
                                               daemon=True)
        self._stderr_reader.start()
        self._send("uci")
        self._expect(lambda line: line == "uciok", "uciok", HANDSHAKE_TIMEOUT)
        self._send(f"setoption name VariantPath value {self.variant_path}")
        self._send(f"setoption name UCI_Variant value {self.variant}")
        self._send("ucinewgame")
        self._send("isready")
        seen = []
        self._expect(lambda line: line == "readyok", "readyok", HANDSHAKE_TIMEOUT, seen)
        announced = [line.split()[3] for line in seen if re.match(r"info string variant \S+", line)]
        if self.variant not in announced:
            detail = "; ".join(line for line in seen if not line.startswith("option"))[:300]
            raise UciError(f"engine '{self.path}' did not load variant {self.variant} from "
                           f"{self.variant_path}" + (f" (it said: {detail})" if detail else ""))

    @staticmethod
    def _pump(stream, lines) -> None:
        try:
            for line in stream:
                lines.put(line.strip())
        except (OSError, ValueError):
            pass
        lines.put(None)   # end of output

    @staticmethod
    def _drain(stream, tail) -> None:
        try:
            for line in stream:
                if line.strip():
                    tail.append(line.strip())
        except (OSError, ValueError):
            pass

    def _died(self, what: str) -> UciError:
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

    def _send(self, text: str) -> None:
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self._died(f"before '{text}' could be sent") from None

    def _expect(self, done, what: str, timeout: float, seen: Optional[list] = None) -> str:
        """Read lines until done(line); UciError on end of output, AgentTimeout past `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                self._kill()
                raise AgentTimeout(f"engine '{self.path}' sent no {what} within {timeout:g} s") from None
            if line is None:
                raise self._died(f"while waiting for {what}")
            if seen is not None:
                seen.append(line)
            if done(line):
                return line

    # -- Agent -----------------------------------------------------------------------------

    def go_command(self) -> str:
        parts = ["go"]
        if self.nodes is not None:
            parts += ["nodes", str(self.nodes)]
        if self.movetime is not None:
            parts += ["movetime", str(self.movetime)]
        return " ".join(parts)

    def verify(self) -> None:
        """Start the engine and shake hands once; AgentError when it cannot."""
        try:
            self._start()
        except (UciError, AgentTimeout) as exc:
            raise AgentError(f"agent 'uci:{self.path}' cannot be started: {exc}") from None
        finally:
            self.close()

    def choose_move(self, gameboard, colour, rng):
        if self.proc is None:
            self._start()
        elif self.proc.poll() is not None:
            raise self._died("between moves")
        fen = to_fen(gameboard, colour, 0, 1, self.rules)
        self._send(f"position fen {fen}")
        self._send(self.go_command())
        line = self._expect(lambda text: text.startswith("bestmove"), "bestmove", self.timeout)
        self.last_answer = line
        words = line.split()
        if len(words) < 2 or words[1] in ("(none)", "0000"):
            return None
        move = engine_to_course(self.rules, words[1])
        return words[1] if move is None else move

    def analyse(self, fen: str, lines: int = 1) -> List[dict]:
        """The engine's `lines` best moves in the position `fen` (MultiPV), best first, searched
        to the agent's limit from a cleared hash (ucinewgame, so a position's answer does not
        depend on the ones before): per line {"move": engine move, "cp": centipawns or None,
        "mate": moves to mate (negative: being mated) or None, "pv": [engine moves]}, each as
        the last complete `info ... multipv K` line before `bestmove` reported it."""
        if self.proc is None:
            self._start()
        elif self.proc.poll() is not None:
            raise self._died("between positions")
        self._send(f"setoption name MultiPV value {lines}")
        self._send("ucinewgame")
        self._send(f"position fen {fen}")
        self._send(self.go_command())
        seen: List[str] = []
        self._expect(lambda text: text.startswith("bestmove"), "bestmove", self.timeout, seen)
        found: dict = {}
        for text in seen:
            info = _INFO.match(text)
            if info and "bound" not in text:       # an exact score, not a fail-high or fail-low
                kind, value, pv = info.group(2), int(info.group(3)), info.group(4).split()
                found[int(info.group(1) or 1)] = {"move": pv[0], "cp": value if kind == "cp" else None,
                                                  "mate": value if kind == "mate" else None, "pv": pv}
        return [found[k] for k in sorted(found)]

    def _kill(self) -> None:
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
                self._kill()
                self.proc = None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


_OPTION = re.compile(r"(nodes|movetime|timeout)=(.*)")
# an `info` line with a score and a pv: its multipv number (absent: 1), the score's kind and value, the pv
_INFO = re.compile(r"info .*?(?:\bmultipv (\d+) .*?)?\bscore (cp|mate) (-?\d+)\b.*? pv (.+)")


def uci_agent_from_spec(spec: str, timeout: Optional[float] = None) -> UciAgent:
    """The agent for ``uci:PATH[,nodes=N][,movetime=MS][,timeout=S]``; AgentError if malformed.

    Options are taken from the end, so a PATH may itself contain commas. `timeout` is the
    per-move deadline in seconds when the spec gives none (None: the UciAgent default). The
    path is not checked here: an engine that cannot be started loses its game as a crash,
    with the reason in the record.
    """
    if not spec.startswith("uci:"):
        raise AgentError(f"'{spec}' is not a uci: agent spec")
    parts = spec[len("uci:"):].split(",")
    options = {}
    while len(parts) > 1 and _OPTION.fullmatch(parts[-1].strip()):
        key, value = _OPTION.fullmatch(parts.pop().strip()).groups()
        if key in options:
            raise AgentError(f"'{spec}': {key} given twice")
        try:
            options[key] = float(value) if key == "timeout" else int(value)
        except ValueError:
            raise AgentError(f"'{spec}': {key} must be a number, not '{value}'") from None
        if options[key] <= 0:
            raise AgentError(f"'{spec}': {key} must be positive")
    path = ",".join(parts).strip()
    if not path:
        raise AgentError(f"'{spec}': no engine path after 'uci:'")
    if len(parts) > 1 and "=" in parts[-1]:
        raise AgentError(f"'{spec}': unknown option '{parts[-1]}' (use nodes=N, movetime=MS, timeout=S)")
    return UciAgent(path, nodes=options.get("nodes"), movetime=options.get("movetime"),
                    timeout=options.get("timeout", timeout))
