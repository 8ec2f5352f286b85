"""One game of NTHU MiniChess 6x5 between two agents, for the benches and tests (a small loop of
the referee's kind: start each agent, ask the side to move, check its answer, apply, stop at the
first end rule or fault).
"""
import random
import time
from typing import Callable, List, NamedTuple, Optional

from harness.agent import Agent, AgentCrash, AgentTimeout
from harness.variants.base import BLACK, OTHER, WHITE, Fault, Move, Outcome, Termination

from . import VARIANT, State


class GameResult(NamedTuple):
    outcome: Outcome
    moves: List[str]               # move names, in order
    final: State
    seconds: dict                  # colour -> list of seconds per move


def play(white: Agent, black: Agent, start: Optional[State] = None, seed: int = 0,
         on_move: Optional[Callable[[State, Move], None]] = None) -> GameResult:
    state = start if start is not None else VARIANT.start()
    agents = {WHITE: white, BLACK: black}
    for colour, agent in agents.items():
        agent.start_game(colour, seed)
    names, seconds = [], {WHITE: [], BLACK: []}
    outcome = None
    try:
        while True:
            outcome = VARIANT.outcome(state)
            if outcome is not None:
                break
            colour = VARIANT.to_move(state)
            rng = random.Random(f"{seed}:{colour}:{state.plies}")
            began = time.perf_counter()
            try:
                answer = agents[colour].choose_move(VARIANT.protocol.view(state, colour), colour, rng)
            except AgentTimeout as e:
                outcome = Outcome(Termination.TIMEOUT, OTHER[colour], Fault(colour, str(e)))
                break
            except AgentCrash as e:
                outcome = Outcome(Termination.CRASH, OTHER[colour], Fault(colour, str(e), e.exc_type))
                break
            seconds[colour].append(time.perf_counter() - began)
            move = VARIANT.protocol.read(state, answer)
            if move is None:
                outcome = Outcome(Termination.ILLEGAL_MOVE, OTHER[colour],
                                  Fault(colour, f"not a legal move: {answer!r}"))
                break
            if on_move is not None:
                on_move(state, move)
            names.append(VARIANT.move_name(move))
            state = VARIANT.apply(state, move)
    finally:
        for agent in agents.values():
            agent.close()
    return GameResult(outcome, names, state, seconds)
