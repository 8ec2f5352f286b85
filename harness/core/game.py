"""One game being played, for any variant: the runner that owns the state (model: OpenSpiel's
evaluation loop, where the runner, not the state, keeps the history).

A `Game` holds the variant, the start state, the current state, the moves played and, once the
game is over, its `Outcome`. The end rules belong to the variant (`variant.outcome(state)`); the
referee adds the faults (`finish`).
"""
from typing import Any, List, Optional

from .variant import Move, Outcome, Variant


class Game:
    def __init__(self, variant: Variant, state: Any = None, **options):
        self.variant = variant
        self.state = variant.start(**options) if state is None else state
        self.start_state = self.state
        self.moves: List[Move] = []
        self.outcome: Optional[Outcome] = None

    @property
    def to_move(self) -> str:
        return self.variant.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def result(self) -> Optional[str]:
        """'white', 'black' or 'draw' once over, else None."""
        return self.outcome.result if self.outcome else None

    @property
    def reason(self) -> Optional[str]:
        return self.outcome.reason if self.outcome else None

    @property
    def plies(self) -> int:
        """Plies played in this game (not counting any that led to its start)."""
        return len(self.moves)

    def legal_moves(self) -> List[Move]:
        return self.variant.legal_moves(self.state)

    def adjudicate(self) -> bool:
        """Apply the variant's end rules before the next ply; True when the game is over."""
        if self.outcome is None:
            self.outcome = self.variant.outcome(self.state)
        return self.outcome is not None

    def play(self, move: Move) -> None:
        """Play a move the caller has checked is legal."""
        self.state = self.variant.apply(self.state, move)
        self.moves.append(move)

    def finish(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def move_names(self) -> List[str]:
        return [self.variant.move_name(m) for m in self.moves]

    def record_fields(self) -> dict:
        return self.variant.record_fields(self.start_state, self.moves)
