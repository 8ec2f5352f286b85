"""Running the web app: the listening socket, the names the server answers to, uvicorn.

Loopback (127.0.0.1) unless told otherwise; any other address gets a warning, since everyone who
can reach it may then play the offered agents (and so run the offered files, boxed). The Host
header must name the server itself: its loopback names, the address it was given, and for a
wildcard address (0.0.0.0, ::) this machine's own name and addresses.
"""
import ipaddress
import signal
import socket
from typing import Callable, List, Optional

import uvicorn

from ..isolation.sandbox import kill_started
from .app import LOOPBACK, Settings, create_app

GRACE_SECONDS = 2     # on Ctrl-C, requests still being answered get this long (those waiting on an agent answer 503 at once)


class ServeError(Exception):
    """The server cannot start (one line)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_names(host: str) -> List[str]:
    """The Host header names (without port) a server listening on `host` answers to."""
    names = list(LOOPBACK)
    if host in ("0.0.0.0", "::", ""):
        machine = socket.gethostname()
        names += [machine, socket.getfqdn()]
        try:
            names += [info[4][0] for info in socket.getaddrinfo(machine, None)]
        except OSError:
            pass
    else:
        names.append(host.strip("[]"))
    return sorted(set(n.lower() for n in names if n))


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (port 0: any free one) and listening; ServeError if it cannot."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    return f"http://{shown}:{port}/"


def serve(settings: Settings, host: str, port: int, say: Callable[[str], None],
          warn: Callable[[str], None], ready: Optional[Callable[[str], None]] = None) -> None:
    """Serve until Ctrl-C (or SIGTERM); the games' agents are stopped on the way out."""
    settings.hosts = host_names(host)
    sock = listen(host, port)
    if not is_loopback(host):          # once it listens (an address it cannot take is only the error)
        warn(f"warning: serving on {host}, not loopback: anyone who can reach this machine can play the "
             f"offered agents (and so run the offered files, boxed); the default --host 127.0.0.1 is private")
    app = create_app(settings)
    server = _Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                    timeout_graceful_shutdown=GRACE_SECONDS), app.state.stopping)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        say(f"serving on {url_of(sock)}  (Ctrl-C stops it)")
        if ready is not None:
            ready(url_of(sock))
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        app.state.stopping.set()
        app.state.reviews.close()
        app.state.games.close(wait=GRACE_SECONDS)
        app.state.waiting.join(GRACE_SECONDS)
        kill_started()                 # a worker a thread was still starting: none outlives the server
        sock.close()
    say("stopped.")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class _Server(uvicorn.Server):
    """uvicorn's server that also tells the app it is stopping, so requests waiting on an agent
    answer at once instead of being cut off."""

    def __init__(self, config: uvicorn.Config, stopping):
        super().__init__(config)
        self.stopping = stopping

    def handle_exit(self, sig, frame) -> None:
        self.stopping.set()
        super().handle_exit(sig, frame)
