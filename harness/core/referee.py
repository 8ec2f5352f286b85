"""Plays one game between two agents and says how it ended: the one place games are scored.

Data flows one way: the Game's state -> what the variant's protocol shows the agent to move (for
CS3243 a fresh copy of the course's gameboard dict) -> its answer -> the protocol reads it ->
Game.play -> a result record. An agent that raises, times out, runs out of its game time or
answers with anything but one of its moves loses that game. Agents never see the referee's own
state, only what the protocol gives them; a view that comes back changed is counted, not trusted.
"""
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from .agent import Agent, AgentCrash, AgentTimeout
from .game import Game
from .variant import BLACK, OTHER, WHITE, Fault, Move, Outcome, Termination

SECONDS_DIGITS = 6       # think times are recorded to the microsecond

# on_move(game, colour, move, seconds): an observer called after each accepted move.
MoveObserver = Callable[[Game, str, Move, float], None]


def agent_rng(seed: int, colour: str) -> random.Random:
    """Each side's own generator, derived from the game's seed so the game replays exactly."""
    return random.Random(f"{seed}:{colour}")


def describe(answer: Any, limit: int = 200) -> str:
    try:
        text = repr(answer)
    except Exception as exc:   # a hostile answer's __repr__ must not stop the referee
        text = f"<unprintable {type(answer).__name__}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def fault_of(exc: BaseException, colour: str) -> Fault:
    """The structured cause of an agent's failure; the text never names the harness's own
    exception classes (an agent's crash reads like the agent's own error)."""
    if isinstance(exc, AgentTimeout):
        return Fault(colour, str(exc))
    if isinstance(exc, AgentCrash):
        return Fault(colour, str(exc), exc.exc_type, exc.line)
    return Fault(colour, f"{type(exc).__name__}: {exc}", type(exc).__name__)


@dataclass
class Turn:
    """One agent's turn: the legal move it answered (None when it faulted), the seconds it took,
    whether it changed the view it was given, and the outcome when it lost by a fault."""
    move: Optional[Move]
    seconds: float
    mutated: bool = False
    outcome: Optional[Outcome] = None


def agent_turn(agent: Agent, game: Game, colour: str, rng: random.Random,
               game_time: Optional[float] = None, spent: float = 0.0) -> Turn:
    """Ask `agent` (playing `colour`, to move in `game`) for its move and judge the answer: the
    one place an agent's answer is timed and scored. `spent`: its thinking so far this game,
    against `game_time` when given. The game itself is not changed."""
    protocol = game.variant.protocol
    if game_time is not None:
        agent.set_deadline(game_time - spent)
    view = protocol.view(game.state, colour)
    started = time.perf_counter()
    failure = None
    try:
        answer = agent.choose_move(view, colour, rng)
    except (Exception, AgentTimeout) as exc:   # an agent's bug must not stop the referee
        answer, failure = None, exc
    elapsed = time.perf_counter() - started
    mutated = protocol.changed(view, game.state)
    clock_ran_out = isinstance(failure, AgentTimeout) and failure.game_clock
    if game_time is not None and (clock_ran_out or spent + elapsed > game_time):
        return Turn(None, elapsed, mutated, Outcome(Termination.GAME_TIME, OTHER[colour], Fault(
            colour, f"its thinking over the game passed {game_time:g} s")))
    if failure is not None:
        kind = Termination.TIMEOUT if isinstance(failure, AgentTimeout) else Termination.CRASH
        return Turn(None, elapsed, mutated, Outcome(kind, OTHER[colour], fault_of(failure, colour)))
    move = protocol.read(game.state, answer)
    if move is None:
        return Turn(None, elapsed, mutated, Outcome(Termination.ILLEGAL_MOVE, OTHER[colour],
                                                    Fault(colour, f"illegal answer {describe(answer)}")))
    return Turn(move, elapsed, mutated)


def play_game(white: Agent, black: Agent, seed: int, game: Game,
              on_move: Optional[MoveObserver] = None,
              game_time: Optional[float] = None) -> Dict[str, Any]:
    """Play `game` (the caller's: any variant's, from any position) to its end; return the game's record.

    game_time: when given, each side's thinking summed over the game may not pass it; the side
    that runs out loses by `game_time` (and no single move may take longer than what is left).
    The caller owns the agents and closes them afterwards."""
    agents = {WHITE: white, BLACK: black}
    for colour, agent in agents.items():
        agent.start_game(colour, seed)
    rngs = {colour: agent_rng(seed, colour) for colour in agents}
    seconds: Dict[str, List[float]] = {colour: [] for colour in agents}
    mutated = {colour: 0 for colour in agents}
    while not game.adjudicate():
        colour = game.to_move
        turn = agent_turn(agents[colour], game, colour, rngs[colour], game_time, sum(seconds[colour]))
        seconds[colour].append(turn.seconds)
        mutated[colour] += turn.mutated
        if turn.outcome is not None:
            game.finish(turn.outcome)
            break
        assert turn.move is not None        # a turn without an outcome has a move
        game.play(turn.move)
        if on_move is not None:
            on_move(game, colour, turn.move, turn.seconds)
    return game_record(game, agents, seed, seconds, mutated)


def game_record(game: Game, agents: Dict[str, Agent], seed: int, seconds: Dict[str, List[float]],
                mutated: Dict[str, int]) -> Dict[str, Any]:
    """The record of a finished game (a line of results.jsonl, see docs/report.md; a game stopped
    before its end has no result and no reason); `agents` by colour, `seconds` each side's
    thinking per move, `mutated` how often each changed its view."""
    printed = {colour.lower(): agent.printed_output() for colour, agent in agents.items()}
    # program agents (nthu:PATH) count the moves each answer held: the search depth it reached
    depths = {colour.lower(): list(found) for colour, agent in agents.items()
              if (found := agent.search_depths()) is not None}
    fault = game.outcome.fault if game.outcome is not None else None
    return {
        "seed": seed,
        "white": agents[WHITE].name,
        "black": agents[BLACK].name,
        "result": game.result,
        "reason": game.reason,
        "plies": game.plies,
        "moves": game.move_names(),
        "think": {colour.lower(): think_stats(values) for colour, values in seconds.items()},
        "error": fault.text() if fault else None,
        "printed": printed,
        "mutated": {colour.lower(): count for colour, count in mutated.items()},
        **game.record_fields(),
        **({"depths": depths} if depths else {}),
        "variant": game.variant.name,
    }


def think_stats(values: List[float]) -> Dict[str, Any]:
    """Per side: total and maximum seconds, number of moves and every move's seconds."""
    return {
        "total": round(sum(values), SECONDS_DIGITS),
        "max": round(max(values, default=0.0), SECONDS_DIGITS),
        "moves": len(values),
        "seconds": [round(v, SECONDS_DIGITS) for v in values],
    }
