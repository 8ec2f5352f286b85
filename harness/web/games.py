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

Kept: every game is in the store (harness/web/store.py) from its creation on, saved again at
every change that matters; the games held in memory (with their threads and agents) are a
bounded cache over it. At most `limit` games are held. A new game first lets go of finished or
stopped games (the one left alone longest first); a game still going on is never let go, so
when every held game goes on, a new one is refused (`Full`, HTTP 503, with the reason). A game
nobody has asked about or watched (an open event stream counts as watching) for `idle` seconds
expires: its agents' processes end and it leaves memory; asked for again (its address, even
after a restart) it is set up again from the store (`restore`), with fresh agents. Every change
of a game wakes the pages watching it (`watch`: an asyncio event per page, set from any thread).

The first reply as fast as the rest: the game's thread starts its agents' processes when the
game is created (or set up again), not at their first turn, and times each start apart from its
thinking (`Session.startup`, the state's ``startup``); while a human thinks it looks every
second whether its agent's process still runs, and starts it again if it died (the state's
``notice`` says so).
An agent that cannot even be run loses its game (a crash) with the reason shown; the server goes on.
"""
import asyncio
import itertools
import json
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..analysis.store import review_of
from ..view.board import encode_grid
from ..play.session import Refused, Session
from ..core.variant import BLACK, COLOURS, FAULTS, OTHER, WHITE, Fault, Outcome, Termination
from ..variants import find_variant
from .store import Store

MAX_GAMES = 32              # games kept at once (each may hold an agent process per side)
IDLE_SECONDS = 600.0        # a game nobody asked about or watched this long expires
MAX_THINKING = 4            # agents thinking at once, over all games and probes (the others wait their turn)
THINKING = threading.BoundedSemaphore(MAX_THINKING)   # shared by the games and the probes
WATCH_SECONDS = 1.0         # while a human thinks, how often the game's thread looks whether its agent still runs


class NotYourTurn(Refused):
    """A human's move while an agent is to move (HTTP 409)."""


class Full(Exception):
    """No room for another game (HTTP 503); the text says why."""


