"""How CS3243 agents are called: the course's `studentAgent(gameboard)` contract.

The agent to move is given a fresh copy of the course-ordered gameboard dict (so a file that
changes it changes only its copy, which is compared afterwards) and answers in the course's form,
a tuple (or list) of two squares ``(column_letter, int_row)``.
"""
from typing import Any, Optional

from ...core.variant import AgentProtocol, Move


def parse_answer(state, answer: Any) -> Optional[Move]:
    """The move for an agent's answer in `state` (a Position or a CS3243 Game), or None unless
    it is one of the mover's pseudo-legal moves. Accepted forms: a tuple or list of two squares,
    each a (column letter, int row) pair."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return None
    rules = state.rules
    v = rules.variant
    s, t = v.square_index(answer[0]), v.square_index(answer[1])
    if s is None or t is None:
        return None
    if state.board[s] * state.side > 0 and (s, t) in rules.moves_from(state.board, s):
        return Move(s, t)
    return None


class GameboardProtocol(AgentProtocol):
    def view(self, state, colour: str) -> dict:
        return dict(state.gameboard)

    def changed(self, view: Any, state) -> bool:
        try:
            return list(view.items()) != list(state.gameboard.items())
        except Exception:      # the agent replaced what it was given by something else
            return True

    def read(self, state, answer: Any) -> Optional[Move]:
        return parse_answer(state, answer)
