"""The state of one game under the course's rules: the gameboard dict, counters and the ending.

The gameboard dict is kept in the course's key order (a moved piece is re-inserted at the end,
a captured piece's key deleted first) because order-sensitive agents such as Dummy depend on
it. The flat board of `harness.rules` is derived from it and kept in step.
"""
from typing import Dict, List, Optional, Tuple

from .rules import COLOUR_OF_SIDE, RULES, SIDE_OF_COLOUR, Move, Rules
from .variant import BLACK, WHITE

Square = Tuple[str, int]
Gameboard = Dict[Square, Tuple[str, str]]

# Ending reasons (the spec's "Choices" section fixes the order in which they are checked).
KING_CAPTURE = "king_capture"
NO_MOVES_DRAW = "no_moves_draw"
CHECKMATE = "checkmate"
OUT_OF_VALID_MOVES = "out_of_valid_moves"
FIFTY_MOVE_DRAW = "fifty_move_draw"
MAX_PLIES = "max_plies"
# Set by the referee when an agent fails.
ILLEGAL_MOVE = "illegal_move"
TIMEOUT = "timeout"
CRASH = "crash"

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
            board[tuple(white[i][1])] = (white[i][0], WHITE)
        if i < len(black):
            board[tuple(black[i][1])] = (black[i][0], BLACK)
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


def move_from_name(rules: Rules, name: str) -> Move:
    """The internal move of a recorded name such as 'a1b2' (course rows; move_name's inverse)."""
    return (rules.variant.parse_name(name[:2]), rules.variant.parse_name(name[2:4]))


def course_move(rules: Rules, move: Move) -> Tuple[Square, Square]:
    """The internal move as the course's ((col, row), (col, row))."""
    return (rules.variant.square_of(move[0]), rules.variant.square_of(move[1]))


class Game:
    """A game in progress: whose turn, the boards, the no-capture counter and, once over, the result."""

    def __init__(self, gameboard: Optional[Gameboard] = None, to_move: str = WHITE,
                 rules: Rules = RULES, fifty_limit: int = DEFAULT_FIFTY_LIMIT,
                 max_plies: int = DEFAULT_MAX_PLIES):
        self.rules = rules
        self.gameboard: Gameboard = dict(start_gameboard(rules) if gameboard is None else gameboard)
        self.start: Gameboard = dict(self.gameboard)
        self.start_colour = to_move
        self.board = board_from_gameboard(self.gameboard, rules)
        self.side = SIDE_OF_COLOUR[to_move]
        self.fifty_limit = fifty_limit
        self.max_plies = max_plies
        self.plies = 0
        self.quiet_plies = 0          # consecutive plies without a capture
        self.moves_played: List[Move] = []
        self.result: Optional[str] = None   # "white", "black" or "draw"
        self.reason: Optional[str] = None

    @property
    def to_move(self) -> str:
        return COLOUR_OF_SIDE[self.side]

    @property
    def over(self) -> bool:
        return self.result is not None

    def legal_moves(self) -> List[Move]:
        """The side to move's pseudo-legal moves (the course lets a King walk into check)."""
        return self.rules.moves(self.board, self.side)

    def finish(self, result: str, reason: str) -> None:
        self.result, self.reason = result, reason

    def win_for(self, side: int, reason: str) -> None:
        self.finish(COLOUR_OF_SIDE[side].lower(), reason)

    def adjudicate(self) -> bool:
        """Apply the end checks that come before a ply; True when the game is over."""
        if self.over:
            return True
        moves = self.legal_moves()
        if not moves:
            self.finish("draw", NO_MOVES_DRAW)
        elif not any(self.rules.is_safe(self.board, m) for m in moves):
            reason = CHECKMATE if self.rules.in_check(self.board, self.side) else OUT_OF_VALID_MOVES
            self.win_for(-self.side, reason)
        elif self.quiet_plies >= self.fifty_limit:
            self.finish("draw", FIFTY_MOVE_DRAW)
        elif self.plies >= self.max_plies:
            self.finish("draw", MAX_PLIES)
        return self.over

    def play(self, move: Move) -> None:
        """Play a move the caller has checked is in legal_moves(); capturing a King ends the game."""
        s, t = move
        captured = self.board[t]
        v = self.rules.variant
        source, target = v.square_of(s), v.square_of(t)
        self.gameboard.pop(target, None)
        self.gameboard[target] = self.gameboard.pop(source)
        self.board = self.rules.make(self.board, move)
        self.moves_played.append(move)
        self.plies += 1
        self.quiet_plies = 0 if captured else self.quiet_plies + 1
        mover = self.side
        self.side = -self.side
        if captured and abs(captured) == self.rules.king:
            self.win_for(mover, KING_CAPTURE)

    def move_names(self) -> List[str]:
        return [move_name(self.rules, m) for m in self.moves_played]