class WebGame:
    def __init__(self, game_id: Optional[str], session: Session, pace: float = 0.0, store: Optional[Store] = None,
                 held: Optional[str] = None):
        self.id = game_id
        self.session = session
        self.pace = pace
        self.store = store
        self.held = held                         # why nobody can play it on here (an agent not offered now)
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)   # the agents' thread waits on it for its turn
        self.version = int(time.time() * 1000)   # grows with every change, also across restarts
        self.thinking: Optional[str] = None      # the colour whose agent is thinking
        self.starting: Optional[str] = None      # the colour whose agent's process is starting
        self.notice: Optional[str] = None        # an agent started again (it had died while it waited)
        self.unstartable: Dict[str, str] = {}    # colour -> why its agent could not be started early
        self.closed = False
        self.stopped = False                     # stopped by a request: nobody plays on
        self.touched = time.monotonic()
        self.turn_began = time.monotonic()         # a human's seconds count from here
        self.thread: Optional[threading.Thread] = None
        self.watchers: Dict[int, Tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}
        self.numbers = itertools.count()
        self.saved: Optional[str] = None         # the snapshot last kept (JSON)
        self.analysis: Optional[Dict[str, Any]] = None   # its review (analysis.jsonl's line), when kept

    # -- change and who watches it -----------------------------------------------------------

    def changed(self) -> None:
        """A new version (call with the lock held): every watching page is woken, and the game
        is kept (`Store.save`) when what it holds has changed."""
        self.version += 1
        for loop, event in list(self.watchers.values()):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:          # that page's loop has ended
                pass
        self.keep()

    def keep(self) -> None:
        if self.store is None or self.id is None:
            return
        snapshot = self.snapshot()
        text = json.dumps(snapshot, sort_keys=True)
        if text != self.saved:
            self.saved = text
            self.store.save(self.id, snapshot)

    def snapshot(self) -> Dict[str, Any]:
        """What the store keeps of the game (enough to set it up again, `restore`): the sides, the
        seed, the pace, the start (the variant's record fields), the moves with their seconds,
        the end (its reason, result and fault), whether it was stopped, the agents' start-ups."""
        session = self.session
        variant, game = session.variant, session.game
        outcome = game.outcome
        fault = outcome.fault if outcome is not None else None
        return {
            "variant": variant.name, "white": session.white, "black": session.black, "seed": session.seed,
            "pace": self.pace, "start": variant.record_fields(game.start_state, []),
            "moves": game.move_names(), "seconds": [p.seconds for p in session.plies],
            "outcome": None if outcome is None else {
                "reason": outcome.reason, "result": outcome.result,
                "fault": None if fault is None else {"colour": fault.colour, "message": fault.message,
                                                     "exc_type": fault.exc_type, "line": fault.line}},
            "faulted": list(session.faulted) if session.faulted else None,
            "stopped": self.stopped,
            "startup": {c.lower(): s for c, s in session.startup.items()},
        }

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
        return self.closed or self.stopped or self.held is not None or self.session.over

    @property
    def ended(self) -> bool:
        """Over or stopped: it can be saved and reviewed."""
        return self.stopped or self.session.over

    def agent_sides(self) -> List[str]:
        return [c for c in COLOURS if not self.session.is_human(c)]

    # -- the agents' thread ------------------------------------------------------------------

    def kick(self) -> None:
        """Wake the game's thread, or start it while an agent plays and the game goes on (call
        with the lock held): it starts the agents' processes at once, before their first turn."""
        if self.finished or not self.agent_sides():
            return
        if self.thread is not None and self.thread.is_alive():
            self.wake.notify()
            return
        self.thread = threading.Thread(target=self._agents, name=f"game-{self.id}", daemon=True)
        self.thread.start()

    def _cold(self) -> List[Tuple[str, Optional[str]]]:
        """(colour, why it died or None) of each agent to start now: never started (or dropped),
        or its process ended while it waited (call with the lock held)."""
        cold = []
        for colour in self.agent_sides():
            if colour in self.unstartable:
                continue
            agent = self.session.agents.get(colour)
            if agent is None:
                cold.append((colour, None))
            else:
                why = agent.ended()
                if why is not None:
                    cold.append((colour, why))
        return cold

    def _start(self, cold: List[Tuple[str, Optional[str]]]) -> None:
        """Start these agents' processes (in this thread, which keeps asking them): each one's
        start-up is timed apart from its thinking (`Session.startup`)."""
        session = self.session
        for colour, died in cold:
            with self.lock:
                if self.finished:
                    return
                self.starting = colour
                self.changed()
            if died is not None:
                session.drop_agent(colour)
            try:
                with THINKING:
                    session.agent(colour)
            except Refused:
                return
            except Exception as exc:     # it loses when its turn comes (the same error), not here
                self.unstartable[colour] = f"{type(exc).__name__}: {exc}"
            with self.lock:
                self.starting = None
                if died is not None and colour not in self.unstartable:
                    self.notice = (f"{colour}'s agent ({session.specs[colour]}) had stopped while it waited "
                                   f"({died}): it was started again in {session.startup.get(colour, 0):.2f} s, "
                                   f"with its module-level state afresh")
                self.changed()

    def _agents(self) -> None:
        session = self.session
        paced = not any(session.is_human(c) for c in COLOURS)
        while True:
            with self.lock:
                if self.finished:
                    self.thinking = None
                    self.starting = None
                    session.close()          # its processes (an undo starts them again, in a new thread)
                    return
                cold = self._cold()
                if not cold and session.humans_turn:
                    self.thinking = None
                    self.wake.wait(WATCH_SECONDS)    # a while, then a look whether its agent still runs
                    continue
            if cold:
                self._start(cold)
                continue
            with self.lock:
                if self.finished or session.humans_turn:
                    continue
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
            if self.held is not None:
                raise NotYourTurn(self.held)
            if session.over:
                raise NotYourTurn(f"the game is over ({session.game.reason})")
            if not session.humans_turn:
                colour = session.to_move
                raise NotYourTurn(f"it is {colour}'s turn, and {session.specs[colour]} plays {colour}")
            session.human_move(text, round(time.monotonic() - self.turn_began, 3))
            self.notice = None
            self.changed()
            self.turn_began = time.monotonic()
            self.kick()
            return game_state(self)

    def undo(self) -> Tuple[int, Dict[str, Any]]:
        """Take back the human's last move and the reply: (plies taken, the state right after).
        An agent thinking on the position taken back is stopped at once (its reply would be
        dropped anyway; a fresh one is started for the next turn)."""
        with self.lock:
            self.touched = time.monotonic()
            if self.stopped:
                raise Refused("the game has been stopped: nothing can be taken back")
            if self.held is not None:
                raise Refused(self.held)
            taken = self.session.undo()
            if self.thinking is not None:
                self.thinking = None
                self.session.abort()
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
            if self.thinking is not None:
                self.thinking = None
                self.session.abort()
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
            if self.thinking is None and self.starting is None:
                self.session.close()          # no thread is asking: its agents can be closed here
            self.thinking = None
            self.changed()
            self.wake.notify()
            return game_state(self)

    def close(self) -> None:
        """Its processes end (expired, pushed out, the server stopping): no agent starts after
        this. The game itself stays in the store."""
        with self.lock:
            self.closed = True
            self.session.shut()
            if self.thinking is None and self.starting is None:
                self.session.close()
            self.version += 1
            for loop, event in list(self.watchers.values()):
                try:
                    loop.call_soon_threadsafe(event.set)
                except RuntimeError:
                    pass
            self.wake.notify()

    def state(self) -> Dict[str, Any]:
        """The game as the API shows it (docs/serve.md)."""
        with self.lock:
            self.touched = time.monotonic()
            return game_state(self)

    def record(self) -> Optional[Dict[str, Any]]:
        """The game as a results record once it is over or stopped (a stopped game has no result;
        it says ``"stopped": true``), with each agent's start-up seconds; None while it goes on."""
        with self.lock:
            if not self.ended:
                return None
            record = self.session.record()
            if self.stopped:
                record["stopped"] = True
            if self.session.startup:
                record["startup"] = {c.lower(): s for c, s in self.session.startup.items()}
            return record


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
        "legal": session.legal_names() if session.humans_turn and not web.stopped and web.held is None else [],
        "human_to_move": session.humans_turn and not web.stopped and web.held is None,
        "thinking": None if web.stopped else web.thinking,
        "result": None if outcome is None else outcome.result,
        "reason": None if outcome is None else outcome.reason,
        "error": outcome.fault.text() if outcome is not None and outcome.fault else None,
        "resigned": outcome is not None and outcome.termination == Termination.RESIGNATION,
        "stopped": web.stopped,
        "can_undo": can_undo(session) and not web.stopped and web.held is None,
        "version": web.version,
        "starting": None if web.finished else web.starting,
        "startup": {c.lower(): s for c, s in session.startup.items()},
        "notice": web.held or web.notice,
        "analysed": analysed(web.analysis, game.move_names()),
    }


