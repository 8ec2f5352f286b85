"""The web app's games: each a `harness.play.session.Session` behind a lock, its agents' turns
played by a background thread, so requests never wait for an agent.

The thread lives as long as the game goes on and waits while a human is to move: a boxed agent
file's process dies with the thread that started it (bubblewrap's --die-with-parent follows the
starting thread), so the thread that starts an agent is the one that keeps asking it.

An agent is asked outside the lock (on the position as it was when its turn began) and its
answer taken under the lock only if nothing changed meanwhile (an undo or a resignation bumps
the game's version), so a human can take back a move while the agent is still thinking. A
game with no human side plays itself, `pace` seconds between plies so it can be watched. At most
`limit` games are kept: a new one pushes out the one left alone longest (its agents stopped).
An agent that cannot even be run loses its game (a crash) with the reason shown; the server goes on.
"""
import itertools
import secrets
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ..html_report import encode_grid
from ..play.session import Refused, Session
from ..variants.base import COLOURS, OTHER, Fault, Outcome, Termination

MAX_GAMES = 64
MAX_THINKING = 4            # agents thinking at once, over all games (the others wait their turn)
_THINKING = threading.BoundedSemaphore(MAX_THINKING)


class NotYourTurn(Refused):
    """A human's move while an agent is to move (HTTP 409)."""


class WebGame:
    def __init__(self, game_id: str, session: Session, pace: float = 0.0):
        self.id = game_id
        self.session = session
        self.pace = pace
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)   # the agents' thread waits on it for its turn
        self.version = 0
        self.thinking: Optional[str] = None      # the colour whose agent is thinking
        self.closed = False
        self.touched = time.monotonic()
        self.turn_began = time.monotonic()         # a human's seconds count from here
        self.thread: Optional[threading.Thread] = None

    # -- the agents' thread ------------------------------------------------------------------

    def kick(self) -> None:
        """Wake the game's thread (or start it) when an agent is to move (call with the lock held)."""
        if self.closed or self.session.over or self.session.humans_turn:
            return
        if self.thread is not None and self.thread.is_alive():
            self.wake.notify()
            return
        self.thread = threading.Thread(target=self._agents, name=f"game-{self.id}", daemon=True)
        self.thread.start()

    def _agents(self) -> None:
        session = self.session
        paced = not any(session.is_human(c) for c in COLOURS)
        while True:
            with self.lock:
                while not self.closed and not session.over and session.humans_turn:
                    self.thinking = None
                    self.wake.wait()
                if self.closed or session.over:
                    self.thinking = None
                    session.close()          # its processes (an undo starts them again, in a new thread)
                    return
                colour, state, version = session.to_move, session.game.state, self.version
                spent = session.spent(colour)
                self.thinking = colour
            try:
                with _THINKING:
                    turn = session.ask(colour, state, spent)
            except Exception as exc:   # the agent could not even be run: it loses, the server goes on
                with self.lock:
                    self.thinking = None
                    if not session.over and not self.closed:
                        session.game.finish(Outcome(Termination.CRASH, OTHER[colour], Fault(
                            colour, f"could not be run: {type(exc).__name__}: {exc}")))
                    session.close()
                return
            with self.lock:
                if self.closed:
                    session.close()                  # an agent started while it was being closed
                    return
                if version != self.version or session.to_move != colour or session.over:
                    continue
                session.take(colour, turn)
                self.version += 1
                self.turn_began = time.monotonic()
            if paced and self.pace and not session.over:
                time.sleep(self.pace)

    # -- what a request does (each locked) ---------------------------------------------------

    def move(self, text: str) -> Dict[str, Any]:
        """Play the human's move; the game's state right after it (taken under the lock, before
        the agent to reply can start)."""
        with self.lock:
            self.touched = time.monotonic()
            session = self.session
            if session.over:
                raise NotYourTurn(f"the game is over ({session.game.reason})")
            if not session.humans_turn:
                colour = session.to_move
                raise NotYourTurn(f"it is {colour}'s turn, and {session.specs[colour]} plays {colour}")
            session.human_move(text, round(time.monotonic() - self.turn_began, 3))
            self.version += 1
            self.turn_began = time.monotonic()
            self.kick()
            return game_state(self)

    def undo(self) -> Tuple[int, Dict[str, Any]]:
        """Take back the human's last move and the reply: (plies taken, the state right after)."""
        with self.lock:
            self.touched = time.monotonic()
            taken = self.session.undo()
            self.version += 1
            self.turn_began = time.monotonic()
            self.kick()
            return taken, game_state(self)

    def resign(self, colour: Optional[str] = None) -> None:
        with self.lock:
            self.touched = time.monotonic()
            self.session.resign(colour)
            self.version += 1

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.version += 1
            self.wake.notify()
            self.session.close()         # under the lock: the game's thread may be closing it too

    def state(self) -> Dict[str, Any]:
        """The game as the API shows it (docs/serve.md)."""
        with self.lock:
            self.touched = time.monotonic()
            return game_state(self)

    def record(self) -> Optional[Dict[str, Any]]:
        with self.lock:
            return self.session.record() if self.session.over else None


def game_state(web: WebGame) -> Dict[str, Any]:
    session = web.session
    variant, game = session.variant, session.game
    outcome = game.outcome
    positions = [encode_grid(variant.grid(p.state_before)) for p in session.plies]
    positions.append(encode_grid(variant.grid(game.state)))
    first = session.plies[0].state_before if session.plies else game.state
    return {
        "id": web.id,
        "variant": variant.name,
        "white": session.white,
        "black": session.black,
        "seed": session.seed,
        "fen": variant.fen(game.state),
        "to_move": session.to_move.lower(),
        "first": variant.to_move(first).lower(),
        "moves": game.move_names(),
        "seconds": [round(p.seconds, 3) for p in session.plies],
        "positions": positions,
        "legal": session.legal_names() if session.humans_turn else [],
        "human_to_move": session.humans_turn,
        "thinking": web.thinking,
        "result": None if outcome is None else outcome.result,
        "reason": None if outcome is None else outcome.reason,
        "error": outcome.fault.text() if outcome is not None and outcome.fault else None,
        "resigned": outcome is not None and outcome.termination == Termination.RESIGNATION,
    }


class Games:
    """Every game the server holds, by id."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self.games: Dict[str, WebGame] = {}
        self.lock = threading.Lock()
        self.numbers = itertools.count(1)

    def add(self, session: Session, pace: float = 0.0) -> WebGame:
        with self.lock:
            game_id = f"{next(self.numbers)}-{secrets.token_hex(3)}"
            web = WebGame(game_id, session, pace)
            self.games[game_id] = web
            dropped = self._over_limit()
        for old in dropped:
            old.close()
        with web.lock:
            web.kick()
        return web

    def _over_limit(self) -> List[WebGame]:
        dropped = []
        while len(self.games) > self.limit:
            oldest = min(self.games.values(), key=lambda g: g.touched)
            dropped.append(self.games.pop(oldest.id))
        return dropped

    def get(self, game_id: str) -> Optional[WebGame]:
        with self.lock:
            return self.games.get(game_id)

    def close(self) -> None:
        with self.lock:
            games, self.games = list(self.games.values()), {}
        for game in games:
            game.close()
