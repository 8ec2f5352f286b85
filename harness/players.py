"""Turns an agent spec from the command line into an Agent for one game.

Built-in names (and any other spec `agents.make_agent` knows, such as ``uci:...``) run in this
process: they are ours and fast. A path to a ``.py`` file is a student's file and runs in a
sandboxed process (`harness.sandbox`). `check_spec` turns every bad spec into a one-line
AgentError before any game starts.
"""
import os

from agents import is_file_spec as is_file, make_agent
from agents.base import Agent, AgentError
from .sandbox import DEFAULT_MOVE_TIMEOUT, SandboxAgent


def check_spec(spec: str) -> None:
    """AgentError with a one-line reason when `spec` cannot be played."""
    if is_file(spec):
        if not os.path.exists(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        if not os.path.isfile(spec) or not spec.endswith(".py"):
            raise AgentError(f"agent '{spec}' is not a .py file")
        return
    try:
        agent = make_agent(spec)
    except AgentError:
        raise
    except ImportError as exc:
        raise AgentError(f"agent '{spec}' is not available ({exc})") from None
    agent.close()


def build(spec: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> Agent:
    """A fresh agent for one game (the caller closes it)."""
    if is_file(spec):
        return SandboxAgent(spec, move_timeout, name=spec)
    return make_agent(spec)