def analysed(entry: Optional[Dict[str, Any]], moves: List[str]) -> bool:
    """Whether a kept review covers these moves (a game played on since has none)."""
    if entry is None or review_of(entry, {"moves": moves}) is None:
        return False
    plies = entry["plies"]
    return not plies or plies[-1]["ply"] == len(moves)


def restore(kept: Dict[str, Any], move_timeout, box, offered: Callable[[str, str], bool],
            store: Optional[Store]) -> WebGame:
    """A kept game (`Store.load`) set up again as it was left, with fresh agents (none started
    yet); an agent the server does not offer now holds it (shown, saved, reviewed, not played
    on). ValueError (one line) when its snapshot cannot be set up."""
    snapshot = kept["snapshot"]
    variant = find_variant(snapshot["variant"])
    try:
        start = variant.record_start(snapshot["start"])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"its start cannot be set up: {exc}") from None
    session = Session(variant, snapshot["white"], snapshot["black"], snapshot["seed"], start,
                      move_timeout(variant), box)
    for name, seconds in zip(snapshot["moves"], snapshot["seconds"]):
        session.restore_move(name, seconds)
    outcome = snapshot.get("outcome")
    if outcome is not None and not session.over:
        fault = outcome.get("fault")
        winner = {"white": WHITE, "black": BLACK}.get(outcome["result"])
        ending = variant.termination(outcome["reason"])
        if ending is None:
            raise ValueError(f"its ending {outcome['reason']!r} is not one of {variant.name}'s")
        session.game.finish(Outcome(ending, winner, Fault(**fault) if fault else None))
    if snapshot.get("faulted"):
        session.faulted = tuple(snapshot["faulted"])
    missing = [session.specs[c] for c in COLOURS if not session.is_human(c) and not offered(variant.name, session.specs[c])]
    held = None
    if missing and not session.over and not snapshot.get("stopped"):
        held = (f"{missing[0]} is not offered by this server now (start it with --agent {missing[0]} to "
                f"play this game on): the game is shown as it was left")
    web = WebGame(kept["id"], session, snapshot.get("pace", 0.0), store, held)
    web.stopped = bool(snapshot.get("stopped"))
    web.analysis = kept.get("analysis")
    web.saved = json.dumps(web.snapshot(), sort_keys=True)
    return web


