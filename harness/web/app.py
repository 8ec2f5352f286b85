"""The local web app (`serve`): a Starlette application whose JSON API the page uses and tests call
(docs/serve.md lists every route with its answers).

Trust no request: the Host header must be one of the server's own names (loopback by default), so
a page on another site cannot reach it through DNS rebinding; a POST must carry JSON and, when the
browser names its Origin, come from the app's own page; agents are only the names the server
offers (the variant's built-ins and the files given with ``--agent``, named as given), never a
path from a request; a config or results file is sent as its content, never named by path.
Student files run as in `series`: the sandbox, the box, the same limits.
"""
import asyncio
import contextlib
import json
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .. import players
from ..core.agent import AgentError
from ..isolation.box import BoxSettings
from ..view.board import board_geometry, encode_grid, legend
from ..play.session import HUMAN, Refused, Session, probe
from ..variants import DEFAULT_VARIANT, find_variant, variant_names
from .games import IDLE_SECONDS, MAX_GAMES, THINKING, Full, Games, NotYourTurn, analysed, restore
from ..view.words import ending_words
from .records import RecordError, record_summaries, record_view
from .reviews import Reviews
from .store import Store

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
# the only files served: name -> (file, type); style.css is the report viewer's own
ASSETS = {"play.js": (os.path.join(STATIC, "play.js"), "text/javascript"),
          "board.js": (os.path.join(os.path.dirname(HERE), "view", "templates", "board.js"), "text/javascript"),
          "play.css": (os.path.join(STATIC, "play.css"), "text/css"),
          "style.css": (os.path.join(os.path.dirname(HERE), "view", "templates", "style.css"), "text/css")}
MAX_BODY = 32 << 20          # bytes: a results.jsonl of thousands of games
MAX_PACE = 5.0
MAX_WAITING = 8              # requests waiting on a thread of their own (probes, results files) at once
MAX_STREAMS = 32             # pages watching a game (event streams) at once
KEEP_ALIVE = 15.0            # seconds between an event stream's comments while nothing happens
LOOPBACK = ("127.0.0.1", "localhost", "::1")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Offer:
    """The agents the server offers: per variant, name -> spec (a built-in's name is its spec;
    a file's name is the spec as given with --agent)."""
    agents: Dict[str, Dict[str, str]] = field(default_factory=dict)

    @classmethod
    def build(cls, files: Sequence[str]) -> "Offer":
        """The built-ins of every variant plus each --agent spec in the variants that can play it;
        AgentError (one line) for a spec no variant can play."""
        offer = cls({name: {agent: agent for agent in players.builtin_names(name)} for name in variant_names()})
        for spec in files:
            playable = players.spec_variants(spec)
            if not playable:
                raise AgentError(f"unknown agent '{spec}': give a .py file, uci:PATH, nthu:PATH or a built-in name")
            for name in playable:
                players.check_spec(spec, name)
                offer.agents[name].setdefault(spec, spec)
        return offer

    def spec(self, variant: str, name: Any) -> str:
        """The spec behind an offered name (or 'human'); BadRequest for anything else."""
        if name == HUMAN:
            return HUMAN
        offered = self.agents.get(variant, {})
        if not isinstance(name, str) or name not in offered:
            shown = name if isinstance(name, str) else json.dumps(name)
            raise BadRequest(400, f"unknown agent '{shown[:100]}' for {variant}: the server offers "
                                  f"{', '.join(offered)}")
        return offered[name]


