"""Plays one game between two agents and says how it ended.

Data flows one way: the referee's Game -> a fresh copy of the gameboard -> the agent -> its
answer -> validation -> Game.play -> a result record. An agent that raises, times out or
answers with anything but one of its pseudo-legal moves loses that game.
"""
import random
import time
from typing import Any, Dict, Optional

from agents.base import Agent, AgentTimeout
from .game import CRASH, ILLEGAL_MOVE, TIMEOUT, Game, move_name
from .rules import COLOUR_OF_SIDE, Move
from .variant import BLACK, WHITE


def agent_rng(seed: int, colour: str) -> random.Random:
    """Each side's own generator, derived from the game's seed so the game replays exactly."""
    return random.Random(f"{seed}:{colour}")


def parse_answer(game: Game, answer: Any) -> Optional[Move]:
    """The internal move for an agent's answer, or None unless it is one of the mover's moves."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return None
    v = game.rules.variant
    s, t = v.square_index(answer[0]), v.square_index(answer[1])
    if s is None or t is None:
        return None
    move = (s, t)
    return move if move in game.rules.moves_from(game.board, s) and game.board[s] * game.side > 0 else None


def describe(answer: Any, limit: int = 200) -> str:
    text = repr(answer)
    return text if len(text) <= limit else text[:limit] + "..."


def play_game(white: Agent, black: Agent, seed: int, game: Optional[Game] = None) -> Dict[str, Any]:
    """Play `game` (default: the start position) to its end; return the game's record."""
    game = game or Game()
    agents = {WHITE: white, BLACK: black}
    rngs = {colour: agent_rng(seed, colour) for colour in agents}
    think = {colour: {"total": 0.0, "max": 0.0, "moves": 0} for colour in agents}
    error = None
    while not game.adjudicate():
        colour = game.to_move
        started = time.perf_counter()
        try:
            answer = agents[colour].choose_move(dict(game.gameboard), colour, rngs[colour])
        except AgentTimeout as exc:
            answer, error = None, f"{colour}: {exc}"
            game.win_for(-game.side, TIMEOUT)
        except Exception as exc:  # an agent's bug must not stop the referee
            answer, error = None, f"{colour}: {type(exc).__name__}: {exc}"
            game.win_for(-game.side, CRASH)
        elapsed = time.perf_counter() - started
        stats = think[colour]
        stats["total"] += elapsed
        stats["max"] = max(stats["max"], elapsed)
        stats["moves"] += 1
        if game.over:
            break
        move = parse_answer(game, answer)
        if move is None:
            error = f"{colour}: illegal answer {describe(answer)}"
            game.win_for(-game.side, ILLEGAL_MOVE)
            break
        game.play(move)
    return {
        "seed": seed,
        "white": white.name,
        "black": black.name,
        "result": game.result,
        "reason": game.reason,
        "plies": game.plies,
        "moves": game.move_names(),
        "think": {colour.lower(): stats for colour, stats in think.items()},
        "error": error,
    }
