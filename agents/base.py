"""The one interface the referee calls for every agent, built-in or a student's file.

An agent is asked for a move with a fresh copy of the course-ordered gameboard dict, the
colour it plays and a random generator seeded per game (so games replay exactly). It answers
in the course's form ``((col, row), (col, row))``.
"""
import random
from typing import Dict, Tuple

Square = Tuple[str, int]
CourseMove = Tuple[Square, Square]
Gameboard = Dict[Square, Tuple[str, str]]


class Agent:
    """Base class: subclasses set `name` and implement choose_move; close() frees resources."""

    name = "agent"

    def choose_move(self, gameboard: Gameboard, colour: str, rng: random.Random) -> CourseMove:
        raise NotImplementedError

    def close(self) -> None:
        """Called once when the game is over (a process-backed agent stops its process)."""


class AgentError(Exception):
    """An agent spec that cannot be turned into an agent (unknown name, missing file)."""


class AgentTimeout(Exception):
    """The agent did not answer within the per-move time limit."""
