"""A UCI engine (Fairy-Stockfish or anything that speaks UCI and knows the variant) as an agent.

Spec: ``uci:PATH[,nodes=N][,movetime=MS][,timeout=S]``, e.g.
``uci:/usr/games/fairy-stockfish,nodes=1000``. PATH is an executable (looked up on PATH when it
has no slash); a PATH ending in ``.py`` is run with this Python (used by the tests' fake
engines). With no limit given the engine searches ``nodes=1000``; with both, whichever comes
first. ``timeout`` is the most seconds the agent waits for one answer (default: 30 s for a
node limit, ``2 * movetime + 5 s`` for a time limit).

Protocol (the process: harness/isolation/uci_engine.py). The engine process is started on the first move of a
game and stopped by close(), which the game's runner calls when the game is over: one engine
process per game (an agent reused for another game after close() starts a new process). What is the game's
comes from the variant it plays (`Variant.uci_variant`, `uci_variant_file`, `engine_view_fen`,
`engine_answer`). At start: ``uci`` (wait for ``uciok``), ``setoption name VariantPath value
<the variant's file>`` (cs3243: harness/variants/cs3243/cs3243.ini; none for a variant the engine
knows built in, as gardner), ``setoption name UCI_Variant value <uci_variant>``, ``ucinewgame``,
``isready`` (wait for ``readyok``). The engine must confirm the variant with an ``info string
variant NAME ...`` line, as Fairy-Stockfish does; otherwise the agent fails with a message saying
so. Then for each move: ``position fen <FEN of what the agent is shown, the agent's colour to
move>`` and ``go nodes N`` / ``go movetime MS``; the answer is the ``bestmove`` line's move, read
by the variant (cs3243: converted to the course's ((col, row), (col, row)); gardner: the legal
`Move` it names).

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
from typing import Dict, List, Optional

from harness.core.variant import Variant
from harness.variants import DEFAULT_VARIANT, find_variant

from harness.core.agent import Agent, AgentError, AgentTimeout
from harness.core.agent_spec import UCI, AgentSpec
from harness.isolation.uci_engine import UciEngine, UciError, parse_score

DEFAULT_NODES = 1000
NODES_TIMEOUT = 30.0         # seconds per move under a node limit


class UciAgent(Agent):
    def __init__(self, path: str, nodes: Optional[int] = None, movetime: Optional[int] = None,
                 variant_path: Optional[str] = None, timeout: Optional[float] = None,
                 variant: Optional[Variant] = None, contain=None):
        """`variant` the game it plays (default: the default variant), which names it to the engine
        (`uci_variant`, from `variant_path` or else the variant's own `uci_variant_file`) and reads
        its positions and answers (`engine_view_fen`, `engine_answer`)."""
        game = variant if variant is not None else find_variant(DEFAULT_VARIANT)
        if game.uci_variant is None:
            raise AgentError(f"no UCI engine plays {game.name}")
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
        self.engine = UciEngine(path, game.uci_variant, variant_path or game.uci_variant_file, contain=contain)
        self.variant_path = self.engine.variant_path
        self.variant = game.uci_variant
        self.game = game
        self.timeout = float(timeout)
        limits = [f"nodes={nodes}" if nodes is not None else "",
                  f"movetime={movetime}" if movetime is not None else ""]
        self.name = f"uci:{os.path.basename(path)}({','.join(x for x in limits if x)})"
        self.last_answer: Optional[str] = None   # the last bestmove line, for diagnostics
        self.score: Optional[Dict[str, int]] = None   # the score of its last move (move_score)

    @property
    def proc(self):
        """The engine's process while it runs (None before the first move and after close)."""
        return self.engine.proc

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
            self.engine.start()
        except (UciError, AgentTimeout) as exc:
            raise AgentError(f"agent 'uci:{self.path}' cannot be started: {exc}") from None
        finally:
            self.close()

    def choose_move(self, view, colour, rng):
        fen = self.game.engine_view_fen(view, colour)
        line, infos = self.engine.search(fen, self.go_command(), self.timeout)
        self.last_answer = line
        cp, mate = parse_score(infos)
        self.score = {"cp": cp} if cp is not None else {"mate": mate} if mate is not None else None
        words = line.split()
        if len(words) < 2 or words[1] in ("(none)", "0000"):
            return None
        return self.game.engine_answer(view, words[1])

    def move_score(self):
        return self.score

    def analyse(self, fen: str, lines: int = 1) -> List[dict]:
        """The engine's `lines` best moves in `fen` at the agent's limit (harness.isolation.uci_engine's
        UciEngine.analyse: MultiPV from a cleared hash), best first."""
        return self.engine.analyse(fen, self.go_command(), lines, self.timeout)

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not within a second; safe to call twice."""
        self.engine.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def uci_agent_from_spec(spec: str, timeout: Optional[float] = None, contain=None,
                        variant: Optional[Variant] = None) -> UciAgent:
    """The agent for ``uci:PATH[,nodes=N][,movetime=MS][,timeout=S]``; AgentError if malformed.

    Options are taken from the end, so a PATH may itself contain commas (harness.core.agent_spec).
    `timeout` is the per-move deadline in seconds when the spec gives none (None: the UciAgent
    default). The path is not checked here: an engine that cannot be started loses its game as
    a crash, with the reason in the record.
    """
    return uci_agent_of(AgentSpec.parse(spec, ()), timeout, contain, variant)


def uci_agent_of(spec: AgentSpec, timeout: Optional[float] = None, contain=None,
                 variant: Optional[Variant] = None) -> UciAgent:
    """`uci_agent_from_spec` of a parsed spec (harness.core.agent_spec.AgentSpec, kind UCI)."""
    if spec.kind != UCI:
        raise AgentError(f"'{spec.text}' is not a uci: spec")
    if spec.problem:
        raise AgentError(spec.problem)
    options = spec.options
    return UciAgent(spec.path, nodes=options.get("nodes"), movetime=options.get("movetime"),
                    timeout=options.get("timeout", timeout), contain=contain, variant=variant)
