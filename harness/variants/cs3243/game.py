"""CS3243's positions under the course's rules: the gameboard dict, counters and the end checks.

A `Position` is one state of a game: the gameboard dict in the course's key order (a moved piece
is re-inserted at the end, a captured piece's key deleted first, because order-sensitive agents
such as Dummy depend on it), the flat board of `rules` derived from it, the side to move, the
plies played, the plies since the last capture and the game's limits. Positions are never
changed: `advance` makes the next one (the dict and list are copied, 49 entries each).

`Game` is the runner of `harness.core.game` with CS3243's constructor and the names the agents,
tests and benches use (board, gameboard, side, quiet_plies, ...).
"""
from typing import Any, Dict, List, Optional, Tuple

from ...core.game import Game as Runner
from ...core.variant import Ending, Move as VariantMove, Outcome, Termination
from .pieces import BLACK, WHITE
from .rules import COLOUR_OF_SIDE, RULES, SIDE_OF_COLOUR, Move, Rules

Square = Tuple[str, int]
Gameboard = Dict[Square, Tuple[str, str]]

# Ending reasons (the spec's "Choices" section fixes the order in which they are checked).


class CS3243Ending(Ending):
    """CS3243's own endings (besides the core's checkmate, no-move draw, fifty and ply limit)."""
    KING_CAPTURE = "king_capture", "it captured {L}'s King"                    # the capturer wins
    OUT_OF_VALID_MOVES = "out_of_valid_moves", "{L} has no legal move: every move walks into an attack"


def termination(reason) -> Ending:
    """The ending a reason names (CS3243's or the core's); ValueError when none does."""
    try:
        return CS3243Ending(reason)
    except ValueError:
        return Termination(reason)


KING_CAPTURE = CS3243Ending.KING_CAPTURE
NO_MOVES_DRAW = Termination.NO_MOVES_DRAW
CHECKMATE = Termination.CHECKMATE
OUT_OF_VALID_MOVES = CS3243Ending.OUT_OF_VALID_MOVES
FIFTY_MOVE_DRAW = Termination.FIFTY_MOVE_DRAW
MAX_PLIES = Termination.MAX_PLIES
# Set by the referee when an agent fails.
ILLEGAL_MOVE = Termination.ILLEGAL_MOVE
TIMEOUT = Termination.TIMEOUT
CRASH = Termination.CRASH

DEFAULT_FIFTY_LIMIT = 50
DEFAULT_MAX_PLIES = 1000


def start_gameboard(rules: Rules = RULES) -> Gameboard:
    """The course's first gameboard, in the course's key order."""
    v = rules.variant
    return {v.square_of(s): (piece, colour) for piece, colour, s in v.start_layout()}


def interleave(white: List[Tuple[str, Square]], black: List[Tuple[str, Square]]) -> Gameboard:
    """Gameboard for a config position: Own 1, Enemy 1, Own 2, Enemy 2, ..., then the rest."""
    board: Gameboard = {}
    for i in range(max(len(white), len(black))):
        if i < len(white):
            board[tuple(white[i][1])] = (white[i][0], WHITE)     # type: ignore[index]  # a config's list
        if i < len(black):
            board[tuple(black[i][1])] = (black[i][0], BLACK)     # type: ignore[index]
    return board


def board_from_gameboard(gameboard: Gameboard, rules: Rules = RULES) -> List[int]:
    """The flat board of a gameboard dict; ValueError names the first bad entry."""
    board = [0] * rules.size
    for square, value in gameboard.items():
        s = rules.variant.square_index(square)
        if s is None:
            raise ValueError(f"{square!r} is not a square of the board")
        if not (isinstance(value, tuple) and len(value) == 2 and value[0] in rules.code_of
                and value[1] in SIDE_OF_COLOUR):
            raise ValueError(f"{value!r} on {square!r} is not a (piece_type, colour) pair")
        board[s] = rules.code(*value)
    return board


def move_name(rules: Rules, move: Move) -> str:
    """'a1b2' in course rows."""
    return rules.variant.name_of(move[0]) + rules.variant.name_of(move[1])


def move_from_name(rules: Rules, name: str) -> Tuple[Optional[int], Optional[int]]:
    """The internal move of a recorded name such as 'a1b2' (course rows; move_name's inverse).
    The squares are None when the name does not name them."""
    return (rules.variant.parse_name(name[:2]), rules.variant.parse_name(name[2:4]))


def course_move(rules: Rules, move: Move) -> Tuple[Square, Square]:
    """The internal move as the course's ((col, row), (col, row))."""
    return (rules.variant.square_of(move[0]), rules.variant.square_of(move[1]))