@dataclass
class Settings:
    """How the server plays: what it offers, the per-move limit for files and programs (None: the
    variant's default, as in series), the box, and how many games it keeps."""
    offer: Offer
    move_timeout: Optional[float] = None
    box: Optional[BoxSettings] = field(default_factory=BoxSettings)
    max_games: int = MAX_GAMES
    idle: float = IDLE_SECONDS
    max_waiting: int = MAX_WAITING
    max_streams: int = MAX_STREAMS
    hosts: Sequence[str] = LOOPBACK
    data: Optional[str] = None                   # the games' folder (None: kept in memory only)
    analyser: Optional[str] = None               # the review's analyser spec (None: each variant's own)
    nodes: Optional[int] = None

    def timeout(self, variant) -> float:
        return players.move_timeout_for(variant, self.move_timeout)

    def analyser_for(self, variant: str) -> Optional[str]:
        """The review's analyser spec for `variant`'s games: the server's --analyser where it can
        analyse them, else the variant's own (None)."""
        if self.analyser is None:
            return None
        from ..analysis.analysers import make_analyser      # built, not started: a check of the spec
        from ..core.analyser import AnalyserError
        try:
            make_analyser(self.analyser, variant, self.nodes).close()
        except AnalyserError:
            return None
        return self.analyser

    def offers(self, variant: str, spec: str) -> bool:
        return spec in self.offer.agents.get(variant, {}).values()


# ----------------------------------------------------------------------------- helpers


def fail(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def body_of(request: Request) -> Dict[str, Any]:
    """The request's JSON object; BadRequest for anything else."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest(415, "send the request body as JSON (Content-Type: application/json)")
    try:
        data = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise BadRequest(400, "the request body is not JSON") from None
    except RecursionError:
        raise BadRequest(400, "the request body is JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    return data


def text_field(data: Dict[str, Any], key: str, required: bool = False) -> Optional[str]:
    value = data.get(key)
    if value is None:
        if required:
            raise BadRequest(400, f"'{key}' is missing")
        return None
    if not isinstance(value, str):
        raise BadRequest(400, f"'{key}' must be text")
    return value


def variant_field(data: Dict[str, Any]):
    name = data.get("variant", DEFAULT_VARIANT)
    if name not in variant_names():
        raise BadRequest(400, f"unknown variant {json.dumps(name)[:60]}: use one of {', '.join(variant_names())}")
    return find_variant(name)


def seed_field(data: Dict[str, Any]) -> int:
    seed = data.get("seed", 0)
    if seed is None:
        return 0
    if type(seed) is not int or not 0 <= seed < 2 ** 63:
        raise BadRequest(400, "'seed' must be a whole number >= 0")
    return seed


def start_state(variant, fen: Optional[str], config: Optional[str], config_name: str):
    """The first state from a FEN or a config file's text (through the variant's own options)."""
    if fen is not None and config is not None:
        raise BadRequest(400, "give a FEN or a config file, not both")
    try:
        if config is None:
            return variant.start(**variant.game_options(fen=fen.strip() if fen else None))
        with tempfile.TemporaryDirectory(prefix="serve-") as folder:
            path = os.path.join(folder, "config.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(config)
            try:
                return variant.start(**variant.game_options(config=path))
            except ValueError as exc:
                raise ValueError(str(exc).replace(path, config_name)) from None
    except ValueError as exc:
        line = str(exc).splitlines()[0] if str(exc) else "bad start position"
        if config is not None:            # it names the file and the line already
            raise BadRequest(400, line) from None
        line = re.sub(r"^--fen ('.*?'): ", r"\1: ", line)
        raise BadRequest(400, f"the FEN cannot be read: {line}") from None


class Waiting:
    """At most `limit` requests waiting on a thread of their own at once (a full house: 503)."""

    def __init__(self, limit: int):
        self.slots = threading.BoundedSemaphore(limit)
        self.limit = limit
        self.threads: List[threading.Thread] = []
        self.lock = threading.Lock()

    def start(self, run) -> None:
        thread = threading.Thread(target=run, name="request", daemon=True)
        with self.lock:
            self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()

    def join(self, seconds: float) -> None:
        """Wait up to `seconds` for the requests' threads (each closes the agent it asked)."""
        deadline = time.monotonic() + seconds
        with self.lock:
            threads = list(self.threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))


