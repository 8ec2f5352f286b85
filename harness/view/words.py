"""How a game ended, in plain words for the page ("Black wins: White has no legal move (after 24
plies)."), from a game's result and reason (results.jsonl's words: the values of the core's
`Termination` and of the variant's own endings, whose `words` these are).
The loser (`L`) is the side that did not win; for a draw by no move, the side to move."""
from typing import Any, Dict, Optional

from ..core.variant import Variant


def ending_words(state: Dict[str, Any], variant: Variant) -> Optional[str]:
    """The ending of a game's state (or a record: ``result``, ``reason``, ``white``, ``black``,
    ``moves``, ``to_move``) in plain words; None while it goes on. A stopped game says so. The
    words are the ending's own (`Ending.words`, the core's or `variant`'s); an ending without words reads "by REASON"."""
    plies = len(state.get("moves") or [])
    after = f"after {plies} pl{'y' if plies == 1 else 'ies'}"
    result, reason = state.get("result"), state.get("reason")
    if not result:
        return f"Stopped {after}: nobody plays on." if state.get("stopped") else None
    winner = result.capitalize() if result in ("white", "black") else None
    loser = {"White": "Black", "Black": "White"}.get(winner or "", None)
    mover = str(state.get("to_move") or "").capitalize() or "the side to move"
    ending = variant.termination(reason)
    template = ending.words if ending is not None and ending.words else f"by {reason}"
    why = template.format(W=winner or "", L=loser or mover, M=mover,
                          l=state.get((loser or mover).lower(), "?") if loser else "?")
    if winner is None:
        return f"Draw: {why} ({after})."
    return f"{winner} wins: {why} ({after})."
