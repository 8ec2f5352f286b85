"""Reviews in one click (`serve`): a finished or stopped game reviewed in the background, its
progress asked for by the page, its analysis kept with the game in the store.

One review runs at a time (the analyser's search takes a core), in a process of its own
(harness/web/review_worker.py) so the server answers meanwhile; the others wait in line (at
most `MAX_QUEUED`; more is a 503 with the reason). The analyser is the server's (`serve
--analyser SPEC --nodes N`, the variant's own by default, as `analyse` chooses it). A review
asked for again while it runs or waits is the same review; on the server's stop the running
one's process (and the engine under it) is killed.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..isolation.sandbox import kill_tree
from .games import Full

MAX_QUEUED = 8
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # where `harness` is


class Reviews:
    """`spec_of(variant)`: the analyser spec for a variant's games (None: the variant's own);
    `done(game_id, entry)`: called with each finished review (the caller keeps it)."""

    def __init__(self, spec_of: Callable[[str], Optional[str]], nodes: Optional[int],
                 done: Callable[[str, Dict[str, Any]], None]):
        self.spec_of = spec_of
        self.nodes = nodes
        self.done = done
        self.lock = threading.Condition()
        self.line: List[Tuple[str, dict]] = []          # (game id, record) waiting
        self.states: Dict[str, Dict[str, Any]] = {}     # game id -> its review's progress
        self.proc: Optional[subprocess.Popen] = None
        self.closed = False
        self.thread: Optional[threading.Thread] = None

    def ask(self, game_id: str, record: dict) -> Dict[str, Any]:
        """Review this game (its results record); its progress now."""
        with self.lock:
            if self.closed:
                raise Full("the server is stopping")
            state = self.states.get(game_id)
            if state is not None and state["status"] in ("queued", "running"):
                return self._shown(game_id)
            if len(self.line) >= MAX_QUEUED:
                raise Full(f"{MAX_QUEUED} reviews wait already (one runs at a time): ask again in a while")
            self.line.append((game_id, record))
            self.states[game_id] = {"status": "queued", "done": 0, "total": None, "error": None}
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="reviews", daemon=True)
                self.thread.start()
            self.lock.notify_all()
            return self._shown(game_id)

    def status(self, game_id: str) -> Optional[Dict[str, Any]]:
        """The review's progress (None: none asked for since the server started)."""
        with self.lock:
            return self._shown(game_id) if game_id in self.states else None

    def _shown(self, game_id: str) -> Dict[str, Any]:
        state = dict(self.states[game_id])
        if state["status"] == "queued":
            state["ahead"] = [g for g, _ in self.line].index(game_id) + (1 if self.proc is not None else 0)
        return state

    def _run(self) -> None:
        while True:
            with self.lock:
                if self.closed or not self.line:
                    return
                game_id, record = self.line.pop(0)
                self.states[game_id]["status"] = "running"
            try:
                entry = self._review(game_id, record)
            except Exception as exc:         # one line on the page, the server goes on
                entry, error = None, f"{type(exc).__name__}: {exc}"
            else:
                error = None if entry is not None else self.states[game_id].get("error") or "the review stopped"
            if entry is not None:
                self.done(game_id, entry)
            with self.lock:
                self.states[game_id].update(status="done" if entry is not None else "failed", error=error)

    def _review(self, game_id: str, record: dict) -> Optional[Dict[str, Any]]:
        task = {"record": record, "spec": self.spec_of(record["variant"]), "nodes": self.nodes}
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)}
        with tempfile.TemporaryFile() as errors:
            with self.lock:
                if self.closed:
                    return None
                self.proc = subprocess.Popen([sys.executable, "-m", "harness.web.review_worker"], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=errors, env=env, text=True)
            proc, entry = self.proc, None
            try:
                proc.stdin.write(json.dumps(task) + "\n")
                proc.stdin.close()
                for line in proc.stdout:
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    with self.lock:
                        state = self.states[game_id]
                        if "total" in message:
                            state["total"] = message["total"]
                        elif "done" in message:
                            state["done"] = message["done"]
                        elif "error" in message:
                            state["error"] = message["error"]
                        elif "entry" in message:
                            entry = message["entry"]
                code = proc.wait()
            except (OSError, ValueError):
                code = proc.poll()
            finally:
                if proc.poll() is None:
                    kill_tree(proc.pid)
                proc.wait()
                with self.lock:
                    self.proc = None
            if entry is None and not self.states[game_id].get("error") and not self.closed:
                errors.seek(0)
                tail = errors.read().decode("utf-8", errors="replace").strip().splitlines()
                self.states[game_id]["error"] = f"the analyser's process ended (code {code})" + (
                    f": {tail[-1]}" if tail else "")
            return entry

    def close(self) -> None:
        """The running review's process killed (with what it started); none starts after."""
        with self.lock:
            self.closed = True
            self.line.clear()
            proc = self.proc
        if proc is not None and proc.poll() is None:
            kill_tree(proc.pid)
        if self.thread is not None:
            self.thread.join(2)
