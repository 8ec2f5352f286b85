"""The agent contract: the one interface the referee calls for every player.

An agent is asked for a move with what its variant's protocol shows it (for CS3243 a fresh copy
of the course's gameboard dict; elsewhere the immutable state), the colour it plays and a random
generator seeded per game, so games replay exactly. Hooks with defaults (model: OpenSpiel's bot)
mean the referee never asks whether an agent has them.
"""
import random
from typing import Any, Dict, List, Optional


class Agent:
    """Base class: subclasses set `name` and implement `choose_move`."""

    name = "agent"

    def verify(self) -> None:
        """Called once before a run's first game: AgentError (one line naming the agent and the
        cause) when it cannot be started at all, e.g. an engine that refuses the handshake."""

    def start_game(self, colour: str, seed: int) -> None:
        """Called once before the game's first move (a process-backed agent starts here,
        outside the move clock)."""

    def choose_move(self, view: Any, colour: str, rng: random.Random) -> Any:
        raise NotImplementedError

    def set_deadline(self, seconds: float) -> None:
        """The most this agent may think for its next move (the referee's clock); agents that
        enforce their own limit (a sandboxed process) use it, in-process agents may ignore it."""

    def search_depths(self) -> Optional[List[int]]:
        """Per move, the search depth the agent reported (a program writing one move per completed
        depth, as NTHU's players do), or None when it reports none."""
        return None

    def move_score(self) -> Optional[Dict[str, int]]:
        """What its search made of its last move, from its own side: ``{"cp": N}`` (centipawns,
        a pawn = 100) or ``{"mate": N}`` (it wins in N moves; negative: it loses), or None when
        it gives no score. The probe (`serve`, `play`'s hint) shows it; games ignore it."""
        return None

    def printed_output(self) -> Optional[str]:
        """What the agent printed during the game (kept for the record), or None."""
        return None

    def close(self) -> None:
        """Called once when the game is over (a process-backed agent stops its process)."""

    def ended(self) -> Optional[str]:
        """Between moves: why a process-backed agent's process has ended although it was started
        well (one line, e.g. "the process was killed by signal SIGKILL"), or None while it runs
        (and always for an in-process agent). A failure at its start is not this: it is raised
        on its first move."""
        return None

    def abort(self) -> None:
        """From another thread: stop the thinking now (a process-backed agent's process is
        killed, so the thread asking it sees a crash at once). An in-process agent cannot be
        stopped: it finishes its move."""


def search_score(value: int, mate: int, bound: int) -> Dict[str, int]:
    """A search's value as `Agent.move_score` gives it: a value beyond +-`bound` is a won (lost)
    game `mate - |value|` plies away, said in moves; any other value is centipawns."""
    if abs(value) > bound:
        moves = (mate - abs(value) + 1) // 2
        return {"mate": moves if value > 0 else -moves}
    return {"cp": value}


class AgentError(Exception):
    """An agent spec that cannot be turned into an agent (unknown name, missing file)."""


class AgentTimeout(Exception):
    """The agent did not answer within its time limit; `game_clock` when the limit that ran out
    was what was left of its thinking time for the game (see `Agent.set_deadline`)."""

    def __init__(self, message: str, game_clock: bool = False):
        super().__init__(message)
        self.game_clock = game_clock


class AgentCrash(Exception):
    """The agent failed: it raised, exited, died, or could not be started.

    `exc_type` is the class name of what it raised (when known) and `line` the line of its own
    file where that happened."""

    def __init__(self, message: str, exc_type: Optional[str] = None, line: Optional[int] = None):
        super().__init__(message)
        self.exc_type = exc_type
        self.line = line
