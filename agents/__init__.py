"""The opponent suite and the registry that turns an agent spec into an Agent.

A spec is a built-in name (dummy, random, greedy, smart, minimax), a path to a Python file
that defines `studentAgent(gameboard)`, or `uci:PATH[,nodes=N][,movetime=MS]` for a UCI engine.
"""
import importlib
import os

from .base import Agent, AgentError

BUILTIN = {
    "dummy": "agents.dummy:DummyAgent",
    "random": "agents.random_agent:RandomAgent",
    "greedy": "agents.greedy:GreedyAgent",
    "smart": "agents.smart:SmartAgent",
    "minimax": "agents.minimax:MinimaxAgent",
}


UCI_PREFIX = "uci:"


def is_file_spec(spec: str) -> bool:
    """A student's file: ends in .py or names a path (a `uci:PATH` engine spec is not one)."""
    if spec in BUILTIN or spec.startswith(UCI_PREFIX):
        return False
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def make_agent(spec: str) -> Agent:
    """The agent a spec names, in this process; AgentError with a one-line reason otherwise."""
    if spec in BUILTIN:
        module_name, class_name = BUILTIN[spec].split(":")
        return getattr(importlib.import_module(module_name), class_name)()
    if spec.startswith(UCI_PREFIX):
        from .uci import uci_agent_from_spec
        return uci_agent_from_spec(spec)
    if is_file_spec(spec):
        if not os.path.isfile(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        from .student import StudentAgent
        return StudentAgent(spec)
    raise AgentError(f"unknown agent '{spec}': use one of {', '.join(BUILTIN)}, a path to a .py file or uci:PATH")
