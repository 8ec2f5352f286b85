"""The opponent suite and the registry that turns an agent spec into an Agent.

A spec is a built-in name (dummy, random, greedy, smart, minimax) or a path to a Python file
that defines `studentAgent(gameboard)`.
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


def is_file_spec(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def make_agent(spec: str) -> Agent:
    """The agent a spec names, in this process; AgentError with a one-line reason otherwise."""
    if spec in BUILTIN:
        module_name, class_name = BUILTIN[spec].split(":")
        return getattr(importlib.import_module(module_name), class_name)()
    if is_file_spec(spec):
        if not os.path.isfile(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        from .student import StudentAgent
        return StudentAgent(spec)
    raise AgentError(f"unknown agent '{spec}': use one of {', '.join(BUILTIN)} or a path to a .py file")
