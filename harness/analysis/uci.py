"""The cs3243 analyser: Fairy-Stockfish (or any UCI engine that loads the project's cs3243.ini)
searching each position to a node count.

Each position is searched on its own (``ucinewgame`` first, so the hash holds nothing from the
positions before): the same position always gets the same evaluation, whichever games were
analysed before it and in which order. The FEN sent carries the plies since the last capture, so
the engine knows how close the 50-ply rule is. The score is the last ``info ... score`` line
before ``bestmove`` (``cp N`` or ``mate N``, from the side to move), turned to White's view.
"""
import os
from typing import Optional

from .. import players
from ..agent import AgentTimeout
from ..box import BoxSettings
from ..uci import UciEngine, UciError, find_engine, parse_score
from ..variants.base import Move
from ..variants.cs3243.fen import parse_engine_move, position_fen
from ..variants.cs3243.rules import RULES
from .analyser import Analyser, AnalyserError, Evaluation, from_mover

ENGINE = "fairy-stockfish"
DEFAULT_NODES = 10000        # about 0.03 s a position on one core (docs/analysis.md, bench/analysis.py)
SEARCH_TIMEOUT = 60.0        # seconds for one position's bestmove
INSTALL_HINT = ("install it (Debian/Ubuntu: apt-get install fairy-stockfish) or name a UCI engine "
                "with --analyser uci:PATH")


def default_engine() -> str:
    """Fairy-Stockfish's path (on PATH or in /usr/games); AnalyserError naming how to install it."""
    path = find_engine(ENGINE)
    if path is None:
        raise AnalyserError(f"the cs3243 analyser needs Fairy-Stockfish, which is not on PATH or in "
                            f"/usr/games: {INSTALL_HINT}")
    return path


ANALYSER_BOX = BoxSettings(cpu_seconds=86400)


class UciAnalyser(Analyser):
    def __init__(self, path: str, nodes: int = DEFAULT_NODES, timeout: float = SEARCH_TIMEOUT):
        self.path = path
        self.nodes = nodes
        self.timeout = timeout
        # the engine is a program named on the command line: boxed as the uci: agents are (a
        # day of CPU: an analysis session is long)
        self.engine = UciEngine(path, contain=players.containment(players.program_box(ANALYSER_BOX)))
        self.spec = f"uci:{path},nodes={nodes}"
        self.label = self.spec

    def _start(self) -> None:
        try:
            self.engine.start()
        except (UciError, AgentTimeout) as exc:
            self.engine.close()
            raise AnalyserError(f"analyser '{self.spec}' cannot be started: {exc}") from None
        name = self.engine.identity or os.path.basename(self.path)
        self.label = f"{name} ({self.spec})"

    def verify(self) -> None:
        self._start()

    def evaluate(self, state) -> Evaluation:
        try:
            if not self.engine.running:
                self._start()
            self.engine.new_game()
            line, infos = self.engine.search(position_fen(state), f"go nodes {self.nodes}", self.timeout)
        except (UciError, AgentTimeout) as exc:
            self.engine.close()
            raise AnalyserError(f"analyser '{self.spec}': {exc}") from None
        cp, mate = parse_score(infos)
        if cp is None and mate is None:
            raise AnalyserError(f"analyser '{self.spec}' gave no score for {position_fen(state)} "
                                f"(it answered: {line})")
        words = line.split()
        best: Optional[Move] = None
        move = parse_engine_move(RULES, words[1]) if len(words) > 1 else None
        if move is not None and Move(*move) in (Move(s, t) for s, t in RULES.moves(state.board, state.side)):
            best = Move(*move)
        if mate is not None:
            # a UCI mate is in moves of the side to move (negative: it is mated); as plies, +-(2n - 1)
            return from_mover(state.side, best, mate_plies=2 * mate - 1 if mate > 0 else 2 * mate)
        return from_mover(state.side, best, cp=cp)

    def close(self) -> None:
        self.engine.close()
