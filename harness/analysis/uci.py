"""The UCI analyser: Fairy-Stockfish (or any UCI engine that knows the variant: cs3243 from the
project's cs3243.ini, gardner built in) searching each position to a node count.

What is the variant's own comes from the variant: the name the engine knows it by (`uci_variant`),
the position sent (`engine_fen`), the engine's move read back (`engine_move`).

Each position is searched on its own (``ucinewgame`` first, so the hash holds nothing from the
positions before): the same position always gets the same evaluation, whichever games were
analysed before it and in which order. The FEN sent carries the plies since the last capture, so
the engine knows how close the 50-ply rule is. The score is the last ``info ... score`` line
before ``bestmove`` (``cp N`` or ``mate N``, from the side to move), turned to White's view.
"""
import os
from typing import Optional

from .. import players
from ..core.agent import AgentTimeout
from ..isolation.box import BoxSettings
from ..isolation.uci_engine import UciEngine, UciError, find_engine, parse_score
from ..core.variant import WHITE, Variant
from ..core.analyser import Analyser, AnalyserError, Evaluation, from_mover

ENGINE = "fairy-stockfish"
DEFAULT_NODES = 10000        # about 0.03 s a position on one core (docs/analysis.md, bench/analysis.py)
SEARCH_TIMEOUT = 60.0        # seconds for one position's bestmove
INSTALL_HINT = ("install it (Debian/Ubuntu: apt-get install fairy-stockfish) or name a UCI engine "
                "with --analyser uci:PATH")


def default_engine(variant: str) -> str:
    """Fairy-Stockfish's path (on PATH or in /usr/games); AnalyserError naming how to install it."""
    path = find_engine(ENGINE)
    if path is None:
        raise AnalyserError(f"the {variant} analyser needs Fairy-Stockfish, which is not on PATH or in "
                            f"/usr/games: {INSTALL_HINT}")
    return path


ANALYSER_BOX = BoxSettings(cpu_seconds=86400)


class UciAnalyser(Analyser):
    # The win % curve and the noise floor are the variant's (`uci_win_slope`, `uci_noise`: for
    # cs3243 fitted to Fairy-Stockfish's scale in recorded games, docs/analysis.md "The rule";
    # any other UCI engine given with --analyser uci:PATH is read on the same scale)
    second_look = 10

    def __init__(self, path: str, variant: Variant, nodes: int = DEFAULT_NODES,
                 timeout: float = SEARCH_TIMEOUT):
        self.win_slope = variant.uci_win_slope
        self.noise = variant.uci_noise
        self.path = path
        self.variant = variant
        self.nodes = nodes
        self.timeout = timeout
        # the engine is a program named on the command line: boxed as the uci: agents are (a
        # day of CPU: an analysis session is long)
        self.engine = UciEngine(path, variant.uci_variant, variant.uci_variant_file,
                                contain=players.containment(players.program_box(ANALYSER_BOX)))
        self.spec = f"uci:{path},nodes={nodes}"
        self.label = self.spec

    def _start(self) -> None:
        try:
            self.engine.start()
        except (UciError, AgentTimeout) as exc:
            self.engine.close()
            raise AnalyserError(f"analyser '{self.spec}' cannot be started: {exc}") from None
        name = self.engine.identity or os.path.basename(self.path)
        self.label = f"{name} ({self.spec}, {self.rule_text()})"

    def verify(self) -> None:
        self._start()

    def evaluate(self, state, nodes: Optional[int] = None) -> Evaluation:
        try:
            if not self.engine.running:
                self._start()
            self.engine.new_game()
            fen = self.variant.engine_fen(state)
            line, infos = self.engine.search(fen, f"go nodes {nodes or self.nodes}", self.timeout)
        except (UciError, AgentTimeout) as exc:
            self.engine.close()
            raise AnalyserError(f"analyser '{self.spec}': {exc}") from None
        cp, mate = parse_score(infos)
        if cp is None and mate is None:
            raise AnalyserError(f"analyser '{self.spec}' gave no score for {fen} "
                                f"(it answered: {line})")
        words = line.split()
        best = self.variant.engine_move(state, words[1]) if len(words) > 1 else None
        side = 1 if self.variant.to_move(state) == WHITE else -1
        if mate is not None:
            # a UCI mate is in moves of the side to move (negative: it is mated); as plies, +-(2n - 1)
            return from_mover(side, best, mate_plies=2 * mate - 1 if mate > 0 else 2 * mate)
        return from_mover(side, best, cp=cp)

    def close(self) -> None:
        self.engine.close()
