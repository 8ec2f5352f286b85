"""The web app's games: each a `harness.play.session.Session` behind a lock, its agents' turns
played by a background thread, so requests never wait for an agent.

The thread lives as long as the game goes on and waits while a human is to move: a boxed agent
file's process dies with the thread that started it (bubblewrap's --die-with-parent follows the
starting thread), so the thread that starts an agent is the one that keeps asking it.

An agent is asked outside the lock (on the position as it was when its turn began) and its
answer taken under the lock only if nothing changed meanwhile (an undo, a resignation or a stop
bumps the game's version), so a human can take back a move while the agent is still thinking. A
game with no human side plays itself, `pace` seconds between plies so it can be watched, until
it ends or is stopped (`stop`: its agents stopped, the game kept as it stands).

Bounded: at most `limit` games are kept. A new game first pushes out finished or stopped games
(the one left alone longest first); a game still going on is never pushed out, so when every
kept game goes on, a new one is refused (`Full`, HTTP 503, with the reason). A game nobody has
asked about or watched (an open event stream counts as watching) for `idle` seconds expires: its
agents stop and it is forgotten (its address then answers 404, saying it expired). Every change
of a game wakes the pages watching it (`watch`: an asyncio event per page, set from any thread).
An agent that cannot even be run loses its game (a crash) with the reason shown; the server goes on.
"""
import asyncio
import collections
import itertools
import secrets
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ..view.board import encode_grid
from ..play.session import Refused, Session
from ..core.variant import COLOURS, FAULTS, OTHER, Fault, Outcome, Termination

MAX_GAMES = 32              # games kept at once (each may hold an agent process per side)
IDLE_SECONDS = 600.0        # a game nobody asked about or watched this long expires
MAX_THINKING = 4            # agents thinking at once, over all games and probes (the others wait their turn)
THINKING = threading.BoundedSemaphore(MAX_THINKING)   # shared by the games and the probes
EXPIRED_KEPT = 1000         # ids of expired games remembered, to say why their address is gone


class NotYourTurn(Refused):
    """A human's move while an agent is to move (HTTP 409)."""