def can_undo(session: Session) -> bool:
    """Whether `Session.undo` would take something back."""
    outcome = session.game.outcome
    if outcome is not None and outcome.termination in FAULTS | {Termination.RESIGNATION}:
        return False
    return any(session.is_human(p.colour) for p in session.plies)


class Games:
    """The games the server holds in memory, by id, over the store that keeps every game (see the
    module's docstring for the bounds). `loader(id)` sets a kept game up again (`restore`), or
    None for an id the store does not have."""

    def __init__(self, store: Store, loader: Callable[[Dict[str, Any]], WebGame], limit: int = MAX_GAMES,
                 idle: float = IDLE_SECONDS):
        self.store = store
        self.loader = loader
        self.limit = limit
        self.idle = idle
        self.games: Dict[str, WebGame] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.reaper = threading.Thread(target=self._reap, name="games-reaper", daemon=True)
        self.reaper.start()

    def add(self, session: Session, pace: float = 0.0) -> WebGame:
        """Keep a new game (its agents' processes start at once); Full when every game held goes
        on."""
        self.expire()
        web = WebGame(None, session, pace, self.store)
        with self.lock:
            self._room(session)
            web.id = self.store.create(web.snapshot())
            self.games[web.id] = web
        with web.lock:
            web.saved = json.dumps(web.snapshot(), sort_keys=True)
            web.kick()
        return web

    def _room(self, session: Optional[Session] = None, over: bool = False) -> None:
        """Room for one more game in memory (call with the lock held): the finished ones let go
        (left alone longest first; they stay in the store); Full when only games going on are held,
        unless the one to hold is `over` (it holds no process: one such game more is allowed)."""
        while len(self.games) >= self.limit:
            finished = [g for g in self.games.values() if g.finished]
            if not finished and over:
                return
            if not finished:
                if session is not None:
                    session.shut()
                raise Full(f"the server holds {self.limit} games that are still going on (its limit): "
                           f"finish, resign or stop one, or wait; a game left alone "
                           f"{self.idle / 60:g} minutes expires")
            oldest = min(finished, key=lambda g: g.touched)
            del self.games[oldest.id]
            oldest.close()

    def expire(self) -> List[str]:
        """Let go of the games left alone `idle` seconds: their processes end, they stay in the
        store (and come back when asked for); their ids."""
        now = time.monotonic()
        with self.lock:
            gone = [g for g in self.games.values()
                    if g.idle_since() is not None and now - g.idle_since() >= self.idle]
            for game in gone:
                del self.games[game.id]
        for game in gone:
            game.close()
        return [g.id for g in gone]

    def _reap(self) -> None:
        while not self.stopping.wait(min(30.0, max(0.05, self.idle / 4))):
            self.expire()

    def get(self, game_id: str) -> Optional[WebGame]:
        """The game `game_id`: held, or set up again from the store (None when it has no such game);
        Full when there is no room to hold it."""
        with self.lock:
            web = self.games.get(game_id)
        if web is not None or self.stopping.is_set():
            return web
        kept = self.store.load(game_id)
        if kept is None:
            return None
        web = self.loader(kept)
        with self.lock:
            if game_id in self.games:                # set up by another request meanwhile
                return self.games[game_id]
            self._room(over=web.finished)
            self.games[game_id] = web
        with web.lock:
            web.kick()
        return web

    def held(self, game_id: str) -> Optional[WebGame]:
        """The game when it is held in memory now (nothing is set up)."""
        with self.lock:
            return self.games.get(game_id)

    def close(self, wait: float = 3.0) -> None:
        """Stop every game's agents; wait up to `wait` seconds for the games' threads to end (each
        closes the agent it was asking), so no process outlives the server; then the store writes
        what is pending and closes."""
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
        self.store.close()
