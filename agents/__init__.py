"""The opponents, by variant, and the registry that turns a built-in name into an Agent.

A variant's built-ins are ``name -> "module:Class"``; a class is imported only when asked for.
A variant without a table of its own (Gardner, and any game added later) gets `GENERIC`: random,
greedy, ab and mcts over the Variant interface (agents/generic.py), made with the variant they play.
Specs that are not built-in names (a student's ``.py`` file, ``uci:PATH``, ``nthu:PATH``) are
the harness's business (`harness.players`); ``uci:`` engines are ours and live here too.
"""
import importlib
import os
from typing import Dict, List, Union

from harness.core.agent import Agent, AgentError
from harness.core.agent_spec import FILE, UCI, AgentSpec
from harness.core.agent_spec import UCI_PREFIX as UCI_PREFIX      # agents.UCI_PREFIX, as before
from harness.variants import DEFAULT_VARIANT, find_variant

from .nthu import AGENTS as NTHU_AGENTS
from .congo import AGENTS as CONGO_AGENTS

BUILTIN: Dict[str, Dict[str, str]] = {
    "cs3243": {
        "dummy": "agents.dummy:DummyAgent",
        "random": "agents.random_agent:RandomAgent",
        "greedy": "agents.greedy:GreedyAgent",
        "smart": "agents.smart:SmartAgent",
        "minimax": "agents.minimax:MinimaxAgent",
    },
    "nthu": NTHU_AGENTS,
    "congo": CONGO_AGENTS,
}

GENERIC: Dict[str, str] = {
    "random": "agents.generic:RandomAgent",
    "greedy": "agents.generic:GreedyAgent",
    "ab": "agents.generic:AlphaBetaAgent",
    "mcts": "agents.generic:MctsAgent",
}

# The game review's analysers on our own searches (harness/core/analyser.py's interface), by
# variant; cs3243's is Fairy-Stockfish (harness/analysis/uci.py).
ANALYSERS: Dict[str, str] = {
    "nthu": "agents.nthu.analyser:SearchAnalyser",
    "congo": "agents.congo.analyser:SearchAnalyser",
}


def _table(variant: str) -> Dict[str, str]:
    """The variant's built-ins: its own table, else the generic agents."""
    return BUILTIN.get(variant, GENERIC)


def builtin_names(variant: str = DEFAULT_VARIANT) -> List[str]:
    return list(_table(variant))


def make_builtin(name: str, variant: str = DEFAULT_VARIANT) -> Agent:
    """The built-in agent `name` of `variant`; AgentError (one line) when there is none."""
    table = _table(variant)
    if name not in table:
        raise AgentError(f"unknown agent '{name}' for {variant}: use one of {', '.join(table) or 'none'}")
    module_name, class_name = table[name].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    from .generic import VariantAgent
    return cls(find_variant(variant)) if issubclass(cls, VariantAgent) else cls()


def make_analyser(variant: str, nodes=None):
    """The analyser on our own search for `variant` (its default node count when `nodes` is None);
    AgentError when the variant has none."""
    if variant not in ANALYSERS:
        raise AgentError(f"{variant} has no analyser on our own search")
    module_name, class_name = ANALYSERS[variant].split(":")
    return getattr(importlib.import_module(module_name), class_name)(nodes)


def make_uci(spec: Union[str, AgentSpec], contain=None, variant=None) -> Agent:
    """A uci: engine (its spec, parsed or not) playing `variant` (a Variant; None: the default
    one); `contain` (harness.players) starts it in the box. AgentError when the spec is malformed."""
    from .uci import uci_agent_of
    if isinstance(spec, str):
        spec = AgentSpec.parse(spec, ())
    return uci_agent_of(spec, contain=contain, variant=variant)


def make_agent(spec: str, variant: str = DEFAULT_VARIANT) -> Agent:
    """An agent in this process for benches and tests: a built-in name, ``uci:PATH``, or (for
    CS3243) a student's ``.py`` file loaded without a sandbox."""
    parsed = AgentSpec.parse(spec, _table(variant))
    if parsed.kind == UCI:
        return make_uci(parsed, variant=find_variant(variant))
    if parsed.kind == FILE and "file" in find_variant(variant).agent_forms and spec.endswith(".py"):
        from harness.isolation.student import StudentAgent
        if not os.path.isfile(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        return StudentAgent(spec)
    return make_builtin(spec, variant)