class Full(Exception):
    """No room for another game (HTTP 503); the text says why."""


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
        self.stopped = False                     # stopped by a request: nobody plays on
        self.touched = time.monotonic()
        self.turn_began = time.monotonic()         # a human's seconds count from here
        self.thread: Optional[threading.Thread] = None
        self.watchers: Dict[int, Tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}
        self.numbers = itertools.count()

    # -- change and who watches it -----------------------------------------------------------

    def changed(self) -> None:
        """A new version (call with the lock held): every watching page is woken."""
        self.version += 1
        for loop, event in list(self.watchers.values()):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:          # that page's loop has ended
                pass

    def watch(self, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> int:
        with self.lock:
            number = next(self.numbers)
            self.watchers[number] = (loop, event)
            self.touched = time.monotonic()
            return number

    def unwatch(self, number: int) -> None:
        with self.lock:
            self.watchers.pop(number, None)
            self.touched = time.monotonic()

    def idle_since(self) -> Optional[float]:
        """When it was last asked about (None: a page watches it now)."""
        return None if self.watchers else self.touched

    @property
    def finished(self) -> bool:
        return self.closed or self.stopped or self.session.over

    # -- the agents' thread ------------------------------------------------------------------

    def kick(self) -> None:
        """Wake the game's thread (or start it) when an agent is to move (call with the lock held)."""
        if self.finished or self.session.humans_turn:
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
                while not self.finished and session.humans_turn:
                    self.thinking = None
                    self.wake.wait()
                if self.finished:
                    self.thinking = None
                    session.close()          # its processes (an undo starts them again, in a new thread)
                    return
                self.thinking = session.to_move
                self.changed()                       # the pages show who is thinking
                colour, state, version = session.to_move, session.game.state, self.version
                spent = session.spent(colour)
            try:
                with THINKING:
                    if self.finished:        # stopped or closed while waiting for its turn to think
                        continue
                    turn = session.ask(colour, state, spent)
            except Exception as exc:   # the agent could not even be run: it loses, the server goes on
                with self.lock:
                    self.thinking = None
                    if not session.over and not self.finished:
                        session.game.finish(Outcome(Termination.CRASH, OTHER[colour], Fault(
                            colour, f"could not be run: {type(exc).__name__}: {exc}")))
                    self.changed()
                    session.close()
                return
            with self.lock:
                if self.finished:
                    self.thinking = None
                    session.close()                  # an agent started while it was being closed
                    return
                if version != self.version or session.to_move != colour or session.over:
                    if turn.outcome is not None:     # a fault on a position taken back: a fresh agent
                        session.drop_agent(colour)   # next time (a file keeps its fault, and its
                    continue                         # process is gone after a timeout)
                session.take(colour, turn)
                self.thinking = None                 # set again when the next agent is asked
                self.changed()
                self.turn_began = time.monotonic()
            if paced and self.pace and not session.over:
                with self.lock:                      # a stop or a close ends the pause at once
                    if not self.finished:
                        self.wake.wait(self.pace)

    # -- what a request does (each locked) ---------------------------------------------------

    def move(self, text: str) -> Dict[str, Any]:
        """Play the human's move; the game's state right after it (taken under the lock, before
        the agent to reply can start)."""
        with self.lock:
            self.touched = time.monotonic()
            session = self.session
            if self.stopped:
                raise NotYourTurn("the game has been stopped")
            if session.over:
                raise NotYourTurn(f"the game is over ({session.game.reason})")
            if not session.humans_turn:
                colour = session.to_move
                raise NotYourTurn(f"it is {colour}'s turn, and {session.specs[colour]} plays {colour}")
            session.human_move(text, round(time.monotonic() - self.turn_began, 3))
            self.changed()
            self.turn_began = time.monotonic()
            self.kick()
            return game_state(self)

    def undo(self) -> Tuple[int, Dict[str, Any]]:
        """Take back the human's last move and the reply: (plies taken, the state right after)."""
        with self.lock:
            self.touched = time.monotonic()
            if self.stopped:
                raise Refused("the game has been stopped: nothing can be taken back")
            taken = self.session.undo()
            self.changed()
            self.turn_began = time.monotonic()
            self.kick()
            return taken, game_state(self)

    def resign(self, colour: Optional[str] = None) -> None:
        with self.lock:
            self.touched = time.monotonic()
            if self.stopped:
                raise Refused("the game has been stopped")
            self.session.resign(colour)
            self.changed()
            self.wake.notify()

    def stop(self) -> Dict[str, Any]:
        """Nobody plays on: an agent thinking is stopped, its processes end; the game is kept as
        it stands (its state says ``"stopped": true``). Refused when it is over already."""
        with self.lock:
            self.touched = time.monotonic()
            if self.stopped:
                raise Refused("the game has been stopped already")
            if self.session.over:
                raise Refused(f"the game is over ({self.session.game.reason})")
            self.stopped = True
            self.session.abort()
            if self.thinking is None:
                self.session.close()          # no thread is asking: its agents can be closed here
            self.changed()
            self.wake.notify()
            return game_state(self)

    def close(self) -> None:
        """For good (expired, pushed out, the server stopping): no agent starts after this."""
        with self.lock:
            self.closed = True
            self.session.shut()
            if self.thinking is None:
                self.session.close()
            self.changed()
            self.wake.notify()

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
    states = [p.state_before for p in session.plies] + [game.state]
    return {
        "id": web.id,
        "variant": variant.name,
        "white": session.white,
        "black": session.black,
        "seed": session.seed,
        "fen": variant.fen(game.state),
        "to_move": session.to_move.lower(),
        "first": variant.to_move(states[0]).lower(),
        "moves": game.move_names(),
        "seconds": [round(p.seconds, 3) for p in session.plies],
        "positions": [encode_grid(variant.grid(state)) for state in states],
        "fens": [variant.fen(state) for state in states],
        "checks": [variant.check_cell(state) for state in states],
        "legal": session.legal_names() if session.humans_turn and not web.stopped else [],
        "human_to_move": session.humans_turn and not web.stopped,
        "thinking": None if web.stopped else web.thinking,
        "result": None if outcome is None else outcome.result,
        "reason": None if outcome is None else outcome.reason,
        "error": outcome.fault.text() if outcome is not None and outcome.fault else None,
        "resigned": outcome is not None and outcome.termination == Termination.RESIGNATION,
        "stopped": web.stopped,
        "can_undo": can_undo(session) and not web.stopped,
        "version": web.version,
    }


def can_undo(session: Session) -> bool:
    """Whether `Session.undo` would take something back."""
    outcome = session.game.outcome
    if outcome is not None and outcome.termination in FAULTS | {Termination.RESIGNATION}:
        return False
    return any(session.is_human(p.colour) for p in session.plies)


class Games:
    """Every game the server holds, by id (see the module's docstring for the bounds)."""

    def __init__(self, limit: int = MAX_GAMES, idle: float = IDLE_SECONDS):
        self.limit = limit
        self.idle = idle
        self.games: Dict[str, WebGame] = {}
        self.expired: "collections.OrderedDict[str, None]" = collections.OrderedDict()
        self.lock = threading.Lock()
        self.numbers = itertools.count(1)
        self.stopping = threading.Event()
        self.reaper = threading.Thread(target=self._reap, name="games-reaper", daemon=True)
        self.reaper.start()

    def add(self, session: Session, pace: float = 0.0) -> WebGame:
        """Keep a new game (its agents start at once); Full when every kept game goes on."""
        self.expire()
        with self.lock:
            dropped = self._make_room()
            if dropped is None:
                session.shut()
                raise Full(f"the server holds {self.limit} games that are still going on (its limit): "
                           f"finish, resign or stop one, or wait; a game left alone "
                           f"{self.idle / 60:g} minutes expires")
            game_id = f"{next(self.numbers)}-{secrets.token_hex(3)}"
            web = WebGame(game_id, session, pace)
            self.games[game_id] = web
        for old in dropped:
            old.close()
        with web.lock:
            web.kick()
        return web

    def _make_room(self) -> Optional[List[WebGame]]:
        """The finished games to push out so one more fits (oldest first), or None when only
        games still going on are kept."""
        dropped = []
        while len(self.games) >= self.limit:
            finished = [g for g in self.games.values() if g.finished]
            if not finished:
                for game in dropped:            # put them back: nothing is pushed out for nothing
                    self.games[game.id] = game
                return None
            oldest = min(finished, key=lambda g: g.touched)
            dropped.append(self.games.pop(oldest.id))
        return dropped

    def expire(self) -> List[str]:
        """Close and forget the games left alone `idle` seconds; their ids."""
        now = time.monotonic()
        with self.lock:
            gone = [g for g in self.games.values()
                    if g.idle_since() is not None and now - g.idle_since() >= self.idle]
            for game in gone:
                del self.games[game.id]
                self.expired[game.id] = None
            while len(self.expired) > EXPIRED_KEPT:
                self.expired.popitem(last=False)
        for game in gone:
            game.close()
        return [g.id for g in gone]

    def _reap(self) -> None:
        while not self.stopping.wait(min(30.0, max(0.05, self.idle / 4))):
            self.expire()

    def get(self, game_id: str) -> Optional[WebGame]:
        with self.lock:
            return self.games.get(game_id)

    def was_expired(self, game_id: str) -> bool:
        with self.lock:
            return game_id in self.expired

    def close(self, wait: float = 3.0) -> None:
        """Stop every game's agents; wait up to `wait` seconds for the games' threads to end (each
        closes the agent it was asking), so no process outlives the server."""
        self.stopping.set()
        with self.lock:
            games, self.games = list(self.games.values()), {}
        for game in games:
            game.close()
        deadline = time.monotonic() + wait
        for game in games:
            thread = game.thread
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))