async def in_thread(request: Request, stopping: threading.Event, waiting: Waiting, work, *args,
                    abort=None):
    """`work(*args)` in a daemon thread of its own (an agent's think may take its whole move time:
    the server must not wait for it to stop). 503 when `waiting.limit` requests wait already, or
    once the server is stopping; when the client has gone, `abort()` stops the work (its agent's
    process killed) and the request ends."""
    if not waiting.slots.acquire(blocking=False):
        raise BadRequest(503, f"the server is busy: {waiting.limit} requests are waiting for an agent "
                              f"or a file already; ask again in a moment")
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(method, value):
        if not future.done():
            method(value)

    def run():
        try:
            result = work(*args)
        except BaseException as exc:   # handed to the request, which answers it
            outcome = (future.set_exception, exc)
        else:
            outcome = (future.set_result, result)
        finally:
            waiting.slots.release()
        try:
            loop.call_soon_threadsafe(settle, *outcome)
        except RuntimeError:           # the server has stopped meanwhile
            pass

    waiting.start(run)
    while True:
        done, _ = await asyncio.wait({future}, timeout=0.2)
        if done:
            return future.result()
        gone = stopping.is_set() or await client_gone(request)
        if gone:                       # the work's end is nobody's business now
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            if abort is not None:
                abort()
        if stopping.is_set():
            raise BadRequest(503, "the server is stopping")
        if gone:
            raise BadRequest(499, "the client has gone")


async def client_gone(request: Request) -> bool:
    """Whether the client has closed the connection (looked at without waiting)."""
    try:
        return await asyncio.wait_for(request.is_disconnected(), timeout=0.01)
    except asyncio.TimeoutError:
        return False


class Cancel:
    """A probe's way to stop: set, and its agent (once built) is aborted; a probe not yet
    thinking does not start."""

    def __init__(self):
        self.event = threading.Event()
        self.held: List[Any] = []

    def __call__(self) -> None:
        self.event.set()
        for agent in list(self.held):
            agent.abort()

    def called_off(self, agent) -> bool:
        """`probe`'s check: keep the agent (to abort it) and say whether to stop."""
        if agent not in self.held:
            self.held.append(agent)
        return self.event.is_set()


def bounded_probe(cancel: Cancel, *args):
    """`probe` once fewer than MAX_THINKING agents think (the games' and the probes' together), so
    a page asking again and again cannot start an agent process per click; nothing once the
    client has gone."""
    while not THINKING.acquire(timeout=0.2):
        if cancel.event.is_set():
            raise BadRequest(499, "the client has gone")
    try:
        if cancel.event.is_set():
            raise BadRequest(499, "the client has gone")
        return probe(*args, called_off=cancel.called_off)
    finally:
        THINKING.release()


# ----------------------------------------------------------------------------- the app


def guarded(handler):
    """`handler` behind the app's checks: a browser's POST from another site's page is refused
    (403), and a BadRequest or a full house (Full) is answered as JSON {"error": ...}."""
    async def endpoint(request: Request) -> Response:
        origin = request.headers.get("origin")     # a browser's POST names the page it comes from
        if request.method == "POST" and origin is not None and \
                urlsplit(origin).netloc.lower() != request.headers.get("host", "").lower():
            return fail(403, "requests from another site's page are refused")
        try:
            return await handler(request)
        except BadRequest as exc:
            return fail(exc.status, str(exc))
        except Full as exc:
            return fail(503, str(exc))
    return endpoint


async def nothing(request: Request) -> Response:
    return Response(status_code=204)


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ASSETS:
        return fail(404, "no such file")
    path, kind = ASSETS[name]
    with open(path, encoding="utf-8") as handle:
        return Response(handle.read(), media_type=kind, headers={"X-Content-Type-Options": "nosniff"})


async def variants(request: Request) -> Response:
    out = []
    for name in variant_names():
        variant = find_variant(name)
        start = variant.start()
        out.append({"name": name, "title": variant.title, "board": board_geometry(variant),
                    "legend": legend(variant), "start_fen": variant.fen(start),
                    "start_position": encode_grid(variant.grid(start))})
    return JSONResponse({"variants": out})


def shown(state: Dict[str, Any]) -> Dict[str, Any]:
    """A game's state with its ending in plain words."""
    return {**state, "ending": ending_words(state, find_variant(state["variant"]))}


@contextlib.contextmanager
def refused_as(status: int):
    """A play session's refusal (Refused) answered as BadRequest(`status`); not your turn: 409."""
    try:
        yield
    except NotYourTurn as exc:
        raise BadRequest(409, str(exc)) from None
    except Refused as exc:
        raise BadRequest(status, str(exc)) from None


