"""Smart: the safe move of highest utility; ties broken with `rng.choice`.

Utility, highest first: a King capture; a mating move; a move that checks and captures; a move
that only captures; a move that only checks; the rest. Inside the two capture tiers a more
valuable victim ranks higher (values in `harness.variant`, see README.md). With no
safe move it has already lost; it then plays a random move rather than crash.
"""
from .tactics import SafeMoveChooser, capture_value, captures_king, checks, mating

KING_CAPTURE, MATE, CHECK_CAPTURE, CAPTURE, CHECK, QUIET = 5, 4, 3, 2, 1, 0


class SmartAgent(SafeMoveChooser):
    name = "smart"

    def utility(self, board, move):
        """(tier, victim value inside the capture tiers, else 0); larger is better."""
        rules = self.rules
        if captures_king(board, move, rules):
            return (KING_CAPTURE, 0)
        if mating(board, move, rules):
            return (MATE, 0)
        victim = capture_value(board, move)
        check = checks(board, move, rules)
        if victim:
            return (CHECK_CAPTURE if check else CAPTURE, victim)
        return (CHECK if check else QUIET, 0)

    def best_of(self, board, safe):
        """The safe moves of highest utility, in the generator's stable order."""
        scored = [(self.utility(board, m), m) for m in safe]
        best = max(u for u, _ in scored)
        return [m for u, m in scored if u == best]
