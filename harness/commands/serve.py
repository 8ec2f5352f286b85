"""`serve`: the local web app (harness/web): play any agent in the browser, watch two agents, ask
what an agent would play, review a game in one click, step through a results.jsonl; the games are
kept in --data. See docs/serve.md."""
import sys

from ..core.argtypes import whole_number
from ..web.games import IDLE_SECONDS, MAX_GAMES
from .common import UsageError, add_analyser_options, positive_seconds

port_number = whole_number(0)


def run(args) -> int:
    if args.port > 65535:
        raise UsageError(f"--port {args.port}: a port is at most 65535")
    from ..web.app import Offer, Settings          # the web framework is loaded by this command only
    from ..web.server import ServeError, serve
    from ..web.store import StoreError, default_folder
    check_analyser(args.analyser, args.nodes)
    settings = Settings(Offer.build(args.agent), move_timeout=args.move_timeout, max_games=args.max_games,
                        idle=args.idle_minutes * 60, data=args.data or default_folder(),
                        analyser=args.analyser, nodes=args.nodes)
    try:
        serve(settings, args.host, args.port, say=lambda text: print(text, flush=True),
              warn=lambda text: print(text, file=sys.stderr, flush=True))
    except (ServeError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    return 0


def check_analyser(spec, nodes) -> None:
    """--analyser SPEC must analyse the games of one variant at least (built, not started: an
    engine that cannot start is said on the page when a review is asked for)."""
    if spec is None and nodes is None:
        return
    from ..analysis.analysers import make_analyser
    from ..core.analyser import AnalyserError
    from ..variants import variant_names
    errors = []
    for name in variant_names():
        try:
            make_analyser(spec, name, nodes).close()
            return
        except AnalyserError as exc:
            errors.append(str(exc))
    raise UsageError(f"--analyser: {errors[0]}")


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="a local web app: play agents in the browser, watch them, probe positions, "
                                     "step through a results.jsonl")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; anything else is warned about)")
    p.add_argument("--port", type=port_number, default=8000, help="the port (default 8000; 0: any free port)")
    p.add_argument("--agent", action="append", default=[], metavar="PATH",
                   help="also offer this agent (a .py file with studentAgent, uci:PATH, nthu:PATH), named as given; "
                        "repeat for more")
    p.add_argument("--move-timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   help="a .py file or program agent loses a move it has not answered in this time "
                        "(default: as in series, 30; nthu 10)")
    p.add_argument("--max-games", type=whole_number(1), default=MAX_GAMES, metavar="N",
                   help=f"games held in memory at once (default {MAX_GAMES}); finished ones make room, and a new game "
                        f"is refused (503) while all N go on")
    p.add_argument("--idle-minutes", type=positive_seconds, default=IDLE_SECONDS / 60, metavar="MINUTES",
                   help=f"a game nobody has looked at this long lets its agents' processes go (it stays kept in --data) "
                        f"(default {IDLE_SECONDS / 60:g})")
    p.add_argument("--data", default=None, metavar="DIR",
                   help="the folder the games are kept in (DIR/games.sqlite3; default $XDG_DATA_HOME/minichess, "
                        "else ~/.local/share/minichess)")
    add_analyser_options(p)
    p.set_defaults(run=run)