class Position:
    """One CS3243 state (treat every field as read-only; `advance` makes the next state)."""

    __slots__ = ("rules", "gameboard", "board", "side", "plies", "quiet_plies", "fifty_limit",
                 "max_plies", "king_taken_by", "first_fullmove")

    def __init__(self, gameboard: Optional[Gameboard] = None, to_move: str = WHITE, rules: Rules = RULES,
                 fifty_limit: int = DEFAULT_FIFTY_LIMIT, max_plies: int = DEFAULT_MAX_PLIES,
                 quiet_plies: int = 0, plies: int = 0, first_fullmove: int = 1):
        self.rules = rules
        self.gameboard: Gameboard = dict(start_gameboard(rules) if gameboard is None else gameboard)
        self.board = board_from_gameboard(self.gameboard, rules)
        self.side = SIDE_OF_COLOUR[to_move]
        self.plies = plies
        self.quiet_plies = quiet_plies
        self.fifty_limit = fifty_limit
        self.max_plies = max_plies
        self.king_taken_by = 0            # the side that captured a King on the last ply
        self.first_fullmove = first_fullmove  # the FEN move number of the game's first position

    @property
    def to_move(self) -> str:
        return COLOUR_OF_SIDE[self.side]

    def replace(self, **fields) -> "Position":
        """A copy with some fields changed (the dict and the board are shared, not copied)."""
        other = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(other, name, fields.get(name, getattr(self, name)))
        return other

    def advance(self, move: Move) -> "Position":
        """The position after `move` (pseudo-legal, checked by the caller)."""
        s, t = move[0], move[1]
        captured = self.board[t]
        v = self.rules.variant
        source, target = v.square_of(s), v.square_of(t)
        gameboard = dict(self.gameboard)
        gameboard.pop(target, None)
        gameboard[target] = gameboard.pop(source)
        taken = self.side if captured and abs(captured) == self.rules.king else 0
        return self.replace(gameboard=gameboard, board=self.rules.make(self.board, (s, t)),
                            side=-self.side, plies=self.plies + 1,
                            quiet_plies=0 if captured else self.quiet_plies + 1, king_taken_by=taken)

    def outcome(self) -> Optional[Outcome]:
        """The end checks before a ply, in the order of the rules page; None while it goes on."""
        if self.king_taken_by:
            return Outcome(KING_CAPTURE, COLOUR_OF_SIDE[self.king_taken_by])
        moves = self.rules.moves(self.board, self.side)
        if not moves:
            return Outcome(NO_MOVES_DRAW, None)
        if not any(self.rules.is_safe(self.board, m) for m in moves):
            reason = CHECKMATE if self.rules.in_check(self.board, self.side) else OUT_OF_VALID_MOVES
            return Outcome(reason, COLOUR_OF_SIDE[-self.side])
        if self.quiet_plies >= self.fifty_limit:
            return Outcome(FIFTY_MOVE_DRAW, None)
        if self.plies >= self.max_plies:
            return Outcome(MAX_PLIES, None)
        return None


class Game(Runner):
    """A CS3243 game in progress (the runner with the course's constructor and names)."""

    default_variant: Any = None      # the package (harness/variants/cs3243/__init__.py) sets its VARIANT here

    def __init__(self, gameboard: Optional[Gameboard] = None, to_move: str = WHITE,
                 rules: Rules = RULES, fifty_limit: int = DEFAULT_FIFTY_LIMIT,
                 max_plies: int = DEFAULT_MAX_PLIES, variant=None):
        super().__init__(variant or self.default_variant,
                         Position(gameboard, to_move, rules, fifty_limit, max_plies))

    # the names CS3243's agents, tests and benches use
    rules = property(lambda self: self.state.rules)
    board = property(lambda self: self.state.board)
    gameboard = property(lambda self: self.state.gameboard)
    side = property(lambda self: self.state.side)
    fifty_limit = property(lambda self: self.state.fifty_limit)
    max_plies = property(lambda self: self.state.max_plies)
    start = property(lambda self: self.start_state.gameboard)
    start_colour = property(lambda self: self.start_state.to_move)

    @property
    def quiet_plies(self) -> int:
        return self.state.quiet_plies

    @quiet_plies.setter
    def quiet_plies(self, value: int) -> None:
        """Set the no-capture count (a position read from a FEN); before the first move it is
        also the start's."""
        self.state = self.state.replace(quiet_plies=value)
        if not self.moves:
            self.start_state = self.state

    def legal_moves(self) -> List[Move]:        # type: ignore[override]  # (from, to) pairs, not core Moves
        """The side to move's pseudo-legal moves as internal (from, to) pairs."""
        return self.rules.moves(self.board, self.side)

    @property
    def moves_played(self) -> List[Move]:
        return [(m[0], m[1]) for m in self.moves]

    def play(self, move: Move) -> None:         # type: ignore[override]  # a (from, to) pair
        """Play a pseudo-legal move; capturing a King ends the game at once."""
        super().play(VariantMove(move[0], move[1]))
        if self.state.king_taken_by:
            self.adjudicate()

    def finish(self, result, reason=None) -> None:
        """finish(outcome), or finish('white'|'black'|'draw', reason)."""
        if isinstance(result, Outcome):
            self.outcome = result
        else:
            self.outcome = Outcome(termination(reason), None if result == "draw" else result.capitalize())

    def win_for(self, side: int, reason) -> None:
        self.outcome = Outcome(termination(reason), COLOUR_OF_SIDE[side])
