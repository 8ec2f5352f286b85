"""The games the web app keeps (`serve --data DIR`): one SQLite database, DIR/games.sqlite3.

A game is kept from the moment it is created, and again after every change that matters (a move,
an undo, a resignation, a stop, its end, its review): as one JSON snapshot a row (`snapshot` in
harness/web/games.py says what it holds), so it outlives the tab, the idle expiry (which frees
its processes only) and the server. Its review (the analysis.jsonl line of the game) is kept in
the same row.

Safe with several tabs and a crash mid-write: the database is in WAL mode and has one writer, a
thread of its own fed by a queue (a game's latest snapshot only: one that has not been written
yet is replaced by a newer one), so no request waits for the disk; every write is one
transaction, so a crash (even a kill -9 mid-write) leaves each game as it was last written in
full. Reads share the writer's connection under its lock. Without a folder (tests, `Settings`
built in code) the database is in memory.
"""
import json
import os
import secrets
import sqlite3
import threading
import time
from typing import Any, Dict, List, Optional

DATABASE = "games.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT UNIQUE NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    snapshot TEXT NOT NULL,
    analysis TEXT
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
"""
LISTED = 50                 # games the start page lists (the latest changed first)


class StoreError(Exception):
    """The data folder cannot hold the games (one line)."""


def default_folder() -> str:
    """The user's data folder: $XDG_DATA_HOME/minichess, else ~/.local/share/minichess."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "minichess")


class Store:
    """The games' database (in memory when `folder` is None)."""

    def __init__(self, folder: Optional[str] = None):
        self.folder = folder
        if folder is None:
            path = ":memory:"
        else:
            path = os.path.join(folder, DATABASE)
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"--data {folder}: cannot make the folder: {exc.strerror or exc}") from None
        try:
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            if folder is not None:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"--data {folder}: {path} cannot be used as the games' database: {exc}") from None
        self.lock = threading.Lock()                 # the one connection: the writer's and the readers'
        self.pending: Dict[str, Dict[str, Any]] = {}  # game id -> its latest snapshot not yet written
        self.order: List[str] = []
        self.wake = threading.Condition()
        self.writing = 0
        self.closed = False
        self.writer = threading.Thread(target=self._write, name="games-store", daemon=True)
        self.writer.start()

    # -- writing ------------------------------------------------------------------------------

    def create(self, snapshot: Dict[str, Any]) -> str:
        """Keep a new game (at once, in the caller's thread); its id, ``NUMBER-HEX``."""
        now = time.time()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self.db.execute("INSERT INTO games (id, created, updated, snapshot) VALUES (?, ?, ?, ?)",
                                         (f"new-{secrets.token_hex(8)}", now, now, json.dumps(snapshot)))
                game_id = f"{cursor.lastrowid}-{secrets.token_hex(3)}"
                self.db.execute("UPDATE games SET id = ? WHERE number = ?", (game_id, cursor.lastrowid))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return game_id

    def save(self, game_id: str, snapshot: Dict[str, Any]) -> None:
        """Keep the game's latest snapshot (written by the writer's thread, soon)."""
        with self.wake:
            if game_id not in self.pending:
                self.order.append(game_id)
            self.pending[game_id] = snapshot
            self.wake.notify_all()

    def save_analysis(self, game_id: str, entry: Optional[Dict[str, Any]]) -> None:
        """Keep the game's review (its analysis.jsonl line; None: none)."""
        self.flush()
        with self.lock:
            self.db.execute("UPDATE games SET analysis = ? WHERE id = ?",
                            (None if entry is None else json.dumps(entry), game_id))

    def _write(self) -> None:
        while True:
            with self.wake:
                while not self.order and not self.closed:
                    self.wake.wait()
                if not self.order:
                    return
                game_id = self.order.pop(0)
                snapshot = self.pending.pop(game_id)
                self.writing += 1
            try:
                with self.lock:
                    self.db.execute("UPDATE games SET snapshot = ?, updated = ? WHERE id = ?",
                                    (json.dumps(snapshot), time.time(), game_id))
            except sqlite3.Error:
                pass                      # a full disk: the game goes on in memory; the next change tries again
            finally:
                with self.wake:
                    self.writing -= 1
                    self.wake.notify_all()

    def flush(self, seconds: float = 10.0) -> None:
        """Wait (at most `seconds`) until every snapshot given so far is written."""
        deadline = time.monotonic() + seconds
        with self.wake:
            while (self.order or self.writing) and time.monotonic() < deadline:
                self.wake.wait(0.05)

    def close(self) -> None:
        """Write what is pending, then close the database."""
        self.flush()
        with self.wake:
            self.closed = True
            self.wake.notify_all()
        self.writer.join(5)
        with self.lock:
            self.db.close()

    # -- reading ------------------------------------------------------------------------------

    def load(self, game_id: str) -> Optional[Dict[str, Any]]:
        """{"id", "created", "updated", "snapshot", "analysis"} of a kept game, or None."""
        with self.wake:
            pending = self.pending.get(game_id)
        with self.lock:
            row = self.db.execute("SELECT id, created, updated, snapshot, analysis FROM games WHERE id = ?",
                                  (game_id,)).fetchone()
        if row is None:
            return None
        return {"id": row[0], "created": row[1], "updated": row[2],
                "snapshot": pending if pending is not None else json.loads(row[3]),
                "analysis": json.loads(row[4]) if row[4] else None}

    def latest(self, limit: int = LISTED) -> List[Dict[str, Any]]:
        """The `limit` games changed last (latest first), each as `load` gives it."""
        self.flush(1.0)
        with self.lock:
            rows = self.db.execute("SELECT id, created, updated, snapshot, analysis IS NOT NULL FROM games "
                                   "ORDER BY updated DESC, number DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": r[0], "created": r[1], "updated": r[2], "snapshot": json.loads(r[3]), "analysed": bool(r[4])}
                for r in rows]
