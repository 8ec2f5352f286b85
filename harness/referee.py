"""Plays one game between two agents and says how it ended: the one place games are scored.

Data flows one way: the referee's Game -> a fresh copy of the gameboard -> the agent -> its
answer -> validation -> Game.play -> a result record. An agent that raises, times out or
answers with anything but one of its pseudo-legal moves loses that game. Agents never see the
referee's own board, only copies; a copy that comes back changed is counted, not trusted.
"""
import random
import time
from typing import Any, Callable, Dict, List, Optional

from agents.base import Agent, AgentTimeout
from .fen import engine_record_fields
from .game import CRASH, ILLEGAL_MOVE, TIMEOUT, Game
from .rules import Move
from .variant import BLACK, WHITE

SECONDS_DIGITS = 6       # think times are recorded to the microsecond

# on_move(game, colour, move, seconds): an observer called after each accepted move.
MoveObserver = Callable[[Game, str, Move, float], None]


def agent_rng(seed: int, colour: str) -> random.Random:
    """Each side's own generator, derived from the game's seed so the game replays exactly."""
    return random.Random(f"{seed}:{colour}")


def parse_answer(game: Game, answer: Any) -> Optional[Move]:
    """The internal move for an agent's answer, or None unless it is one of the mover's moves.
    Accepted forms: a tuple or list of two squares, each a (column letter, int row) pair."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return None
    v = game.rules.variant
    s, t = v.square_index(answer[0]), v.square_index(answer[1])
    if s is None or t is None:
        return None
    move = (s, t)
    return move if game.board[s] * game.side > 0 and move in game.rules.moves_from(game.board, s) else None


def describe(answer: Any, limit: int = 200) -> str:
    try:
        text = repr(answer)
    except Exception as exc:   # a hostile answer's __repr__ must not stop the referee
        text = f"<unprintable {type(answer).__name__}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def _start(agent: Agent, colour: str, seed: int) -> None:
    """Agents with a per-game setup (`start_game`: the sandbox starts its process and imports
    the file, outside the move clock) get their colour and the game's seed."""
    start = getattr(agent, "start_game", None)
    if callable(start):
        start(colour, seed)


def play_game(white: Agent, black: Agent, seed: int, game: Optional[Game] = None,
              on_move: Optional[MoveObserver] = None) -> Dict[str, Any]:
    """Play `game` (default: the start position) to its end; return the game's record.

    The caller owns the agents and closes them afterwards."""
    game = game or Game()
    agents = {WHITE: white, BLACK: black}
    for colour, agent in agents.items():
        _start(agent, colour, seed)
    rngs = {colour: agent_rng(seed, colour) for colour in agents}
    seconds: Dict[str, List[float]] = {colour: [] for colour in agents}
    mutated = {colour: 0 for colour in agents}
    error = None
    while not game.adjudicate():
        colour = game.to_move
        shown = dict(game.gameboard)
        before = list(shown.items())
        started = time.perf_counter()
        try:
            answer = agents[colour].choose_move(shown, colour, rngs[colour])
        except AgentTimeout as exc:
            answer, error = None, f"{colour}: {exc}"
            game.win_for(-game.side, TIMEOUT)
        except Exception as exc:  # an agent's bug must not stop the referee
            answer, error = None, f"{colour}: {type(exc).__name__}: {exc}"
            game.win_for(-game.side, CRASH)
        elapsed = time.perf_counter() - started
        seconds[colour].append(elapsed)
        if list(shown.items()) != before:
            mutated[colour] += 1
        if game.over:
            break
        move = parse_answer(game, answer)
        if move is None:
            error = f"{colour}: illegal answer {describe(answer)}"
            game.win_for(-game.side, ILLEGAL_MOVE)
            break
        game.play(move)
        if on_move is not None:
            on_move(game, colour, move, elapsed)
    printed = {}
    for colour, agent in agents.items():
        output = getattr(agent, "printed_output", None)
        printed[colour.lower()] = output() if callable(output) else None
    return {
        "seed": seed,
        "white": white.name,
        "black": black.name,
        "result": game.result,
        "reason": game.reason,
        "plies": game.plies,
        "moves": game.move_names(),
        "think": {colour.lower(): think_stats(values) for colour, values in seconds.items()},
        "error": error,
        "printed": printed,
        "mutated": {colour.lower(): count for colour, count in mutated.items()},
        "fifty": game.fifty_limit,
        "max_plies": game.max_plies,
        **engine_record_fields(game),
    }


def think_stats(values: List[float]) -> Dict[str, Any]:
    """Per side: total and maximum seconds, number of moves and every move's seconds."""
    return {
        "total": round(sum(values), SECONDS_DIGITS),
        "max": round(max(values, default=0.0), SECONDS_DIGITS),
        "moves": len(values),
        "seconds": [round(v, SECONDS_DIGITS) for v in values],
    }
