"""How a game ended, in plain words for the page ("Black wins: White has no legal move (after 24
plies)."), from a game's result and reason (results.jsonl's words: `Termination`'s values).
The loser (`L`) is the side that did not win; for a draw by no move, the side to move."""
from typing import Any, Dict, Optional

from ..core.variant import Termination

# why a side won or drew, by the record's reason; W the winner, L the other side
WHY = {
    Termination.KING_CAPTURE: "it captured {L}'s King",
    Termination.CHECKMATE: "{L} is checkmated",
    Termination.OUT_OF_VALID_MOVES: "{L} has no legal move: every move walks into an attack",
    Termination.NO_MOVES_DRAW: "{M} has no move at all",
    Termination.FIFTY_MOVE_DRAW: "too many plies without a capture",
    Termination.MAX_PLIES: "the game reached its ply limit",
    Termination.KING_THREAT: "{W} can capture {L}'s King",
    Termination.STEP_LIMIT: "the plies ran out and material decides",
    Termination.NO_MOVES: "{L} has no legal move",
    Termination.LION_CAPTURE: "{L}'s lion is gone",
    Termination.LIONS_ONLY: "only the two lions are left",
    Termination.ILLEGAL_MOVE: "{L} ({l}) played a move that is not legal",
    Termination.TIMEOUT: "{L} ({l}) did not answer in time",
    Termination.CRASH: "{L} ({l}) failed",
    Termination.GAME_TIME: "{L} ({l}) used up its time for the game",
    Termination.RESIGNATION: "{L} resigned",
}


def ending_words(state: Dict[str, Any]) -> Optional[str]:
    """The ending of a game's state (or a record: ``result``, ``reason``, ``white``, ``black``,
    ``moves``, ``to_move``) in plain words; None while it goes on. A stopped game says so."""
    plies = len(state.get("moves") or [])
    after = f"after {plies} pl{'y' if plies == 1 else 'ies'}"
    result, reason = state.get("result"), state.get("reason")
    if not result:
        return f"Stopped {after}: nobody plays on." if state.get("stopped") else None
    winner = result.capitalize() if result in ("white", "black") else None
    loser = {"White": "Black", "Black": "White"}.get(winner or "", None)
    mover = str(state.get("to_move") or "").capitalize() or "the side to move"
    try:
        template = WHY[Termination(reason)]
    except ValueError:
        template = f"by {reason}"
    why = template.format(W=winner or "", L=loser or mover, M=mover,
                          l=state.get((loser or mover).lower(), "?") if loser else "?")
    if winner is None:
        return f"Draw: {why} ({after})."
    return f"{winner} wins: {why} ({after})."
