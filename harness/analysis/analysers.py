"""An analyser spec -> an analyser (the composition of the game review's analysers).

- no spec: the variant's own (`Variant.default_analyser`): cs3243 and gardner Fairy-Stockfish
  (found on PATH or in /usr/games), nthu and congo our `ab` search;
- ``uci:PATH[,nodes=N]``: any UCI engine that knows the variant (`Variant.uci_variant`: cs3243
  from the project's cs3243.ini, gardner built into Fairy-Stockfish);
- ``ab[,nodes=N]``: our own search (nthu, congo).

``--nodes N`` gives the node count when the spec does not, else the variant's `analyser_nodes`
(else the analyser's own default). Every mistake is an AnalyserError
with a one-line reason, raised before any work.
"""
import re
from typing import Optional

from .. import players
from ..core.agent import AgentError
from ..core.agent_spec import parse_uci_spec
from ..variants import find_variant, variant_names
from ..core.analyser import Analyser, AnalyserError
from .uci import DEFAULT_NODES as UCI_NODES, UciAnalyser, default_engine

_AB = re.compile(r"ab(?:,nodes=(\d+))?")


def _nodes(spec_nodes: Optional[int], nodes: Optional[int], spec: str) -> Optional[int]:
    if spec_nodes is not None and nodes is not None and spec_nodes != nodes:
        raise AnalyserError(f"analyser '{spec}': nodes given twice (in the spec and with --nodes)")
    chosen = spec_nodes if spec_nodes is not None else nodes
    if chosen is not None and chosen < 1:
        raise AnalyserError(f"analyser '{spec}': nodes must be a whole number >= 1")
    return chosen


def spec_forms() -> str:
    """The analyser specs and the variants each plays, from the registry: 'uci:PATH[,nodes=N]
    (cs3243, gardner) or ab[,nodes=N] (nthu, congo)'."""
    games = [find_variant(name) for name in variant_names()]
    uci = [v.name for v in games if v.uci_variant is not None]
    ab = [v.name for v in games if v.default_analyser == "ab"]
    return f"uci:PATH[,nodes=N] ({', '.join(uci)}) or ab[,nodes=N] ({', '.join(ab)})"


def make_analyser(spec: Optional[str], variant: str, nodes: Optional[int] = None) -> Analyser:
    """The analyser for games of `variant` (not started yet: call its `verify`)."""
    game = find_variant(variant)
    if spec is None:
        spec = game.default_analyser
    if spec == "uci" or spec.startswith("uci:"):
        if game.uci_variant is None:
            raise AnalyserError(f"analyser '{spec}': no UCI engine plays {variant}; {variant} uses ab")
        if spec == "uci":
            return UciAnalyser(default_engine(variant), game, _nodes(None, nodes, spec) or game.analyser_nodes or UCI_NODES)
        try:
            path, options = parse_uci_spec(spec, ("nodes",))
        except ValueError as exc:
            raise AnalyserError(f"analyser {exc}") from None
        return UciAnalyser(path, game, _nodes(options.get("nodes"), nodes, spec) or game.analyser_nodes or UCI_NODES)
    match = _AB.fullmatch(spec.strip())
    if match is None:
        raise AnalyserError(f"unknown analyser '{spec}': use {spec_forms()}")
    chosen = _nodes(int(match.group(1)) if match.group(1) else None, nodes, spec) or game.analyser_nodes
    try:
        return players.search_analyser(variant, chosen)
    except AgentError as exc:
        if game.default_analyser == "uci":
            raise AnalyserError(f"{variant} games are analysed by a UCI engine (Fairy-Stockfish): "
                                "use --analyser uci:PATH[,nodes=N] or leave --analyser out") from None
        raise AnalyserError(str(exc)) from None