class WebApp:
    """The app's state (the settings, the games, the limits on waiting requests and event streams,
    the page) and its handlers, one method per route."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.store = Store(settings.data)
        self.games = Games(self.store, self.restore, settings.max_games, settings.idle)
        self.reviews = Reviews(settings.analyser_for, settings.nodes, self.reviewed)
        self.stopping = threading.Event()   # set by the server on Ctrl-C: requests still waiting answer 503
        self.waiting = Waiting(settings.max_waiting)
        self.streams = threading.BoundedSemaphore(settings.max_streams)
        with open(os.path.join(STATIC, "index.html"), encoding="utf-8") as handle:
            self.index_html = handle.read()

    async def index(self, request: Request) -> Response:
        return Response(self.index_html, media_type="text/html", headers={"Content-Security-Policy": CSP})

    async def agents(self, request: Request) -> Response:
        variant = variant_field(dict(request.query_params))
        return JSONResponse({"variant": variant.name, "agents": [
            {"name": name, "builtin": name in players.builtin_names(variant.name)}
            for name in self.settings.offer.agents[variant.name]]})

    async def new_game(self, request: Request) -> Response:
        data = await body_of(request)
        variant = variant_field(data)
        white = self.settings.offer.spec(variant.name, data.get("white"))
        black = self.settings.offer.spec(variant.name, data.get("black"))
        seed = seed_field(data)
        pace = data.get("pace", 0)
        if type(pace) not in (int, float) or not 0 <= pace <= MAX_PACE:
            raise BadRequest(400, f"'pace' must be a number of seconds from 0 to {MAX_PACE:g}")
        start = start_state(variant, text_field(data, "fen"), text_field(data, "config"),
                            os.path.basename(text_field(data, "config_name") or "config.txt")[:100])
        session = Session(variant, white, black, seed, start, self.settings.timeout(variant), self.settings.box)
        web = self.games.add(session, float(pace))
        return JSONResponse(shown(web.state()), status_code=201)

    def restore(self, kept):
        """A kept game set up again (`games.restore`); BadRequest 409 when it cannot be."""
        try:
            return restore(kept, self.settings.timeout, self.settings.box, self.settings.offers, self.store)
        except (ValueError, TypeError, KeyError) as exc:
            raise BadRequest(409, f"game '{kept['id']}' is kept but cannot be set up again: {exc}") from None

    def game_of(self, request: Request):
        game_id = request.path_params["game"]
        web = self.games.get(game_id)
        if web is None:
            raise BadRequest(404, f"no game '{game_id[:40]}': this server has not kept a game of that name")
        return web

    async def list_games(self, request: Request) -> Response:
        """The games kept, the latest changed first (the start page's list)."""
        games = []
        for kept in self.store.latest():
            s = kept["snapshot"]
            outcome = s.get("outcome") or {}
            games.append({"id": kept["id"], "variant": s["variant"], "white": s["white"], "black": s["black"],
                          "seed": s["seed"], "plies": len(s["moves"]), "result": outcome.get("result"),
                          "reason": outcome.get("reason"), "stopped": bool(s.get("stopped")),
                          "analysed": kept["analysed"], "updated": round(kept["updated"], 3)})
        return JSONResponse({"games": games})

    def reviewed(self, game_id: str, entry) -> None:
        """A review finished: kept with its game (and on the game held, when it is)."""
        self.store.save_analysis(game_id, entry)
        web = self.games.held(game_id)
        if web is not None:
            with web.lock:
                web.analysis = entry
                web.changed()

    def review_state(self, web) -> dict:
        with web.lock:
            done = web.analysis is not None and analysed(web.analysis, web.session.game.move_names())
            analyser = web.analysis.get("analyser") if done else None
        found = self.reviews.status(web.id)
        if done:
            return {"status": "done", "analyser": analyser, **({"done": found["done"], "total": found["total"]}
                                                               if found else {})}
        if found is None or found["status"] == "done":   # done for moves taken back since
            return {"status": "none"}
        return found

    async def review(self, request: Request) -> Response:
        """Review a finished or stopped game in the background (its progress: GET)."""
        web = self.game_of(request)
        state = self.review_state(web)
        if state["status"] in ("done", "queued", "running"):
            return JSONResponse(state, status_code=200 if state["status"] == "done" else 202)
        record = web.record()
        if record is None:
            raise BadRequest(409, "the game goes on: finish or stop it first, then review it")
        self.reviews.ask(web.id, {"game": 0, **record})
        return JSONResponse(self.review_state(web), status_code=202)

    async def review_progress(self, request: Request) -> Response:
        return JSONResponse(self.review_state(self.game_of(request)))

    async def analysis(self, request: Request) -> Response:
        """The finished or stopped game as the analysis board shows it (`records.record_view`:
        the report viewer's data, `review` when it has been reviewed), plus its id."""
        web = self.game_of(request)
        record = web.record()
        if record is None:
            raise BadRequest(409, "the game goes on: the analysis board shows a finished or stopped game")
        with web.lock:
            entry = web.analysis if analysed(web.analysis, web.session.game.move_names()) else None
        results = json.dumps({"game": 0, **record}) + "\n"
        analysis = json.dumps({**entry, "game": 0}) + "\n" if entry else None
        try:
            view = await self.in_thread(request, record_view, results, 0, analysis)
        except RecordError as exc:
            raise BadRequest(409, str(exc)) from None
        return JSONResponse({**view, "id": web.id})

    async def show_game(self, request: Request) -> Response:
        return JSONResponse(shown(self.game_of(request).state()))

    async def events(self, request: Request) -> Response:
        """The game's state now and after every change, as Server-Sent Events (`data: STATE`),
        until the game ends or is stopped, the page goes or the server stops."""
        web = self.game_of(request)
        if not self.streams.acquire(blocking=False):
            raise BadRequest(503, f"{self.settings.max_streams} pages watch games already (the server's limit): "
                                  f"close one and reload")
        return StreamingResponse(self.stream(web), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def stream(self, web):
        """`events`' stream of game `web` (its slot in `streams` taken; given back at the end)."""
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        number = web.watch(loop, changed)
        try:
            sent, quiet = None, time.monotonic()
            while not self.stopping.is_set():
                changed.clear()
                state = web.state()
                if state["version"] != sent:
                    sent, quiet = state["version"], time.monotonic()
                    yield f"data: {json.dumps(shown(state), separators=(',', ':'))}\n\n"
                    if state["result"] or state["stopped"] or web.closed:
                        return
                elif time.monotonic() - quiet > KEEP_ALIVE:
                    quiet = time.monotonic()
                    yield ": still here\n\n"
                try:
                    await asyncio.wait_for(changed.wait(), timeout=1.0)
                except asyncio.TimeoutError:
                    pass
        finally:
            web.unwatch(number)
            self.streams.release()

    async def move(self, request: Request) -> Response:
        web = self.game_of(request)
        data = await body_of(request)
        text = text_field(data, "move", required=True)
        with refused_as(400):
            state = web.move(text[:100])
        return JSONResponse(shown(state))

    async def undo(self, request: Request) -> Response:
        web = self.game_of(request)
        with refused_as(409):
            taken, state = web.undo()
        return JSONResponse({**shown(state), "taken": taken})

    async def resign(self, request: Request) -> Response:
        web = self.game_of(request)
        with refused_as(409):
            web.resign()
        return JSONResponse(shown(web.state()))

    async def stop(self, request: Request) -> Response:
        web = self.game_of(request)
        with refused_as(409):
            state = web.stop()
        return JSONResponse(shown(state))

    async def record(self, request: Request) -> Response:
        record = self.game_of(request).record()
        if record is None:
            raise BadRequest(409, "the game goes on: it can be saved once it is over or stopped")
        return JSONResponse({"game": 0, **record})

    async def best(self, request: Request) -> Response:
        data = await body_of(request)
        if data.get("game") is not None:
            variant, state = self.position_of(data)
        else:
            variant = variant_field(data)
            state = start_state(variant, text_field(data, "fen", required=True), None, "")
        outcome = variant.outcome(state)
        if outcome is not None:
            raise BadRequest(409, f"the game is over here ({outcome.reason})")
        spec = self.settings.offer.spec(variant.name, data.get("agent"))
        if spec == HUMAN:
            raise BadRequest(400, "ask an agent, not a human")
        cancel = Cancel()
        found = await self.in_thread(request, bounded_probe, cancel, variant, state, spec,
                                     self.settings.timeout(variant), self.settings.box, seed_field(data),
                                     abort=cancel)
        return JSONResponse(found.to_dict())

    def position_of(self, data: Dict[str, Any]):
        """(variant, state) of {"game": ID, "ply": K}: the position after K plies (default: now)."""
        game_id = data.get("game")
        web = self.games.get(game_id) if isinstance(game_id, str) else None
        if web is None:
            raise BadRequest(404, f"no game {json.dumps(game_id)[:40]}")
        ply = data.get("ply")
        with web.lock:
            session = web.session
            if ply is None or ply == len(session.plies):
                return session.variant, session.game.state
            if type(ply) is not int or not 0 <= ply < len(session.plies):
                raise BadRequest(400, f"'ply' must be a whole number from 0 to {len(session.plies)}")
            return session.variant, session.plies[ply].state_before

    async def records(self, request: Request) -> Response:
        data = await body_of(request)
        results = text_field(data, "results", required=True)
        found, notes = await self.in_thread(request, record_summaries, results, text_field(data, "analysis"))
        if not found:
            raise BadRequest(400, "; ".join(notes) if notes else "the file holds no game records")
        return JSONResponse({"games": found, "notes": notes})

    async def record_game(self, request: Request) -> Response:
        data = await body_of(request)
        results = text_field(data, "results", required=True)
        number = data.get("game")
        if type(number) is not int:
            raise BadRequest(400, "'game' must be a game number")
        try:
            view = await self.in_thread(request, record_view, results, number, text_field(data, "analysis"))
        except RecordError as exc:
            raise BadRequest(400, str(exc)) from None
        return JSONResponse(view)

    async def in_thread(self, request: Request, work, *args, abort=None):
        """`in_thread` with this app's stopping flag and waiting limit."""
        return await in_thread(request, self.stopping, self.waiting, work, *args, abort=abort)


def create_app(settings: Settings) -> Starlette:
    web = WebApp(settings)
    routes = [
        Route("/", web.index),
        Route("/game/{game}", web.index),
        Route("/static/{name}", asset),
        Route("/favicon.ico", nothing),
        Route("/api/variants", guarded(variants)),
        Route("/api/agents", guarded(web.agents)),
        Route("/api/games", guarded(web.new_game), methods=["POST"]),
        Route("/api/games", guarded(web.list_games)),
        Route("/api/games/{game}", guarded(web.show_game)),
        Route("/api/games/{game}/moves", guarded(web.move), methods=["POST"]),
        Route("/api/games/{game}/undo", guarded(web.undo), methods=["POST"]),
        Route("/api/games/{game}/resign", guarded(web.resign), methods=["POST"]),
        Route("/api/games/{game}/stop", guarded(web.stop), methods=["POST"]),
        Route("/api/games/{game}/events", guarded(web.events)),
        Route("/api/games/{game}/record", guarded(web.record)),
        Route("/api/games/{game}/review", guarded(web.review), methods=["POST"]),
        Route("/api/games/{game}/review", guarded(web.review_progress)),
        Route("/api/games/{game}/analysis", guarded(web.analysis)),
        Route("/api/best", guarded(web.best), methods=["POST"]),
        Route("/api/records", guarded(web.records), methods=["POST"]),
        Route("/api/records/game", guarded(web.record_game), methods=["POST"]),
    ]
    app = Starlette(routes=routes, max_body_size=MAX_BODY,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=sorted(allowed_names(settings.hosts)))])
    app.state.games = web.games
    app.state.reviews = web.reviews
    app.state.store = web.store
    app.state.stopping = web.stopping
    app.state.waiting = web.waiting
    return app


def allowed_names(hosts: Sequence[str]) -> List[str]:
    """The Host header values (without port) the server answers: IPv6 addresses in brackets."""
    names = []
    for host in hosts:
        names.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    return names
